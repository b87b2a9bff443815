"""Exact search: a winning line or a proof there is none (`solve`), and the highest score (`solve_best`).

Both are depth-first over positions (the board after taking away cleared rows, and the adds left).
Digits are replaced by their class first (1/9, 2/8, 3/7, 4/6, 5): two digits pair exactly when their
classes are equal, so the search never needs the digits themselves and the moves it returns are
slot positions, valid on the digit board too.

`solve` remembers every position it has proved lost, with the most adds it was lost with (fewer
adds can only be worse, since an add is never forced). Nearly all the work of a hard board is in the
last stretch after the final add, where a big board can take many thousands of positions to refute
while another add timing wins at once; so each such stretch gets a node budget, a stretch over budget
is left undecided, and the whole search is run again with twice the budget until it finds a win or
finishes without leaving anything undecided (a proof). Proved losses carry over between rounds.

A line never leaves a board with no pair while an add is left, unless the rules say the game goes on
then (`Rules.stuck_may_end`): some games end the moment no pair is left, adds or not, so the add comes
before the last pair. The board searched from is the exception (the game is showing it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from flowbot.numbermatch.board import ADD, CLASS_TABLE, Move, Pair, _add, _pairs, _remove, normalize
from flowbot.numbermatch.prune import is_dead_end
from flowbot.numbermatch.rules import DEFAULT_RULES, DEFAULT_SCORING, Rules, Scoring
from flowbot.numbermatch.score import line_score, pair_points, score_bound

WON, NO_WIN, TIMEOUT = "won", "no-win", "timeout"

# Nodes a last stretch may use in the first round; doubled each round. Small, because most stretches
# that win do so within a few dozen nodes, and a refuted one is remembered for the next round anyway.
FIRST_BUDGET = 500


@dataclass(frozen=True, slots=True)
class Answer:
    """The win search's verdict: `won` with its moves, `no-win` (proved), or `timeout`."""

    status: str
    moves: tuple[Move, ...]
    nodes: int
    seconds: float


@dataclass(frozen=True, slots=True)
class BestAnswer:
    """The best-score search: the best line found, its score, and whether no line can score more.

    `status` answers the win question as `Answer.status` does; `first_win_score` is the score of the
    first winning line `solve` found (None without one), which `score` is never below.
    """

    status: str
    moves: tuple[Move, ...]
    score: int
    optimal: bool
    first_win_score: int | None
    nodes: int
    seconds: float


class _Timeout(Exception):
    """The time limit passed inside a search."""


def solve(
    cells: Sequence[int],
    rules: Rules = DEFAULT_RULES,
    *,
    timeout: float | None = None,
    nodes: int | None = None,
) -> Answer:
    """Find a line of moves that clears the board, or prove none exists; give up after `timeout` s
    or `nodes` positions, whichever comes first (a node limit gives the same answer on any machine)."""
    started = time.perf_counter()
    search = _WinSearch(rules, None if timeout is None else started + timeout, nodes)
    root = normalize(bytes(cells), rules.width, rules.clear_rows).translate(CLASS_TABLE)
    budget = FIRST_BUDGET
    try:
        while True:
            line = search.run(root, budget)
            if line is not None:
                return Answer(WON, line, search.nodes, time.perf_counter() - started)
            if search.complete:
                return Answer(NO_WIN, (), search.nodes, time.perf_counter() - started)
            budget *= 2
    except _Timeout:
        return Answer(TIMEOUT, (), search.nodes, time.perf_counter() - started)


def solve_best(
    cells: Sequence[int],
    rules: Rules = DEFAULT_RULES,
    scoring: Scoring = DEFAULT_SCORING,
    *,
    timeout: float | None = None,
    nodes: int | None = None,
) -> BestAnswer:
    """The highest-scoring line found within `timeout` s and `nodes` positions, and whether it is
    proved the highest.

    `solve` runs first (with up to half the time and nodes) and its win is the line to beat; then a
    branch-and-bound search looks for more points until it finishes (proved optimal) or a limit is hit.
    """
    started = time.perf_counter()
    first = solve(
        cells,
        rules,
        timeout=None if timeout is None else timeout / 2,
        nodes=None if nodes is None else nodes // 2,
    )
    board = normalize(bytes(cells), rules.width, rules.clear_rows)
    first_score = line_score(board, first.moves, rules, scoring) if first.status == WON else None
    limit = None if nodes is None else nodes - first.nodes
    search = _BestSearch(rules, scoring, None if timeout is None else started + timeout, limit)
    if first_score is not None:
        search.best_score, search.best_line, search.best_won = first_score, first.moves, True
    try:
        search.run(board.translate(CLASS_TABLE))
        optimal = True
    except _Timeout:
        optimal = False
    status = first.status
    if status != WON and search.best_line and search.best_won:
        status = WON
    return BestAnswer(
        status,
        search.best_line,
        max(search.best_score, 0),
        optimal,
        first_score,
        first.nodes + search.nodes,
        time.perf_counter() - started,
    )


def _check_limits(deadline: float | None, nodes: int, limit: int | None) -> None:
    """Raise _Timeout once the deadline has passed or the node limit is used up.

    Called at every node: a look costs about 0.1 us and a node 10 us or more, while a node on a board
    grown by many adds takes milliseconds, so looking only every thousand nodes overran by seconds.
    """
    if limit is not None and nodes > limit:
        raise _Timeout
    if deadline is not None and time.perf_counter() > deadline:
        raise _Timeout


def _to_move(pair: Pair | None) -> Move:
    """A search step (a pair of slots, or None for an add) as a Move."""
    return ADD if pair is None else Move(pair[0], pair[1])


