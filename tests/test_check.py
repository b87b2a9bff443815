"""The independent checker finds every kind of broken solution and accepts a right one."""

from __future__ import annotations

from flowbot.model import Puzzle
from flowbot.solve.check import check_paths, touches_itself

PUZZLE = Puzzle.from_rows(["A.B", "..B", "A##"])
GOOD = [[(0, 0), (0, 1), (1, 1), (1, 0), (2, 0)], [(0, 2), (1, 2)]]


def test_right_solution_has_no_problems():
    assert check_paths(PUZZLE, GOOD) == []


def test_uncovered_cells_are_listed():
    problems = check_paths(Puzzle.from_rows(["A.B", "..B", "A.."]), GOOD)
    assert problems == ["2 cell(s) not covered by any path: (row 3, col 2), (row 3, col 3)"]


def test_every_broken_rule_is_reported():
    bad = [
        [(0, 0), (1, 1), (1, 0), (2, 0)],  # jumps diagonally, leaves (0,1) empty
        [(0, 2), (1, 2), (2, 2)],  # ends on a wall, not on its endpoint
    ]
    problems = check_paths(PUZZLE, bad)
    text = "\n".join(problems)
    assert "path jumps from (row 1, col 1) to (row 2, col 2)" in text
    assert "path leaves the board at (row 3, col 3)" in text
    assert "not between its endpoints" in text
    assert "not covered" in text


def test_overlaps_repeats_and_foreign_endpoints():
    puzzle = Puzzle.from_rows(["A.A", "B.B"])
    bad = [[(0, 0), (0, 1), (1, 1), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)]]
    text = "\n".join(check_paths(puzzle, bad))
    assert "visits (row 1, col 2) twice" in text
    assert "used by colours 'A' and 'B'" in text
    crossing = [[(0, 0), (1, 0), (1, 1), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)]]
    assert "crosses the endpoint of 'B' at (row 2, col 1)" in "\n".join(check_paths(puzzle, crossing))


def test_wrong_number_of_paths_and_empty_path():
    assert "1 paths given for 2 colours" in check_paths(PUZZLE, GOOD[:1])[0]
    assert "colour 'B' has an empty path" in check_paths(PUZZLE, [GOOD[0], []])


def test_touching_itself():
    assert touches_itself([(0, 0), (0, 1), (1, 1), (1, 0)])
    assert not touches_itself([(0, 0), (0, 1), (0, 2), (1, 2)])
