"""The engine's eyes: look for a board until one that is not the last level reads the same twice in
a row, where the game was first (flowbot.live.place), and at the whole area when it is not there.
A look that shows nothing changed around the last board read is not read again."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from flowbot.capture.screen import Frame, Region
from flowbot.cellmap import CellMap
from flowbot.errors import CaptureError
from flowbot.live.game_popups import popup_over
from flowbot.live.scene import BoardReading, Scene

# Seconds between looks while waiting for a board or a verdict (a look itself takes a few frames).
POLL = 0.03
# Seconds a window of the game's own may lie over a next level that came by itself before the wait for
# it ends (its control is pressed then): a toast that goes by itself has gone by then.
POPUP_WAIT = 0.5
# Seconds between looks while the level just played still shows, unchanged: such a look is a capture
# (a few milliseconds, no read), so the next level is seen about a frame after it shows, not a poll.
STILL_POLL = 0.01


class Observer:
    """The live loop's looks for a board (a role of LiveLoop: it reads `screen`, `region`, `clock`,
    `windows`, the game's `read`, `still_won` and `solvable`, where the game is, and `check_window`;
    it keeps `popup`, the game's own window over the board the last read found)."""

    popup: Region | None = None

    def wait_for_board(
        self,
        previous: list[str] | None,
        first: bool = False,
        timeout: float | None = None,
        popups_at: CellMap | None = None,
    ) -> Scene | None:
        """Read the screen until a board that is not the last one reads the same twice in a row
        (a board still sliding in reads differently); None when none came in time, or, with
        `popups_at` (the won level's place), once a window of the game's own has lain over the board
        read or that place for POPUP_WAIT seconds (the caller presses its control). The looks go where
        the game was (look_region); one that finds no board there is followed at once by a look at
        the whole area (the board moved, grew or went), kept to while a board reads there."""
        limit = timeout if timeout is not None else (2.0 if first else self.settle_timeout)
        deadline = self.clock.now() + limit
        self.popup, covered_since = None, None
        last_rows = None
        # The last look at each part of the screen looked at (where the game was, the whole area).
        looks: dict[Region | None, _Look] = {}
        wide = self._focus is None  # the look is of the whole area (`region`), not where the game was
        while True:
            if previous is not None:  # waiting for the next level: is the game's window still there?
                self.check_window()
            where = self.region if wide else self.look_region()
            seen_at = self.clock.now()  # before the grab: time since it is never less than since the frame
            look = self._look(where, previous, looks.get(where))
            looks[where] = look
            rows = look.rows
            if rows is not None and rows != previous and (rows == last_rows or previous is None):
                scene = Scene(look.frame, look.reading, look.capture_ms, look.read_ms, seen_at)
                self._focus_on(scene, wide)
                return scene
            last_rows = rows
            if popups_at is not None:
                covered_since = self._covered_since(covered_since, look, popups_at, seen_at)
                if covered_since is not None and seen_at - covered_since >= POPUP_WAIT:
                    return None
            if rows is None and not wide:
                wide = True  # no board where the game was: the whole area is looked at before anything
                continue
            wide = self._focus is None or (wide and rows is not None)
            if self.clock.now() > deadline:
                return None
            self.clock.sleep(STILL_POLL if previous is not None and rows == previous else POLL)

    def _covered_since(
        self, since: float | None, look: _Look, place: CellMap, seen_at: float
    ) -> float | None:
        """Since when a window of the game's own has lain over the board `look` read, or over `place`
        where no board read (one cut by the window may read as none); None when none lies there."""
        if look.reading is None:
            self.popup = self._popup_over(place)
        if self.popup is None:
            return None
        return seen_at if since is None else since

    def _look(self, where: Region | None, previous: list[str] | None, last: _Look | None) -> _Look:
        """One look for a board at `where` (the whole area, or where the game was). A look that shows
        nothing changed around what the `last` look there read is not read again: the look that
        follows a read costs a capture, not a second read."""
        started = time.perf_counter()  # the work's own duration, for the report: not a wait
        frame = self.screen.grab(where)
        captured = time.perf_counter()
        capture_ms = (captured - started) * 1000
        if last is not None and _unchanged(last.frame, frame, last.reading):
            return _Look(frame, last.reading, last.rows, capture_ms, last.read_ms)
        try:
            reading = self.read(frame.pixels)
        except CaptureError as error:
            reading = None
            self.last_reason = str(error)
        if reading is not None and where != self.region and not self._holds(frame, reading):
            # Near the edge of where the game was: perhaps a board cut by it (one that moved or grew).
            reading = None
            self.last_reason = "the board read lies at the edge of the part of the screen looked at"
        shown = reading.geometry.shifted(frame.left, frame.top) if reading is not None else None
        self.popup = self._popup_over(shown) if shown is not None else None
        if self.popup is not None:
            # What shows around the game's popup is part of a board (its rows above the popup), or a
            # board to be played only once the popup has gone.
            reading = None
            self.last_reason = f"a window of the game's own ({self.popup}) lies over the board"
        read_ms = (time.perf_counter() - captured) * 1000
        rows = reading.puzzle.to_rows() if reading is not None else None
        if rows is not None and previous is not None:
            rows = self._next_rows(frame, reading, previous)
        return _Look(frame, reading, rows, capture_ms, read_ms)

    def _popup_over(self, board: CellMap) -> Region | None:
        """A window of the game's own over a board (screen pixels) or at its edge (see game_popups),
        where the display tells its windows."""
        if self.windows is None:
            return None
        return popup_over(self.windows, board.bounds, board.cell_size)

    def _next_rows(self, frame: Frame, reading: BoardReading, previous: list[str]) -> list[str] | None:
        """A board read after a level, as rows: `previous` while that level still shows (read right,
        or misread under a dialog), None for a board with no solution (a misread), else its rows."""
        rows = reading.puzzle.to_rows()
        if rows == previous or self.still_won(frame):
            self.last_reason = "the same level is still showing"
            return previous
        if not self.solvable(reading.puzzle):
            self.last_reason = f"a {reading.puzzle.size} board was read but has no solution"
            return None
        return rows

    def found_again(self, scene: Scene) -> Scene | None:
        """The same level read again, wherever it is on screen now."""
        found = self.wait_for_board(None, timeout=0.0)
        return found if found is not None and found.rows == scene.rows else None


@dataclass(frozen=True)
class _Look:
    """One look of wait_for_board: its frame, the board read on it (None: none), that board as rows
    (see _next_rows), and what the capture and the read cost in milliseconds."""

    frame: Frame
    reading: BoardReading | None
    rows: list[str] | None
    capture_ms: float
    read_ms: float


def _unchanged(before: Frame, now: Frame, reading: BoardReading | None) -> bool:
    """True when `now` shows exactly what `before` did around the board read on it (the board and a
    cell around it), or anywhere when no board read there: two captures of one still picture."""
    if before.region != now.region:
        return False
    if reading is None:
        return np.array_equal(before.pixels, now.pixels)
    left, top, right, bottom = reading.geometry.bounds
    margin = reading.geometry.cell_size
    height, width = now.pixels.shape[:2]
    rows = slice(max(0, int(top - margin)), min(height, int(bottom + margin) + 1))
    cols = slice(max(0, int(left - margin)), min(width, int(right + margin) + 1))
    return np.array_equal(before.pixels[rows, cols], now.pixels[rows, cols])
