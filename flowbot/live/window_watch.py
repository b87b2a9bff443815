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
# Seconds a window seen moved while waiting for the next level gets for that level to show (in its new
# place, where the whole screen's look finds it: a game may move its window as a level loads) before
# the move is named: within the 2 s with two looks to spare (a look at the whole screen takes up to
# 0.4 s on a busy machine: at 1.5 s a move was named after 2.1-3.3 s at a load of 10-12).
MOVED_GRACE = 1.0


class WindowWatch:
    """The game's window's facts when a level's drawing began, and the checks against them (a role of
    LiveLoop: it reads `windows` and `clock`, and keeps `_window_before`, `_window_checked` and
    `_window_moved_at`)."""

    def note_window(self, board: CellMap) -> None:
        """Take the facts of the game's window (the topmost one under the board's centre, screen
        pixels) as a level's drawing begins; nothing where the display does not tell windows."""
        self._window_before, self._window_moved_at = None, None
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
        since the level's drawing began; looked at most every CHECK_EVERY seconds, or `now` (before a
        press: nothing is pressed on a window moved since). A move seen while waiting is named once
        MOVED_GRACE passed with no new level."""
        noted: tuple[int, Region, WindowFacts] | None = self._window_before
        if noted is None or self.windows is None:
            return
        time = self.clock.now()
        if not now and time - self._window_checked < CHECK_EVERY:
            return
        self._window_checked = time
        window_id, area, before = noted
        facts = window_facts(self.windows, window_id, area)
        fate = window_fate(before, facts)
        if fate.what == "moved" and _resized(before, facts):
            # Moving on from a level the game took, a window of another size is the game fitting it to
            # the next level (a pack of bigger boards): watched from its new size on.
            self._window_before = (window_id, area, facts)
            return
        if fate.what == "moved" and not now:
            self._window_moved_at = self._window_moved_at if self._window_moved_at is not None else time
            if time - self._window_moved_at < MOVED_GRACE:
                return  # the next level may show in the window's new place
        if fate.what != "nothing":
            raise fate.error()


def _resized(before: WindowFacts, now: WindowFacts) -> bool:
    """True when the window shows at another size than before (not only in another place)."""
    return before.box is not None and now.box is not None and before.box.size != now.box.size
