"""The human-style solver's record: every step agrees with the unique solution, and says why."""

from __future__ import annotations

import json
import random

import pytest

from flowbot.cli import main
from flowbot.formats import load_puzzles
from flowbot.generate.levels import make_level
from flowbot.rate.human import Board
from flowbot.rate.score import rate
from flowbot.rate.truth import Truth
from flowbot.solve.sat import solve

# The two largest real levels take seconds each to rate; bench_rate.py checks them too.
SLOW = ("jumbo_14x14_01", "jumbo_14x14_19", "jumbo_14x14_21")


def real_levels(corpus):
    """The 28 real Flow Free levels of the corpus (mzucker's, without the unsolvable toy)."""
    folder = corpus / "mzucker__flow_solver" / "puzzles"
    return sorted(path for path in folder.glob("*.txt") if not path.stem.startswith("unsolvable"))


def assert_steps_agree(puzzle, solution, rating):
    """Each move of each step agrees with the solution, and each carries a reason."""
    truth = Truth.of(Board.of(puzzle), solution)
    for number, step in enumerate(rating.steps):
        for move in step.moves:
            assert truth.agrees(move), (number, step.kind, move)
            assert move[3], (number, step.kind, move)


def test_deduction_finishes_the_real_levels_and_every_step_is_right(corpus):
    levels = real_levels(corpus)
    assert len(levels) == 28
    for path in levels:
        if path.stem in SLOW:
            continue
        puzzle = load_puzzles(path)[0]
        rating = rate(puzzle)
        assert rating.solved, path.stem
        solution = solve(puzzle).solution
        assert list(rating.deduced) == solution.to_rows(), path.stem
        assert_steps_agree(puzzle, solution, rating)


@pytest.mark.parametrize("seed", range(6))
def test_every_step_agrees_on_generated_levels(seed):
    rng = random.Random(700 + seed)
    size = rng.randint(6, 10)
    level = make_level(size, size, round(0.9 * size), rng)
    rating = rate(level.puzzle)
    assert_steps_agree(level.puzzle, level.solution, rating)
    if rating.solved:
        assert list(rating.deduced) == level.solution.to_rows()


def test_a_wrong_move_is_caught_by_the_check():
    level = make_level(6, 6, 5, random.Random(3))
    board = Board.of(level.puzzle)
    truth = Truth.of(board, level.solution)
    e = 0
    wrong = ("edge", e, 3 - truth.edge[e], "")  # ON <-> OFF
    assert not truth.agrees(wrong)
    assert truth.agrees(("colour", 0, 1 << truth.color[0], ""))


def test_a_supposition_names_what_goes_wrong(corpus):
    puzzle = load_puzzles(corpus / "mzucker__flow_solver" / "puzzles" / "extreme_8x8_01.txt")[0]
    rating = rate(puzzle)
    supposed = [move for step in rating.steps if "contradiction" in step.kind for move in step.moves]
    assert supposed
    assert all(move[3].startswith("if ") for move in supposed)


def test_rate_steps_prints_the_record(tmp_path, capsys):
    level = make_level(7, 7, 6, random.Random(21))
    path = tmp_path / "p.txt"
    path.write_text("\n".join(level.puzzle.to_rows()) + "\n")
    assert main(["rate", "--steps", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + len(rate(level.puzzle).steps)
    assert lines[1].lstrip().startswith("1. forced")
    assert main(["rate", "--steps", "--json", str(path)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["steps"][0]["kind"] == "forced" and record["steps"][0]["why"]
