"""The exact search for small boards: it agrees with brute force and with the SAT solver, every answer
holds by the independent checker, and it hands a board it cannot finish in its budget to SAT."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowbot.formats import load_puzzles
from flowbot.model import Puzzle
from flowbot.solve.check import check_paths, touches_itself
from flowbot.solve.sat import solve
from flowbot.solve.search import Budget, OutOfBudget, OutOfTime, find_solutions, searchable
from tests.boards import count_solutions, snake_board

UNLIMITED = 10**9


def _random_board(rng: random.Random, rows: int, cols: int, flows: int, holes: int) -> Puzzle:
    """Endpoints and holes dropped anywhere: most such boards have no solution, some have many."""
    cells = [(row, col) for row in range(rows) for col in range(cols)]
    chosen = rng.sample(cells, min(2 * flows + holes, len(cells)))
    grid = [["."] * cols for _ in range(rows)]
    for number, (row, col) in enumerate(chosen[: 2 * flows]):
        grid[row][col] = "ABCD"[number // 2]
    for row, col in chosen[2 * flows :]:
        grid[row][col] = "#"
    return Puzzle.from_rows(["".join(line) for line in grid])


@settings(derandomize=True, deadline=None, max_examples=300)
@given(
    st.integers(1, 4),
    st.integers(2, 4),
    st.integers(1, 3),
    st.integers(0, 2),
    st.randoms(use_true_random=False),
)
def test_the_search_counts_what_brute_force_counts(rows, cols, flows, holes, rng):
    cells = rows * cols
    flows = min(flows, (cells - holes) // 2)
    if flows == 0:
        return
    puzzle = _random_board(rng, rows, cols, flows, holes)
    strict, relaxed = count_solutions(puzzle, limit=3)
    found_strict = find_solutions(puzzle, strict=True, limit=3, budget=Budget(UNLIMITED))
    found_relaxed = find_solutions(puzzle, strict=False, limit=3, budget=Budget(UNLIMITED))
    assert (len(found_strict), len(found_relaxed)) == (strict, relaxed)
    for paths in found_strict + found_relaxed:
        assert check_paths(puzzle, paths) == []
    assert not any(touches_itself(path) for paths in found_strict for path in paths)
    assert len(set(found_strict)) == len(found_strict) and len(set(found_relaxed)) == len(found_relaxed)


@settings(derandomize=True, deadline=None, max_examples=200)
@given(st.integers(2, 6), st.integers(2, 6), st.booleans(), st.randoms(use_true_random=False))
def test_the_search_and_sat_agree_on_boards_up_to_6x6(rows, cols, snake, rng):
    if snake:
        puzzle = snake_board(rng, rows, cols)
    else:
        puzzle = _random_board(rng, rows, cols, rng.randint(1, 4), rng.randint(0, 3))
    assert searchable(puzzle)
    for unique in (False, True):
        _assert_answered_as_sat(puzzle, unique)


def test_every_small_corpus_level_is_answered_as_sat_answers_it(corpus):
    levels = [
        puzzle
        for path in sorted(corpus.rglob("*"))
        if path.is_file() and path.suffix not in (".md",)
        for puzzle in _puzzles(path)
        if searchable(puzzle)
    ]
    assert len(levels) >= 20  # the 5x5 and 6x6 levels and the small numberlink boards
    for puzzle in levels:
        _assert_answered_as_sat(puzzle, unique=True)


def _assert_answered_as_sat(puzzle: Puzzle, unique: bool) -> None:
    """The search proves what SAT proves of the puzzle, and its solution passes the checker."""
    searched = solve(puzzle, unique=unique)
    assert _verdict(searched) == _verdict(solve(puzzle, unique=unique, search=False))
    if searched.solution is not None:
        assert check_paths(puzzle, searched.solution.paths) == []


def _verdict(result) -> tuple:
    """What a solve proved: its status, under which rules, and whether the solution is the only one."""
    return result.status, result.strict, result.unique


def _puzzles(path) -> list[Puzzle]:
    """The puzzles of a corpus file, or none for a file that is not one (hints, notes)."""
    from flowbot.errors import FlowbotError

    try:
        return load_puzzles(path)
    except FlowbotError:
        return []


def test_a_search_past_its_budget_proves_nothing_and_sat_decides(corpus):
    # The cross has no solution under either rule; proving that for paths that may touch themselves
    # takes the search more steps than its budget, so the SAT solver answers.
    cross = load_puzzles(corpus / "mzucker__flow_solver/puzzles/unsolvable_cross.txt")[0]
    assert searchable(cross)
    with pytest.raises(OutOfBudget):
        find_solutions(cross, strict=False, limit=1, budget=Budget())
    result = solve(cross, unique=True)
    assert result.status == "unsolvable" and result.strict


def test_a_search_past_its_deadline_is_a_timeout():
    puzzle = Puzzle.from_rows(["A...B", ".....", ".....", ".....", "B...A"])
    with pytest.raises(OutOfTime):
        find_solutions(puzzle, strict=True, limit=1, budget=Budget(UNLIMITED, end=0.0))
    assert solve(puzzle, timeout=1e-9).status == "timeout"


def test_boards_off_the_square_lattice_or_large_are_left_to_sat(corpus):
    hexes = load_puzzles(corpus / "samgoldman__FlowSolver/puzzles/hex/Classic5x5_1.txt")[0]
    assert hexes.is_graph and not searchable(hexes)
    assert not searchable(Puzzle.from_rows(["A" + "." * 5 + "A"] + ["." * 7] * 6))  # 7x7
    assert searchable(Puzzle.from_rows(["A" + "." * 4 + "A"] + ["." * 6] * 5))  # 6x6
