"""Stroke planning, replay with a recording pointer, the pointer fence, and finding the next button."""

from __future__ import annotations

import math
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from flowbot.act.plan import PointerSettings, draw_strokes, plan_strokes
from flowbot.act.pointer import RecordingPointer, click
from flowbot.capture.buttons import find_buttons, find_next_button
from flowbot.capture.screen import Frame, ImageScreen, Region
from flowbot.model import Geometry, Puzzle
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
    assert sorted(stroke.color for stroke in strokes) == list(range(len(PUZZLE.colors)))
    for stroke in strokes:
        path = solution().paths[stroke.color]
        assert stroke.cells in (path, path[::-1])  # drawn from either end
        assert stroke.points[0] == GEOMETRY.center(stroke.cells[0])
        assert stroke.points[-1] == GEOMETRY.center(stroke.cells[-1])
        steps = [math.dist(a, b) for a, b in zip(stroke.points, stroke.points[1:], strict=False)]
        assert max(steps) < 40.0  # two moves per 40 px cell: never a jump of a whole cell


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
        # the press, a lead-in inside the first cell, each turn, the far dot, and the nudge inside it
        # and back that every stroke ends with (a game that takes a cell one motion late)
        assert len(stroke.points) == turns + 5


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
    # Onto the first dot in two moves (a game that drops events may lose one), then the drag.
    assert kinds[:3] == ["move", "move", "down"] and set(kinds[3:first_up]) == {"move"}
    (_, x1, y1), (_, x2, y2) = pointer.events[:2]
    assert (x2, y2) == strokes[0].points[0] and GEOMETRY.cell_at(x1, y1) == strokes[0].cells[0]
    assert pauses and min(pauses) >= 0


def test_the_fast_rungs_go_onto_each_dot_in_one_move_and_rest_no_more_than_they_must():
    # The two-move approach is for games that drop events; a Time Trial played on a fast rung paid
    # its rest on every flow (9x9: 1.33 -> 1.41 s a level drawing).
    from flowbot.act.tuning import LADDER

    for rung in LADDER:
        pointer = RecordingPointer()
        pauses: list[float] = []
        strokes = plan_strokes(solution(), GEOMETRY, rung.settings)
        draw_strokes(pointer, strokes, rung.settings, sleep=pauses.append)
        kinds = [kind for kind, _, _ in pointer.events]
        approach = rung.settings.settle and rung.settings.flow_pause > 0
        onto_the_dot = ["move", "move", "down"] if approach else ["move", "down"]
        assert kinds[: len(onto_the_dot)] == onto_the_dot, rung.name
        moves = sum(len(stroke.points) for stroke in strokes)
        if rung.settings.per_frame:
            # A rest per point but the lead-in (it goes with the press), and one between two flows.
            rests = moves + len(strokes) - 1
        else:
            rests = moves + 3 * len(strokes) + (len(strokes) if approach else 0)
        assert len(pauses) == rests, rung.name


