"""Number Match's observer: a look at the screen is a view of the board (the frame, its reading, and
which board row is its first), steady when it reads the same twice; the whole board is scanned
from its top down through views joined where their rows agree, and a row is scrolled into view
(by a drag, or the wheel on a web page) before a cell on it is pressed."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from flowbot.capture.screen import Frame
from flowbot.errors import FlowbotError
from flowbot.live.watch import tries
from flowbot.modes.numbermatch_guard import BoardChangedError
from flowbot.numbermatch.game import board_text
from flowbot.numbermatch.read import NumberMatchReadError, Reading, read_board

log = logging.getLogger(__name__)

WIDTH = 9
SETTLE = 0.03  # seconds after a click or drag before the screen is looked at
LOOKS = 8  # looks at the screen for it to show what a move should have made
LOOK_PAUSE = 0.05
MAX_SCROLLS = 60  # scrolls while looking for the top or the end of a board
# How a board may scroll, in the order tried: a drag (a phone, the bundled game), the wheel (a web page).
SCROLL_WAYS = ("drag", "wheel")


class NumberMatchClearError(FlowbotError):
    """The live Number Match run stopped short (a board not cleared, not taking moves, none next)."""

    exit_code = 4  # the live bot stopped short, as Flow's (10 is the fail-safe's)


class NoBoardError(NumberMatchClearError):
    """No Number Match board reads on the screen (nothing was pressed): stopped short, as Flow's
    auto-clear with no board found (9 is a second bot on the display)."""


@dataclass
class BoardRun:
    """One board played: whether it was cleared, its moves and adds, rereads, seconds, rows at most."""

    cleared: bool = False
    moves: int = 0
    adds: int = 0
    rereads: int = 0
    seconds: float = 0.0
    most_rows: int = 0
    scrolled: bool = False


@dataclass
class View:
    """One look at the screen: the frame, its reading, and which board row is the first one read."""

    frame: Frame
    reading: Reading
    top: int = 0

    @property
    def capacity(self) -> int:
        """Whole rows the view shows (board rows and empty grid rows)."""
        return len(self.reading.grid.ys) - 1

    def cell_point(self, row: int, col: int) -> tuple[float, float]:
        """The screen point at the middle of board row `row` (absolute), column `col`."""
        x, y = self.reading.grid.center(row - self.top, col)
        return x + self.frame.left, y + self.frame.top

    def shows(self, row: int) -> bool:
        """True when board row `row` is whole in the view."""
        return self.top <= row < self.top + self.capacity


class Scrolling:
    """Looking at the board and scrolling it (a role of NumberMatchClear: it keeps `view`,
    `scroll_way`, `notch`, `scrolls`, and reads `screen`, `region`, `clock`, `guard`, `pointer`)."""

    def look(self) -> View:
        """Read the screen once (NumberMatchReadError when no board reads)."""
        frame = self.screen.grab(self.region)
        reading = read_board(frame.pixels, "the screen")
        if reading.rectified:
            # Straightened, a grid cut by the screen's edge may read more rows than upright (the cut
            # row's lines bent into place); only an upright reading's cells can be clicked, and its
            # missing rows are scrolled to.
            try:
                reading = read_board(frame.pixels, "the screen", straighten=False)
            except NumberMatchReadError:
                raise NumberMatchReadError(
                    "the screen: the grid reads only straightened, so no cell can be clicked"
                ) from None
        return View(frame, reading)

    def look_steady(self) -> View:
        """A reading that came out the same twice in a row (the game may be mid-frame)."""
        last: list = [None, None]  # the last view read, the last reading's error

        def look() -> View | None:
            """One look: the view when it reads as the last one did."""
            try:
                view = self.look()
            except NumberMatchReadError as problem:
                last[:] = [None, problem]
                return None
            steady = last[0] is not None and last[0].reading.rows == view.reading.rows
            last[0] = view
            return view if steady else None

        view = tries(self.clock.sleep, LOOKS, look, LOOK_PAUSE)
        if view is not None or last[0] is not None:
            return view or last[0]
        raise NoBoardError(f"no Number Match board reads on the screen: {last[1]}")

    def look_settled(self) -> View:
        """A look after a scroll: the same rows in the same place twice in a row (a page may glide
        to where the wheel sent it)."""
        last: list[View | None] = [None]

        def look() -> View | None:
            """One look: the view when it shows the board where the last one did."""
            try:
                view = self.look()
            except NumberMatchReadError:
                last[0] = None
                return None
            settled = last[0] is not None and not board_moved(last[0], view)
            last[0] = view
            return view if settled else None

        view = tries(self.clock.sleep, 2 * LOOKS, look, LOOK_PAUSE)
        return view or last[0] or self.look_steady()

    def scan(self, board: BoardRun) -> tuple[tuple[int, ...], int]:
        """The whole board (scrolled to its top, then down through it) and the adds left; the view
        ends wherever the last look left it, with `top` set."""
        view = self.look_steady()
        self.fence_view(view)
        # A board nearly as tall as the view, or any board of a game seen to scroll, may be scrolled
        # even when its first row looks like the grid's top (a row cut exactly at the header's
        # edge): scroll up until nothing moves.
        tall = len(view.reading.rows) >= view.capacity - 2 and not view.reading.grid.bottom_visible
        if not view.reading.whole or tall or self.scroll_way is not None:
            view = self.to_top(view)
            board.scrolled = True
        rows = list(view.reading.rows)
        view.top = 0
        for _ in range(MAX_SCROLLS):
            if view.reading.end_seen:
                break
            board.scrolled = True
            after, step = self.scroll(view, max(1, view.capacity - 1))
            if after is None:
                raise NumberMatchClearError(
                    "the board runs past the edge of the screen and neither a drag nor the wheel scrolls it"
                )
            shift = overlap_shift(view.reading.rows, after.reading.rows, step)
            if shift is None:
                raise NumberMatchClearError("the board's views do not join up while scrolling down it")
            self.measure_wheel(view, after, shift)
            after.top = view.top + shift
            rows[after.top :] = after.reading.rows
            view = after
        else:
            raise NumberMatchClearError(f"no end of the board found after {MAX_SCROLLS} scrolls")
        self.view = view
        board.most_rows = max(board.most_rows, len(rows))
        adds = view.reading.adds_left
        # No "+" sign and no badge: a game whose add control is a labelled button, with no count.
        unseen = adds is None and view.reading.plus is None and self.rules.adds_limited
        if unseen and "adds_limited" not in self.fixed and self.find_add_control(view) is not None:
            self.adopt("adds_limited", False, "the add control shows no count")
        # The bundled game hides the badge at no adds left; a phone may show an ad instead of a number.
        adds_left = adds if adds is not None else 0
        cells = tuple(int(char) if char.isdigit() else 0 for row in rows for char in row.rstrip("_"))
        return cells, adds_left

    def to_top(self, view: View) -> View:
        """Scroll up until the view stops changing (the top of the board)."""
        for _ in range(MAX_SCROLLS):
            after, _ = self.scroll(view, -max(1, view.capacity - 1))
            if after is None:
                return self.look_steady()
            view = after
        raise NumberMatchClearError(f"the top of the board not reached after {MAX_SCROLLS} scrolls")

    def bring_into_view(self, row: int, cells: tuple[int, ...]) -> None:
        """Scroll until board row `row` is whole on screen, and know where every row is again."""
        assert self.view is not None
        expected = board_text(cells, WIDTH)
        for _ in range(MAX_SCROLLS):
            if self.view.shows(row):
                return
            capacity = self.view.capacity
            target = max(0, row - capacity // 2)
            step = max(-(capacity - 1), min(capacity - 1, target - self.view.top))
            view, moved = self.scroll(self.view, step)
            self.scrolls += 1
            if view is None:
                raise NumberMatchClearError(f"row {row + 1} is off screen and the board does not scroll")
            top = locate(expected, view.reading, self.view.top + moved)
            if top is None:
                log.debug(
                    "after scrolling by %.1f rows the screen shows %s (end %s), not in %s",
                    moved,
                    " ".join(view.reading.rows),
                    view.reading.end_seen,
                    " ".join(expected),
                )
                # The game changed the board (a click taken late, digits it added): read it again.
                raise BoardChangedError("after scrolling, the screen does not show the board as read")
            self.measure_wheel(self.view, view, top - self.view.top)
            view.top = top
            self.view = view
        raise NumberMatchClearError(f"row {row + 1} could not be scrolled into view")

    def scroll(self, view: View, rows: int) -> tuple[View | None, float]:
        """Scroll the board about `rows` rows (positive: later rows come up into view) the way this
        game scrolls, and look again: the view after it and the rows it should have moved, or None
        when nothing moved. The way is found at the first need from what the screen does (a drag
        first, which the phone game and the bundled one take; else the wheel over the board, which
        a web page takes) and kept for the run; at the board's top or end neither moves it, which
        teaches nothing."""
        ways = [self.scroll_way] if self.scroll_way else list(SCROLL_WAYS)
        self._wheeled = 0
        for way in ways:
            if way == "drag":
                self.drag_rows(view, rows)
                moved = float(rows)
            else:
                moved = self.wheel_rows(view, rows)
            after = self.look_settled()
            if board_moved(view, after):
                if self.scroll_way is None:
                    self.scroll_way = way
                    log.info("the board scrolls by %s", "a drag" if way == "drag" else "the mouse wheel")
                return after, moved
        return None, 0.0

    def wheel_rows(self, view: View, rows: int) -> float:
        """Turn the wheel over the board's middle by about `rows` rows (never more, so that views
        scrolled through overlap; one notch at least); the rows it should move (an estimate until a
        notch has been measured)."""
        grid = view.reading.grid
        x = (grid.xs[0] + grid.xs[-1]) / 2 + view.frame.left
        y = (grid.ys[0] + grid.ys[-1]) / 2 + view.frame.top
        distance = abs(rows) * grid.cell
        notches = 1 if self.notch is None else max(1, int(distance // self.notch))
        notches = notches if rows > 0 else -notches
        self.guard.arm(view.frame, view.reading)  # the wheel turns over the view just read
        self.guard.check(x, y)
        self.pointer.wheel(x, y, notches)
        self.clock.sleep(SETTLE)
        self._wheeled = notches
        return notches * (self.notch or grid.cell) / grid.cell

    def measure_wheel(self, before: View, after: View, shift: int) -> None:
        """After a turn of the wheel that moved the board by `shift` rows (and the grid by some
        pixels on screen): the pixels one notch scrolls (the largest seen: a turn at the page's end
        is cut short)."""
        notches, self._wheeled = self._wheeled, 0
        if not notches or self.scroll_way != "wheel":
            return
        cell = before.reading.grid.cell
        top_before = before.reading.grid.ys[0] + before.frame.top
        top_after = after.reading.grid.ys[0] + after.frame.top
        pixels = (top_before - top_after + shift * cell) / notches
        if pixels > 1 and (self.notch is None or pixels > self.notch):
            self.notch = pixels
            log.info("a notch of the wheel scrolls %.0f pixels (%.2f rows)", pixels, pixels / cell)

    def drag_rows(self, view: View, rows: int) -> None:
        """Drag the grid by `rows` rows (positive: later rows come up into view)."""
        grid = view.reading.grid
        distance = rows * grid.cell
        x = (grid.xs[0] + grid.xs[-1]) / 2 + view.frame.left
        low = grid.ys[0] + grid.cell * 0.3 + view.frame.top
        high = grid.ys[-1] - grid.cell * 0.3 + view.frame.top
        start = high if distance > 0 else low
        end = start - distance
        self.guard.arm(view.frame, view.reading)  # the drag starts on the view just read
        self.guard.check(x, start)
        self.pointer.move(x, start)
        self.pointer.down()
        try:
            for step in range(1, 5):
                self.clock.sleep(0.01)
                self.pointer.move(x, start + (end - start) * step / 4)
            self.clock.sleep(0.02)
        finally:
            self.pointer.up()
        self.clock.sleep(SETTLE)


def board_y(view: View) -> float:
    """The screen y of the board's first row's top edge (above the screen when scrolled past it)."""
    grid = view.reading.grid
    return grid.ys[0] + view.frame.top - view.top * grid.cell


def board_moved(before: View, after: View) -> bool:
    """True when the board moved between two looks (other rows, or its rows somewhere else)."""
    old, new = before.reading, after.reading
    if old.rows != new.rows or len(old.grid.ys) != len(new.grid.ys):
        return True
    shift = (after.frame.top - before.frame.top, after.frame.left - before.frame.left)
    ys = any(abs(a + shift[0] - b) > 1 for a, b in zip(new.grid.ys, old.grid.ys, strict=True))
    return ys or abs(new.grid.xs[0] + shift[1] - old.grid.xs[0]) > 1


def overlap_shift(before: tuple[str, ...], after: tuple[str, ...], step: float) -> int | None:
    """How many rows the view moved down between two readings: the shift, nearest `step`, under
    which the rows they share agree."""
    candidates = []
    for shift in range(0, len(before)):
        shared = before[shift:]  # at least one row: a join nothing confirms is no join
        if after[: len(shared)] == shared:
            candidates.append(shift)
    if not candidates:
        return None
    return min(candidates, key=lambda shift: abs(shift - step))


def locate(expected: tuple[str, ...], reading: Reading, predicted: int) -> int | None:
    """The board row the reading's first row is, nearest `predicted`, or None when the rows are
    nowhere in the expected board (an empty board's view never matches)."""
    rows = reading.rows
    count = len(rows)
    candidates = []
    for top in range(0, len(expected) - count + 1):
        if expected[top : top + count] != rows:
            continue
        if reading.end_seen and top + count != len(expected):
            continue
        candidates.append(top)
    if not candidates:
        return None
    return min(candidates, key=lambda top: abs(top - predicted))
