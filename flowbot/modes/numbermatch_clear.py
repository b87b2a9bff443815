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
from flowbot.act.pointer import Pointer, StopRun, stop_signals
from flowbot.capture.screen import Region, Screen
from flowbot.errors import FlowbotError
from flowbot.live.clock import Clock, SystemClock
from flowbot.live.rounds import play_rounds
from flowbot.live.watch import until_done
from flowbot.modes.numbermatch_act import Pressing
from flowbot.modes.numbermatch_confirm import Confirming
from flowbot.modes.numbermatch_guard import BoardChangedError, BoardEndedError, NumberMatchGuard
from flowbot.modes.numbermatch_learn import RuleLearner
from flowbot.modes.numbermatch_plan import LinePlanner
from flowbot.modes.numbermatch_view import (
    WIDTH,
    BoardRun,
    NoBoardError,
    NumberMatchClearError,
    Scrolling,
    View,
)
from flowbot.numbermatch import evidence
from flowbot.numbermatch.board import Move, apply_move, find_pairs
from flowbot.numbermatch.game import board_text
from flowbot.numbermatch.rules import Rules

log = logging.getLogger(__name__)

__all__ = ["BoardRun", "ClearReport", "NoBoardError", "NumberMatchClear", "NumberMatchClearError", "View"]

REPLANS = 3  # whole-board rereads a board may need before the run stops


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
class Line:
    """Where play on one board stands: the board as known, the adds left, the moves still to play,
    and how many fresh reads in a row found the board not as the rules said."""

    cells: tuple[int, ...]
    adds_left: int
    moves: tuple[Move, ...] = ()
    stale: int = 0


