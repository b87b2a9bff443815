"""Make levels: grow flows, keep the fair ones (the human-style solver finishes them by reasoning alone,
which also proves one strict solution), rate them, steer them to a band."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import partial

from flowbot.errors import SolveError
from flowbot.generate.lines import grow, reshape
from flowbot.model import EMPTY, PALETTE, Cell, Puzzle, Solution, Source
from flowbot.rate.score import BANDS, Rating, rate
from flowbot.solve.check import check_paths
from flowbot.solve.sat import solve

LABELS = "ABCDEFGHIJKLMNOP"
MAX_ATTEMPTS = 200
POOL_SIZE = 10


@dataclass(frozen=True, slots=True)
class Level:
    """A generated puzzle with its one solution and its rating."""

    puzzle: Puzzle
    solution: Solution
    rating: Rating
    attempts: int
    seconds: float


def make_level(
    rows: int, cols: int, colors: int, rng: random.Random, difficulty: str | None = None, budget: float = 20.0
) -> Level:
    """One level of the size and colour count, with exactly one strict solution (and in a band if asked)."""
    started = time.perf_counter()
    if difficulty is None:
        return _fair_level(rows, cols, colors, rng, partial(grow, rows, cols, colors, rng), started)
    return _optimize(rows, cols, colors, rng, difficulty, budget, started)


def to_puzzle(paths: list[list[Cell]], rows: int, cols: int) -> tuple[Puzzle, Solution]:
    """The puzzle whose endpoints are the flows' ends, and the flows as its solution.

    Colours are ranked by first appearance in reading order and named in palette order, as the
    game's own levels are.
    """
    owner = {}
    for index, path in enumerate(paths):
        owner[path[0]] = owner[path[-1]] = index
    ranked: list[int] = []
    for cell in sorted(owner):
        if owner[cell] not in ranked:
            ranked.append(owner[cell])
    grid = [[EMPTY] * cols for _ in range(rows)]
    for rank, index in enumerate(ranked):
        for row, col in (paths[index][0], paths[index][-1]):
            grid[row][col] = LABELS[rank]
    names = {LABELS[rank]: PALETTE[rank] for rank in range(len(ranked))}
    puzzle = Puzzle.from_rows(["".join(line) for line in grid], names=names, source=Source(kind="generated"))
    return puzzle, Solution(puzzle, tuple(tuple(paths[index]) for index in ranked))


def _fair_level(rows, cols, colors, rng, propose, started) -> Level:
    """Propose flows until they have the right count and deduction alone finishes their puzzle."""
    for attempt in range(1, MAX_ATTEMPTS + 1):
        paths = propose()
        if len(paths) != colors:
            continue
        puzzle, _ = to_puzzle(paths, rows, cols)
        rating = rate(puzzle)
        if rating.solved:
            return _level(paths, rows, cols, rating, attempt, started)
    raise SolveError(f"no fair {rows}x{cols} level with {colors} colours in {MAX_ATTEMPTS} tries")


def _level(paths, rows, cols, rating, attempts, started) -> Level:
    """The level of fair flows, its solution checked independently: the checker, and the SAT solver
    for uniqueness (deduction finishing proves it; a second opinion costs little)."""
    puzzle, solution = to_puzzle(paths, rows, cols)
    problems = check_paths(puzzle, solution.paths)
    if problems:
        raise SolveError("generated solution fails the checker: " + "; ".join(problems))
    result = solve(puzzle, unique=True, allow_touching=False)
    if result.status != "solved" or not result.unique:
        raise SolveError(f"the human-style solver finished a {rows}x{cols} level with more than one solution")
    return Level(puzzle, solution, rating, attempts, time.perf_counter() - started)


def _distance(rating: Rating, band: str) -> float:
    """How far a rating is from a band (0 inside it)."""
    low, high = BANDS[band]
    return max(0.0, low - rating.reasoning, rating.reasoning - high)


def _optimize(rows, cols, colors, rng, band, budget, started) -> Level:
    """Keep a pool of candidates, mutate one at a time, keep the best, until one falls in the band."""
    pool: list[Level] = []
    attempts = 0
    while len(pool) < POOL_SIZE:
        level = _fair_level(rows, cols, colors, rng, partial(grow, rows, cols, colors, rng), started)
        attempts += level.attempts
        pool.append(level)
        if _distance(pool[-1].rating, band) == 0:
            return _finish(pool[-1], attempts, started)
    while time.perf_counter() - started < budget:
        pool.sort(key=lambda level: _distance(level.rating, band))
        parent = pool[rng.randrange(max(1, len(pool) // 2))]
        flows = [list(path) for path in parent.solution.paths]
        steps = rng.randint(rows * cols // 4, rows * cols)
        child = _fair_level(
            rows, cols, colors, rng, partial(reshape, flows, rows, cols, colors, rng, steps), started
        )
        attempts += child.attempts
        if _distance(child.rating, band) == 0:
            return _finish(child, attempts, started)
        if _distance(child.rating, band) < _distance(pool[-1].rating, band):
            pool[-1] = child
    best = min(pool, key=lambda level: _distance(level.rating, band))
    return _finish(best, attempts, started)


def _finish(level: Level, attempts: int, started: float) -> Level:
    """The level with the total tries and time it took."""
    return Level(level.puzzle, level.solution, level.rating, attempts, time.perf_counter() - started)
