"""`flowbot auto-clear --numbermatch`: read the Number Match board on screen, solve it, click the line.

One board: scroll to the top if the board does not all show, read it (scrolling down and joining
the views when it is taller than the window), solve it with the adds the badge shows, then play
the line: a click on each cell of a pair (scrolling first when a cell is off screen), a click on
"+" for an add. After every move the screen is read again and must show the board the rules say
(found in the view by matching the rows, nearest where the scrolling put it); when it does not
after a few looks, the whole board is read again and solved from what is there. An empty board
means the stage is cleared: the game deals the next one, and the loop goes on.

Screen and mouse only through `Screen` and `Pointer`: the pointer stays in the game's area, the
board guard looks before each press (window closed, moved or covered stops the run), and Ctrl-C
stops between moves (the pointer releases the button at its next call).
"""

from __future__ import annotations

import logging
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from flowbot.act.guard import BoardGuard, Spot, Windows
from flowbot.act.pointer import Pointer, StopRun, click, stop_signals
from flowbot.capture.screen import Frame, Region, Screen
from flowbot.errors import FlowbotError
from flowbot.numbermatch.board import Move, apply_move
from flowbot.numbermatch.game import board_text
from flowbot.numbermatch.read import NumberMatchReadError, Reading, read_board
from flowbot.numbermatch.rules import Rules
from flowbot.numbermatch.search import WON, solve

log = logging.getLogger(__name__)

WIDTH = 9
SETTLE = 0.03  # seconds after a click or drag before the screen is looked at
LOOKS = 8  # looks at the screen for it to show what a move should have made
LOOK_PAUSE = 0.05
NEW_BOARD_WAIT = 5.0  # seconds for the next stage's board to show
REPLANS = 3  # whole-board rereads a board may need before the run stops
SOLVE_SECONDS = 20.0
CLICK_HOLD = 0.02
MAX_SCROLLS = 60  # drags while looking for the top or the end of a board


class NumberMatchClearError(FlowbotError):
    """The live Number Match run could not go on (a board unreadable, unsolvable, or not taking moves)."""

    exit_code = 4  # the live bot stopped short, as Flow's (10 is the fail-safe's)


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
class ClearReport:
    """What a run did, board by board, and why it stopped early (None: it did what it was asked)."""

    boards: list[BoardRun] = field(default_factory=list)
    stopped: str | None = None
    halt: StopRun | None = None

    @property
    def cleared(self) -> int:
        """Boards cleared."""
        return sum(board.cleared for board in self.boards)

    def seconds_median(self) -> float:
        """Median seconds per cleared board (0 without one)."""
        times = [board.seconds for board in self.boards if board.cleared]
        return statistics.median(times) if times else 0.0

    def summary(self) -> str:
        """One line for a person."""
        text = f"cleared {self.cleared} of {len(self.boards)} Number Match boards"
        if self.cleared:
            text += f", {self.seconds_median():.1f} s per board (median)"
        return text + (f"; stopped: {self.stopped}" if self.stopped else "")


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


