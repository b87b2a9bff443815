"""What happened to the game's window between two looks: closed, hidden, moved, covered, or nothing.

`window_fate` is pure: it compares the window's facts from before (when the level was read) with
its facts now and names the change, with one line to show the person and exit status 11.
`window_facts` gathers those facts for a window id from the display's windows (X11Windows, where X
can tell; any object with the same three methods in tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from flowbot.act.guard import STOPPED, BoardGoneError, same_game
from flowbot.capture.space import Region

Fate = Literal["closed", "hidden", "moved", "covered", "nothing"]
EXIT_CODE = 11  # the game's board is gone (flowbot/exits.py)


class WindowSource(Protocol):
    """The display's top-level windows, as far as the window's fate needs them (X11Windows)."""

    def stack(self) -> list[int]:
        """Window ids from the bottom of the stacking order to the top."""
        ...

    def box(self, window_id: int) -> Region | None:
        """Where the window is, or None when it is gone or hidden."""
        ...

    def exists(self, window_id: int) -> bool:
        """True while the display has the window, shown or not."""
        ...


@dataclass(frozen=True, slots=True)
class WindowFacts:
    """The game's window at one moment: does it exist, is it shown (mapped and viewable), where is
    it (screen pixels; None when not shown), and the other programs' shown windows stacked above it
    that overlap the board."""

    exists: bool
    shown: bool
    box: Region | None
    covering: tuple[Region, ...] = ()


@dataclass(frozen=True, slots=True)
class WindowFate:
    """What happened to the window, in one word and one line."""

    what: Fate
    message: str

    @property
    def exit_code(self) -> int:
        """11 when the window closed, hid, moved or was covered; 0 when nothing happened to it."""
        return 0 if self.what == "nothing" else EXIT_CODE

    def error(self) -> WindowGoneError:
        """The error to stop a run with (exit status 11)."""
        return WindowGoneError(self)


class WindowGoneError(BoardGoneError):
    """The game's window closed, was hidden, moved or was covered: the board the bot read is gone."""

    exit_code = EXIT_CODE

    def __init__(self, fate: WindowFate) -> None:
        super().__init__(fate.message)
        self.fate = fate


def window_fate(before: WindowFacts, now: WindowFacts) -> WindowFate:
    """Name what happened to the game's window from its facts `before` (when the level was read) and
    `now`: closed (the window no longer exists), hidden (it exists but is not shown: minimised,
    unmapped), moved (shown elsewhere or at another size), covered (another program's window over
    the board, that was not over it before), else nothing. A window that was not known before has
    nothing to compare: nothing."""
    if not before.exists:
        return WindowFate("nothing", "the game's window was not known: nothing to compare")
    if not now.exists:
        return WindowFate("closed", f"the game's window was closed; {STOPPED}")
    if not now.shown:
        return WindowFate("hidden", f"the game's window was hidden (minimised or unmapped); {STOPPED}")
    if before.box is not None and now.box is not None and now.box != before.box:
        return WindowFate(
            "moved",
            f"the game's window moved from {before.box} to {now.box} (LEFT,TOP,WIDTH,HEIGHT); {STOPPED}",
        )
    covering = [box for box in now.covering if box not in before.covering]  # new since: not the game's look
    if covering:
        boxes = ", ".join(str(box) for box in covering)
        return WindowFate("covered", f"another window ({boxes}) covers the game's board; {STOPPED}")
    return WindowFate("nothing", "the game's window is where it was, shown and uncovered")


def window_facts(windows: WindowSource, window_id: int, board: Region | None = None) -> WindowFacts:
    """The facts of the window `window_id` now, from the display: whether it exists and is shown,
    its box, and the shown windows above it overlapping `board` (default: the window's own box) that
    are not the game's own (its popups and dialog windows are part of the game)."""
    box = windows.box(window_id)
    if box is None:
        exists = getattr(windows, "exists", None)  # a source that cannot tell: gone from the stack
        gone = not exists(window_id) if exists is not None else window_id not in windows.stack()
        return WindowFacts(exists=not gone, shown=False, box=None)
    area = board if board is not None else box
    stack = windows.stack()
    above = stack[stack.index(window_id) + 1 :] if window_id in stack else []
    covering = []
    for other_id in above:
        other = windows.box(other_id)
        if other is not None and other.overlaps(area) and not same_game(windows, window_id, other_id):
            covering.append(other)
    return WindowFacts(exists=True, shown=True, box=box, covering=tuple(covering))