class Timeline(RecordingPointer):
    """A recording pointer on a clock that only the sleeps move: each event with when it was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0
        self.times: list[float] = []

    def sleep(self, seconds: float) -> None:
        """Time passes."""
        self.now += seconds

    def clock(self) -> float:
        """The time now."""
        return self.now

    def move(self, x, y):
        super().move(x, y)
        self.times.append(self.now)

    def down(self):
        super().down()
        self.times.append(self.now)

    def up(self):
        super().up()
        self.times.append(self.now)


def sampled(timeline: Timeline, period: float, phase: float) -> list[tuple[bool, float, float]]:
    """What a game that reads the pointer once a frame sees: the button and the pointer at each frame."""
    seen, held, x, y, index = [], False, 0.0, 0.0, 0
    events = list(zip(timeline.times, timeline.events, strict=True))
    t = phase
    while t <= timeline.now + period:
        while index < len(events) and events[index][0] <= t:
            kind, ex, ey = events[index][1]
            x, y = (ex, ey) if kind == "move" else (x, y)
            held = {"down": True, "up": False}.get(kind, held)
            index += 1
        seen.append((held, x, y))
        t += period
    return seen


@pytest.mark.parametrize("period", [1 / 60, 0.016, 0.019])
def test_the_per_frame_rung_draws_every_flow_for_a_game_sampling_at_any_phase(monkeypatch, period):
    # What any game that reads the pointer once a frame (and fills straight jumps) sees, whatever its
    # frames' phase against the bot's moves: every flow joined, no press off its dot.
    from flowbot.act import plan
    from flowbot.act.tuning import FRAME, LADDER
    from flowbot.game.board import GameBoard

    rung = next(rung for rung in LADDER if rung.settings.per_frame)
    assert rung.settings.jumps and rung.settings.move_delay == FRAME
    timeline = Timeline()
    monkeypatch.setattr(plan.time, "perf_counter", timeline.clock)
    strokes = plan_strokes(solution(), GEOMETRY, rung.settings)
    draw_strokes(timeline, strokes, rung.settings, sleep=timeline.sleep)
    for phase in np.arange(0, period, period / 17):
        board, held = GameBoard(PUZZLE, interpolate=True), False
        for pressed, x, y in sampled(timeline, period, phase):
            cell = GEOMETRY.cell_at(x, y)
            if pressed and not held:
                assert board.press(cell), (phase, cell)
            elif pressed:
                board.drag(cell)
            elif held:
                board.release()
            held = pressed
        assert board.complete, phase


def test_the_per_frame_rung_spends_a_frame_only_where_a_sampling_game_must_see_one(monkeypatch):
    # A frame for the press (the lead-in inside the first cell sent with it), one for each turn and the
    # last dot, one with the button up between two flows: a frame a flow less than the rung below it.
    from flowbot.act import plan
    from flowbot.act.tuning import FRAME, LADDER

    names = [rung.name for rung in LADDER]
    fast = next(index for index, rung in enumerate(LADDER) if rung.settings.per_frame)
    assert names[fast + 1] == "jumps, a frame each"
    spent = []
    for rung in LADDER[fast : fast + 2]:
        timeline = Timeline()
        monkeypatch.setattr(plan.time, "perf_counter", timeline.clock)
        strokes = plan_strokes(solution(), GEOMETRY, rung.settings)
        draw_strokes(timeline, strokes, rung.settings, sleep=timeline.sleep)
        spent.append(timeline.now)
        kinds = [kind for kind, _, _ in timeline.events]
        presses = [index for index, kind in enumerate(kinds) if kind == "down"]
        if rung.settings.per_frame:
            # The lead-in is sent with the press, with no time between them.
            assert all(kinds[i + 1] == "move" and timeline.times[i + 1] == timeline.times[i] for i in presses)
            turns_and_ends = sum(len(stroke.points) - 2 for stroke in strokes)
            assert timeline.now == pytest.approx(FRAME * (len(strokes) + turns_and_ends + len(strokes) - 1))
    assert spent[1] - spent[0] == pytest.approx(FRAME * (len(strokes) + 1))


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


def test_a_click_with_an_approach_comes_in_two_moves_and_rests_before_pressing():
    # A game that learns where the pointer is from motion events, and drops events queued behind
    # another, needs motion onto the control and a pause before the press.
    log: list = []

    class Logged(RecordingPointer):
        def move(self, x, y):
            super().move(x, y)
            log.append("move")

        def down(self):
            super().down()
            log.append("down")

    pointer = Logged()
    click(pointer, 10, 20, hold=0.15, approach=0.1, sleep=lambda s: log.append(s))
    assert log == ["move", 0.05, "move", 0.05, "down", 0.15]
    assert pointer.events[-1] == ("up", 10, 20) and pointer.events[0] == ("move", 8, 18)


def test_replay_rests_on_each_flows_first_dot_before_pressing():
    log: list = []

    class Logged(RecordingPointer):
        def down(self):
            super().down()
            log.append("down")

    strokes = plan_strokes(solution(), GEOMETRY, PointerSettings())
    draw_strokes(Logged(), strokes, PointerSettings(flow_pause=0.08), sleep=lambda s: log.append(s))
    presses = [index for index, item in enumerate(log) if item == "down"]
    assert len(presses) == len(strokes)
    assert all(log[index - 1] == 0.04 for index in presses)


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


def test_image_screen_regions():
    frame = np.zeros((200, 200, 3), dtype=np.uint8)
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


# --- safety: the button is released on every way out; the board is checked before each press ----------


class FakeGui:
    """Stands in for pyautogui: the calls PyAutoGuiPointer makes, with the fail-safe as pyautogui has it
    (every decorated call checks first), and the button's state as the display would see it."""

    class FailSafeException(Exception):
        pass

    def __init__(self) -> None:
        self.FAILSAFE = True
        self.position = (300, 300)
        self.button_down = False
        self.calls: list[str] = []

    def failSafeCheck(self):
        if self.FAILSAFE and self.position == (0, 0):
            raise self.FailSafeException("fail-safe")

    def moveTo(self, x, y):
        self.failSafeCheck()
        self.position = (x, y)
        self.calls.append("move")

    def mouseDown(self):
        self.failSafeCheck()
        self.button_down = True
        self.calls.append("down")

    def mouseUp(self):
        self.failSafeCheck()
        self.button_down = False
        self.calls.append("up")


