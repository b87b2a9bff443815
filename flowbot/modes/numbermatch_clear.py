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
from dataclasses import dataclass, field, replace

from flowbot.act.guard import Windows
from flowbot.act.pointer import Pointer, StopRun, click, stop_signals
from flowbot.capture.screen import Frame, Region, Screen
from flowbot.errors import FlowbotError
from flowbot.live.clock import Clock, SystemClock
from flowbot.live.rounds import play_rounds
from flowbot.modes.numbermatch_guard import BoardChangedError, BoardEndedError, NumberMatchGuard
from flowbot.numbermatch import evidence
from flowbot.numbermatch.board import Move, apply_move, find_pairs
from flowbot.numbermatch.game import board_text
from flowbot.numbermatch.read import NumberMatchReadError, Reading, read_board
from flowbot.numbermatch.rules import WRAP_NONE, Rules, Scoring
from flowbot.numbermatch.search import WON, solve, solve_best

log = logging.getLogger(__name__)

WIDTH = 9
SETTLE = 0.03  # seconds after a click or drag before the screen is looked at
LOOKS = 8  # looks at the screen for it to show what a move should have made
LOOK_PAUSE = 0.05
NEW_BOARD_WAIT = 5.0  # seconds for the next stage's board to show
REFUSE_SECONDS = 6.0  # a board unchanged this long after a move: the game refused it (a loaded browser lags)
REPLANS = 3  # whole-board rereads a board may need before the run stops
SOLVE_SECONDS = 20.0
# Seconds for a line that never leaves the board with no pair while an add is left, where the game
# may end such a board: on random boards one is found in under a second when there is one; then a
# line that may leave none is looked for (SOLVE_SECONDS).
KEEP_A_PAIR_SECONDS = 5.0
CLICK_HOLD = 0.02
MAX_SCROLLS = 60  # scrolls while looking for the top or the end of a board
# How a board may scroll, in the order tried: a drag (a phone, the bundled game), the wheel (a web page).
SCROLL_WAYS = ("drag", "wheel")
# Adds a plan may use in a game that adds without limit: each one doubles the digits to search.
UNLIMITED_PLAN_ADDS = 3
# Seconds a plan first gets without the moves the game has not yet been seen to take (the phone
# game's diagonals and row-end wraps, and adds while a pair is left, which some games refuse): a win
# that needs none of them risks no refused click.
CAUTIOUS_SECONDS = 1.0
# Pairs of a kind the game has not yet taken tried as a winning line's first move (each one solve).
PROBES = 4
# When no line clears the board: the line that takes the most pairs (a row or a win is worth nothing more).
PAIRS_ONLY = Scoring(near_pair=1, far_pair=1, row=0, board=0)


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
class ClearReport:
    """What a run did, board by board, and why it stopped early (None: it did what it was asked);
    the rules it ended with and what taught them, its clicks and the clicks the game did not take."""

    boards: list[BoardRun] = field(default_factory=list)
    stopped: str | None = None
    halt: StopRun | None = None
    error: FlowbotError | None = None
    count: int | None = None
    rules: Rules = field(default_factory=Rules)
    lessons: list[str] = field(default_factory=list)
    clicks: int = 0
    wrong_clicks: int = 0

    @property
    def cleared(self) -> int:
        """Boards cleared."""
        return sum(board.cleared for board in self.boards)

    def seconds_median(self) -> float:
        """Median seconds per cleared board (0 without one)."""
        times = [board.seconds for board in self.boards if board.cleared]
        return statistics.median(times) if times else 0.0

    def summary(self) -> str:
        """One line for a person (the asked-for count named only when one was asked for)."""
        if self.count is not None:
            text = f"cleared {self.cleared} of {self.count} Number Match boards (--count {self.count})"
        else:
            text = f"cleared {self.cleared} Number Match board{'s' if self.cleared != 1 else ''}"
            if len(self.boards) != self.cleared:
                text += f" ({len(self.boards) - self.cleared} not cleared)"
        if self.cleared:
            text += f", {self.seconds_median():.1f} s per board (median)"
        if self.lessons:
            text += "; rules learnt: " + "; ".join(self.lessons)
        if self.wrong_clicks:
            text += f"; {self.wrong_clicks} of {self.clicks} clicks not taken"
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
        clock: Clock | None = None,
        rules: Rules | None = None,
        fixed: frozenset[str] = frozenset(),
    ) -> None:
        self.screen, self.pointer, self.region, self.count = screen, pointer, region, count
        self.windows = windows
        self.clock = clock or SystemClock()  # every wait and deadline (a fake one in tests)
        self.guard = NumberMatchGuard(screen, windows, region)
        self.guard.sleep = self.clock.sleep
        self._view: View | None = None
        self.fenced = False
        self.scrolls = 0  # scrolls made to bring a cell into view, over the run
        self.scroll_way: str | None = None  # how this game scrolls ("drag", "wheel"), once seen
        self.notch: float | None = None  # pixels a notch of the wheel scrolls, once measured
        self._wheeled = 0  # notches of the last turn of the wheel, until measured
        self.rules = rules or Rules()  # the phone game's, until the game shows otherwise
        self.fixed = fixed  # Rules fields set on the command line: never changed
        self.lessons: list[str] = []
        self.confirmed: set[str] = set()  # pair kinds the game has taken ('diagonal', 'wrap')
        self.clicks = 0
        self.wrong_clicks = 0
        self.add_point: tuple[float, float] | None = None  # an add control found by its label (screen)
        self.add_anchor = 0.0  # where the board's first row was on screen when the control was found

    @property
    def view(self) -> View | None:
        """The last look at the board the bot acts on."""
        return self._view

    @view.setter
    def view(self, view: View) -> None:
        """A new look to act on: the guard checks for this board from now on."""
        self._view = view
        self._fence(view)

    # --- the run -------------------------------------------------------------------------------------

    def run(self) -> ClearReport:
        """Clear boards until `count` are cleared (or for ever), through the one driver every live
        game runs on; a stop is kept in the report."""
        report = ClearReport(count=self.count)
        with stop_signals() as watch:
            try:
                play_rounds(_Boards(self, report, watch), self.count)
            except StopRun as stop:
                report.stopped, report.halt = str(stop), stop
            except FlowbotError as error:
                report.stopped, report.error = str(error), error
        if report.stopped is None and self.count is not None and report.cleared < self.count:
            report.stopped = f"no next board came after {report.cleared} (--count {self.count})"
        report.rules, report.lessons = self.rules, self.lessons
        report.clicks, report.wrong_clicks = self.clicks, self.wrong_clicks
        return report

    def play_board(self, board: BoardRun, watch) -> None:
        """Read, solve and play one board until it is cleared (the screen shows it empty)."""
        started = self.clock.now()
        scrolls_before = self.scrolls
        cells, adds_left = self.scan(board)
        line = self.plan(cells, adds_left)
        stale = 0
        while True:
            if watch.error() is not None:
                raise watch.error()  # type: ignore[misc]
            if not line and cells and not self.rules.adds_limited:
                # The line ran out with digits left where the game adds without limit: a new line,
                # with adds of its own (a game that ends the board says so by drawing over it).
                line = self.plan(cells, adds_left)
            if not line:
                raise NumberMatchClearError(
                    f"the board cannot be cleared under the rules found ({evidence.rules_text(self.rules)}); "
                    f"no move left on it: {' '.join(board_text(cells, WIDTH))}"
                )
            move, line = line[0], line[1:]
            rules = self.rules_with(adds_left)
            after = apply_move(cells, move, rules)
            left_after = adds_left - 1 if move.is_add and self.rules.adds_limited else adds_left
            log.debug(
                "move %s on %s, expecting %s",
                move,
                " ".join(board_text(cells, WIDTH)),
                " ".join(board_text(after, WIDTH)),
            )
            try:
                self.play(move, cells, rules)
            except BoardEndedError:
                self.ended_stuck(cells, adds_left, "the game ended the board")  # its end shown late
                raise
            except BoardChangedError as changed:
                # The game took an earlier click late (or drew something new): read it all again.
                log.info("%s: reading the board again", changed)
                stale += 1
                if stale > REPLANS:
                    raise
                board.rereads += 1
                seen, adds_left = self.scan(board)
                self.learn_unprompted(cells, seen)
                cells = seen
                line = self.plan(cells, adds_left)
                continue
            if not after:
                if not self.left_over(move):
                    count_taken(board, move)
                    break  # the board is gone: the next one is looked for by `run`
                # Digits are still there: the pair not taken, or digits the board as read did not have.
            elif self.confirm(after, left_after, board):
                count_taken(board, move)
                kind = "add" if move.is_add else evidence.line_kind(move, WIDTH)
                first = kind not in self.confirmed
                if not move.is_add or find_pairs(cells, rules):
                    self.confirmed.add(kind)  # an add counts when taken while a pair was left
                cells, adds_left = after, left_after
                if first and kind in ("diagonal", "wrap") and line:
                    line = self.plan(cells, adds_left)  # the line may still need a kind not yet taken late
                continue
            try:
                self.guard.check_present()  # a window over the game, or the game gone: stop, say so
            except BoardEndedError:
                # The game drew over its board: the board the pair left (or "+" was pressed on) ended.
                known = (cells, adds_left) if move.is_add else (after, left_after)
                self.ended_stuck(*known, "the game ended the board")
                raise
            seen, seen_adds, learnt = self.reread(board, move, cells, adds_left, after)
            unchanged = evidence.trimmed(seen) == evidence.trimmed(cells)
            stale = 0 if learnt or not unchanged else stale + 1
            if stale > REPLANS:
                raise NumberMatchClearError(
                    f"the board did not change as the rules say after {REPLANS} fresh reads; stopped"
                )
            if not learnt:
                log.info("the screen does not show the board the move should give: reading it all again")
            if move.is_add and unchanged and not learnt:
                seen_adds = 0  # "+" did nothing and no rule explains it: no add is left
            cells, adds_left = seen, seen_adds
            if not cells:
                break
            line = self.plan(cells, adds_left)
        board.scrolled = board.scrolled or self.scrolls > scrolls_before
        board.cleared = True
        board.seconds = self.clock.now() - started

    def reread(
        self, board: BoardRun, move: Move, cells: tuple[int, ...], adds_left: int, after: tuple[int, ...]
    ) -> tuple[tuple[int, ...], int, bool]:
        """After a move the screen did not confirm: the whole board read again once the game had its
        time, the move counted only when the board shows it taken, and the rule that explains what
        it shows learnt. Returns (board, adds left, whether a rule was learnt)."""
        board.rereads += 1
        self.wait_for_change()
        seen, seen_adds = self.scan(board)
        before = evidence.trimmed(cells)
        if evidence.trimmed(seen) == before and not move.is_add:
            try:
                self.deselect(move, cells)
            except BoardChangedError:
                seen, seen_adds = self.scan(board)  # the pair was taken after all, late
        if evidence.trimmed(seen) == before:
            self.wrong_clicks += 1 if move.is_add else 2
            pressed = move.is_add and not self.rules.auto_add  # (a game that adds by itself gets no press)
            if pressed and self.ended_stuck(cells, adds_left, '"+" did nothing'):
                raise NumberMatchClearError(
                    '"+" did nothing on a board with no pair left: the game has ended it; '
                    f"left on it: {' '.join(board_text(cells, WIDTH))}"
                )
        elif evidence.took(cells, move, seen):
            count_taken(board, move)  # taken, though not as the rules found said (learnt next)
        return seen, seen_adds, self.learn(cells, move, after, seen)

    def wait_for_change(self) -> None:
        """Before a move is taken as refused: the screen must go on showing the board as it was
        before the move for REFUSE_SECONDS (a browser under load takes a click late)."""
        assert self.view is not None
        before = self.view.reading.rows
        deadline = self.clock.now() + REFUSE_SECONDS
        while self.clock.now() < deadline:
            try:
                if self.look().reading.rows != before:
                    return
            except NumberMatchReadError:
                return
            self.clock.sleep(LOOK_PAUSE)

    def left_over(self, move: Move) -> bool:
        """After what should have been the board's last pair: True when the board still shows (the
        screen as before the pair for REFUSE_SECONDS, or that pair's cells cleared and digits left
        elsewhere); False when it is gone, or a new board shows (other digits at the pair's cells)."""
        assert self.view is not None
        before = self.view
        deadline = self.clock.now() + REFUSE_SECONDS
        while self.clock.now() < deadline:
            self.clock.sleep(LOOK_PAUSE)
            try:
                view = self.look()
            except NumberMatchReadError:
                return False
            grid = view.reading.grid
            if abs(grid.xs[0] + view.frame.left - before.reading.grid.xs[0] - before.frame.left) > 2:
                return False
            text = view.reading.rows
            if text == before.reading.rows:
                continue  # not taken yet (a loaded browser takes clicks late)
            shown = [
                (row - before.top, col) for row, col in (divmod(index, WIDTH) for index in (move.a, move.b))
            ]
            if any(not 0 <= row < len(text) for row, _ in shown):
                return False
            if all(not text[row][col].isdigit() for row, col in shown):
                return any(char.isdigit() for line in text for char in line)
            return False
        return True

    def rules_with(self, adds_left: int) -> Rules:
        """The rules found so far, with the adds a plan may still use."""
        return replace(self.rules, adds=max(adds_left, 0))

    def plan(self, cells: tuple[int, ...], adds_left: int) -> tuple[Move, ...]:
        """The solver's winning line for the board as read under the rules found; with none, the
        line that takes the most pairs (said in the log), which may be empty."""
        limited = self.rules.adds_limited
        budgets = [max(adds_left, 0)] if limited else list(range(UNLIMITED_PLAN_ADDS + 1))
        untried: dict[str, object] = {
            field: off
            for field, kind, off in (("diagonals", "diagonal", False), ("wrap", "wrap", WRAP_NONE))
            if getattr(self.rules, field) != off and field not in self.fixed and kind not in self.confirmed
        }
        # Some games refuse "+" while a pair is left: a plan that adds only when stuck risks nothing
        # there, but loses where the game ends a board with no pair left (the rules may not say).
        if (
            not self.rules.add_when_stuck
            and "add_when_stuck" not in self.fixed
            and "add" not in self.confirmed
            and not self.rules.stuck_may_end
        ):
            untried["add_when_stuck"] = True
        if untried:
            cautious = replace(self.rules, adds=budgets[-1], **untried)
            answer = solve(cells, cautious, timeout=CAUTIOUS_SECONDS)
            # Its adds must come where no pair is left under the full rules too.
            stuck_only = self.rules.add_when_stuck or "add_when_stuck" in untried
            full = replace(self.rules, adds=budgets[-1], add_when_stuck=stuck_only)
            if answer.status == WON and evidence.adds_allowed(cells, answer.moves, full):
                return answer.moves
        # Not known whether the game ends a board with no pair left: a while for a line that keeps
        # one, then a line that may not, which is the board's only chance if none is found.
        unknown_end = self.rules.ends_without_pairs is None and self.rules.stuck_may_end
        seconds = KEEP_A_PAIR_SECONDS if unknown_end else SOLVE_SECONDS
        for budget in budgets:
            rules = replace(self.rules, adds=budget)
            answer = solve(cells, rules, timeout=seconds / len(budgets))
            if answer.status == WON:
                return self.untried_first(cells, answer.moves, rules, untried)
        if unknown_end:
            line = self.win_leaving_no_pair(cells, budgets[-1], untried)
            if line:
                return line
        rules = replace(self.rules, adds=budgets[-1])
        best = solve_best(cells, rules, PAIRS_ONLY, timeout=SOLVE_SECONDS)
        pairs = sum(not move.is_add for move in best.moves)
        log.warning(
            "no win found for the board on screen under %s: playing the line that takes the most pairs (%d)",
            evidence.rules_text(rules),
            pairs,
        )
        return best.moves

    def win_leaving_no_pair(
        self, cells: tuple[int, ...], adds: int, untried: dict[str, object]
    ) -> tuple[Move, ...]:
        """A winning line that may leave the board with no pair while an add is left, when none that
        keeps one was found: it loses only where the game ends such a board, where the board is lost
        anyway (and the rule is learnt). Empty when there is none either."""
        rules = replace(self.rules, adds=adds, ends_without_pairs=False)
        answer = solve(cells, rules, timeout=SOLVE_SECONDS)
        if answer.status != WON:
            return ()
        log.warning(
            "no win found that keeps a pair on the board while adds are left: playing one that may not "
            "(a game that ends a board with no pair left would end this one)"
        )
        return self.untried_first(cells, answer.moves, rules, untried)

    def untried_first(
        self, cells: tuple[int, ...], line: tuple[Move, ...], rules: Rules, untried: dict[str, object]
    ) -> tuple[Move, ...]:
        """A winning line that needs pairs of a kind the game has not yet been seen to take, made to
        start with one such pair when a win follows it: a refusal then comes while the board still
        has its pairs and adds (at the line's end it can cost the board)."""
        kinds = {field: off for field, off in untried.items() if field in ("diagonals", "wrap")}
        if not kinds or not line or line[0].is_add:
            return line
        safe = set(find_pairs(cells, replace(rules, **kinds)))
        risky = [Move(a, b) for a, b in find_pairs(cells, rules) if (a, b) not in safe]
        if line[0] in risky:
            return line
        for move in risky[:PROBES]:
            after = apply_move(cells, move, rules)
            if rules.stuck_may_end and after and not find_pairs(after, rules):
                continue  # it would leave no pair, which may end the game with adds unused
            answer = solve(after, rules, timeout=CAUTIOUS_SECONDS)
            if answer.status == WON:
                log.info("playing %s first: a pair of a kind the game has not yet taken", move)
                return (move, *answer.moves)
        return line

    # --- learning the rules -----------------------------------------------------------------------

    def learn(
        self, before: tuple[int, ...], move: Move, expected: tuple[int, ...], seen: tuple[int, ...]
    ) -> bool:
        """Adopt the rule that explains why the board shows `seen` and not `expected` after `move`
        from `before`; True when a rule changed (said in the log and the report)."""
        before, seen = evidence.trimmed(before), evidence.trimmed(seen)
        if move.is_add:
            if seen == before:
                if find_pairs(before, self.rules) and not self.rules.add_when_stuck:
                    return self.adopt("add_when_stuck", True, '"+" did nothing while a pair was left')
                return False
            appended = evidence.appended(before, seen)
            if appended is None:
                return False
            kind = evidence.add_kind(before, appended)
            return self.adopt("add", kind, f'"+" added {evidence.digits(appended)}')
        if seen == before:
            kind = evidence.line_kind(move, WIDTH)
            if kind == "diagonal" and self.rules.diagonals:
                return self.adopt(
                    "diagonals", False, f"a diagonal pair {evidence.cells_text(move)} was refused"
                )
            if kind == "wrap" and self.rules.wrap != WRAP_NONE:
                wrap = evidence.wrap_refused(before, move, self.rules)
                return self.adopt(
                    "wrap", wrap, f"a pair across a row's end {evidence.cells_text(move)} was refused"
                )
            return False
        kept = replace(self.rules, clear_rows=False)
        if self.rules.clear_rows and seen == evidence.trimmed(apply_move(before, move, kept)):
            return self.adopt("clear_rows", False, "an emptied row stayed in place")
        return self.learn_unprompted(expected, seen)

    def learn_unprompted(self, before: tuple[int, ...], seen: tuple[int, ...]) -> bool:
        """A board with no pair left that grew with no "+" pressed: the game adds by itself when
        stuck (and its add's kind shows); True when a rule changed."""
        if self.rules.auto_add or find_pairs(before, self.rules):
            return False
        appended = evidence.appended(before, seen)
        if appended is None:
            return False
        learnt = self.adopt(
            "auto_add", True, f"the game added {evidence.digits(appended)} by itself when stuck"
        )
        kind = evidence.add_kind(before, appended)
        if kind != self.rules.add:
            self.adopt("add", kind, f"its add was {kind}")
        return learnt

    def ended_stuck(self, cells: tuple[int, ...], adds_left: int, sign: str) -> bool:
        """After the game gave `sign` of the board's end (its end screen, a "+" it did not take): True
        when the board as known had no pair left and adds unused, which teaches that the game ends a
        board the moment no pair is left (said in the log and the report)."""
        if not cells or find_pairs(cells, self.rules):
            return False
        if self.rules.adds_limited and adds_left <= 0:
            return False  # out of adds: any game ends there
        unused = f"{adds_left} add{'s' if adds_left != 1 else ''}" if self.rules.adds_limited else "adds"
        self.adopt("ends_without_pairs", True, f"{sign} when no pair was left, {unused} unused")
        return True

    def adopt(self, name: str, value: object, because: str) -> bool:
        """Set one rule (unless the command line fixed it); True when it changed."""
        if name in self.fixed or getattr(self.rules, name) == value:
            return False
        self.rules = replace(self.rules, **{name: value})
        lesson = f"{because}: {name.replace('_', '-')}={evidence.value_text(value)}"
        self.lessons.append(lesson)
        log.warning("rule found from the game: %s", lesson)
        return True

    # --- looking -----------------------------------------------------------------------------------

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
        previous = None
        error: FlowbotError | None = None
        for _ in range(LOOKS):
            try:
                view = self.look()
            except NumberMatchReadError as problem:
                error, previous = problem, None
                self.clock.sleep(LOOK_PAUSE)
                continue
            if previous is not None and previous.reading.rows == view.reading.rows:
                return view
            previous = view
            self.clock.sleep(LOOK_PAUSE)
        if previous is not None:
            return previous
        raise NoBoardError(f"no Number Match board reads on the screen: {error}")

    def scan(self, board: BoardRun) -> tuple[tuple[int, ...], int]:
        """The whole board (scrolled to its top, then down through it) and the adds left; the view
        ends wherever the last look left it, with `top` set."""
        view = self.look_steady()
        self._fence(view)
        # A board nearly as tall as the view, or any board of a game seen to scroll, may be scrolled
        # even when its first row looks like the grid's top (a row cut exactly at the header's
        # edge): scroll up until nothing moves.
        tall = len(view.reading.rows) >= view.capacity - 2 and not view.reading.grid.bottom_visible
        if not view.reading.whole or tall or self.scroll_way is not None:
            view = self._to_top(view)
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
            shift = _overlap_shift(view.reading.rows, after.reading.rows, step)
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

    def _to_top(self, view: View) -> View:
        """Scroll up until the view stops changing (the top of the board)."""
        for _ in range(MAX_SCROLLS):
            after, _ = self.scroll(view, -max(1, view.capacity - 1))
            if after is None:
                return self.look_steady()
            view = after
        raise NumberMatchClearError(f"the top of the board not reached after {MAX_SCROLLS} scrolls")

    def confirm(self, cells: tuple[int, ...], adds_left: int, board: BoardRun) -> bool:
        """True once the screen shows `cells` where the view should be (a few looks, as games lag)."""
        assert self.view is not None
        expected = board_text(cells, WIDTH)
        predicted = self.view.top
        for _ in range(LOOKS):
            try:
                view = self.look()
            except NumberMatchReadError:
                self.clock.sleep(LOOK_PAUSE)
                continue
            top = _locate(expected, view.reading, predicted)
            badge = view.reading.adds_left
            if top is not None and (badge is None or badge == adds_left or not self.rules.adds_limited):
                view.top = top
                self.view = view
                board.most_rows = max(board.most_rows, len(expected))  # rows the game has shown
                return True
            self.clock.sleep(LOOK_PAUSE)
        return False

    def next_board_shows(self) -> bool:
        """After a board was cleared: True once a new board shows whole (a new board starts at its
        top) and is not the last view of the old one (the screen may not have caught up yet); False
        when none comes within NEW_BOARD_WAIT (a game that ends on a won screen)."""
        old = self.view.reading.rows if self.view is not None else None
        deadline = self.clock.now() + NEW_BOARD_WAIT
        while self.clock.now() < deadline:
            try:
                view = self.look()
            except NumberMatchReadError:
                self.clock.sleep(LOOK_PAUSE)
                continue
            if view.reading.whole and view.reading.rows != old:
                return True
            self.clock.sleep(LOOK_PAUSE)
        return False

    # --- acting ------------------------------------------------------------------------------------

    def play(self, move: Move, cells: tuple[int, ...], rules: Rules) -> None:
        """Click a pair's two cells, or "+" (not when the game adds by itself: it is stuck now)."""
        assert self.view is not None
        if move.is_add:
            if rules.auto_add and not find_pairs(cells, rules):
                return
            plus = self.view.reading.plus
            if plus is not None:
                self.press(plus[0] + self.view.frame.left, plus[1] + self.view.frame.top)
                return
            point = self.add_control(cells)
            if point is None:
                raise NumberMatchClearError('no "+" and no control labelled "add" on the screen')
            self.press(*point)
            return
        for index in (move.a, move.b):
            row, col = divmod(index, WIDTH)
            self.bring_into_view(row, cells)
            try:
                self.press(*self.view.cell_point(row, col))
            except BoardChangedError:
                if index == move.a:
                    raise
                # The first click moved the board (a message above it went away): the same board
                # elsewhere is found again, and its second cell pressed where it is now.
                self.relocate(cells)
                self.bring_into_view(row, cells)
                self.press(*self.view.cell_point(row, col))

    def relocate(self, cells: tuple[int, ...]) -> None:
        """Find the board `cells` again on the screen after it moved; BoardChangedError if it is not there."""
        assert self.view is not None
        expected = board_text(cells, WIDTH)
        for _ in range(LOOKS):
            view = self.look_steady()
            top = _locate(expected, view.reading, self.view.top)
            if top is not None:
                view.top = top
                self.view = view
                return
            self.clock.sleep(LOOK_PAUSE)
        raise BoardChangedError("the board moved and does not show as read any more; stopped before pressing")

    def deselect(self, move: Move, cells: tuple[int, ...]) -> None:
        """After a pair the game refused: click its second cell again, which the game then holds
        selected (the next click would pair with it)."""
        assert self.view is not None
        row, col = divmod(move.b, WIDTH)
        self.bring_into_view(row, cells)
        self.press(*self.view.cell_point(row, col))

    def add_control(self, cells: tuple[int, ...]) -> tuple[float, float] | None:
        """Where the add control labelled "add" is now: where it was found while the board has not
        moved on screen since; else looked for again (a page scrolled by the wheel takes the control
        with it), first in this view, then with the board's top row in view (the top of the page)."""
        assert self.view is not None
        if self.add_point is not None and abs(_board_y(self.view) - self.add_anchor) <= 2:
            return self.add_point
        self.add_point = None
        point = self.find_add_control(self.view)
        if point is None and self.view.top > 0:
            self.bring_into_view(0, cells)
            point = self.find_add_control(self.view)
        return point

    def find_add_control(self, view: View) -> tuple[float, float] | None:
        """The screen point of a control labelled "add" (read with OCR, once), or None."""
        from flowbot.numbermatch.controls import find_add_control

        found = find_add_control(view.frame.pixels, view.reading.grid)
        if found is not None:
            self.add_point = (found[0] + view.frame.left, found[1] + view.frame.top)
            self.add_anchor = _board_y(view)
            self._fence(view)
        return self.add_point

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
            top = _locate(expected, view.reading, self.view.top + moved)
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

    def press(self, x: float, y: float) -> None:
        """One click, after the guard's look."""
        self.guard.check(x, y)
        click(self.pointer, x, y, hold=CLICK_HOLD)
        self.clicks += 1
        self.clock.sleep(SETTLE)

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
            if _moved(view, after):
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

    def look_settled(self) -> View:
        """A look after a scroll: the same rows in the same place twice in a row (a page may glide
        to where the wheel sent it)."""
        previous = None
        for _ in range(2 * LOOKS):
            try:
                view = self.look()
            except NumberMatchReadError:
                previous = None
                self.clock.sleep(LOOK_PAUSE)
                continue
            if previous is not None and not _moved(previous, view):
                return view
            previous = view
            self.clock.sleep(LOOK_PAUSE)
        return previous if previous is not None else self.look_steady()

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

    def _fence(self, view: View) -> None:
        """Keep the pointer on the game (the grid, the "+" under it, an add control found by its
        label), growing the fence as the board grows; and arm the board guard."""
        grid, frame = view.reading.grid, view.frame
        xs = [grid.xs[0] - grid.cell * 0.5, grid.xs[-1] + grid.cell * 0.5]
        ys = [grid.ys[0] - grid.cell, grid.ys[-1] + grid.cell]
        if view.reading.plus is not None:
            ys.append(view.reading.plus[1] + grid.cell)
        xs, ys = [x + frame.left for x in xs], [y + frame.top for y in ys]
        if self.add_point is not None:
            xs.append(self.add_point[0])
            ys.append(self.add_point[1])
        if self.region is None and hasattr(self.pointer, "bounds"):
            if self.fenced:
                before = self.pointer.bounds  # type: ignore[attr-defined]
                xs += [before.left, before.left + before.width]
                ys += [before.top, before.top + before.height]
            left, top = int(min(xs)), int(min(ys))
            self.pointer.bounds = Region(left, top, int(max(xs)) + 1 - left, int(max(ys)) + 1 - top)  # type: ignore[attr-defined]
            self.fenced = True
        self.guard.arm(frame, view.reading)
        if hasattr(self.pointer, "guard"):
            self.pointer.guard = self.guard  # type: ignore[attr-defined] - its cheap look runs mid-drag too