class NumberMatchClear:
    """The live loop over boards (see the module's docstring)."""

    def __init__(
        self,
        screen: Screen,
        pointer: Pointer,
        region: Region | None,
        count: int | None,
        *,
        windows: Windows | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.screen, self.pointer, self.region, self.count = screen, pointer, region, count
        self.windows = windows
        self.sleep = sleep
        self.view: View | None = None
        self.guard: BoardGuard | None = None
        self.scrolls = 0  # drags made to bring a cell into view, over the run

    # --- the run -------------------------------------------------------------------------------------

    def run(self) -> ClearReport:
        """Clear boards until `count` are cleared (or for ever); a stop is kept in the report."""
        report = ClearReport()
        with stop_signals() as watch:
            try:
                while self.count is None or report.cleared < self.count:
                    if watch.error() is not None:
                        raise watch.error()  # type: ignore[misc]
                    board = BoardRun()
                    report.boards.append(board)
                    self.play_board(board, watch)
            except StopRun as stop:
                report.stopped, report.halt = str(stop), stop
            except FlowbotError as error:
                report.stopped = str(error)
        return report

    def play_board(self, board: BoardRun, watch) -> None:
        """Read, solve and play one board until it is cleared and the next one shows."""
        started = time.perf_counter()
        scrolls_before = self.scrolls
        cells, adds_left = self.scan(board)
        line = self.plan(cells, adds_left)
        replans = 0
        while line:
            move, line = line[0], line[1:]
            if watch.error() is not None:
                raise watch.error()  # type: ignore[misc]
            after = apply_move(cells, move, Rules(adds=max(adds_left, 0)))
            left_after = adds_left - 1 if move.is_add else adds_left
            self.play(move, cells)
            board.moves += 1
            board.adds += move.is_add
            if not after:
                break  # the board is gone: the next stage's board is checked below
            if self.confirm(after, left_after, board):
                cells, adds_left = after, left_after
                continue
            if self.guard is not None:
                self.guard.check()  # a window over the game, or the game gone: stop, say so
            replans += 1
            board.rereads += 1
            if replans > REPLANS:
                raise NumberMatchClearError(
                    f"the board did not change as the rules say after {REPLANS} fresh reads; stopped"
                )
            log.info("the screen does not show the board the move should give: reading it all again")
            cells, adds_left = self.scan(board)
            line = self.plan(cells, adds_left)
        self.wait_for_new_board()
        board.scrolled = board.scrolled or self.scrolls > scrolls_before
        board.cleared = True
        board.seconds = time.perf_counter() - started

    def plan(self, cells: tuple[int, ...], adds_left: int) -> tuple[Move, ...]:
        """The solver's winning line for the board as read; a board with none stops the run."""
        answer = solve(cells, Rules(adds=adds_left), timeout=SOLVE_SECONDS)
        if answer.status != WON:
            rows = " ".join(board_text(cells, WIDTH))
            raise NumberMatchClearError(f"no win found for the board on screen ({answer.status}): {rows}")
        return answer.moves

    # --- looking -----------------------------------------------------------------------------------

    def look(self) -> View:
        """Read the screen once (NumberMatchReadError when no board reads)."""
        frame = self.screen.grab(self.region)
        reading = read_board(frame.pixels, "the screen")
        if reading.rectified:
            raise NumberMatchReadError(
                "the screen: the grid reads only straightened, so no cell can be clicked"
            )
        return View(frame, reading)

    def look_steady(self) -> View:
        """A reading that came out the same twice in a row (the game may be mid-frame)."""
        previous = None
        error: FlowbotError | None = None
        for _ in range(LOOKS):
            try:
                view = self.look()
            except NumberMatchReadError as problem:
                error, previous = problem, None
                self.sleep(LOOK_PAUSE)
                continue
            if previous is not None and previous.reading.rows == view.reading.rows:
                return view
            previous = view
            self.sleep(LOOK_PAUSE)
        if previous is not None:
            return previous
        raise NumberMatchClearError(f"no Number Match board reads on the screen: {error}")

    def scan(self, board: BoardRun) -> tuple[tuple[int, ...], int]:
        """The whole board (scrolled to its top, then down through it) and the adds left; the view
        ends wherever the last look left it, with `top` set."""
        view = self.look_steady()
        self._fence(view)
        # A board nearly as tall as the view may be scrolled even when its first row looks like the
        # grid's top (a row cut exactly at the header's edge): scroll up until nothing moves.
        if not view.reading.whole or len(view.reading.rows) >= view.capacity - 2:
            view = self._to_top(view)
            board.scrolled = True
        rows = list(view.reading.rows)
        view.top = 0
        for _ in range(MAX_SCROLLS):
            if view.reading.end_seen:
                break
            board.scrolled = True
            step = max(1, view.capacity - 1)
            self.drag_rows(view, step)
            after = self.look_steady()
            shift = _overlap_shift(view.reading.rows, after.reading.rows, step)
            if shift is None:
                raise NumberMatchClearError("the board's views do not join up while scrolling down it")
            after.top = view.top + shift
            rows[after.top :] = after.reading.rows
            view = after
        else:
            raise NumberMatchClearError(f"no end of the board found after {MAX_SCROLLS} scrolls")
        self.view = view
        board.most_rows = max(board.most_rows, len(rows))
        adds = view.reading.adds_left
        # The bundled game hides the badge at no adds left; a phone may show an ad instead of a number.
        adds_left = adds if adds is not None else 0
        cells = tuple(int(char) if char.isdigit() else 0 for row in rows for char in row.rstrip("_"))
        return cells, adds_left

    def _to_top(self, view: View) -> View:
        """Scroll up until the view stops changing (the top of the board)."""
        for _ in range(MAX_SCROLLS):
            self.drag_rows(view, -max(1, view.capacity - 1))
            after = self.look_steady()
            if after.reading.rows == view.reading.rows and after.reading.grid.ys == view.reading.grid.ys:
                return after
            view = after
        raise NumberMatchClearError(f"the top of the board not reached after {MAX_SCROLLS} scrolls")

    def confirm(self, cells: tuple[int, ...], adds_left: int, board: BoardRun) -> bool:
        """True once the screen shows `cells` where the view should be (a few looks, as games lag)."""
        assert self.view is not None
        expected = board_text(cells, WIDTH)
        board.most_rows = max(board.most_rows, len(expected))
        predicted = self.view.top
        for _ in range(LOOKS):
            try:
                view = self.look()
            except NumberMatchReadError:
                self.sleep(LOOK_PAUSE)
                continue
            top = _locate(expected, view.reading, predicted)
            badge = view.reading.adds_left
            if top is not None and (badge is None or badge == adds_left):
                view.top = top
                self.view = view
                return True
            self.sleep(LOOK_PAUSE)
        return False

    def wait_for_new_board(self) -> None:
        """After the last pair: the next stage's board shows whole (a new board starts at its top),
        and is not the last view of the old one (the screen may not have caught up yet)."""
        old = self.view.reading.rows if self.view is not None else None
        deadline = time.perf_counter() + NEW_BOARD_WAIT
        while time.perf_counter() < deadline:
            try:
                view = self.look()
            except NumberMatchReadError:
                self.sleep(LOOK_PAUSE)
                continue
            if view.reading.whole and view.reading.rows != old:
                return
            self.sleep(LOOK_PAUSE)
        raise NumberMatchClearError(f"no new board within {NEW_BOARD_WAIT:.0f} s of clearing one")

    # --- acting ------------------------------------------------------------------------------------

    def play(self, move: Move, cells: tuple[int, ...]) -> None:
        """Click a pair's two cells, or "+"."""
        assert self.view is not None
        if move.is_add:
            plus = self.view.reading.plus
            if plus is None:
                raise NumberMatchClearError('the "+" button is not on the screen')
            self.press(plus[0] + self.view.frame.left, plus[1] + self.view.frame.top)
            return
        for index in (move.a, move.b):
            row, col = divmod(index, WIDTH)
            self.bring_into_view(row, cells)
            self.press(*self.view.cell_point(row, col))

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
            self.drag_rows(self.view, step)
            self.scrolls += 1
            view = self.look_steady()
            top = _locate(expected, view.reading, self.view.top + step)
            if top is None:
                raise NumberMatchClearError(
                    "after scrolling, the screen does not show the board as it should be"
                )
            view.top = top
            self.view = view
        raise NumberMatchClearError(f"row {row + 1} could not be scrolled into view")

    def press(self, x: float, y: float) -> None:
        """One click, after the guard's look."""
        if self.guard is not None:
            self.guard.check(x, y)
        click(self.pointer, x, y, hold=CLICK_HOLD)
        self.sleep(SETTLE)

    def drag_rows(self, view: View, rows: int) -> None:
        """Drag the grid by `rows` rows (positive: later rows come up into view)."""
        grid = view.reading.grid
        distance = rows * grid.cell
        x = (grid.xs[0] + grid.xs[-1]) / 2 + view.frame.left
        low = grid.ys[0] + grid.cell * 0.3 + view.frame.top
        high = grid.ys[-1] - grid.cell * 0.3 + view.frame.top
        start = high if distance > 0 else low
        end = start - distance
        if self.guard is not None:
            self.guard.check(x, start)
        self.pointer.move(x, start)
        self.pointer.down()
        try:
            for step in range(1, 5):
                self.sleep(0.01)
                self.pointer.move(x, start + (end - start) * step / 4)
            self.sleep(0.02)
        finally:
            self.pointer.up()
        self.sleep(SETTLE)

    def _fence(self, view: View) -> None:
        """Keep the pointer on the game (the grid and the "+" under it) and arm the board guard."""
        grid, frame = view.reading.grid, view.frame
        bottom = view.reading.plus[1] if view.reading.plus else grid.ys[-1]
        if self.region is None and hasattr(self.pointer, "bounds"):
            left = int(grid.xs[0] - grid.cell * 0.5) + frame.left
            top = int(grid.ys[0] - grid.cell) + frame.top
            right = int(grid.xs[-1] + grid.cell * 0.5) + frame.left
            low = int(bottom + grid.cell) + frame.top
            self.pointer.bounds = Region(left, top, right - left, low - top)  # type: ignore[attr-defined]
        spots = []
        middle = round((grid.ys[0] + grid.ys[-1]) / 2)
        for x in (round(grid.xs[0]), round(grid.xs[-1])):
            spots.append(_spot(frame, x, middle))
        if view.reading.plus is not None:
            # Beside the cross, on the round button: its colour stays when the cross greys out.
            px, py = view.reading.plus
            offset = round(grid.cell * 0.3)
            spots.append(_spot(frame, round(px) - offset, round(py) + offset))
        board = Region(
            round(grid.xs[0]) + frame.left,
            round(grid.ys[0]) + frame.top,
            round(grid.xs[-1] - grid.xs[0]),
            round(grid.ys[-1] - grid.ys[0]),
        )
        self.guard = BoardGuard(self.screen, spots, board, self.windows, radius=1)
        if hasattr(self.pointer, "guard"):
            self.pointer.guard = self.guard  # type: ignore[attr-defined] - its cheap look runs mid-drag too


def _spot(frame: Frame, x: int, y: int) -> Spot:
    """A guard spot at a frame pixel, in screen coordinates, with the colour it shows now."""
    blue, green, red = (int(value) for value in frame.pixels[y, x])
    return Spot(x + frame.left, y + frame.top, (blue, green, red))


def _overlap_shift(before: tuple[str, ...], after: tuple[str, ...], step: int) -> int | None:
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


def _locate(expected: tuple[str, ...], reading: Reading, predicted: int) -> int | None:
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


def run_numbermatch_clear(*, count: int | None, region: Region | None, as_json: bool, out, err) -> int:
    """Play Number Match on the real screen with the real mouse, print the summary, return the exit code."""
    import json

    from flowbot.modes.live import game_on_screen

    with game_on_screen(region) as game:  # the same screen, pointer space and guard as Flow's bot
        loop = NumberMatchClear(game.screen, game.pointer, region, count, windows=game.windows)
        report = loop.run()
    if as_json:
        record = {
            "boards": len(report.boards),
            "cleared": report.cleared,
            "seconds_per_board_median": round(report.seconds_median(), 2),
            "per_board": [
                {
                    "cleared": board.cleared,
                    "moves": board.moves,
                    "adds": board.adds,
                    "rereads": board.rereads,
                    "rows": board.most_rows,
                    "scrolled": board.scrolled,
                    "seconds": round(board.seconds, 2),
                }
                for board in report.boards
            ],
            "stopped": report.stopped,
        }
        out.write(json.dumps(record) + "\n")
    else:
        out.write(report.summary() + "\n")
    if report.halt is not None:
        raise report.halt
    short = count is not None and report.cleared < count
    return NumberMatchClearError.exit_code if short or report.stopped else 0
