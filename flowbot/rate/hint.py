"""The next reasoning step from a position: which cells or flow it settles and why, not the answer.

A position is the puzzle plus what is drawn so far, given as rows in the grid text format: `.` for
an empty cell, a colour's label on every cell its flow covers (endpoints included); a Shapes board is
one row, character n for cell n. Cells of one
colour side by side are taken as joined: that is how a correct part of a flow looks, since no flow
runs alongside itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from flowbot.errors import PuzzleError, SolveError
from flowbot.model import EMPTY, WALL, Cell, Puzzle, Solution
from flowbot.rate.human import KINDS, ON, RULES, UNKNOWN, Board, Contradiction, Move, State, apply, place
from flowbot.rate.truth import Truth

# What a person does each kind of step with, in a few words (the hint's headline).
KIND_WORDS = {
    "forced": "a move with no choice",
    "stranded": "a colour that cannot get there",
    "bottleneck": "the only way through",
    "must_pass": "a cell every route must cross",
    "uniqueness": "a flow never runs alongside itself",
    "contradiction": "try it and see it fail",
    "long_contradiction": "try it and follow it further until it fails",
    "deep_contradiction": "a long chain of consequences that fails",
}
MAX_SUPPORT = 3  # earlier unseen deductions quoted as the background of a hint
MAX_GROUPS = 12  # reasons looked at when choosing the one to show (each costs a short propagation)


@dataclass(frozen=True, slots=True)
class Hint:
    """One step to show a player: the kind, the joins and colours it settles, why, and its background."""

    kind: str
    joins: tuple[tuple[Cell, Cell, int], ...]  # (cell, cell, colour index) newly joined
    colored: tuple[tuple[Cell, int], ...]  # cells whose colour is now known
    why: str
    support: tuple[str, ...] = ()  # reasons of earlier steps (not seen on the board) the step rests on
    others: int = 0  # other moves the same step found: the player may find one of those instead
    wrong: tuple[Cell, ...] = ()  # drawn cells that do not fit the solution (then the hint is to undo)
    done: bool = False  # nothing left to deduce: the position is solved
    moves: tuple[Move, ...] = ()  # the step as the solver's moves (to make it on a State)

    def cells(self) -> list[Cell]:
        """Every cell the hint points at."""
        found = [cell for a, b, _ in self.joins for cell in (a, b)] + [cell for cell, _ in self.colored]
        return list(dict.fromkeys(found + list(self.wrong)))

    def line(self, puzzle: Puzzle) -> str:
        """The hint in one line, for a status bar."""
        if self.done or self.wrong or self.kind in ("undo", "stuck"):
            return self.text(puzzle).splitlines()[0]
        if self.joins:
            a, b, color = self.joins[0]
            what = f"join {_short(puzzle, a)}-{_short(puzzle, b)} ({_color(puzzle, color)})"
        else:
            cell, color = self.colored[0]
            what = f"{_short(puzzle, cell)} is {_color(puzzle, color)}"
        more = len(self.joins) + len(self.colored) - 1
        return f"{what}{f' (+{more})' if more else ''}: {self.why}"

    def text(self, puzzle: Puzzle) -> str:
        """The hint in words."""
        if self.done:
            return "Nothing left to work out: every flow is in place."
        if self.wrong:
            places = "; ".join(place(puzzle, cell) for cell in self.wrong[:6])
            return f"Something drawn does not fit: take the line off {places}. {self.why}."
        lines = [f"Next step ({KIND_WORDS.get(self.kind, self.kind)}):"]
        for a, b, color in self.joins:
            lines.append(f"  join {place(puzzle, a)} to {place(puzzle, b)} ({_color(puzzle, color)})")
        for cell, color in self.colored:
            lines.append(f"  {place(puzzle, cell)} is {_color(puzzle, color)}")
        lines.append(f"Why: {self.why}.")
        if self.support:
            lines.append("Because already: " + "; ".join(self.support) + ".")
        if self.others:
            plural = "s follow" if self.others > 1 else " follows"
            lines.append(f"({self.others} other move{plural} from the same kind of step.)")
        return "\n".join(lines)

    def as_dict(self, puzzle: Puzzle) -> dict:
        """Plain data for JSON output."""
        return {
            "kind": self.kind,
            "joins": [
                {"cells": [list(a), list(b)], "color": puzzle.colors[c].label} for a, b, c in self.joins
            ],
            "colored": [{"cell": list(cell), "color": puzzle.colors[c].label} for cell, c in self.colored],
            "why": self.why,
            "support": list(self.support),
            "others": self.others,
            "wrong": [list(cell) for cell in self.wrong],
            "done": self.done,
        }


def position(puzzle: Puzzle, drawn: Sequence[str] | None = None) -> State:
    """The solver's state for a puzzle with the drawn rows (None: nothing drawn)."""
    board = Board.of(puzzle)
    state = State(board)
    if drawn is None:
        return state
    labels = puzzle.label_index()
    grid = _check_drawn(puzzle, drawn, labels)
    try:
        for i, (row, col) in enumerate(board.cells):
            char = grid[row][col]
            if char != EMPTY:
                state.restrict(i, 1 << labels[char])
        for e, (i, j) in enumerate(board.edges):
            (ri, ci), (rj, cj) = board.cells[i], board.cells[j]
            if grid[ri][ci] != EMPTY and grid[ri][ci] == grid[rj][cj]:
                state.set_edge(e, ON)
    except Contradiction as broken:
        raise PuzzleError(f"the drawn position breaks a rule: {broken.why}") from None
    return state


