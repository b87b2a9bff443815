"""The human-style rater: sound deductions, sensible order over real levels, the CLI."""

from __future__ import annotations

import json
import random

import pytest

from flowbot.cli import main
from flowbot.formats import load_puzzles
from flowbot.generate.levels import make_level
from flowbot.model import Puzzle
from flowbot.rate.human import KINDS, RULES, Board, Contradiction, State, apply, forced
from flowbot.rate.score import rate
from flowbot.solve.sat import solve

REGULAR = ("regular_5x5_01", "regular_6x6_01", "regular_7x7_01", "regular_8x8_01", "regular_9x9_01")


def test_real_levels_order_sensibly(corpus):
    folder = corpus / "mzucker__flow_solver" / "puzzles"
    # The three slowest 14x14 levels take seconds each; scripts/bench_rate.py rates them all.
    slow = ("jumbo_14x14_01", "jumbo_14x14_19", "jumbo_14x14_21")
    paths = [path for path in folder.glob("*.txt") if path.stem not in slow]
    ratings = {path.stem: rate(load_puzzles(path)[0]) for path in paths}
    easiest_large = min(ratings[name].difficulty for name in ratings if name.startswith(("extreme", "jumbo")))
    hardest_regular = max(ratings[name].difficulty for name in REGULAR)
    assert hardest_regular < easiest_large
    assert all(ratings[name].solved and ratings[name].band == "easy" for name in REGULAR)


@pytest.mark.parametrize("seed", range(10))
def test_deductions_agree_with_the_unique_solution(seed):
    rng = random.Random(seed)
    size = rng.randint(5, 10)
    level = make_level(size, size, round(0.9 * size), rng)
    rating = rate(level.puzzle)
    if rating.solved:
        assert list(rating.deduced) == level.solution.to_rows()
    else:
        assert rating.open_cells > 0


def test_rules_never_contradict_a_solvable_puzzle():
    for seed in range(8):
        level = make_level(8, 8, 7, random.Random(100 + seed))
        truth = level.solution.color_grid()
        board = Board.of(level.puzzle)
        state = State(board)
        for _ in range(500):
            progress = False
            for kind in KINDS:
                moves = RULES[kind](state)
                if moves and apply(state, moves):
                    progress = True
                    break
            if not progress:
                break
        for (row, col), mask in zip(board.cells, state.domain, strict=True):
            assert mask >> truth[row][col] & 1, (seed, row, col)


def test_a_contradiction_is_raised_for_a_broken_state():
    puzzle = solve_free_board()
    state = State(Board.of(puzzle))
    for e in range(len(state.edge)):
        state.edge[e] = 2  # every edge off: no endpoint can reach its partner
    state.open = [0] * len(state.open)
    with pytest.raises(Contradiction):
        forced(state)


def solve_free_board():
    """A small solvable board."""
    puzzle = Puzzle.from_rows(["A.A", "B.B"])
    assert solve(puzzle).status == "solved"
    return puzzle


def test_rate_json_and_text(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(".....\n.DC.A\nA.D..\nEB.B.\n.EC..\n")
    assert main(["rate", "--json", str(path)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["deduction_solves"] is True
    assert set(record["depth"]) == set(KINDS) - {"uniqueness"}
    assert record["solution"] == solve(Puzzle.from_rows(record["puzzle"])).solution.to_rows()
    assert main(["rate", str(path)]) == 0
    assert "difficulty" in capsys.readouterr().out


def test_rate_reports_bad_files_and_goes_on(tmp_path, capsys):
    bad, good = tmp_path / "bad.txt", tmp_path / "good.txt"
    bad.write_text("A..\n")
    good.write_text("A.A\nB.B\n")
    assert main(["rate", str(bad), str(good)]) == 2
    captured = capsys.readouterr()
    assert "bad.txt" in captured.err and "good.txt" in captured.out