class _WinSearch:
    """The state of `solve` across its rounds: proved losses, nodes, the deadline."""

    def __init__(self, rules: Rules, deadline: float | None, limit: int | None = None) -> None:
        self.rules = rules
        self.deadline = deadline
        self.limit = limit
        self.lost: dict[bytes, int] = {}  # position -> the most adds it is proved lost with
        self.nodes = 0
        self.complete = True

    def run(self, root: bytes, budget: int) -> tuple[Move, ...] | None:
        """One depth-first round; a winning line, or None (then `complete` says if that is a proof)."""
        width, wrap, diagonals = self.rules.width, self.rules.wrap, self.rules.diagonals
        kind, clear_rows, when_stuck = self.rules.add, self.rules.clear_rows, self.rules.add_when_stuck
        stuck_ends = self.rules.stuck_may_end
        lost = self.lost
        self.complete = True
        # A frame: [board, adds left, moves (None until expanded), next move, undecided, node budget end].
        stack: list[list] = [[root, self.rules.adds, None, 0, False, None]]
        while stack:
            frame = stack[-1]
            board, left, moves, index, _, stop_at = frame
            if moves is None:
                self.nodes += 1
                _check_limits(self.deadline, self.nodes, self.limit)
                if not board:
                    return tuple(_to_move(above[2][above[3] - 1]) for above in stack[:-1])
                if lost.get(board, -1) >= left:
                    stack.pop()
                    continue
                if left == 0 and is_dead_end(board, width, wrap, diagonals):
                    lost[board] = 0
                    stack.pop()
                    continue
                moves = _pairs(board, width, wrap, diagonals)
                # A board left with no pair may have ended the game: no add from it (but at the root,
                # which the game is showing, so it goes on).
                if left and not (when_stuck and moves) and (moves or not stuck_ends or len(stack) == 1):
                    moves.append(None)  # adding comes last: pairs first keeps the board small
                frame[2] = moves
            if stop_at is not None and self.nodes > stop_at:
                stack.pop()
                self._undecided(stack)
                continue
            if index == len(moves):
                stack.pop()
                if frame[4]:
                    self._undecided(stack)
                elif lost.get(board, -1) < left:
                    lost[board] = left
                continue
            frame[3] = index + 1
            move = moves[index]
            if move is None:
                # After the last add the budget starts counting for the stretch below.
                stop = self.nodes + budget if left == 1 else None
                stack.append([_add(board, kind, digits=False), left - 1, None, 0, False, stop])
            else:
                after = _remove(board, move[0], move[1], width, clear_rows)[0]
                stack.append([after, left, None, 0, False, stop_at])
        return None

    def _undecided(self, stack: list[list]) -> None:
        """Mark the frame on top (or the whole round) as not proved lost."""
        if stack:
            stack[-1][4] = True
        else:
            self.complete = False


class _BestSearch:
    """Branch and bound for the highest score, with the best line found so far."""

    def __init__(
        self, rules: Rules, scoring: Scoring, deadline: float | None, limit: int | None = None
    ) -> None:
        self.rules = rules
        self.scoring = scoring
        self.deadline = deadline
        self.limit = limit
        self.best_score = -1
        self.best_line: tuple[Move, ...] = ()
        self.best_won = False
        self.nodes = 0

    def run(self, root: bytes) -> None:
        """Search every line that could beat the best so far; raises _Timeout when time is up.

        A position reached again with no more points than when it was first searched is skipped:
        everything below it was then searched, or cut off by a bound no higher than today's best.
        """
        rules, scoring = self.rules, self.scoring
        searched: dict[tuple[bytes, int], int] = {}
        # A frame: [board, adds left, points so far, children (None until expanded), next child].
        stack: list[list] = [[root, rules.adds, 0, None, 0]]
        while stack:
            frame = stack[-1]
            board, left, points, children, index = frame
            if children is None:
                self.nodes += 1
                _check_limits(self.deadline, self.nodes, self.limit)
                children = self._children(board, left, root=len(stack) == 1)
                frame[3] = children
                if not children:
                    self._finish(stack, points, not board)
                    stack.pop()
                    continue
                filled = len(board) - board.count(0)
                key = (board, left)
                bound = score_bound(filled, len(board), left, rules, scoring)
                if points + bound <= self.best_score or searched.get(key, -1) >= points:
                    stack.pop()
                    continue
                searched[key] = points
            if index == len(children):
                stack.pop()
                continue
            frame[4] = index + 1
            move, child, gained = children[index]
            stack.append([child, left - 1 if move is None else left, points + gained, None, 0])

    def _children(self, board: bytes, left: int, root: bool) -> list[tuple[Pair | None, bytes, int]]:
        """Each move (None for an add) with the board after it and its points; most points first, add
        last (none from a board with no pair that may have ended the game, but the root's)."""
        rules, width = self.rules, self.rules.width
        children = []
        for a, b in _pairs(board, width, rules.wrap, rules.diagonals):
            after, taken = _remove(board, a, b, width, rules.clear_rows)
            children.append(((a, b), after, pair_points(a, b, taken, not after, rules, self.scoring)))
        children.sort(key=lambda child: -child[2])
        stuck_ends = rules.stuck_may_end and not children and not root
        if left and board and not (rules.add_when_stuck and children) and not stuck_ends:
            children.append((None, _add(board, rules.add, digits=False), 0))
        return children

    def _finish(self, stack: list[list], points: int, won: bool) -> None:
        """A line ended (board cleared, or no move left): keep it if it beats the best."""
        if points > self.best_score:
            self.best_score = points
            self.best_won = won
            self.best_line = tuple(_to_move(above[3][above[4] - 1][0]) for above in stack[:-1])