@dataclass
class _Boards:
    """Number Match's boards as the rounds of a live run (flowbot.live.rounds), kept in `report`: a
    board is read when it is played, and the next one is the game's once it shows whole."""

    bot: NumberMatchClear
    report: ClearReport
    watch: object  # the stop signals' watch (act.pointer.stop_signals)

    def first(self) -> BoardRun:
        """The board on screen at the start, read when played (NoBoardError when none reads)."""
        return BoardRun()

    def check_stop(self) -> None:
        """Raise the stop a signal asked for since the last look."""
        if self.watch.error() is not None:
            raise self.watch.error()  # type: ignore[misc]

    def play(self, number: int, board: BoardRun) -> None:
        """Play one board until it is cleared (the screen shows it empty)."""
        self.report.boards.append(board)
        self.bot.play_board(board, self.watch)

    def following(self, board: BoardRun) -> BoardRun | None:
        """The next board once it shows whole; None when none comes (a game that ends on a won screen)."""
        self.check_stop()
        return BoardRun() if self.bot.next_board_shows() else None


def count_taken(board: BoardRun, move: Move) -> None:
    """A move the game was seen to take, counted in the board's report."""
    board.moves += 1
    board.adds += move.is_add


def _board_y(view: View) -> float:
    """The screen y of the board's first row's top edge (above the screen when scrolled past it)."""
    grid = view.reading.grid
    return grid.ys[0] + view.frame.top - view.top * grid.cell