def position_from_paths(puzzle: Puzzle, paths: Sequence[Sequence[Cell]]) -> State:
    """The solver's state for pipes drawn in play: per colour, the cells of its pipe in order."""
    board = Board.of(puzzle)
    state = State(board)
    try:
        for color, path in enumerate(paths):
            cells = [board.index[cell] for cell in path]
            for i in cells:
                state.restrict(i, 1 << color)
            for i, j in pairwise(cells):
                state.set_edge(board.edge_index[(i, j)], ON)
    except Contradiction as broken:
        raise PuzzleError(f"the drawn pipes break a rule: {broken.why}") from None
    return state


def wrong_cells(state: State, solution: Solution) -> list[Cell]:
    """Drawn cells whose colour or joins differ from the solution's."""
    return [state.board.cells[i] for i in _wrong_cells(state.board, state, solution)]


def next_hint(puzzle: Puzzle, drawn: Sequence[str] | None = None, solution: Solution | None = None) -> Hint:
    """The cheapest step that settles something a player can see, from the drawn position.

    With the solution, drawn cells that do not fit it are pointed out first (the hint is to undo).
    """
    state = position(puzzle, drawn)
    if solution is not None and drawn is not None:
        wrong = _wrong_cells(state.board, state, solution)
        if wrong:
            why = "The level has one solution, and these cells are not in it as drawn"
            return Hint("undo", (), (), why, wrong=tuple(state.board.cells[i] for i in wrong))
    try:
        return hint_from(state)
    except Contradiction as broken:
        if drawn is None:
            raise SolveError(f"the puzzle has no solution: {broken.why}") from None
        return Hint("undo", (), (), f"the drawn position cannot be finished: {broken.why}")


def hint_from(state: State) -> Hint:
    """The cheapest step from a solver state that settles something a player can see (the state is
    not changed). Contradiction when the state cannot be finished."""
    state = state.copy()
    board = state.board
    support: list[tuple[set[int], str]] = []
    while not state.solved():
        for kind in KINDS:
            moves = RULES[kind](state)
            seen = [move for move in moves if _visible(state, move)]
            if seen:
                return _hint(board, state, kind, seen, support)
            if moves and apply(state, moves):
                support.extend((_cells_of_move(board, move), move[3]) for move in moves)
                break
        else:
            return Hint("stuck", (), (), "deduction finds no next step from here; a guess would be needed")
    return Hint("done", (), (), "", done=True)


def _hint(
    board: Board, state: State, kind: str, seen: list[Move], support: list[tuple[set[int], str]]
) -> Hint:
    """The visible moves sharing one reason, as a hint: the first group whose flow is known (a player
    follows "the red end has one way out" more easily than a nameless corner), else the first."""
    reasons = list(dict.fromkeys(move[3] for move in seen))
    chosen = None
    for why in reasons[:MAX_GROUPS]:
        group = [move for move in seen if move[3] == why]
        joins, colored = _settled(board, state, group)
        if chosen is None or all(color >= 0 for _a, _b, color in joins):
            chosen = (why, group, joins, colored)
            if all(color >= 0 for _a, _b, color in joins):
                break
    assert chosen is not None
    why, group, joins, colored = chosen
    touched: set[int] = set()
    for move in group:
        touched |= _cells_of_move(board, move)
    background = []
    for cells, reason in reversed(support):
        if cells & touched and reason not in background:
            background.append(reason)
        if len(background) == MAX_SUPPORT:
            break
    others = len(seen) - len(group)
    return Hint(kind, tuple(joins), tuple(colored), why, tuple(background), others, moves=tuple(group))


