"""Optimize for the hardest fair level: a pool of candidates, one mutated at a time, re-rated, the worst
dropped (as Linjat's generator does). Candidates are rated in a process pool on every core.

A run is repeatable: the seed fixes every parent choice and every mutation, and candidates are rated
in fixed batches whose results are taken in order, so the number of cores changes only the speed.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from flowbot.errors import SolveError
from flowbot.generate.levels import Level, _level, to_puzzle
from flowbot.generate.lines import grow, reshape
from flowbot.model import Cell
from flowbot.orphans import worker_pool
from flowbot.rate.score import WEIGHTS, Rating, rate

POOL_SIZE = 10
BATCH = 8  # candidates rated per round: fixed, so a seed gives the same level on any number of cores
DEFAULT_ITERATIONS = 2000
NARROW = 2.0  # how much a step with few moves adds, beyond its kind's weight (narrow reasoning is harder)
SEED_TRIES = 50  # rounds allowed to find the first fair levels of the pool
# The share of candidates grown afresh instead of mutated: hard levels sit on narrow peaks (a child of
# one is nearly always easier), so new starting points keep the pool from settling on one peak.
FRESH = 0.125
MEMORY = 1 << 14  # verdicts kept by puzzle (up to a kilobyte each on 14x14); a 2000-candidate run keeps all

Paths = tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A fair level as the optimizer keeps it: its flows, its puzzle rows and how hard it is."""

    paths: Paths
    rows: tuple[str, ...]
    difficulty: float
    score: float


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a run found and what it cost."""

    level: Level
    iterations: int
    seconds: float
    workers: int
    pool: tuple[float, ...]  # the final pool's difficulties, hardest first
    puzzles: int = 0  # the candidates whose puzzle was rated (the rest repeated one rated before)

    @property
    def per_second_per_core(self) -> float:
        """Candidates rated per second per worker process."""
        return self.iterations / max(self.seconds, 1e-9) / self.workers


def hardness(rating: Rating) -> float:
    """What the optimizer maximizes: the difficulty (deeper and dearer reasoning) plus a bonus for each
    reasoning step that has few moves to find (narrow)."""
    narrow = sum(WEIGHTS[step.kind] / len(step.moves) for step in rating.steps if step.kind != "forced")
    return rating.difficulty + NARROW * narrow


def evaluate(job: tuple) -> Candidate | None:
    """Rate one candidate's flows (in a worker): a Candidate, or None when its puzzle is unfair."""
    paths, rows, cols = job
    puzzle, _ = to_puzzle(paths, rows, cols)
    rating = rate(puzzle)
    if not rating.solved:
        return None
    return Candidate(paths, tuple(puzzle.to_rows()), rating.difficulty, hardness(rating))


def _grown(job: tuple) -> Paths | None:
    """A candidate's flows: grown afresh, or a parent's mutated (None when the colour count is off)."""
    parent, rows, cols, colors, seed, steps = job
    rng = random.Random(seed)
    if parent is None:
        paths = grow(rows, cols, colors, rng)
    else:
        paths = _mutate(parent, rows, cols, colors, rng, steps)
    if len(paths) != colors:
        return None
    return tuple(tuple(path) for path in paths)


class _Judge:
    """Rates a batch of candidates in order, each puzzle once: a rating depends on the endpoints alone,
    and mutations often give back a puzzle rated before (a third of the candidates of a 9x9 run), so
    the verdicts are kept by puzzle and only new puzzles go to the workers."""

    def __init__(self, run: Callable, rows: int, cols: int) -> None:
        self.run, self.rows, self.cols = run, rows, cols
        self.known: dict[tuple[str, ...], Candidate | None] = {}
        self.rated = 0  # puzzles rated so far

    def __call__(self, jobs: list[tuple]) -> Iterator[Candidate | None]:
        """The candidates of the jobs, in order, each as soon as it is rated (None for an unfair one or a
        wrong colour count)."""
        grown = [_grown(job) for job in jobs]
        keys = [None if paths is None else _rows_of(paths, self.rows, self.cols) for paths in grown]
        verdicts = {key: self.known[key] for key in keys if key in self.known}
        new: dict[tuple[str, ...], Paths] = {}
        for key, paths in zip(keys, grown, strict=True):
            if key is not None and key not in verdicts:
                new.setdefault(key, paths)
        jobs = [(paths, self.rows, self.cols) for paths in new.values()]
        rated = zip(new, self.run(evaluate, jobs), strict=True)
        for key, paths in zip(keys, grown, strict=True):
            while key is not None and key not in verdicts:
                done, verdict = next(rated)  # a new puzzle is rated by the time its first child is due
                verdicts[done] = verdict
                self._keep(done, verdict)
            verdict = None if key is None else verdicts[key]
            yield None if verdict is None else replace(verdict, paths=paths)

    def _keep(self, key: tuple[str, ...], verdict: Candidate | None) -> None:
        """Remember a verdict, forgetting the oldest beyond MEMORY (long runs stay bounded)."""
        if len(self.known) >= MEMORY:
            del self.known[next(iter(self.known))]
        self.known[key] = verdict
        self.rated += 1