def _moved(before: View, after: View) -> bool:
    """True when the board moved between two looks (other rows, or its rows somewhere else)."""
    old, new = before.reading, after.reading
    if old.rows != new.rows or len(old.grid.ys) != len(new.grid.ys):
        return True
    shift = (after.frame.top - before.frame.top, after.frame.left - before.frame.left)
    ys = any(abs(a + shift[0] - b) > 1 for a, b in zip(new.grid.ys, old.grid.ys, strict=True))
    return ys or abs(new.grid.xs[0] + shift[1] - old.grid.xs[0]) > 1


def _overlap_shift(before: tuple[str, ...], after: tuple[str, ...], step: float) -> int | None:
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


def run_numbermatch_clear(
    *,
    count: int | None,
    region: Region | None,
    as_json: bool,
    out,
    err,
    rules: str | None = None,
) -> int:
    """Play Number Match on the real screen with the real mouse, print the summary, return the exit
    code: 0 done, 4 stopped short, 9 no board read (NoBoardError); a stop signal or the guard's stop
    is raised again for the CLI."""
    import json

    from flowbot.errors import UsageError
    from flowbot.modes.live import game_on_screen
    from flowbot.numbermatch.errors import NumberMatchInputError
    from flowbot.numbermatch.rules import parse_rules

    try:
        fields = parse_rules(rules or "")
    except NumberMatchInputError as error:  # a command line's, as `game --rules` says it: exit 64
        raise UsageError(f"--rules: {error}") from None
    with game_on_screen(region) as game:  # the same screen, pointer space and window list as Flow's bot
        loop = NumberMatchClear(
            game.screen,
            game.pointer,
            region,
            count,
            windows=game.windows,
            rules=replace(Rules(), **fields),
            fixed=frozenset(fields),
        )
        report = loop.run()
    if as_json:
        record = {
            "boards": len(report.boards),
            "cleared": report.cleared,
            "count": count,
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
            "rules": report.rules.describe(),
            "lessons": report.lessons,
            "clicks": report.clicks,
            "wrong_clicks": report.wrong_clicks,
            "stopped": report.stopped,
        }
        out.write(json.dumps(record) + "\n")
    else:
        out.write(report.summary() + "\n")
    if report.halt is not None:
        raise report.halt
    return exit_code(report)


def exit_code(report: ClearReport) -> int:
    """0 when the run did what it was asked, else the stop's own status (4 short, 9 no board)."""
    if report.error is not None:
        return report.error.exit_code
    short = report.count is not None and report.cleared < report.count
    failed = any(not board.cleared for board in report.boards) or not report.boards
    return NumberMatchClearError.exit_code if short or failed or report.stopped else 0