def fake_pointer(gui: FakeGui | None = None):
    from flowbot.act.pointer import PyAutoGuiPointer

    return PyAutoGuiPointer(Region(0, 0, 1000, 1000), gui=gui or FakeGui())


def test_the_fail_safe_mid_stroke_releases_the_button_and_raises_one_error():
    from flowbot.act.pointer import FailSafeError

    gui = FakeGui()
    pointer = fake_pointer(gui)
    strokes = plan_strokes(solution(), GEOMETRY, PointerSettings())

    def throw_into_the_corner(seconds):
        if gui.calls.count("move") == 4:
            gui.position = (0, 0)  # the person throws the mouse into the corner

    with pytest.raises(FailSafeError) as caught:
        draw_strokes(pointer, strokes, PointerSettings(), sleep=throw_into_the_corner)
    assert not gui.button_down and gui.calls[-1] == "up"
    assert caught.value.exit_code == 10 and "fail-safe" in str(caught.value)
    assert caught.value.__context__ is None or not isinstance(caught.value.__context__, FailSafeError)
    assert gui.FAILSAFE  # switched off only for the release


def test_a_press_refused_by_the_fail_safe_is_not_followed_by_a_stray_release():
    from flowbot.act.pointer import FailSafeError

    gui = FakeGui()
    pointer = fake_pointer(gui)
    gui.position = (0, 0)
    with pytest.raises(FailSafeError):
        pointer.down()
    assert gui.calls == [] and not pointer.held


def test_any_exception_mid_stroke_releases_the_button():
    gui = FakeGui()
    pointer = fake_pointer(gui)
    strokes = plan_strokes(solution(), GEOMETRY, PointerSettings())

    def explode(seconds):
        if gui.calls.count("move") == 3:
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        draw_strokes(pointer, strokes, PointerSettings(), sleep=explode)
    assert not gui.button_down and not pointer.held


def test_a_stop_signal_releases_at_the_next_move_and_exits_128_plus_its_number():
    import os
    import signal

    from flowbot.act.pointer import Interrupted, stop_signals

    gui = FakeGui()
    pointer = fake_pointer(gui)
    strokes = plan_strokes(solution(), GEOMETRY, PointerSettings())
    asked: list[int] = []

    def terminate_mid_drag(seconds):
        if gui.calls.count("move") == 3 and not asked:
            os.kill(os.getpid(), signal.SIGTERM)  # as `kill` or a service manager would

    before = signal.getsignal(signal.SIGTERM)
    with stop_signals(asked.append) as watch, pytest.raises(Interrupted) as caught:
        draw_strokes(pointer, strokes, PointerSettings(), sleep=terminate_mid_drag)
    assert asked == [signal.SIGTERM] and watch.received == signal.SIGTERM
    assert caught.value.exit_code == 143 and "SIGTERM" in str(caught.value)
    assert not gui.button_down and gui.calls.count("down") == 1
    assert signal.getsignal(signal.SIGTERM) is before  # handlers put back
    pointer.move(10, 10)  # and no stop left pending after the run


@pytest.mark.parametrize("name, status", [("SIGINT", 130), ("SIGHUP", 129)])
def test_sigint_and_sighup_stop_cleanly_too(name, status):
    import os
    import signal

    from flowbot.act.pointer import Interrupted, stop_signals

    gui = FakeGui()
    pointer = fake_pointer(gui)
    with stop_signals() as watch:
        pointer.move(5, 5)
        pointer.down()
        os.kill(os.getpid(), getattr(signal, name))
        with pytest.raises(Interrupted) as caught:
            pointer.move(6, 6)
    assert watch.error().exit_code == status == caught.value.exit_code
    assert not gui.button_down


