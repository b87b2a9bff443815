"""Fair generation and the --hardest pool optimizer: fair, unique, repeatable, never worse over time."""

from __future__ import annotations

import json
import random

import pytest

from flowbot.cli import main
from flowbot.generate.levels import make_level
from flowbot.generate.optimize import POOL_SIZE, hardest, hardness
from flowbot.solve.check import check_paths
from flowbot.solve.sat import solve


@pytest.mark.parametrize("seed", range(4))
def test_generated_levels_are_fair(seed):
    rng = random.Random(seed)
    level = make_level(7, 7, 6, rng)
    assert level.rating.solved  # deduction alone finishes it: no guess needed
    assert list(level.rating.deduced) == level.solution.to_rows()


def test_the_optimizer_gives_a_fair_unique_level_and_its_best_never_drops():
    seen = []
    outcome = hardest(
        6, 6, 5, seed=11, iterations=30, workers=1, report=lambda done, best: seen.append(best.score)
    )
    level = outcome.level
    assert outcome.iterations == 30
    assert level.rating.solved
    result = solve(level.puzzle, unique=True, allow_touching=False)
    assert result.status == "solved" and result.unique
    assert check_paths(level.puzzle, level.solution.paths) == []
    assert seen == sorted(seen)  # the pool only ever drops its worst
    assert len(outcome.pool) <= POOL_SIZE
    assert level.rating.difficulty in outcome.pool
    assert hardness(level.rating) == pytest.approx(max(seen))


def test_the_optimizer_repeats_with_a_seed_on_any_number_of_processes():
    one = hardest(6, 6, 5, seed=5, iterations=20, workers=1)
    two = hardest(6, 6, 5, seed=5, iterations=20, workers=2)
    assert one.level.puzzle.to_rows() == two.level.puzzle.to_rows()
    assert one.pool == two.pool
    other = hardest(6, 6, 5, seed=6, iterations=20, workers=1)
    assert other.level.puzzle.to_rows() != one.level.puzzle.to_rows()


def test_generate_hardest_cli(capsys):
    assert (
        main(["generate", "--hardest", "--size", "6x6", "--iterations", "16", "--seed", "2", "--json"]) == 0
    )
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["rating"]["deduction_solves"] is True
    assert "per second per core" in captured.err and "pool:" in captured.err
    assert "16/16 candidates" in captured.err


def test_generate_refuses_optimizer_options_without_hardest(capsys):
    assert main(["generate", "--size", "6x6", "--iterations", "16"]) == 64
    assert "--hardest" in capsys.readouterr().err
    assert main(["generate", "--size", "6x6", "--hardest", "--difficulty", "hard"]) == 64


def test_every_candidate_is_counted_while_no_fair_one_is_found_yet(monkeypatch):
    from flowbot.generate import optimize

    real = optimize.evaluate
    calls = []

    def slow_to_be_fair(job):
        calls.append(job)
        return None if len(calls) <= 3 else real(job)  # the first three are unfair

    monkeypatch.setattr(optimize, "evaluate", slow_to_be_fair)
    counted, reported = [], []
    outcome = hardest(6, 6, 5, seed=3, iterations=1, workers=1, report=lambda d, b: reported.append(d),
                      rated=counted.append)  # fmt: skip
    assert counted[:3] == [1, 2, 3] and reported[0] > 3  # counted before any was fair
    # --iterations 1 rates one round (until one is fair), not a whole pool of ten fair ones.
    assert outcome.iterations == len(counted) <= optimize.BATCH


def test_generate_hardest_tells_its_progress_and_an_estimate_from_the_first_candidate(capsys, monkeypatch):
    from flowbot.modes import generate

    monkeypatch.setattr(generate, "PROGRESS_EVERY", 0.0)  # a line after every candidate
    assert (
        main(["generate", "--hardest", "--size", "6x6", "--iterations", "4", "--seed", "2", "--workers", "1"])
        == 0
    )
    err = capsys.readouterr().err
    assert "rating 4 candidate(s) of 6x6" in err.splitlines()[0]
    assert "1/4 candidates in" in err and "s left" in err


def test_each_puzzle_is_rated_once_in_a_run(monkeypatch):
    from flowbot.generate import optimize

    real, puzzles = optimize.rate, []

    def counted(puzzle):
        puzzles.append(tuple(puzzle.to_rows()))
        return real(puzzle)

    monkeypatch.setattr(optimize, "rate", counted)
    outcome = hardest(6, 6, 5, seed=4, iterations=60, workers=1)
    rated_in_run = puzzles[:-1]  # the last is the chosen level's full rating
    assert len(rated_in_run) == len(set(rated_in_run)) < outcome.iterations  # mutations repeat puzzles
    assert outcome.puzzles == len(rated_in_run)


def test_a_run_that_forgets_old_verdicts_picks_the_same_level(monkeypatch):
    from flowbot.generate import optimize

    whole = hardest(6, 6, 5, seed=4, iterations=40, workers=1)
    monkeypatch.setattr(optimize, "MEMORY", 2)
    forgetful = hardest(6, 6, 5, seed=4, iterations=40, workers=1)
    assert forgetful.level.puzzle.to_rows() == whole.level.puzzle.to_rows()
    assert forgetful.pool == whole.pool
    assert forgetful.puzzles > whole.puzzles  # puzzles forgotten were rated again
