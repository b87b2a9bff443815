"""One coordinate space: capture scales, the pointer's scale, the probe, several monitors (no display:
the capture library and the mouse are stand-ins from tests/desktops.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from flowbot.capture.space import (
    Monitor,
    Region,
    Space,
    capture_scale,
    check_probe,
    distinct_monitors,
    pointer_scale,
)
from flowbot.errors import ScaleError
from flowbot.generate.levels import make_level
from tests.desktops import CanvasMss, ScaledMss
from tests.images import draw_board
from tests.test_act import FakeGui


def test_a_monitor_converts_both_ways_at_integer_and_fractional_scales():
    rng = random.Random(4)
    for scale in (1.0, 1.25, 1.5, 2.0, 3.0):
        monitor = Monitor(1, Region(-1280, -300, 1280, 1024), scale)
        assert monitor.bounds == Region(
            round(-1280 * scale), round(-300 * scale), round(1280 * scale), round(1024 * scale)
        )
        for _ in range(50):
            region = Region(
                rng.randrange(-2000, 2000),
                rng.randrange(-900, 900),
                rng.randrange(1, 400),
                rng.randrange(1, 400),
            )
            box, (dx, dy) = monitor.to_capture(region)
            # The box holds the region, and the offset puts the region's first pixel where it belongs.
            assert box.left * scale <= region.left and box.top * scale <= region.top
            assert (box.left + box.width) * scale >= region.left + region.width
            assert (box.top + box.height) * scale >= region.top + region.height
            assert (dx, dy) == (round(region.left - box.left * scale), round(region.top - box.top * scale))


def test_the_space_maps_screen_pixels_to_the_pointer_and_back_with_negative_coordinates():
    space = Space(2.0)
    assert space.to_pointer(-2560, -200) == (-1280, -100)
    assert space.from_pointer(-1280, -100) == (-2560, -200)
    for x, y in ((0, 0), (-1999, 37), (3001, -4)):
        back = space.from_pointer(*space.to_pointer(x, y))
        assert abs(back[0] - x) <= 1 and abs(back[1] - y) <= 1
    assert Space(1.5).to_pointer(1500, 60) == (1000, 40)


def test_capture_scale_is_measured_and_a_stretched_capture_is_refused():
    assert capture_scale(Region(0, 0, 200, 200), (400, 400, 3)) == 2.0
    assert capture_scale(Region(5, 5, 200, 150), (225, 300, 3)) == 1.5
    assert capture_scale(Region(0, 0, 199, 200), (200, 199, 3)) == 1.0  # odd sizes round
    with pytest.raises(ScaleError, match=r"scaled 2 across but 1\.5 down") as caught:
        capture_scale(Region(0, 0, 200, 200), (300, 400, 3))
    assert caught.value.exit_code == 12 and "before pressing" in str(caught.value)


def test_pointer_scale_matches_the_primary_or_the_whole_desktop():
    left = Monitor(1, Region(-1280, 0, 1280, 1024))
    primary = Monitor(2, Region(0, 0, 1920, 1080))
    desktop = Region(-1280, 0, 3200, 1080)
    assert pointer_scale([left, primary], desktop, (1920, 1080)) == 1.0  # Windows, macOS: the primary
    assert pointer_scale([left, primary], desktop, (3200, 1080)) == 1.0  # X11: the whole desktop
    assert pointer_scale([primary], Region(0, 0, 1920, 1080), (1280, 720)) == 1.5  # DPI-aware capture only
    with pytest.raises(ScaleError, match="no one factor"):
        pointer_scale([left, primary], desktop, (1600, 1024))


def test_the_probe_accepts_rounding_and_refuses_a_pointer_that_landed_elsewhere():
    check_probe((640, 512), (641, 512))
    with pytest.raises(ScaleError, match="reports"):
        check_probe((1920, 512), (1279, 512))  # clamped at the edge of what the mouse knows


def test_the_whole_desktop_listed_again_as_a_monitor_is_dropped():
    left, right = Region(0, 0, 1280, 1024), Region(1280, 0, 1280, 1024)
    assert distinct_monitors([left, right, Region(0, 0, 2560, 1024)]) == [left, right]
    assert distinct_monitors([left, left]) == [left]
    assert distinct_monitors([Region(0, 0, 2560, 1024)]) == [Region(0, 0, 2560, 1024)]


# --- the adapters, on desktops made up here ---------------------------------------------------------------


def _board_picture() -> tuple[np.ndarray, object]:
    """A 6x6 level as the game draws it, and its puzzle."""
    level = make_level(6, 6, 5, random.Random(11))
    return draw_board(level.puzzle, cell=40, margin=(30, 60)), level.puzzle


def _desktop(board_at: tuple[int, int]) -> np.ndarray:
    """A 2560x1024 two-monitor desktop with the board drawn at `board_at` (desktop pixels)."""
    canvas = np.full((1024, 2560, 3), 30, dtype=np.uint8)
    picture, _ = _board_picture()
    x, y = board_at
    canvas[y : y + picture.shape[0], x : x + picture.shape[1]] = picture
    return canvas


@pytest.mark.parametrize(
    ("layout", "capture"), [(1.0, 2.0), (1.5, 1.0), (1.0, 1.0)], ids=["retina", "win150", "plain"]
)
def test_a_scaled_screen_captures_in_its_own_pixels_and_the_pointer_lands_in_pointer_units(layout, capture):
    from flowbot.act.pointer import open_pointer
    from flowbot.capture.read import read_puzzle
    from flowbot.capture.screen import MssScreen

    canvas = _desktop((1500, 40))
    backend = ScaledMss(CanvasMss(canvas, [(0, 0, 1280, 1024), (1280, 0, 1280, 1024)]), layout, capture)
    screen = MssScreen(backend=backend)
    total = layout * capture
    assert [m.capture_scale for m in screen.monitors] == [capture, capture]
    assert screen.bounds == Region(0, 0, round(1280 * total), round(1024 * total))
    frame = screen.grab(
        Region(round(1500 * total), round(40 * total), round(400 * total), round(400 * total))
    )
    assert frame.pixels.shape[:2] == (round(400 * total), round(400 * total))
    reading = read_puzzle(
        screen.grab(Region(round(1280 * total), 0, round(1280 * total), round(1024 * total))).pixels
    )
    assert reading.puzzle == _board_picture()[1]

    gui = FakeGui()
    gui.size = lambda: (2560, 1024)  # X11: pyautogui's screen is the whole desktop, in its own units
    gui.position = lambda: gui.at
    gui.at = (300, 300)

    def move(x, y):
        gui.at = (x, y)
        gui.calls.append(("move", x, y))

    gui.moveTo = move
    pointer = open_pointer(screen, screen.everything, gui=gui)
    assert pointer.space.scale == total
    assert gui.at == (300, 300)  # the probe put the pointer back
    pointer.move(1700 * total, 100 * total)  # a screen pixel on the right-hand monitor
    assert gui.at == (1700, 100)
    assert "down" not in gui.calls


def test_a_capture_stretched_one_way_is_refused_when_the_screen_opens():
    from flowbot.capture.screen import MssScreen

    backend = ScaledMss(CanvasMss(_desktop((100, 40)), [(0, 0, 1280, 1024)]), capture=2.0, down=1.5)
    with pytest.raises(ScaleError, match="across but"):
        MssScreen(backend=backend)


def test_a_pointer_that_cannot_reach_the_monitor_is_refused_before_any_press():
    from flowbot.act.pointer import open_pointer
    from flowbot.capture.monitors import look_at_the_game
    from flowbot.capture.screen import MssScreen

    backend = CanvasMss(_desktop((1500, 40)), [(0, 0, 1280, 1024), (1280, 0, 1280, 1024)])
    screen = MssScreen(backend=backend)
    look_at_the_game(screen, None)
    gui = FakeGui()
    gui.size = lambda: (2560, 1024)
    gui.at = (300, 300)
    gui.position = lambda: gui.at
    gui.moveTo = lambda x, y: setattr(gui, "at", (min(x, 1279), y))  # a mouse that knows one monitor only
    with pytest.raises(ScaleError, match="cannot reach the game's monitor"):
        open_pointer(screen, screen.bounds, gui=gui)
    assert gui.at == (300, 300) and not gui.button_down


def test_a_mouse_whose_screen_matches_no_monitor_is_refused():
    from flowbot.act.pointer import open_pointer
    from flowbot.capture.screen import MssScreen

    screen = MssScreen(backend=CanvasMss(_desktop((100, 40)), [(0, 0, 1280, 1024), (1280, 0, 1280, 1024)]))
    gui = FakeGui()
    gui.size = lambda: (1500, 1024)
    with pytest.raises(ScaleError, match="no one factor"):
        open_pointer(screen, screen.bounds, gui=gui)
    assert gui.calls == []


@pytest.mark.parametrize(
    ("boxes", "origin", "board_at"),
    [
        ([(0, 0, 1280, 1024), (1280, 0, 1280, 1024)], (0, 0), (1500, 40)),  # right of the primary
        ([(-1280, 0, 1280, 1024), (0, 0, 1280, 1024)], (-1280, 0), (100, 40)),  # left: negative x
        ([(0, -1024, 1280, 1024), (0, 0, 1280, 1024)], (0, -1024), (300, 60)),  # above: negative y
    ],
    ids=["right", "left", "above"],
)
def test_the_board_is_found_on_whichever_monitor_shows_it(boxes, origin, board_at):
    from flowbot.capture.monitors import look_at_the_game
    from flowbot.capture.read import read_puzzle
    from flowbot.capture.screen import MssScreen

    picture, puzzle = _board_picture()
    width = max(left + w for left, _, w, _ in boxes) - origin[0]
    height = max(top + h for _, top, _, h in boxes) - origin[1]
    canvas = np.full((height, width, 3), 30, dtype=np.uint8)
    x, y = board_at
    canvas[y : y + picture.shape[0], x : x + picture.shape[1]] = picture
    screen = MssScreen(backend=CanvasMss(canvas, boxes, origin))
    assert screen.monitor.box == Region(0, 0, 1280, 1024)  # the primary first
    chosen = look_at_the_game(screen, None)
    expected = next(
        box
        for box in boxes
        if box[0] <= x + origin[0] < box[0] + box[2] and box[1] <= y + origin[1] < box[1] + box[3]
    )
    assert chosen.box == Region(*expected) and screen.bounds == Region(*expected)
    assert read_puzzle(screen.grab().pixels).puzzle == puzzle
    # A window given (--region, a profile) picks its monitor without looking.
    region = Region(origin[0] + 10, origin[1] + 10, 200, 200)
    assert look_at_the_game(screen, region).box.contains(region.left, region.top)


def test_with_no_board_anywhere_the_primary_monitor_stays():
    from flowbot.capture.monitors import look_at_the_game
    from flowbot.capture.screen import MssScreen

    canvas = np.full((1024, 2560, 3), 30, dtype=np.uint8)
    screen = MssScreen(backend=CanvasMss(canvas, [(1280, 0, 1280, 1024), (0, 0, 1280, 1024)]))
    assert look_at_the_game(screen, None).box == Region(0, 0, 1280, 1024)


def test_monitors_of_different_scales_each_get_their_own_factor():
    from flowbot.act.pointer import open_pointer
    from flowbot.capture.monitors import look_at_the_game
    from flowbot.capture.read import read_puzzle
    from flowbot.capture.screen import MssScreen
    from tests.desktops import MixedMss

    # A 1440x900-point Retina laptop (primary, 2x) and a 1920x1080 monitor right of it (1x), in points.
    boxes = [(0, 0, 1440, 900), (1440, 0, 1920, 1080)]
    picture, puzzle = _board_picture()
    canvas = np.full((1080, 3360, 3), 30, dtype=np.uint8)
    canvas[100 : 100 + picture.shape[0], 2000 : 2000 + picture.shape[1]] = picture
    screen = MssScreen(backend=MixedMss(canvas, boxes, [2.0, 1.0]))
    assert [m.capture_scale for m in screen.monitors] == [2.0, 1.0]
    assert screen.everything == screen.bounds == Region(0, 0, 2880, 1800)  # no one space spans both
    assert look_at_the_game(screen, None).box == Region(*boxes[1])
    assert read_puzzle(screen.grab().pixels).puzzle == puzzle
    gui = FakeGui()
    gui.size = lambda: (1440, 900)  # macOS: the main display, in points
    gui.at = (300, 300)
    gui.position = lambda: gui.at
    gui.moveTo = lambda x, y: setattr(gui, "at", (x, y))
    assert open_pointer(screen, screen.bounds, gui=gui).space.scale == 1.0
    screen.use(screen.monitors[0])
    assert open_pointer(screen, screen.bounds, gui=gui).space.scale == 2.0


# --- through the command line: one line and status 12, before any press -------------------------------------


def test_auto_clear_on_a_mismatched_desktop_exits_12_before_pressing(monkeypatch, capsys):
    import sys
    import types

    from flowbot.cli import main

    canvas = _desktop((1500, 40))
    monkeypatch.setattr("mss.MSS", lambda: CanvasMss(canvas, [(0, 0, 1280, 1024), (1280, 0, 1280, 1024)]))
    gui = FakeGui()
    fake = types.ModuleType("pyautogui")
    for name in ("FailSafeException", "failSafeCheck", "moveTo", "mouseDown", "mouseUp"):
        setattr(fake, name, getattr(gui, name))
    fake.size = lambda: (1600, 900)  # a mouse whose screen matches no monitor
    fake.position = lambda: (300, 300)
    monkeypatch.setitem(sys.modules, "pyautogui", fake)
    code = main(["auto-clear", "--count", "1"])
    err = capsys.readouterr().err
    assert code == 12, err
    assert err.count("\n") == 1 and "no one factor" in err and "stopped before pressing" in err
    assert gui.calls == []


def test_screens_on_a_capture_stretched_one_way_exits_12(monkeypatch, capsys):
    from flowbot.cli import main

    backend = ScaledMss(CanvasMss(_desktop((100, 40)), [(0, 0, 1280, 1024)]), capture=2.0, down=1.5)
    monkeypatch.setattr("mss.MSS", lambda: backend)
    assert main(["screens", "--no-probe"]) == 12
    assert "scaled 2 across but 1.5 down" in capsys.readouterr().err


def test_pointing_at_the_board_is_read_back_in_screen_pixels(monkeypatch):
    import sys
    import types

    from flowbot.act.pointer import mouse_position
    from flowbot.capture.screen import MssScreen

    backend = ScaledMss(CanvasMss(_desktop((100, 40)), [(0, 0, 1280, 1024)]), capture=2.0)
    screen = MssScreen(backend=backend)
    fake = types.ModuleType("pyautogui")
    fake.size = lambda: (1280, 1024)
    fake.position = lambda: (640, 300)  # points, as macOS gives them
    monkeypatch.setitem(sys.modules, "pyautogui", fake)
    assert mouse_position(screen) == (1280, 600)  # where calibrate --manual's corner is on the capture
