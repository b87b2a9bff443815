"""What differs between Linux, macOS and Windows, asked in one place (tests pretend to be each)."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Mapping

# Signals that stop a live run cleanly, where the system has them: Ctrl-C everywhere; SIGTERM,
# SIGHUP and SIGQUIT (Ctrl-\) on Linux and macOS; SIGBREAK (Ctrl-Break) on Windows only.
STOP_SIGNAL_NAMES = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGBREAK")


def signals_here(names: tuple[str, ...] = STOP_SIGNAL_NAMES) -> tuple[int, ...]:
    """The numbers of those of `names` that this system defines, in order."""
    return tuple(int(getattr(signal, name)) for name in names if hasattr(signal, name))


def needs_virtual_display(platform: str | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """True where flowbot must start Xvfb to show a window: Linux (and the BSDs) with no X display
    (mss and pyautogui speak X, so a Wayland session needs its XWayland DISPLAY). Windows and macOS
    always have their own desktop, and no Xvfb."""
    platform = platform if platform is not None else sys.platform
    environ = environ if environ is not None else os.environ
    if platform.startswith(("win", "cygwin", "darwin")):
        return False
    return not environ.get("DISPLAY")


def is_windows(platform: str | None = None) -> bool:
    """True on Windows."""
    return (platform if platform is not None else sys.platform) == "win32"
