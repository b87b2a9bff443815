"""Rate a puzzle: solve it in layers of one deduction kind each and score the work it took."""

from __future__ import annotations

import time
from dataclasses import dataclass

from flowbot.model import Puzzle
from flowbot.rate.human import KINDS, RULES, Board, Contradiction, Move, State, apply


@dataclass(frozen=True, slots=True)
class Step:
    """One layer of deduction: the kind of reasoning and every move it found, each with its reason."""

    kind: str
    moves: tuple[Move, ...]


# How much one layer of each kind adds to the difficulty: the dearer the reasoning, the more.
WEIGHTS = {
    "forced": 0.2,
    "stranded": 2.0,
    "bottleneck": 3.0,
    "must_pass": 4.0,
    "uniqueness": 2.0,
    "contradiction": 6.0,
    "long_contradiction": 10.0,
    "deep_contradiction": 16.0,
}
# What a puzzle deduction cannot finish costs: plus a share for every cell it left open.
UNFINISHED = 40.0
# Bands by the reasoning beyond forced moves (which grow with the board, not with the puzzle).
BANDS = {"easy": (0.0, 4.0), "medium": (4.0, 20.0), "hard": (20.0, float("inf"))}


@dataclass(frozen=True, slots=True)
class Rating:
    """The human-style solver's verdict on a puzzle."""

    difficulty: float
    solved: bool
    depth: dict[str, int]
    width: int
    layers: int
    open_cells: int
    seconds: float
    deduced: tuple[str, ...] | None = None  # the solved grid, when deduction finished it
    steps: tuple[Step, ...] = ()  # the record: what each layer settled and why

    @property
    def reasoning(self) -> float:
        """The difficulty without forced moves: what makes a puzzle of any size hard."""
        return self.difficulty - WEIGHTS["forced"] * self.depth["forced"]

    @property
    def band(self) -> str:
        """easy, medium or hard."""
        for name, (low, high) in BANDS.items():
            if low <= self.reasoning <= high:
                return name
        return "hard"

    def as_dict(self) -> dict:
        """Plain data for JSON output."""
        return {
            "difficulty": round(self.difficulty, 2),
            "band": self.band,
            "deduction_solves": self.solved,
            "depth": {kind: self.depth[kind] for kind in KINDS if kind != "uniqueness"},
            "uniqueness_depth": self.depth["uniqueness"],
            "width": self.width,
            "layers": self.layers,
            "open_cells": self.open_cells,
            "solution": list(self.deduced) if self.deduced is not None else None,
            "seconds": round(self.seconds, 4),
        }


def rate(puzzle: Puzzle, *, kinds: tuple[str, ...] = KINDS, max_layers: int = 2000) -> Rating:
    """Solve in layers, each applying every move of the cheapest kind that finds one; score the layers."""
    started = time.perf_counter()
    board = Board.of(puzzle)
    state = State(board)
    depth = dict.fromkeys(KINDS, 0)
    width = 0
    layers = 0
    stuck = False
    steps: list[Step] = []
    try:
        while not state.solved() and layers < max_layers:
            for kind in kinds:
                moves = RULES[kind](state)
                if moves and apply(state, moves):
                    depth[kind] += 1
                    width = max(width, len(moves))
                    layers += 1
                    steps.append(Step(kind, tuple(moves)))
                    break
            else:
                stuck = True
                break
    except Contradiction:
        stuck = True  # the puzzle has no solution that these rules can follow
    solved = not stuck and state.solved()
    open_cells = sum(1 for mask in state.domain if mask & (mask - 1))
    difficulty = sum(WEIGHTS[kind] * count for kind, count in depth.items())
    if not solved:
        difficulty += UNFINISHED + 100.0 * open_cells / max(1, len(board.cells))
    deduced = _grid(puzzle, board, state) if solved else None
    seconds = time.perf_counter() - started
    return Rating(difficulty, solved, depth, width, layers, open_cells, seconds, deduced, tuple(steps))


def _grid(puzzle: Puzzle, board: Board, state: State) -> tuple[str, ...]:
    """The rows of a fully deduced board: each cell's colour label, walls as '#'."""
    rows = [list(line) for line in puzzle.to_rows()]
    for (row, col), mask in zip(board.cells, state.domain, strict=True):
        rows[row][col] = puzzle.colors[mask.bit_length() - 1].label
    return tuple("".join(line) for line in rows)
