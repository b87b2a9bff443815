"""A virtual screen for in-process live tests, with pyautogui pointed at it; and the lock that keeps
the test processes of one run (pytest-xdist's workers) from picking a display number at once."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Shared by every test process of the machine: a fixed name in the temp folder (never removed).
NUMBERS_LOCK = Path(tempfile.gettempdir()) / "flowbot-tests-display-numbers.lock"
_held = threading.RLock()
_depth = [0, None]  # how deep this process holds the lock, and the open lock file


@contextmanager
def virtual_screen(width: int, height: int) -> Iterator[object]:
    """Xvfb of this size (DISPLAY and XAUTHORITY set while it runs); pyautogui, if a test before
    imported it, is pointed at it: it connects once, on import, to whatever display was set then
    (a display that another module's test has stopped since)."""
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(width, height) as screen:
        follow_display()
        yield screen


def follow_display() -> None:
    """Point an imported pyautogui at the display DISPLAY names now."""
    from flowbot.display import quiet_x_client

    backend = sys.modules.get("pyautogui._pyautogui_x11")
    if backend is None:
        return
    from Xlib.display import Display

    with quiet_x_client():
        backend._display = Display(os.environ["DISPLAY"])


@contextmanager
def display_numbers_held() -> Iterator[None]:
    """While held, no other test process picks a display number (tests/conftest.py holds it around
    every VirtualDisplay.start): two processes that tried the same free number at once could each
    think the server theirs while one of them was about to exit. Re-entrant within a process."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): no X servers of the tests to keep apart either
        yield
        return
    with _held:
        if _depth[0] == 0:
            handle = open(NUMBERS_LOCK, "a")  # noqa: SIM115 (held across the yield)
            fcntl.flock(handle, fcntl.LOCK_EX)
            _depth[1] = handle
        _depth[0] += 1
        try:
            yield
        finally:
            _depth[0] -= 1
            if _depth[0] == 0:
                _depth[1].close()  # closing releases the lock
                _depth[1] = None