def test_release_all_lets_go_of_every_held_button_as_at_exit():
    from flowbot.act.pointer import release_all

    gui = FakeGui()
    pointer = fake_pointer(gui)
    pointer.down()
    gui.position = (0, 0)  # even from the fail-safe corner
    release_all()
    assert not gui.button_down and not pointer.held
    release_all()  # nothing held: nothing happens
    assert gui.calls.count("up") == 1


def board_frames(shift: int) -> tuple[np.ndarray, np.ndarray]:
    """PUZZLE drawn as dots on a dark screen, and the same screen with the board moved `shift` px right."""
    picture = np.zeros((600, 600, 3), dtype=np.uint8)
    palette = [(0, 0, 230), (0, 200, 0), (230, 0, 0), (0, 220, 220), (200, 0, 200)]
    for color, pair in enumerate(PUZZLE.endpoints):
        for cell in pair:
            x, y = (round(v) for v in GEOMETRY.center(cell))
            cv2.circle(picture, (x, y), 14, palette[color], -1)
    return picture, np.roll(picture, shift, axis=1)


def test_the_guard_stops_before_pressing_when_the_board_moved():
    from flowbot.act.guard import BoardGoneError, BoardGuard

    before, moved = board_frames(37)
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    screen = ImageScreen([before, before, before, moved])  # the first grab is the guard's reference
    guard = BoardGuard.arm(screen, Frame(before), GEOMETRY, dots, windows=None)
    pointer = RecordingPointer(guard=guard)
    strokes = plan_strokes(solution(), GEOMETRY, PointerSettings())
    with pytest.raises(BoardGoneError, match="no longer where it was") as caught:
        draw_strokes(pointer, strokes, PointerSettings(), sleep=lambda s: None)
    kinds = [kind for kind, _, _ in pointer.events]
    assert kinds.count("down") == kinds.count("up") == 2  # the third stroke was never pressed
    assert caught.value.exit_code == 11


def test_a_guard_given_the_identical_frame_twice_never_fires():
    from flowbot.act.guard import BoardGuard

    still, _ = board_frames(0)
    # The frame the board was read from differs from the screen now (read while the board was still
    # fading in, or grabbed at another scale): the screen itself does not change, so nothing is gone.
    faded = (still.astype(np.float32) * 0.5).astype(np.uint8)
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    guard = BoardGuard.arm(ImageScreen([still, still]), Frame(faded), GEOMETRY, dots, windows=None)
    guard.sleep = lambda s: pytest.fail("looked again at a still screen")
    for _ in range(5):
        guard.check()


def test_a_mark_the_game_puts_at_a_pressed_dots_centre_is_no_lost_board():
    from flowbot.act.guard import BoardGoneError, BoardGuard

    before, _ = board_frames(0)
    marked = before.copy()
    for cell in PUZZLE.endpoints[0]:  # the first flow's dots pressed: a small white mark on each
        x, y = (round(v) for v in GEOMETRY.center(cell))
        cv2.circle(marked, (x, y), 4, (255, 255, 255), -1)  # a tenth of a cell: a game's own cursor
    covered = before.copy()
    covered[:, :] = (90, 90, 90)  # something over the whole board
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    guard = BoardGuard.arm(ImageScreen([before, marked, covered]), Frame(before), GEOMETRY, dots, None)
    guard.sleep = lambda s: None
    guard.check()
    with pytest.raises(BoardGoneError, match="10 of 10 dots look different"):
        guard.check()


class FakeWindows:
    """Top-level windows by id, bottom to top; `game` holds the ids of the game's own windows."""

    def __init__(self, boxes: dict[int, Region], game: frozenset[int] = frozenset()) -> None:
        self.boxes = dict(boxes)
        self.game = game

    def same_game(self, a: int, b: int) -> bool:
        return {a, b} <= self.game

    def stack(self) -> list[int]:
        return list(self.boxes)

    def box(self, window_id: int) -> Region | None:
        return self.boxes.get(window_id)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda w: w.boxes.pop(2), "window is gone"),
        (lambda w: w.boxes.__setitem__(2, Region(50, 0, 600, 800)), "window moved"),
        (lambda w: w.boxes.__setitem__(3, Region(250, 400, 100, 100)), "covers part of the board"),
    ],
    ids=["closed", "moved", "covered"],
)
def test_the_guard_watches_the_games_window(change, message):
    from flowbot.act.guard import BoardGoneError, BoardGuard

    before, _ = board_frames(0)
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    windows = FakeWindows({1: Region(0, 0, 2000, 2000), 2: Region(0, 0, 600, 800), 4: Region(900, 0, 50, 50)})
    guard = BoardGuard.arm(ImageScreen([before]), Frame(before), GEOMETRY, dots, windows)
    assert guard.window is not None and guard.window.id == 2  # the topmost window under the board
    guard.check(120, 320)
    with pytest.raises(BoardGoneError, match="outside the game's window"):
        guard.check(700, 320)
    change(windows)
    with pytest.raises(BoardGoneError, match=message):
        guard.check(120, 320)


