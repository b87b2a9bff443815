"""A virtual screen for in-process live tests, with pyautogui pointed at it."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


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
