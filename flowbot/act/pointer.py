"""What moves the mouse: pyautogui (imported only here) or a recorder, behind one protocol."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from flowbot.capture.screen import Region
from flowbot.errors import FlowbotError


class PointerError(FlowbotError):
    """The pointer was asked to leave the game window, or the mouse cannot be driven."""

    exit_code = 5


class Pointer(Protocol):
    """A mouse: move, press, release."""

    def move(self, x: float, y: float) -> None:
        """Put the pointer at screen pixel (x, y)."""
        ...

    def down(self) -> None:
        """Press the left button where the pointer is."""
        ...

    def up(self) -> None:
        """Release the left button where the pointer is."""
        ...


@dataclass
class RecordingPointer:
    """Records what it is asked to do instead of doing it: for tests and --dry-run."""

    events: list[tuple[str, float, float]] = field(default_factory=list)
    x: float = 0.0
    y: float = 0.0

    def move(self, x: float, y: float) -> None:
        """Note a move."""
        self.x, self.y = x, y
        self.events.append(("move", x, y))

    def down(self) -> None:
        """Note a press."""
        self.events.append(("down", self.x, self.y))

    def up(self) -> None:
        """Note a release."""
        self.events.append(("up", self.x, self.y))


class PyAutoGuiPointer:
    """The real mouse through pyautogui, kept inside the game window.

    pyautogui's module settings are set once, here: no pause after each call (flowbot paces moves
    itself), the fail-safe kept on (throw the mouse into a screen corner to stop), and moves made
    as single jumps, one per call, so the game sees every step.
    """

    def __init__(self, bounds: Region) -> None:
        try:
            import pyautogui  # imported here: it connects to the display on import
        except Exception as error:  # Xlib raises several kinds when no display is reachable
            raise PointerError(f"cannot drive the mouse: {error}") from error
        pyautogui.PAUSE = 0
        pyautogui.FAILSAFE = True
        pyautogui.MINIMUM_DURATION = 0
        self._gui = pyautogui
        self.bounds = bounds

    def move(self, x: float, y: float) -> None:
        """Jump the pointer to (x, y), refusing to leave the window."""
        if not self.bounds.contains(x, y):
            raise PointerError(f"refusing to move the pointer to ({x:.0f}, {y:.0f}), outside the game window")
        self._gui.moveTo(round(x), round(y))

    def down(self) -> None:
        """Press the left button."""
        self._gui.mouseDown()

    def up(self) -> None:
        """Release the left button."""
        self._gui.mouseUp()


def mouse_position() -> tuple[int, int]:
    """Where the real mouse pointer is, for calibrating by pointing."""
    try:
        import pyautogui
    except Exception as error:  # no display reachable
        raise PointerError(f"cannot read the mouse position: {error}") from error
    x, y = pyautogui.position()
    return int(x), int(y)


def click(pointer: Pointer, x: float, y: float, hold: float = 0.05) -> None:
    """Move to (x, y), press, hold briefly (games read a click over a frame or two), release."""
    pointer.move(x, y)
    pointer.down()
    time.sleep(hold)
    pointer.up()
