"""Speed-ups of the rater and the optimizer change nothing they decide: every rating (each step, each
move and its reason) and every --hardest level of a seed are those of the code before them.

The record in tests/data/same_levels.json was made once by the code at commit 503a0b2, before the
speed-ups, from a checkout of that commit beside this file's:

    PYTHONPATH=/path/to/503a0b2-checkout python tests/test_rate_same.py --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from flowbot.generate.levels import to_puzzle
from flowbot.generate.lines import default_colors, grow
from flowbot.generate.optimize import hardest
from flowbot.model import Puzzle
from flowbot.rate.score import rate

RECORD = Path(__file__).resolve().parent / "data" / "same_levels.json"
# Boards rated: sizes 5 to 11, colour counts of the game's packs, and some with two or three colours
# fewer, and every third with the ends of two colours swapped (so that deduction fails on some).
RATED = 48
# --hardest runs: (rows, cols, colours, seed, candidates), small enough for the tests.
RUNS = ((6, 6, 5, 1, 40), (6, 6, 5, 2, 40), (7, 7, 6, 3, 32), (8, 8, 7, 4, 24), (9, 9, 8, 1, 24))


def fingerprint(rating) -> str:
    """A digest of everything a rating says: its figures, and every step's kind, moves and reasons."""
    record = (
        round(rating.difficulty, 9),
        rating.solved,
        sorted(rating.depth.items()),
        rating.width,
        rating.layers,
        rating.open_cells,
        rating.deduced,
        [(step.kind, step.moves) for step in rating.steps],
    )
    return hashlib.sha256(repr(record).encode()).hexdigest()


def rated_boards():
    """The puzzles rated for the record: grown flows of many sizes, one seed each."""
    for seed in range(RATED):
        rng = random.Random(f"rate-same:{seed}")
        size = rng.randint(5, 11)
        colors = max(2, default_colors(size, size, rng) + rng.choice((-3, -2, 0, 0, 1)))
        paths = grow(size, size, colors, rng)
        puzzle = to_puzzle(paths, size, size)[0]
        if seed % 3 == 2:
            puzzle = _swapped(puzzle, rng)
        yield puzzle


def _swapped(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """The puzzle with an end of one colour and an end of another swapped: mostly a level deduction
    cannot finish (no solution, or a stall), the rater's other way out."""
    grid = [list(line) for line in puzzle.to_rows()]
    first, second = rng.sample(range(len(puzzle.endpoints)), 2)
    (r1, c1), (r2, c2) = puzzle.endpoints[first][0], puzzle.endpoints[second][1]
    grid[r1][c1], grid[r2][c2] = grid[r2][c2], grid[r1][c1]
    return Puzzle.from_rows(["".join(line) for line in grid])


def hardest_run(rows, cols, colors, seed, iterations):
    """What a --hardest run decides: the level, the final pool, and the best score after each candidate."""
    seen = []
    outcome = hardest(
        rows, cols, colors, seed, iterations, workers=1, report=lambda done, best: seen.append(best.score)
    )
    return {
        "level": outcome.level.puzzle.to_rows(),
        "solution": outcome.level.solution.to_rows(),
        "pool": [round(d, 9) for d in outcome.pool],
        "best_after_each": [round(s, 9) for s in seen],
    }


def record() -> dict:
    """Everything the record holds, by this checkout's code."""
    return {
        "ratings": [fingerprint(rate(puzzle)) for puzzle in rated_boards()],
        "runs": [hardest_run(*run) for run in RUNS],
    }


@pytest.fixture(scope="module")
def recorded():
    """The record made by the code before the speed-ups."""
    return json.loads(RECORD.read_text())


def test_every_rating_is_the_one_before_the_speed_ups(recorded):
    got = [fingerprint(rate(puzzle)) for puzzle in rated_boards()]
    assert len(got) == len(recorded["ratings"])
    different = [n for n, (a, b) in enumerate(zip(got, recorded["ratings"], strict=True)) if a != b]
    assert different == []


@pytest.mark.parametrize("run", range(len(RUNS)))
def test_hardest_picks_the_same_level_for_the_same_seed(recorded, run):
    assert hardest_run(*RUNS[run]) == recorded["runs"][run]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: PYTHONPATH=CHECKOUT python tests/test_rate_same.py --write")
    RECORD.parent.mkdir(exist_ok=True)
    RECORD.write_text(json.dumps(record(), indent=1) + "\n")
