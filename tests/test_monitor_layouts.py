"""Monitors the X screen cannot capture (RandR lists one at negative coordinates) and a game spanning
two monitors: the pure geometry with given monitor lists, then real Xvfb screens laid out by xrandr."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from flowbot.capture.desktop import bounding, capturable, off_screen, spanning, touched
from flowbot.capture.screen import MssScreen
from flowbot.capture.space import Monitor, Region

ROOT = Path(__file__).resolve().parents[1]
SCREEN = Region(0, 0, 1600, 600)


def test_a_monitor_wholly_off_the_screen_is_dropped_and_one_partly_off_is_cut():
    listed = [(1, Region(-800, 0, 800, 600)), (2, Region(-400, 0, 1200, 600)), (3, Region(800, 0, 800, 600))]
    assert capturable(SCREEN, listed) == [(2, Region(0, 0, 800, 600)), (3, Region(800, 0, 800, 600))]
    assert off_screen(SCREEN, listed) == [Region(-800, 0, 800, 600), Region(-400, 0, 1200, 600)]


def test_no_monitor_on_the_screen_leaves_the_screen_itself():
    assert capturable(SCREEN, [(1, Region(-800, -600, 800, 600))]) == [(0, SCREEN)]


def test_the_screen_listed_again_as_a_monitor_is_dropped_as_before():
    listed = [(1, Region(0, 0, 800, 600)), (2, Region(800, 0, 800, 600)), (3, SCREEN)]
    assert [number for number, _ in capturable(SCREEN, listed)] == [1, 2]


LEFT, RIGHT = Monitor(1, Region(0, 0, 1280, 1024)), Monitor(2, Region(1280, 0, 1280, 1024))


@pytest.mark.parametrize(
    ("area", "expected"),
    [
        (Region(100, 40, 540, 960), LEFT),  # on one monitor: that monitor
        (Region(1000, 30, 540, 960), Monitor(1, Region(0, 0, 2560, 1024))),  # 280 px left, 260 right
        (Region(1100, 30, 540, 960), Monitor(2, Region(0, 0, 2560, 1024))),  # most on the right
        (Region(3000, 0, 10, 10), None),  # on none
    ],
    ids=["one", "both-mostly-left", "both-mostly-right", "none"],
)
def test_an_area_is_seen_through_the_union_of_the_monitors_it_touches(area, expected):
    assert spanning([LEFT, RIGHT], area) == expected


def test_monitors_of_different_scales_are_not_joined():
    retina = Monitor(2, Region(640, 0, 640, 512), capture_scale=2.0)  # 1280,0 on, in screen pixels
    assert touched([LEFT, retina], Region(1000, 30, 540, 960)) == [LEFT, retina]
    assert spanning([LEFT, retina], Region(1000, 30, 540, 960)) is None


def test_bounding_holds_monitors_of_different_heights():
    assert bounding([Region(0, 100, 1280, 924), Region(1280, 0, 1920, 1080)]) == Region(0, 0, 3200, 1080)


class _RootOnly:
    """mss as X11 gives it: the root window first, then RandR's monitors; a capture off the root fails
    as X's does (BadMatch), as it did when a monitor was listed at negative coordinates."""

    def __init__(self, monitors: list[dict]) -> None:
        self.monitors = monitors
        self.grabs: list[dict] = []

    def grab(self, box: dict) -> np.ndarray:
        """A black BGRA capture, or mss's error for a box not wholly on the root window."""
        import mss

        root = self.monitors[0]
        if not Region(root["left"], root["top"], root["width"], root["height"]).covers(
            Region(box["left"], box["top"], box["width"], box["height"])
        ):
            raise mss.ScreenShotError("X11 Protocol Error\nX Error of failed request:  8\n  Major opcode 130")
        self.grabs.append(box)
        return np.zeros((box["height"], box["width"], 4), np.uint8)

    def close(self) -> None:
        """Nothing to release."""


def _box(left: int, top: int, width: int, height: int, **extra) -> dict:
    """One monitor as mss lists it."""
    return {"left": left, "top": top, "width": width, "height": height, **extra}


def test_a_monitor_listed_left_of_the_x_root_is_not_captured():
    off = _box(-800, 0, 800, 600, is_primary=True)
    layout = _RootOnly([_box(0, 0, 1600, 600), off, _box(0, 0, 800, 600)])
    screen = MssScreen(backend=layout)
    assert [monitor.box for monitor in screen.monitors] == [Region(0, 0, 800, 600)]
    assert screen.grab().pixels.shape == (600, 800, 3)


def test_a_region_across_two_monitors_is_captured_whole():
    from flowbot.capture.monitors import look_at_the_game

    layout = _RootOnly([_box(0, 0, 2560, 1024), _box(0, 0, 1280, 1024), _box(1280, 0, 1280, 1024)])
    screen = MssScreen(backend=layout)
    chosen = look_at_the_game(screen, Region(1000, 30, 540, 960))
    assert chosen.box == screen.bounds == Region(0, 0, 2560, 1024)


# --- real X screens laid out by xrandr ----------------------------------------------------------------

live = pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("xrandr") is None, reason="needs Xvfb, xrandr"
)


def _set_monitor(name: str, geometry: str) -> None:
    """Describe one monitor of the virtual screen (xrandr takes any position, even off the screen)."""
    subprocess.run(["xrandr", "--setmonitor", name, geometry, "none"], check=True, capture_output=True)


def _flowbot(*args: str) -> subprocess.CompletedProcess:
    """Run flowbot from this checkout on the display set now."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "flowbot", *args], capture_output=True, text=True, env=env, timeout=120
    )


@live
def test_a_monitor_at_negative_coordinates_on_a_real_x_screen():
    """RandR on Xvfb lists a monitor at -800,0 (off the root window): every live command exited 6, an
    X protocol error capturing it; now it is left out and the monitors on the screen are used."""
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(1600, 600):
        _set_monitor("OFF", "800/200x600/150+-800+0")
        _set_monitor("ON", "800/200x600/150+800+0")
        listed = subprocess.run(["xrandr", "--listmonitors"], capture_output=True, text=True).stdout
        assert "+-800+0" in listed, listed
        screen = MssScreen()
        try:
            assert all(monitor.box.left >= 0 for monitor in screen.monitors)
            assert Region(800, 0, 800, 600) in [monitor.box for monitor in screen.monitors]
        finally:
            screen.close()
        shown = _flowbot("screens", "--no-probe")
    assert shown.returncode == 0, shown.stderr
    assert "-800" not in shown.stdout


def _start_game(position: tuple[int, int], results: Path) -> subprocess.Popen:
    """The bundled game's demo pack with its window's top-left at `position`; returns once drawn."""
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = f"{position[0]},{position[1]}"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--pack", "demo", "--size", "540x960",
         "--results", str(results)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    assert game.stdout.readline().strip() == "game ready", game.stderr.read()
    time.sleep(0.3)
    return game


@live
def test_a_game_spanning_two_real_monitors_is_read_and_played_whole(tmp_path):
    """The game's window straddles the edge between two monitors (280 px on the left one, 260 on the
    right): it was read from one half ('colour ... has 1 endpoint', exit 4); now from both."""
    import json

    from flowbot.display import VirtualDisplay, end_process

    with VirtualDisplay(2560, 1024):
        _set_monitor("LEFT", "1280/338x1024/270+0+0")
        _set_monitor("RIGHT", "1280/338x1024/270+1280+0")
        game = _start_game((1000, 30), tmp_path / "results.jsonl")
        try:
            done = _flowbot("auto-clear", "--count", "1", "--json")
        finally:
            end_process(game)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert records and records[0]["solved"] is True
