"""Puzzles on one board shape share a loaded SAT solver: same answers as a puzzle's own CNF, nothing
one puzzle adds leaks into the next, and a solver that was interrupted is never reused."""

from __future__ import annotations

import random

import pytest

from flowbot.model import Puzzle
from flowbot.solve import sat
from flowbot.solve.check import check_paths, touches_itself
from flowbot.solve.sat import solve
from tests.boards import snake_board


@pytest.fixture(autouse=True)
def fresh_shapes():
    """Each test starts with no shape seen and no solver kept, and leaves none behind."""
    sat.forget_shapes()
    yield
    sat.forget_shapes()


def shapes_built(monkeypatch) -> list[tuple[int, int, int]]:
    """Record (rows, cols, colour width) of every shared shape built from now on."""
    built = []
    original = sat._Shape.__init__

    def spy(self, puzzle, width):
        built.append((puzzle.rows, puzzle.cols, width))
        original(self, puzzle, width)

    monkeypatch.setattr(sat._Shape, "__init__", spy)
    return built


def own_cnf_answer(puzzle: Puzzle, **options) -> sat.SolveResult:
    """The answer from the puzzle's own CNF, no shape shared."""
    sat.forget_shapes()
    original = sat.SHAPE_MAX_CELLS
    sat.SHAPE_MAX_CELLS = 0
    try:
        return solve(puzzle, search=False, **options)
    finally:
        sat.SHAPE_MAX_CELLS = original


def test_puzzles_on_one_shape_are_answered_on_one_solver_as_their_own_cnfs_answer(monkeypatch):
    rng = random.Random(25)
    puzzles = [snake_board(rng, 7, 8, max_walls=0) for _ in range(8)]
    expected = [own_cnf_answer(puzzle, unique=True) for puzzle in puzzles]
    built = shapes_built(monkeypatch)
    answers = [solve(puzzle, unique=True, search=False) for puzzle in puzzles]
    assert len(built) == 1  # the first puzzle has its own CNF; the second builds the shape
    for puzzle, answer, own in zip(puzzles, answers, expected, strict=True):
        assert (answer.status, answer.strict, answer.unique) == (own.status, own.strict, own.unique)
        assert check_paths(puzzle, answer.solution.paths) == []
        assert not answer.strict or not any(touches_itself(path) for path in answer.solution.paths)


def test_a_uniqueness_check_blocks_nothing_for_the_next_puzzle():
    # One solution: the check blocks it to look for another. If that block stayed on the shared solver,
    # the same puzzle asked again would have no strict solution left.
    puzzle = Puzzle.from_rows([".....", ".DC.A", "A.D..", "EB.B.", ".EC.."])
    for _ in range(4):
        result = solve(puzzle, unique=True, search=False)
        assert (result.status, result.strict, result.unique) == ("solved", True, True)
        assert check_paths(puzzle, result.solution.paths) == []


def test_a_puzzle_with_more_colours_widens_the_shape(monkeypatch):
    built = shapes_built(monkeypatch)
    few = Puzzle.from_rows(["A...A", "B...B", "C...C", "D...D"])  # 4 colours: 2 bits
    wide = Puzzle.from_rows(["ABCDE", "ABCDE", "FGHIJ", "FGHIJ"])  # 10 colours: 4 bits
    many = Puzzle.from_rows(["ABCDE", "FGHIJ", "FGHIJ", "ABCDE"])  # F..J wall A..E's ends apart
    for puzzle in (few, few, wide, few):
        result = solve(puzzle, search=False)
        assert result.status == "solved" and result.strict
        assert check_paths(puzzle, result.solution.paths) == []
    assert solve(many, search=False).status == own_cnf_answer(many).status == "unsolvable"
    # A bit to spare: one more colour than the shape has seen needs no new build.
    assert [width for _rows, _cols, width in built] == [3, 5]


def test_a_timed_out_solve_frees_its_shared_solver():
    puzzle = snake_board(random.Random(3), 6, 7, max_walls=0)
    solve(puzzle, search=False)
    solve(puzzle, search=False)  # the shape's solver is built and kept
    key = (puzzle.rows, puzzle.cols, puzzle.walls)
    assert key in sat._SHAPES._ready
    assert solve(puzzle, search=False, timeout=1e-9, allow_touching=False).status == "timeout"
    assert key not in sat._SHAPES._ready  # interrupted: never handed to the next puzzle
    again = solve(puzzle, search=False)
    assert again.status == "solved" and check_paths(puzzle, again.solution.paths) == []


def test_a_shape_with_a_cell_no_path_can_reach_is_unsolvable():
    puzzle = Puzzle.from_rows(["AA.", "##.", ".#."])  # the bottom-left cell has no neighbour
    for _ in range(3):
        assert solve(puzzle, search=False).status == "unsolvable"
    assert own_cnf_answer(puzzle).status == "unsolvable"


def test_holes_make_another_shape():
    with_hole = Puzzle.from_rows(["A..", ".#.", "..A"])
    without = Puzzle.from_rows(["A.B", "...", "B.A"])
    own = {puzzle: own_cnf_answer(puzzle) for puzzle in (with_hole, without)}
    sat.forget_shapes()
    for puzzle in (with_hole, without, with_hole, without, with_hole):
        result = solve(puzzle, search=False)
        assert (result.status, result.strict) == (own[puzzle].status, own[puzzle].strict)
        if result.solution is not None:
            assert check_paths(puzzle, result.solution.paths) == []
    assert len(sat._SHAPES._ready) == 2