def test_the_guard_takes_a_window_of_another_size_for_the_games_answer_and_a_move_for_a_move():
    # A game fits its window to the next level (a pack of bigger boards) the moment a stroke wins: that
    # window changed size under the strokes is the game's answer, judged by the verdict; one that only
    # moved is still a moved window.
    from flowbot.act.guard import BoardAnsweredError, BoardGoneError, BoardGuard

    before, _ = board_frames(0)
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    windows = FakeWindows({2: Region(0, 0, 600, 800)})
    guard = BoardGuard.arm(ImageScreen([before]), Frame(before), GEOMETRY, dots, windows)
    windows.boxes[2] = Region(-40, -40, 680, 880)  # grown about its middle
    with pytest.raises(BoardAnsweredError, match="changed size"):
        guard.check_window()
    windows.boxes[2] = Region(50, 0, 600, 800)
    with pytest.raises(BoardGoneError, match="window moved") as moved:
        guard.check_window()
    assert not isinstance(moved.value, BoardAnsweredError)


def test_the_live_loop_stops_when_the_board_moves_mid_level(tmp_path):
    import random

    from flowbot.act.guard import BoardGoneError
    from flowbot.generate.levels import make_level
    from flowbot.modes.auto_clear import AutoClear
    from tests.simulated_game import SimulatedGame

    game = SimulatedGame([make_level(6, 6, 5, random.Random(3)).puzzle])
    game.guard = None  # a pointer that carries a guard: the loop arms it
    real_grab, real_up = game.grab, game.up

    def moved_grab(region=None):
        frame = real_grab(None)
        shifted = Frame(np.roll(frame.pixels, 45, axis=1))  # the window moved 45 px to the right
        return ImageScreen([shifted.pixels]).grab(region)

    def up_then_move():
        real_up()
        game.grab = moved_grab

    game.up = up_then_move
    fast = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
    loop = AutoClear(game, game, fast, None, 1, artifacts=tmp_path, clock=game.clock, verify_timeout=0.2)
    report = loop.run()
    assert isinstance(report.halt, BoardGoneError) and "no longer where it was" in report.stopped
    assert game.presses == 1 and not game.held


def test_a_region_off_the_screen_is_refused_with_the_screens_size():
    from flowbot.capture.screen import check_on_screen
    from flowbot.errors import UsageError

    screen = Region(0, 0, 800, 600)
    check_on_screen(Region(0, 0, 800, 600), screen)
    with pytest.raises(UsageError, match=r"region 700,0,300,300 .* partly off the screen, which is 800x600"):
        check_on_screen(Region(700, 0, 300, 300), screen)
    with pytest.raises(UsageError, match="wholly off the screen"):
        check_on_screen(Region(900, 700, 10, 10), screen)
    with pytest.raises(UsageError, match="partly off"):
        check_on_screen(Region(-5, 10, 100, 100), screen)


def test_x_clients_connect_without_an_xauthority_file_and_keep_stdout_clean(monkeypatch, tmp_path, capsys):
    import os

    from flowbot.display import quiet_x_client

    monkeypatch.setenv("XAUTHORITY", str(tmp_path / "missing"))
    with quiet_x_client():
        assert os.environ["XAUTHORITY"] == os.devnull  # read as empty: no cookie, no error
        print("Xlib.xauth: warning, no xauthority details available")
    assert os.environ["XAUTHORITY"] == str(tmp_path / "missing")
    monkeypatch.delenv("XAUTHORITY")
    monkeypatch.setenv("HOME", str(tmp_path))
    with quiet_x_client():
        assert os.environ["XAUTHORITY"] == os.devnull
    assert "XAUTHORITY" not in os.environ
    present = tmp_path / "cookie"
    present.write_bytes(b"")
    monkeypatch.setenv("XAUTHORITY", str(present))
    with quiet_x_client():
        assert os.environ["XAUTHORITY"] == str(present)  # a readable file is left alone
    assert capsys.readouterr().out == ""