class NumberMatchClear(Pressing, Confirming, Scrolling, LinePlanner, RuleLearner):
    """The live loop over boards (see the module's docstring): Number Match's observer (views,
    scrolling), plan (the solver's line), moves (clicks) and confirmations, on the engine's rounds
    and watch."""

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
        self.fence_view(view)

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
        """Read, solve and play one board until it is cleared (the screen shows it empty): turn after
        turn (a move decided, played, and confirmed on the screen)."""
        started = self.clock.now()
        scrolls_before = self.scrolls
        line = Line(*self.scan(board))
        line.moves = self.plan(line.cells, line.adds_left)
        until_done(lambda: self.turn(board, line, watch))
        board.scrolled = board.scrolled or self.scrolls > scrolls_before
        board.cleared = True
        board.seconds = self.clock.now() - started

    def turn(self, board: BoardRun, line: Line, watch) -> bool | None:
        """One move: decided, played and confirmed; True once the board is cleared (None: go on)."""
        move = self.next_move(line, watch)
        rules = self.rules_with(line.adds_left)
        after = apply_move(line.cells, move, rules)
        left_after = line.adds_left - 1 if move.is_add and self.rules.adds_limited else line.adds_left
        log.debug(
            "move %s on %s, expecting %s",
            move,
            " ".join(board_text(line.cells, WIDTH)),
            " ".join(board_text(after, WIDTH)),
        )
        if not self.played(board, line, move, rules):
            return None
        if not after:
            if not self.left_over(move):
                count_taken(board, move)
                return True  # the board is gone: the next one is looked for by `run`
            # Digits are still there: the pair not taken, or digits the board as read did not have.
        elif self.confirm(after, left_after, board):
            count_taken(board, move)
            self.taken(line, move, rules, after, left_after)
            return None
        return self.not_confirmed(board, line, move, after)

    def next_move(self, line: Line, watch) -> Move:
        """The next move of the line (a new line where the game adds without limit and the line ran
        out with digits left); a stop asked for is raised first."""
        if watch.error() is not None:
            raise watch.error()  # type: ignore[misc]
        if not line.moves and line.cells and not self.rules.adds_limited:
            # A new line, with adds of its own (a game that ends the board says so by drawing over it).
            line.moves = self.plan(line.cells, line.adds_left)
        if not line.moves:
            raise NumberMatchClearError(
                f"the board cannot be cleared under the rules found ({evidence.rules_text(self.rules)}); "
                f"no move left on it: {' '.join(board_text(line.cells, WIDTH))}"
            )
        move, line.moves = line.moves[0], line.moves[1:]
        return move

    def played(self, board: BoardRun, line: Line, move: Move, rules: Rules) -> bool:
        """Play a move; False when the game changed the board under it (it took an earlier click
        late, or drew something new): then the board is read again and a new line planned."""
        try:
            self.play(move, line.cells, rules)
        except BoardEndedError:
            self.ended_stuck(line.cells, line.adds_left, "the game ended the board")  # its end shown late
            raise
        except BoardChangedError as changed:
            log.info("%s: reading the board again", changed)
            line.stale += 1
            if line.stale > REPLANS:
                raise
            board.rereads += 1
            seen, line.adds_left = self.scan(board)
            self.learn_unprompted(line.cells, seen)
            line.cells = seen
            line.moves = self.plan(line.cells, line.adds_left)
            return False
        return True

    def taken(self, line: Line, move: Move, rules: Rules, after: tuple[int, ...], left_after: int) -> None:
        """A move the screen confirmed: the kind of pair the game took noted (an add counts when taken
        while a pair was left), and the line planned again after the first of a kind taken late."""
        kind = "add" if move.is_add else evidence.line_kind(move, WIDTH)
        first = kind not in self.confirmed
        if not move.is_add or find_pairs(line.cells, rules):
            self.confirmed.add(kind)
        line.cells, line.adds_left = after, left_after
        if first and kind in ("diagonal", "wrap") and line.moves:
            line.moves = self.plan(line.cells, line.adds_left)  # the line may need a kind not yet taken

    def not_confirmed(self, board: BoardRun, line: Line, move: Move, after: tuple[int, ...]) -> bool | None:
        """A move the screen did not confirm: the board read again (see reread) and a new line
        planned; True when the board read is empty (cleared)."""
        try:
            self.guard.check_present()  # a window over the game, or the game gone: stop, say so
        except BoardEndedError:
            # The game drew over its board: the board the pair left (or "+" was pressed on) ended.
            left_after = line.adds_left - 1 if move.is_add and self.rules.adds_limited else line.adds_left
            known = (line.cells, line.adds_left) if move.is_add else (after, left_after)
            self.ended_stuck(*known, "the game ended the board")
            raise
        seen, seen_adds, learnt = self.reread(board, move, line.cells, line.adds_left, after)
        unchanged = evidence.trimmed(seen) == evidence.trimmed(line.cells)
        line.stale = 0 if learnt or not unchanged else line.stale + 1
        if line.stale > REPLANS:
            raise NumberMatchClearError(
                f"the board did not change as the rules say after {REPLANS} fresh reads; stopped"
            )
        if not learnt:
            log.info("the screen does not show the board the move should give: reading it all again")
        if move.is_add and unchanged and not learnt:
            seen_adds = 0  # "+" did nothing and no rule explains it: no add is left
        line.cells, line.adds_left = seen, seen_adds
        if not line.cells:
            return True
        line.moves = self.plan(line.cells, line.adds_left)
        return None

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
        out.write(json.dumps(_json_record(report, count)) + "\n")
    else:
        out.write(report.summary() + "\n")
    if report.halt is not None:
        raise report.halt
    return exit_code(report)


def _json_record(report: ClearReport, count: int | None) -> dict:
    """The run's one JSON line (--json): boards, per board, the rules learnt, clicks and the stop."""
    from flowbot.act.pointer import Interrupted  # a stop signal, told apart from any other stop

    return {
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
        "interrupted": isinstance(report.halt, Interrupted),
    }


def exit_code(report: ClearReport) -> int:
    """0 when the run did what it was asked, else the stop's own status (4 short, 9 no board)."""
    if report.error is not None:
        return report.error.exit_code
    short = report.count is not None and report.cleared < report.count
    failed = any(not board.cleared for board in report.boards) or not report.boards
    return NumberMatchClearError.exit_code if short or failed or report.stopped else 0
