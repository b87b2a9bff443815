"""Stroke planning, replay with a recording pointer, the pointer fence, and finding the next button."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from flowbot.act.plan import PointerSettings, draw_strokes, plan_strokes
from flowbot.act.pointer import RecordingPointer, click
from flowbot.capture.buttons import find_buttons, find_next_button
from flowbot.capture.screen import Frame, ImageScreen, Region
from flowbot.model import Geometry, Puzzle
from flowbot.modes.auto_clear import board_full
from flowbot.solve.sat import solve
from tests.conftest import SHARED

PUZZLE = Puzzle.from_rows([".....", ".DC.A", "A.D..", "EB.B.", ".EC.."])
GEOMETRY = Geometry(tuple(100 + 40 * i for i in range(6)), tuple(300 + 40 * i for i in range(6)))


def solution():
    """The one solution of PUZZLE."""
    return solve(PUZZLE).solution


def test_each_flow_is_one_stroke_from_endpoint_to_endpoint():
    strokes = plan_strokes(solution(), GEOMETRY, PointerSettings(settle=False))
    assert len(strokes) == len(PUZZLE.colors)
    for stroke, path in zip(strokes, solution().paths, strict=True):
        assert stroke.points[0] == GEOMETRY.center(path[0])
        assert stroke.points[-1] == GEOMETRY.center(path[-1])
        steps = [math.dist(a, b) for a, b in zip(stroke.points, stroke.points[1:], strict=False)]
        assert max(steps) <= 20.0 + 1e-9  # two moves per 40 px cell: never a jump of a whole cell


def test_corners_only_moves_at_turns():
    path_strokes = plan_strokes(solution(), GEOMETRY, PointerSettings(corners_only=True, settle=False))
    for stroke in path_strokes:
        cells = stroke.cells
        turns = sum(
            1
            for i in range(1, len(cells) - 1)
            if (cells[i][0] - cells[i - 1][0], cells[i][1] - cells[i - 1][1])
            != (cells[i + 1][0] - cells[i][0], cells[i + 1][1] - cells[i][1])
        )
        assert len(stroke.points) == turns + 2


def test_settle_nudges_inside_the_last_cell():
    stroke = plan_strokes(solution(), GEOMETRY, PointerSettings())[0]
    end = GEOMETRY.center(stroke.cells[-1])
    assert stroke.points[-1] == end and stroke.points[-2] != end
    assert GEOMETRY.cell_at(*stroke.points[-2]) == stroke.cells[-1]


def test_replay_presses_moves_and_releases_per_flow():
    pointer = RecordingPointer()
    strokes = plan_strokes(solution(), GEOMETRY, PointerSettings())
    pauses: list[float] = []
    drawn = draw_strokes(pointer, strokes, PointerSettings(), sleep=pauses.append)
    assert drawn == len(strokes)
    kinds = [kind for kind, _, _ in pointer.events]
    assert kinds.count("down") == kinds.count("up") == len(strokes)
    first_up = kinds.index("up")
    assert kinds[0] == "move" and kinds[1] == "down" and set(kinds[2:first_up]) == {"move"}
    assert pauses and min(pauses) >= 0


def test_replay_stops_between_strokes_and_never_leaves_the_button_down():
    pointer = RecordingPointer()
    strokes = plan_strokes(solution(), GEOMETRY, PointerSettings())
    calls = iter([False, False, True])
    assert draw_strokes(pointer, strokes, PointerSettings(), lambda: next(calls), sleep=lambda s: None) == 2

    class Exploding(RecordingPointer):
        def move(self, x, y):
            if len(self.events) > 5:
                raise KeyboardInterrupt
            super().move(x, y)

    exploding = Exploding()
    with pytest.raises(KeyboardInterrupt):
        draw_strokes(exploding, strokes, PointerSettings(), sleep=lambda s: None)
    assert exploding.events[-1][0] == "up"


def test_click_presses_where_asked():
    pointer = RecordingPointer()
    click(pointer, 10, 20, hold=0)
    assert pointer.events == [("move", 10, 20), ("down", 10, 20), ("up", 10, 20)]


def dialog_frame(width=540, height=960) -> np.ndarray:
    """A completed board with a dialog holding three stacked white-outlined buttons."""
    frame = np.zeros((height, width, 3), dtype=np.uint8)
    cv2.rectangle(frame, (40, 200), (500, 760), (25, 25, 25), -1)
    cv2.rectangle(frame, (40, 200), (500, 760), (255, 255, 255), 3)
    for top in (400, 520, 640):
        cv2.rectangle(frame, (90, top), (450, top + 80), (255, 255, 255), 3)
    cv2.putText(frame, "+2", (20, 900), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2)
    return frame


def test_the_topmost_wide_outlined_box_is_next_level():
    buttons = find_buttons(dialog_frame())
    assert [button.top for button in buttons] == pytest.approx([399, 519, 639], abs=2)
    assert find_next_button(dialog_frame()).center == pytest.approx((270, 440), abs=3)
    assert find_next_button(np.zeros((960, 540, 3), dtype=np.uint8)) is None


def test_next_level_on_a_real_dialog(tmp_path):
    shot = SHARED / "screenshots" / "JoSSte__pyFlowfreeSolver__s7_screen_done.png"
    if not shot.exists():
        pytest.skip("../shared/screenshots is not present")
    button = find_next_button(cv2.imread(str(shot)))
    assert button is not None
    assert button.center == pytest.approx((720, 1198), abs=10)  # the "next level" box of the real game


def test_board_full_and_image_screen_regions():
    frame = np.zeros((200, 200, 3), dtype=np.uint8)
    geometry = Geometry((0.0, 100.0, 200.0), (0.0, 100.0, 200.0))
    assert not board_full(Frame(frame), geometry)
    frame[:, :] = (0, 0, 200)
    assert board_full(Frame(frame), geometry)
    frame[150, 150] = 0
    frame[149:152, 149:152] = 0
    assert not board_full(Frame(frame), geometry)
    assert board_full(Frame(frame), geometry, walls=frozenset({(1, 1)}))
    screen = ImageScreen([frame])
    part = screen.grab(Region(50, 60, 20, 10))
    assert part.pixels.shape == (10, 20, 3) and (part.left, part.top) == (50, 60)
    assert screen.grab().pixels.shape == (200, 200, 3)  # the last image again


def test_next_level_near_a_small_board_on_a_wide_screen():
    wide = np.zeros((1080, 1920, 3), dtype=np.uint8)
    wide[100:1060, 700:1240] = dialog_frame()  # a phone-sized game window on a desktop screen
    assert find_next_button(wide) is None  # relative to the whole screen the buttons are too small
    board = Geometry(tuple(720 + 100 * i for i in range(6)), tuple(250 + 100 * i for i in range(6)))
    assert find_next_button(wide, board).center == pytest.approx((970, 540), abs=3)


def test_no_display_is_a_display_error(monkeypatch):
    from flowbot.capture.screen import MssScreen
    from flowbot.display import DisplayError

    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(DisplayError, match="cannot open the screen"):
        MssScreen()