def test_the_real_pointer_never_leaves_its_fence_and_never_presses_there():
    from flowbot.act.pointer import PointerError, PyAutoGuiPointer

    gui = FakeGui()
    pointer = PyAutoGuiPointer(Region(100, 100, 200, 200), gui=gui)
    pointer.move(150, 150)
    with pytest.raises(PointerError, match=r"refusing to move the pointer to \(50, 150\)"):
        pointer.move(50, 150)
    assert gui.position == (150, 150) and gui.calls == ["move"]


def test_a_window_closed_under_a_drag_releases_the_button_at_the_next_move():
    from flowbot.act.guard import BoardGoneError

    class WindowGone:
        def check(self, x=None, y=None):
            pass

        def check_window(self):
            raise BoardGoneError("the game's window is gone (closed or hidden); stopped before pressing")

    gui = FakeGui()
    pointer = fake_pointer(gui)
    pointer.guard = WindowGone()
    pointer.move(10, 10)  # not held: the window's look waits for the press
    pointer.down()
    with pytest.raises(BoardGoneError):
        pointer.move(20, 20)
    assert not gui.button_down and gui.calls == ["move", "down", "up"]


def test_the_guard_looks_again_before_calling_a_passing_change_a_lost_board():
    from flowbot.act.guard import BoardGuard

    before, moved = board_frames(37)
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    guard = BoardGuard.arm(ImageScreen([before, moved, before]), Frame(before), GEOMETRY, dots, windows=None)
    pauses: list[float] = []
    guard.sleep = pauses.append
    guard.check()  # one look caught the game mid-redraw; the next shows the board where it was
    assert len(pauses) == 1


def test_a_retry_refused_by_the_guard_over_the_games_win_dialog_counts_the_late_win(tmp_path):
    import random

    from flowbot.generate.levels import make_level
    from flowbot.modes.auto_clear import AutoClear, Evidence
    from tests.simulated_game import SimulatedGame

    game = SimulatedGame([make_level(5, 5, 4, random.Random(2)).puzzle] * 2)
    game.guard = None  # a pointer that carries a guard: the loop arms it
    fast = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
    loop = AutoClear(game, game, fast, None, 1, artifacts=tmp_path, clock=game.clock, verify_timeout=0.2)
    # The game shows its win too late for the first look: one cell seems not taken, then it is won.
    answers = iter([Evidence(None, ((0, 1),)), Evidence("dialog"), Evidence("dialog")])
    loop.verdict = lambda *args, **options: next(answers)
    report = loop.run()
    assert report.cleared == 1 and report.halt is None, report.summary()
    assert report.levels[0].retries == 1
    assert game.presses == 4  # the retry pressed nothing: the win dialog covered the board


def test_the_games_own_popup_window_over_the_board_is_part_of_the_game():
    from flowbot.act.guard import BoardGoneError, BoardGuard

    before, _ = board_frames(0)
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    windows = FakeWindows({1: Region(0, 0, 2000, 2000), 2: Region(0, 0, 600, 800)}, game=frozenset({2, 5}))
    guard = BoardGuard.arm(ImageScreen([before]), Frame(before), GEOMETRY, dots, windows)
    windows.boxes[5] = Region(100, 300, 300, 200)  # the game's "level complete" window, over the board
    guard.check_window()
    guard.check_point(200, 350)  # its button: a press on the game
    windows.boxes[6] = Region(150, 320, 100, 100)  # another program's window over both
    with pytest.raises(BoardGoneError, match="covers part of the board"):
        guard.check_window()
    with pytest.raises(BoardGoneError, match="another program's window"):
        guard.check_point(200, 350)


def test_a_press_on_the_bare_desktop_is_refused():
    from flowbot.act.guard import BoardGoneError, BoardGuard

    before, _ = board_frames(0)
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    windows = FakeWindows({2: Region(0, 0, 600, 800)}, game=frozenset({2}))
    guard = BoardGuard.arm(ImageScreen([before]), Frame(before), GEOMETRY, dots, windows)
    guard.check_point(300, 700)
    with pytest.raises(BoardGoneError, match="bare desktop"):
        guard.check_point(900, 700)