def _settled(board: Board, state: State, group: list[Move]) -> tuple[list, list]:
    """The joins (with their colour, -1 when not known yet) and the coloured cells a group of moves makes."""
    after = _after(state, group)
    joins, colored = [], []
    for move in group:
        if move[0] == "edge":
            i, j = board.edges[move[1]]
            joins.append((board.cells[i], board.cells[j], _known_color(after, i, j)))
        else:
            mask = state.domain[move[1]] & move[2]
            colored.append((board.cells[move[1]], mask.bit_length() - 1))
    return joins, colored


def _after(state: State, moves: list[Move]) -> State:
    """The state once the moves are made and their colours passed along the joins (to name them)."""
    from flowbot.rate.propagate import settle

    trial = state.copy()
    try:
        apply(trial, moves)
        settle(trial, [i for move in moves for i in _cells_of_move(state.board, move)], reach=False)
    except Contradiction:
        return state  # cannot happen for sound moves; then name the colours as they were
    return trial


def _visible(state: State, move: Move) -> bool:
    """True when the move shows on the board: a new join, or a cell whose colour becomes known."""
    kind, target, value, _why = move
    if kind == "edge":
        return value == ON and state.edge[target] == UNKNOWN
    old = state.domain[target]
    new = old & value
    return new != old and new & (new - 1) == 0 and new != 0


def _known_color(state: State, i: int, j: int) -> int:
    """The colour two cells about to be joined share, when it is known (else -1)."""
    shared = state.domain[i] & state.domain[j]
    return shared.bit_length() - 1 if shared and shared & (shared - 1) == 0 else -1


def _cells_of_move(board: Board, move: Move) -> set[int]:
    """The cells a move is about."""
    return set(board.edges[move[1]]) if move[0] == "edge" else {move[1]}


def _wrong_cells(board: Board, state: State, solution: Solution) -> list[int]:
    """Drawn cells whose colour or joins differ from the solution's."""
    truth = Truth.of(board, solution)
    wrong = set()
    for i, mask in enumerate(state.domain):
        if mask & (mask - 1) == 0 and not mask >> truth.color[i] & 1:
            wrong.add(i)
    for e, value in enumerate(state.edge):
        if value == ON and truth.edge[e] != ON:
            wrong.update(board.edges[e])
    return sorted(wrong)


def _check_drawn(puzzle: Puzzle, drawn: Sequence[str], labels: dict[str, int]) -> list[str]:
    """The drawn rows, checked against the puzzle: same size, same endpoints, known colours."""
    rows = [line.rstrip("\r\n") for line in drawn if line.strip()]
    if len(rows) != puzzle.rows or any(len(line) != puzzle.cols for line in rows):
        if puzzle.kind == "shapes":  # one row of cells: character n is cell n
            raise PuzzleError(f"the drawn position is not one line of {puzzle.cols} characters, one per cell")
        raise PuzzleError(f"the drawn position is not {puzzle.rows} rows of {puzzle.cols} cells")
    for row, line in enumerate(rows):
        for col, char in enumerate(line):
            cell = (row, col)
            where = place(puzzle, cell)
            owner = puzzle.endpoint_color(cell)
            if not puzzle.on_board(cell):
                if char not in (WALL, EMPTY):
                    raise PuzzleError(f"the drawn position has {char!r} off the board at {where}")
                continue
            if char != EMPTY and char not in labels:
                raise PuzzleError(f"the drawn position has an unknown colour {char!r} at {where}")
            if owner is not None and char != puzzle.colors[owner].label:
                raise PuzzleError(f"the drawn position moves the endpoint at {where}")
    return [line.replace(WALL, EMPTY) for line in rows]


def _short(puzzle: Puzzle, cell: Cell) -> str:
    """A cell in few characters: r3c4 (from 1); on a Shapes board its number, as `place` names it."""
    return place(puzzle, cell) if puzzle.kind == "shapes" else f"r{cell[0] + 1}c{cell[1] + 1}"


def _color(puzzle: Puzzle, color: int) -> str:
    """A colour's name for the hint text."""
    if color < 0:
        return "colour not yet known"
    known = puzzle.colors[color]
    return known.name or f"colour {known.label}"
