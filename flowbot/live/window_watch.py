"""The game's window watched while the game moves on from a level: what happened to it (closed,
hidden, moved, covered: flowbot.live.window_fate) stops the run at once with one line naming it and
exit status 11, instead of waiting for a level that cannot come."""

from __future__ import annotations

import math

from flowbot.act.guard import window_under
from flowbot.capture.screen import Region
from flowbot.cellmap import CellMap
from flowbot.live.window_fate import WindowFacts, window_facts, window_fate

# Seconds of the clock between two looks at the game's window while waiting (a look is a few X
# requests): well inside the 2 s a person waits to hear what happened to the window.
CHECK_EVERY = 0.2


class WindowWatch:
    """The game's window's facts when a level's drawing began, and the checks against them (a role of
    LiveLoop: it reads `windows` and `clock`, and keeps `_window_before` and `_window_checked`)."""

    def note_window(self, board: CellMap) -> None:
        """Take the facts of the game's window (the topmost one under the board's centre, screen
        pixels) as a level's drawing begins; nothing where the display does not tell windows."""
        self._window_before = None
        if self.windows is None:
            return
        left, top, right, bottom = board.bounds
        window = window_under(self.windows, (left + right) / 2, (top + bottom) / 2)
        if window is None:
            return
        x0, y0 = math.floor(left), math.floor(top)
        area = Region(x0, y0, math.ceil(right) - x0, math.ceil(bottom) - y0)
        self._window_before = (window.id, area, window_facts(self.windows, window.id, area))

    def check_window(self, now: bool = False) -> None:
        """Stop with WindowGoneError (exit 11) when the game's window closed, hid, moved or was covered
        since the level's drawing began; looked at most every CHECK_EVERY seconds, or `now`."""
        noted: tuple[int, Region, WindowFacts] | None = self._window_before
        if noted is None or self.windows is None:
            return
        time = self.clock.now()
        if not now and time - self._window_checked < CHECK_EVERY:
            return
        self._window_checked = time
        window_id, area, before = noted
        fate = window_fate(before, window_facts(self.windows, window_id, area))
        if fate.what != "nothing":
            raise fate.error()