def test_with_no_game_window_known_a_press_on_the_bare_desktop_is_still_refused():
    from flowbot.act.guard import BoardGoneError, check_on_a_window

    windows = FakeWindows({2: Region(0, 0, 600, 800)})
    check_on_a_window(windows, 300, 700)
    check_on_a_window(None, 900, 700)  # nothing known about windows: nothing to refuse
    with pytest.raises(BoardGoneError, match="bare desktop"):
        check_on_a_window(windows, 900, 700)


def test_a_board_changed_in_place_in_an_unmoved_window_is_the_games_answer_not_a_moved_window():
    # The game replaced the board with its win screen or the next level in the same window: the guard
    # says so (the caller judges it), never "closed, moved or covered".
    from flowbot.act.guard import BoardAnsweredError, BoardGuard

    before, _ = board_frames(0)
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    windows = FakeWindows({1: Region(0, 0, 2000, 2000), 2: Region(0, 0, 600, 800)})
    shown = [before]
    screen = SimpleNamespace(grab=lambda region=None: ImageScreen([shown[0]]).grab(region))
    guard = BoardGuard.arm(screen, Frame(before), GEOMETRY, dots, windows)
    guard.sleep = lambda s: None
    guard.check(120, 320)
    shown[0] = np.zeros_like(before)  # the board gone from the window, which stayed put
    with pytest.raises(BoardAnsweredError, match="changed its board in place") as caught:
        guard.check(120, 320)
    assert "moved" not in str(caught.value).split(";")[0]


def test_the_next_level_put_in_place_mid_drawing_is_read_as_the_games_word(tmp_path):
    # A game that took the level early (its own rule) and put the next one in place while the bot was
    # still drawing: the guard's refusal of the next press is the game's answer, and the new level in
    # place is its word, not exit 11.
    import random

    from flowbot.generate.levels import make_level
    from flowbot.modes.auto_clear import AutoClear
    from tests.simulated_game import SimulatedGame

    levels = [make_level(6, 6, 5, random.Random(seed)).puzzle for seed in (3, 4)]
    game = SimulatedGame(levels)
    game.guard = None  # a pointer that carries a guard: the loop arms it
    real_up, releases = game.up, []

    def up_then_next():
        real_up()
        releases.append(1)
        if len(releases) == 2:
            game.session.next()  # in place, no dialog: the same window shows the next level

    game.up = up_then_next
    fast = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
    windows = FakeWindows({1: Region(0, 0, 540, 960)})
    loop = AutoClear(game, game, fast, None, 1, artifacts=tmp_path, clock=game.clock, verify_timeout=0.2,
                     windows=windows)  # fmt: skip
    report = loop.run()
    assert report.halt is None, report.stopped
    assert report.cleared == 1 and report.levels[0].won_by == "new level", report.summary()


def test_a_dot_marked_by_a_text_selection_is_no_answer_unless_pressed_or_most_dots_changed():
    # A drag over a page's text dots selects text: the end dot shows a blue square behind its glyph.
    # One dot of ten changed in an unmoved window is a mark, not a new level or a dialog: the strokes
    # go on, but never press that dot; most dots changed is the game's answer, as before.
    from flowbot.act.guard import BoardAnsweredError, BoardGuard

    before, _ = board_frames(0)
    dots = [cell for pair in PUZZLE.endpoints for cell in pair]
    marked = before.copy()
    x, y = (round(v) for v in GEOMETRY.center(dots[1]))
    half = round(GEOMETRY.cell_size * 0.4)
    marked[y - half : y + half, x - half : x + half] = (255, 120, 50)  # the selection's blue square
    cv2.circle(marked, (x, y), 6, (0, 0, 230), -1)  # the glyph, drawn small over it
    windows = FakeWindows({1: Region(0, 0, 2000, 2000), 2: Region(0, 0, 600, 800)})
    shown = [before]
    screen = SimpleNamespace(grab=lambda region=None: ImageScreen([shown[0]]).grab(region))
    guard = BoardGuard.arm(screen, Frame(before), GEOMETRY, dots, windows)
    guard.sleep = lambda s: None
    shown[0] = marked
    other = GEOMETRY.center(dots[2])
    guard.check(*other)  # the next stroke's dot: pressed
    guard.check()
    with pytest.raises(BoardAnsweredError, match="1 of 10 dots"):
        guard.check(x + 3, y - 2)  # the marked dot itself: never pressed
    shown[0] = np.roll(before, 37, axis=1)
    with pytest.raises(BoardAnsweredError, match="changed its board in place"):
        guard.check(*other)