def test_kept_solvers_are_bounded(monkeypatch):
    monkeypatch.setattr(sat._SHAPES, "_keep", 2)
    boards = [Puzzle.from_rows(["A" + "." * cols, "A" + "." * cols]) for cols in range(2, 6)]
    for puzzle in boards * 2:
        result = solve(puzzle, search=False)
        assert check_paths(puzzle, result.solution.paths) == []
    assert len(sat._SHAPES._ready) == 2
    assert list(sat._SHAPES._ready) == [(2, 5, frozenset()), (2, 6, frozenset())]


@pytest.mark.parametrize("make", ["adapter", "pysat"])
def test_the_glucose_adapter_answers_under_assumptions_as_pysat_does(make):
    from pysat.solvers import Solver

    from flowbot.solve.glucose import Glucose

    solver = Glucose(incr=True) if make == "adapter" else Solver(name="glucose4", incr=True)
    try:
        solver.append_formula([[1, 2], [-1, 3], [-2, 3], [-3, 4]])
        assert solver.solve_limited([-3], expect_interrupt=True) is False
        assert solver.solve_limited([1, -2], expect_interrupt=True) is True
        assert {1, -2, 3, 4} <= set(solver.get_model())
        assert solver.solve_limited(expect_interrupt=True) is True  # the assumptions were for one call
        assert solver.solve_limited([-4], expect_interrupt=True) is False
    finally:
        solver.delete()


def test_forgetting_shapes_makes_the_next_solve_a_lone_one(monkeypatch):
    built = shapes_built(monkeypatch)
    puzzle = Puzzle.from_rows(["A...A", "B...B", "C...C", "D...D"])
    solve(puzzle, search=False)
    solve(puzzle, search=False)
    assert len(built) == 1 and sat._SHAPES._ready
    sat.forget_shapes()
    assert not sat._SHAPES._ready
    solve(puzzle, search=False)  # seen for the first time again: its own CNF
    assert len(built) == 1


def test_a_batch_that_brings_a_shape_twice_solves_its_first_puzzle_on_the_shape(monkeypatch):
    rng = random.Random(7)
    puzzles = [snake_board(rng, 7, 8, max_walls=0) for _ in range(3)]
    lone = snake_board(rng, 6, 9, max_walls=0)  # a shape the batch brings once
    expected = {puzzle: own_cnf_answer(puzzle, unique=True) for puzzle in [*puzzles, lone]}
    built = shapes_built(monkeypatch)
    own = []
    original = sat._Encoding.__init__

    def spy(self, puzzle, strict, binary):
        own.append((puzzle, strict))
        original(self, puzzle, strict, binary)

    monkeypatch.setattr(sat._Encoding, "__init__", spy)
    sat.expect([puzzles[0], lone, *puzzles[1:]])
    for puzzle in [puzzles[0], lone, *puzzles[1:]]:
        answer = solve(puzzle, unique=True, search=False)
        want = expected[puzzle]
        assert (answer.status, answer.strict, answer.unique) == (want.status, want.strict, want.unique)
        assert check_paths(puzzle, answer.solution.paths) == []
    # Built for the first of the three, its codes as wide as their most colours need: none to spare.
    widest = max((len(puzzle.colors) - 1).bit_length() for puzzle in puzzles)
    assert built == [(7, 8, widest)]
    # No strict CNF of its own for a puzzle whose shape comes again (the relaxed rules have none).
    assert [puzzle for puzzle, strict in own if strict] == [lone]


def test_flowbot_solve_tells_the_solver_its_batch(monkeypatch, tmp_path):
    from flowbot.modes.solve_files import load_all, solve_outcomes

    rng = random.Random(11)
    files = []
    for number in range(2):  # 7x7: past what the exact search takes, so the SAT solver answers
        files.append(tmp_path / f"{number}.txt")
        files[-1].write_text("\n".join(snake_board(rng, 7, 7, max_walls=0).to_rows()) + "\n")
    built = shapes_built(monkeypatch)
    seen = []
    for outcome in solve_outcomes(load_all([str(path) for path in files])):
        seen.append(len(built))
        assert outcome.status == "solved"
    assert seen == [1, 1]  # the shape was built for the first puzzle already


def test_a_puzzle_with_more_colours_than_its_batch_told_widens_the_shape(monkeypatch):
    built = shapes_built(monkeypatch)
    few = Puzzle.from_rows(["A...A", "B...B", "C...C", "D...D"])  # 4 colours: 2 bits
    wide = Puzzle.from_rows(["ABCDE", "ABCDE", "FGHIJ", "FGHIJ"])  # 10 colours: 4 bits
    sat.expect([few, few])
    for puzzle in (few, few, wide, wide):
        result = solve(puzzle, search=False)
        assert result.status == "solved" and result.strict
        assert check_paths(puzzle, result.solution.paths) == []
    assert [width for _rows, _cols, width in built] == [2, 5]  # as told, then rebuilt with a bit to spare
