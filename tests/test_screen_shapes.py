"""Screens of every shape: no monitor listed (RandR says 0), one, several, negative origins."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from flowbot.capture.screen import MssScreen, Region

ROOT = Path(__file__).resolve().parents[1]


class _Layout:
    """mss as seen by MssScreen: a list of monitors (the first: all of them) and captures of any box."""

    def __init__(self, monitors: list[dict]) -> None:
        self.monitors = monitors

    def grab(self, box: dict) -> np.ndarray:
        """A black BGRA capture of the box's size."""
        return np.zeros((box["height"], box["width"], 4), np.uint8)

    def close(self) -> None:
        """Nothing to release."""


def _box(left: int, top: int, width: int, height: int, **extra) -> dict:
    """One monitor as mss lists it."""
    return {"left": left, "top": top, "width": width, "height": height, **extra}


@pytest.mark.parametrize(
    ("monitors", "bounds", "count"),
    [
        ([_box(0, 0, 640, 480)], Region(0, 0, 640, 480), 1),  # RandR lists none: the root window
        ([_box(0, 0, 800, 600), _box(0, 0, 800, 600)], Region(0, 0, 800, 600), 1),
        (
            [_box(0, 0, 3840, 1080), _box(0, 0, 1920, 1080), _box(1920, 0, 1920, 1080, is_primary=True)],
            Region(1920, 0, 1920, 1080),
            2,
        ),
        (
            [_box(-1280, -200, 3200, 1280), _box(-1280, -200, 1280, 1024), _box(0, 0, 1920, 1080)],
            Region(0, 0, 1920, 1080),
            2,
        ),
        ([_box(-1280, 0, 1280, 1024), _box(-1280, 0, 1280, 1024)], Region(-1280, 0, 1280, 1024), 1),
    ],
    ids=["no-monitor-listed", "one", "two-primary-marked", "negative-origin-left", "only-negative"],
)
def test_every_layout_gives_a_monitor_to_look_at(monitors, bounds, count):
    screen = MssScreen(backend=_Layout(monitors))
    assert screen.bounds == bounds
    assert len(screen.monitors) == count
    assert screen.grab().pixels.shape == (bounds.height, bounds.width, 3)


def test_no_monitor_listed_still_takes_monitor_1():
    screen = MssScreen(monitor=1, backend=_Layout([_box(0, 0, 640, 480)]))
    assert screen.bounds == Region(0, 0, 640, 480)


class _Resizable(_Layout):
    """A screen that can be resized: a capture off the root window fails as X's does (BadMatch)."""

    def grab(self, box: dict) -> np.ndarray:
        """A black capture, or mss's error for a box the screen no longer holds."""
        import mss

        root = self.monitors[0]
        if box["left"] + box["width"] > root["left"] + root["width"] or (
            box["top"] + box["height"] > root["top"] + root["height"]
        ):
            raise mss.ScreenShotError("X11 Protocol Error\nX Error of failed request:  8\n  Major opcode 130")
        return super().grab(box)


def test_a_screen_resized_while_looking_is_measured_again_and_shown_whole():
    layout = _Resizable([_box(0, 0, 800, 1060)])
    screen = MssScreen(backend=layout)
    assert screen.grab().pixels.shape == (1060, 800, 3)
    layout.monitors = [_box(0, 0, 700, 1010)]  # `xrandr --fb 700x1010`
    assert screen.grab().pixels.shape == (1010, 700, 3)
    assert screen.bounds == Region(0, 0, 700, 1010)
    assert screen.grab(Region(100, 40, 540, 960)).pixels.shape == (960, 540, 3)  # still on the screen


def test_a_region_the_shrunk_screen_no_longer_holds_stops_with_one_line_and_status_11():
    from flowbot.capture.screen import ScreenChangedError

    layout = _Resizable([_box(0, 0, 800, 1060)])
    screen = MssScreen(backend=layout)
    layout.monitors = [_box(0, 0, 500, 700)]
    with pytest.raises(ScreenChangedError, match=r"changed size to 500x700 .* region 100,40,540,960") as stop:
        screen.grab(Region(100, 40, 540, 960))
    assert stop.value.exit_code == 11 and "\n" not in str(stop.value)


def test_a_failed_capture_on_an_unchanged_screen_is_a_one_line_display_error():
    from flowbot.display import DisplayError

    layout = _Resizable([_box(0, 0, 800, 1060)])
    screen = MssScreen(backend=layout)
    layout.grab = lambda box: _Resizable.grab(_Resizable([_box(0, 0, 10, 10)]), box)  # fails, same layout
    with pytest.raises(DisplayError, match=r"X11 Protocol Error$"):
        screen.grab()


@pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("xrandr") is None, reason="needs Xvfb, xrandr"
)
def test_screens_on_an_x_screen_resized_to_list_no_monitor():
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(800, 600):
        # Shrinking the framebuffer below the output leaves RandR with no monitor (it refuses the
        # output's mode, but the screen is resized): what `xrandr --fb` resizing does on Xvfb.
        subprocess.run(["xrandr", "--fb", "640x480"], capture_output=True, check=False)
        listed = subprocess.run(["xrandr", "--listmonitors"], capture_output=True, text=True).stdout
        assert listed.startswith("Monitors: 0"), listed
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        shown = subprocess.run(
            [sys.executable, "-m", "flowbot", "screens"], capture_output=True, text=True, env=env, timeout=60
        )
    assert shown.returncode == 0, shown.stderr
    assert "monitor 1: 0,0,640,480" in shown.stdout
    assert "Traceback" not in shown.stderr