def _rows_of(paths: Paths, rows: int, cols: int) -> tuple[str, ...]:
    """The puzzle rows of some flows: what their rating depends on."""
    puzzle, _ = to_puzzle(paths, rows, cols)
    return tuple(puzzle.to_rows())


def hardest(
    rows: int,
    cols: int,
    colors: int,
    seed: int,
    iterations: int = DEFAULT_ITERATIONS,
    workers: int | None = None,
    report: Callable[[int, Candidate], None] | None = None,
    *,
    index: int = 0,
    rated: Callable[[int], None] | None = None,
) -> Outcome:
    """Run the pool optimizer for `iterations` candidates and return the hardest fair level found
    (`index` tells apart the levels of one seed). `report` is told the count and the best so far once
    there is one; `rated` the count after every candidate, fair or not (on a large board the first
    fair one can take minutes). Seeding the pool stops early once `iterations` are rated and one is
    fair: `--iterations 1` rates one round, not a whole pool."""
    workers = max(1, workers or os.cpu_count() or 1)
    rng = random.Random(f"flowbot-hardest:{seed}:{index}:{rows}x{cols}:{colors}")
    started = time.perf_counter()
    executor = worker_pool(workers) if workers > 1 else None
    judge = _Judge(executor.map if executor is not None else map, rows, cols)
    pool: list[Candidate] = []
    done = 0
    try:
        for _ in range(SEED_TRIES):
            if len(pool) >= POOL_SIZE or (pool and done >= iterations):
                break
            jobs = [(None, rows, cols, colors, rng.getrandbits(63), 0) for _ in range(BATCH)]
            for child in judge(jobs):
                done += 1
                if child is not None and len(pool) < POOL_SIZE and _new(pool, child):
                    pool.append(child)
                if rated is not None:
                    rated(done)
                if report is not None and pool:
                    report(done, max(pool, key=lambda c: c.score))
        if not pool:
            raise SolveError(f"no fair {rows}x{cols} level with {colors} colours to start from")
        while done < iterations:
            jobs = []
            for _ in range(min(BATCH, iterations - done)):
                if rng.random() < FRESH:
                    jobs.append((None, rows, cols, colors, rng.getrandbits(63), 0))
                    continue
                parent = max(rng.sample(pool, min(2, len(pool))), key=lambda c: c.score)
                steps = rng.choice((1, 1, 2, 3, 5, 8))
                jobs.append((parent.paths, rows, cols, colors, rng.getrandbits(63), steps))
            for child in judge(jobs):
                done += 1
                if child is not None and _new(pool, child):
                    if len(pool) < POOL_SIZE:
                        pool.append(child)
                    else:
                        worst = min(range(len(pool)), key=lambda i: pool[i].score)
                        if child.score > pool[worst].score:
                            pool[worst] = child
                if rated is not None:
                    rated(done)
                if report is not None:
                    report(done, max(pool, key=lambda c: c.score))
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    best = max(pool, key=lambda c: c.score)
    puzzle, _ = to_puzzle([list(path) for path in best.paths], rows, cols)
    level = _level([list(path) for path in best.paths], rows, cols, rate(puzzle), done, started)
    seconds = time.perf_counter() - started
    difficulties = tuple(sorted((c.difficulty for c in pool), reverse=True))
    return Outcome(level, done, seconds, workers, difficulties, judge.rated)


def _mutate(parent: Paths, rows: int, cols: int, colors: int, rng: random.Random, changes: int) -> list:
    """The parent's flows after `changes` end moves (or merges and splits) that each change something:
    small steps, so a child stays close to its parent."""
    paths = [list(path) for path in parent]
    for _ in range(changes):
        for _attempt in range(20):
            moved = reshape(paths, rows, cols, colors, rng, 1)
            if moved != paths:
                paths = moved
                break
    return paths


def _new(pool: list[Candidate], child: Candidate) -> bool:
    """True when no candidate in the pool is the same puzzle or scores the same: an equal score nearly
    always means a near copy (an end moved where the reasoning does not change), and copies would
    crowd out the pool's variety."""
    return all(
        candidate.rows != child.rows and abs(candidate.score - child.score) > 1e-9 for candidate in pool
    )
