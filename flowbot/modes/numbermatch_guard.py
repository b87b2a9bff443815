"""Before each Number Match click: is this game's board, as read, still there? It looks at the board
itself (its digits and cells), so a game that draws the same board again never stops the bot, while
a board gone, moved or covered (another window, a dialog) does, before the press."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from flowbot.act.guard import STOPPED, BoardGoneError, BoardGuard, Windows
from flowbot.capture.screen import Frame, Region, Screen
from flowbot.errors import FlowbotError
from flowbot.live.watch import tries
from flowbot.numbermatch.read import NumberMatchReadError, Reading, read_board

LOOKS = 3  # a board that reads differently this many times in a row is gone
RELOOK_PAUSE = 0.15
SAME_PIXELS = 2.0  # mean grey-level change under which the board's area is the same picture
NO_BOARD = "no board reads there"
SAME_PLACE = 2.0  # pixels a grid line may move and still be the same board (a redraw, rounding)


class BoardEndedError(FlowbotError):
    """The game's own window is in place with nothing over it, but no board reads on it any more: the
    game drew over its board (a won or lost dialog). The board ended; nothing is pressed."""

    exit_code = 4


class BoardChangedError(BoardGoneError):
    """The board is where it was read but shows other digits (a game taking a click late): the bot
    reads it again before pressing; uncaught, it stops the run like a board gone."""


class NumberMatchGuard:
    """Compares the board's area before a press with the board the bot last read (`arm`)."""

    def __init__(self, screen: Screen, windows: Windows | None, region: Region | None = None) -> None:
        self.screen, self.windows, self.region = screen, windows, region
        self.sleep: Callable[[float], None] = time.sleep
        self.area: Region | None = None
        self.pixels: np.ndarray | None = None
        self.reading: Reading | None = None
        self.grid_left = self.grid_top = 0.0
        self.windows_guard: BoardGuard | None = None

    def arm(self, frame: Frame, reading: Reading) -> None:
        """Take the board read from `frame` as the one that must be there (its area with a cell's margin)."""
        grid = reading.grid
        margin = grid.cell
        left = max(0, int(grid.xs[0] - margin))
        top = max(0, int(grid.ys[0] - margin))
        right = min(frame.pixels.shape[1], int(grid.xs[-1] + margin) + 1)
        bottom = min(frame.pixels.shape[0], int(grid.ys[-1] + margin) + 1)
        self.area = Region(frame.left + left, frame.top + top, right - left, bottom - top)
        self.pixels = frame.pixels[top:bottom, left:right].copy()
        self.reading = reading
        self.grid_left = grid.xs[0] + frame.left  # screen x of the grid's left edge
        self.grid_top = grid.ys[0] + frame.top  # and y of its first row's top
        board = Region(
            round(grid.xs[0]) + frame.left,
            round(grid.ys[0]) + frame.top,
            round(grid.xs[-1] - grid.xs[0]),
            round(grid.ys[-1] - grid.ys[0]),
        )
        if self.windows_guard is None or self.windows_guard.board != board:
            self.windows_guard = BoardGuard(self.screen, [], board, self.windows, radius=1)

    def check(self, x: float | None = None, y: float | None = None) -> None:
        """Raise BoardGoneError unless the board read is still there (and (x, y) on the game's window)."""
        self._check(x, y, same_digits=True)

    def check_present(self) -> None:
        """Raise BoardGoneError unless a board still reads where the board was, or on the screen
        (after a move its digits or place may differ: that is for the loop to read again)."""
        self._check(None, None, same_digits=False)

    def _check(self, x: float | None, y: float | None, same_digits: bool) -> None:
        """`check`, with or without the digits having to be the ones read."""
        if self.windows_guard is not None:
            self.windows_guard.check(x, y)  # no spots: the window's place, stacking and the point
        if self.area is None:
            return
        last = ("", False)

        def look() -> bool | None:
            """One look at the board: True when it is the board read (a game mid-redraw may show
            something else for a look or two)."""
            nonlocal last
            last = self._difference(same_digits)
            return True if not last[0] else None

        if tries(self.sleep, LOOKS, look, RELOOK_PAUSE, last_pause=False):
            return
        problem, changed = last
        if (
            problem.startswith(NO_BOARD)
            and self.windows_guard is not None
            and self.windows_guard.window is not None
        ):
            # The window check passed above: no other window covers it, so the game drew this itself.
            raise BoardEndedError(f"the game drew over its board ({problem}): the board ended; {STOPPED}")
        if changed:
            raise BoardChangedError(
                f"the Number Match board shows other digits than read ({problem}); {STOPPED}"
            )
        raise BoardGoneError(f"the Number Match board is no longer where it was read ({problem}); {STOPPED}")

    def check_window(self) -> None:
        """The cheap half of `check` (window place and stacking), also run while the button is held."""
        if self.windows_guard is not None:
            self.windows_guard.check_window()

    def _difference(self, same_digits: bool = True) -> tuple[str, bool]:
        """What differs between the board now and the board read ('' when it is the same board), and
        whether it is only its digits (the same grid in the same place)."""
        assert self.area is not None and self.pixels is not None and self.reading is not None
        frame = self.screen.grab(self.area)
        if frame.pixels.shape == self.pixels.shape:
            change = float(np.abs(frame.pixels.astype(np.int16) - self.pixels).mean())
            if change < SAME_PIXELS:
                return "", False  # the same picture: nothing to read
        try:
            now = read_board(frame.pixels, "the board's area", straighten=False)
        except NumberMatchReadError as error:
            if self._reads_elsewhere():
                # Moved, not gone: a press must wait for it to be found again; a look for it is done.
                return ("it moved (a message above it, a scroll)", True) if same_digits else ("", False)
            return f"{NO_BOARD}: {error}", False
        before = self.reading
        moved = max(
            abs(now.grid.xs[0] + frame.left - self.grid_left), abs(now.grid.ys[0] + frame.top - self.grid_top)
        )
        if abs(now.grid.cell - before.grid.cell) > SAME_PLACE:
            return "its grid changed size", False
        if moved > SAME_PLACE and same_digits:
            return f"it moved by {moved:.0f} pixels (a message above it, a scroll)", True
        if same_digits and (now.rows != before.rows[: len(now.rows)] or not now.rows):
            return f"{' '.join(now.rows)} where {' '.join(before.rows)} was read", True
        return "", False

    def _reads_elsewhere(self) -> bool:
        """True when a board reads on the whole screen (the game's area): moved, not gone."""
        try:
            read_board(self.screen.grab(self.region).pixels, "the screen", straighten=False)
        except NumberMatchReadError:
            return False
        return True
