"""The SAT solver: small cases, rule modes, uniqueness, timeouts, and agreement with brute force."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowbot.errors import SolveError
from flowbot.model import Puzzle
from flowbot.solve.check import check_paths, touches_itself
from flowbot.solve.sat import _Encoding, solve
from tests.boards import count_solutions, snake_board


def solved(rows: list[str], **options):
    """Solve a board given as rows, by SAT and as a small board is by default (the exact search), check
    that both say the same and that each answer holds by the independent checker."""
    puzzle = Puzzle.from_rows(rows)
    result = solve(puzzle, **options)
    by_sat = solve(puzzle, **options, search=False)
    assert (result.status, result.strict, result.unique) == (by_sat.status, by_sat.strict, by_sat.unique)
    for answer in (result, by_sat):
        if answer.solution is not None:
            assert check_paths(puzzle, answer.solution.paths) == []
    return result


def test_simple_board_is_solved_strictly_and_uniquely():
    result = solved([".....", ".DC.A", "A.D..", "EB.B.", ".EC.."], unique=True)
    assert result.status == "solved"
    assert result.strict and result.unique
    path_a = result.solution.paths[result.solution.puzzle.label_index()["A"]]
    assert {path_a[0], path_a[-1]} == {(1, 4), (2, 0)}


@pytest.mark.parametrize(
    "rows",
    [
        ["AA"],  # two endpoints side by side
        ["A", "A"],
        ["A.A"],
        ["A#A", "..."],  # around a hole
    ],
)
def test_tiny_boards(rows):
    assert solved(rows).status == "solved"


@pytest.mark.parametrize(
    "rows",
    [
        ["A.B", ".#.", "B.A"],  # two flows must cross
        ["AB", "BA"],
        ["A.", "#A", ".."],  # a free cell with a single neighbour cannot be passed through
        ["A#A"],
    ],
)
def test_unsolvable_boards(rows):
    assert solved(rows).status == "unsolvable"


def test_relaxed_rule_is_the_fallback_when_strict_fails():
    # The only way to fill this board makes A run alongside itself.
    result = solved(["A..", "...", "A.."])
    assert result.status == "solved"
    assert not result.strict
    assert touches_itself(result.solution.paths[0])
    assert solve(Puzzle.from_rows(["A..", "...", "A.."]), allow_touching=False).status == "unsolvable"


def test_uniqueness_detects_a_second_solution():
    # No strict solution; three relaxed ones (brute force agrees), so the answer is not unique.
    rows = ["A.B", "..B", "A..", "C..", "..C"]
    assert count_solutions(Puzzle.from_rows(rows)) == (0, 3)
    result = solved(rows, unique=True)
    assert result.status == "solved" and not result.strict
    assert result.unique is False


def test_uniqueness_confirms_a_single_solution():
    rows = ["A..A", "B..B"]
    assert count_solutions(Puzzle.from_rows(rows)) == (1, 1)
    assert solved(rows, unique=True).unique is True


def test_timeout_is_reported_not_raised():
    rows = ["A" + "." * 38 + "B"] + ["." * 40] * 38 + ["B" + "." * 38 + "A"]
    result = solve(Puzzle.from_rows(rows), timeout=1e-6)
    assert result.status == "timeout"
    assert result.solution is None


def test_unused_colour_codes_are_excluded():
    from flowbot.solve.sat import _codes_at_least

    for k in range(1, 20):
        width = max(1, (k - 1).bit_length())
        covered = set()
        for cube in _codes_at_least(k, width):
            fixed = dict(cube)
            for code in range(1 << width):
                if all((code >> bit) & 1 == value for bit, value in fixed.items()):
                    covered.add(code)
        assert covered == set(range(k, 1 << width)), k


def test_bad_options_are_errors():
    with pytest.raises(SolveError, match="unknown colour encoding"):
        solve(Puzzle.from_rows(["AA"]), colors="unary")


def test_bad_timeout_is_an_error():
    with pytest.raises(SolveError, match="timeout must be positive"):
        solve(Puzzle.from_rows(["AA"]), timeout=0)


def test_loops_are_found_in_a_model():
    # 3x3 board: A along the top row; a model that closes the lower 2x3 block into a loop.
    encoding = _Encoding(Puzzle.from_rows(["A.A", "...", "..."]), strict=False, binary=True)
    on = {((0, 0), (0, 1)), ((0, 1), (0, 2)), ((1, 0), (1, 1)), ((1, 1), (1, 2)),
          ((1, 2), (2, 2)), ((2, 2), (2, 1)), ((2, 1), (2, 0)), ((2, 0), (1, 0))}  # fmt: skip
    model = []
    for var, (i, j) in enumerate(encoding.edges, start=1):
        pair = (encoding.cells[i], encoding.cells[j])
        model.append(var if pair in on or pair[::-1] in on else -var)
    paths, cycles, touching = encoding.read(model)
    assert paths == [((0, 0), (0, 1), (0, 2))]
    assert touching == []  # relaxed rules: no side-by-side pair is banned
    assert len(cycles) == 1 and len(cycles[0]) == 6


def test_touching_cuts_ban_side_by_side_cells_of_one_colour():
    # A fills the 3x3 board in one path that comes back beside itself: (0,1) and (1,2) lie next to
    # (1,1) without being joined to it, which the strict rule forbids.
    encoding = _Encoding(Puzzle.from_rows(["A..", "...", "A.."]), strict=True, binary=True)
    path = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (1, 1), (1, 0), (2, 0)]
    joined = {frozenset(pair) for pair in pairwise(path)}
    model = [-var for var in range(1, encoding.variables + 1)]  # every free cell has colour code 0
    for var, (i, j) in enumerate(encoding.edges, start=1):
        if frozenset((encoding.cells[i], encoding.cells[j])) in joined:
            model[var - 1] = var
    paths, cycles, cuts = encoding.read(model)
    assert paths == [tuple(path)] and cycles == []
    banned = set()
    for clause in cuts:
        assert all(model[abs(lit) - 1] == -lit for lit in clause)  # the model breaks every cut
        i, j = encoding.edges[clause[0] - 1]
        banned.add(frozenset((encoding.cells[i], encoding.cells[j])))
    assert banned == {frozenset({(0, 1), (1, 1)}), frozenset({(1, 1), (1, 2)})}


@pytest.mark.parametrize(("loop_code", "banned_pairs"), [(0, 4), (1, 2)])
def test_a_loop_beside_a_path_of_its_code_is_cut_and_its_touching_banned(loop_code, banned_pairs):
    # A runs along the top row; the two rows below close into a loop whose cells' bits spell
    # `loop_code`. The loop runs beside itself across its middle (2 pairs) whatever its code; with
    # A's code (0) it also touches A's two free cells unjoined.
    encoding = _Encoding(Puzzle.from_rows(["A..A", "....", "...."]), strict=True, binary=True)
    ring = [(1, 0), (1, 1), (1, 2), (1, 3), (2, 3), (2, 2), (2, 1), (2, 0)]
    joined = {frozenset(pair) for pair in pairwise([(0, 0), (0, 1), (0, 2), (0, 3)])}
    joined |= {frozenset(pair) for pair in zip(ring, ring[1:] + ring[:1], strict=True)}
    model = [-var for var in range(1, encoding.variables + 1)]
    for var, (i, j) in enumerate(encoding.edges, start=1):
        if frozenset((encoding.cells[i], encoding.cells[j])) in joined:
            model[var - 1] = var
    for cell in ring:  # one colour bit (one colour): the loop's code is that bit
        bit = encoding.color_base[encoding.index[cell]]
        model[bit - 1] = bit if loop_code else -bit
    paths, cycles, cuts = encoding.read(model)
    assert paths == [((0, 0), (0, 1), (0, 2), (0, 3))]
    assert len(cycles) == 1 and len(cycles[0]) == len(ring)
    assert len(cuts) == banned_pairs
    for clause in cuts:
        assert all(model[abs(lit) - 1] == -lit for lit in clause)  # the model breaks every cut


@pytest.mark.parametrize("colors", ["binary", "one-hot"])
@settings(derandomize=True, deadline=None, max_examples=150)
@given(st.integers(1, 9), st.integers(2, 9), st.randoms(use_true_random=False))
def test_random_solvable_boards_solve_and_check(colors, rows, cols, rng):
    puzzle = snake_board(rng, rows, cols)
    result = solve(puzzle, colors=colors)
    assert result.status == "solved"
    assert check_paths(puzzle, result.solution.paths) == []


@pytest.mark.parametrize(("colors", "search"), [("binary", False), ("one-hot", False), ("binary", True)])
@settings(derandomize=True, deadline=None, max_examples=200)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(1, 3), st.randoms(use_true_random=False))
def test_solver_agrees_with_brute_force(colors, search, rows, cols, flows, rng):
    cells = [(row, col) for row in range(rows) for col in range(cols)]
    chosen = rng.sample(cells, min(2 * flows, len(cells) - len(cells) % 2))
    grid = [["."] * cols for _ in range(rows)]
    for number, (row, col) in enumerate(chosen):
        grid[row][col] = "ABC"[number // 2]
    puzzle = Puzzle.from_rows(["".join(line) for line in grid])
    strict, relaxed = count_solutions(puzzle)
    # search=False: the SAT solver itself, which boards this small otherwise never reach
    result = solve(puzzle, unique=True, colors=colors, search=search)
    if strict:
        assert result.status == "solved" and result.strict
        assert result.unique is (strict == 1)
    elif relaxed:
        assert result.status == "solved" and not result.strict
        assert result.unique is (relaxed == 1)
    else:
        assert result.status == "unsolvable"
    if result.solution is not None:
        assert check_paths(puzzle, result.solution.paths) == []


def test_snake_boards_are_deterministic_for_a_seed():
    assert snake_board(random.Random(4), 6, 6) == snake_board(random.Random(4), 6, 6)


@pytest.mark.parametrize("make", ["adapter", "pysat"])
def test_glucose_adapter_answers_as_pysat_does(make):
    from pysat.solvers import Solver

    from flowbot.solve.glucose import Glucose, solver_class

    assert solver_class() is Glucose  # the pinned python-sat has every C function: no fallback
    solver = Glucose() if make == "adapter" else Solver(name="glucose4")
    try:
        solver.append_formula([[1, 2], [-1, 2], [-2, 3]])
        assert solver.solve_limited(expect_interrupt=True) is True
        assert {2, 3} <= set(solver.get_model())
        # Seven pigeons in six holes: unsatisfiable, and far more than ten conflicts to prove it.
        hole = {(pigeon, h): 10 + 6 * pigeon + h for pigeon in range(7) for h in range(6)}
        solver.append_formula([[hole[(pigeon, h)] for h in range(6)] for pigeon in range(7)])
        solver.append_formula(
            [[-hole[(a, h)], -hole[(b, h)]] for h in range(6) for a in range(7) for b in range(a + 1, 7)]
        )
        solver.conf_budget(10)
        assert solver.solve_limited(expect_interrupt=True) is None
        solver.conf_budget(-1)
        assert solver.solve_limited(expect_interrupt=True) is False
        assert solver.get_model() is None
    finally:
        solver.delete()


def test_building_a_cnf_pauses_the_cycle_collector_and_restores_it(monkeypatch):
    import gc

    from flowbot.solve import sat

    seen = []
    original = sat._Encoding._encode

    def spy(self):
        seen.append(gc.isenabled())
        original(self)

    monkeypatch.setattr(sat._Encoding, "_encode", spy)
    try:
        gc.enable()
        _Encoding(Puzzle.from_rows(["A.A"]), strict=True, binary=True)
        assert seen == [False] and gc.isenabled()
        gc.disable()  # a caller that had it off keeps it off
        _Encoding(Puzzle.from_rows(["A.A"]), strict=True, binary=True)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_overlapping_builds_in_threads_leave_the_collector_as_they_found_it():
    import gc
    import threading

    from flowbot.solve.sat import _CollectorPause

    pause = _CollectorPause()
    first_in, second_done = threading.Event(), threading.Event()

    def first():
        with pause.paused():
            first_in.set()
            second_done.wait(5)  # the second build starts and ends inside this one

    gc.enable()
    try:
        worker = threading.Thread(target=first)
        worker.start()
        first_in.wait(5)
        with pause.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the first build is still running
        second_done.set()
        worker.join(5)
        assert gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_stays_paused_through_the_search_and_comes_back(monkeypatch):
    import gc

    from flowbot.solve import sat

    seen = []
    original = sat._Search.next_solution

    def spy(self):
        seen.append(gc.isenabled())
        return original(self)

    monkeypatch.setattr(sat._Search, "next_solution", spy)
    gc.enable()
    try:
        # search=False: a board this small is otherwise searched without the SAT solver
        assert solve(Puzzle.from_rows(["A..A", "B..B"]), unique=True, search=False).unique is True
        assert seen == [False, False] and gc.isenabled()
    finally:
        gc.enable()
