"""The puzzle model: building boards from rows, validation messages, and solutions as rows."""

from __future__ import annotations

import pytest

from flowbot.errors import PuzzleError
from flowbot.model import Color, Puzzle, Solution


def test_rows_round_trip_with_walls_and_labels():
    rows = ["A.#B", "..#.", "A..B"]
    puzzle = Puzzle.from_rows(rows, names={"A": "red"})
    assert puzzle.to_rows() == rows
    assert puzzle.size == "3x4"
    assert puzzle.cell_count == 10
    assert puzzle.colors == (Color("A", "red"), Color("B", None))
    assert puzzle.endpoints == (((0, 0), (2, 0)), ((0, 3), (2, 3)))
    assert puzzle.walls == frozenset({(0, 2), (1, 2)})


def test_neighbors_skip_walls_and_edges():
    puzzle = Puzzle.from_rows(["A#", ".A"])
    assert puzzle.neighbors((1, 1)) == [(1, 0)]
    assert puzzle.neighbors((0, 0)) == [(1, 0)]
    assert not puzzle.on_board((0, 1))
    assert puzzle.endpoint_color((1, 1)) == 0
    assert puzzle.endpoint_color((1, 0)) is None


def test_equality_ignores_source():
    from flowbot.model import Source

    first = Puzzle.from_rows(["AA"], source=Source("file", "x.txt"))
    assert first == Puzzle.from_rows(["AA"])


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["A.A", "A.."], "colour 'A' has 3 endpoints (row 1, col 1; row 1, col 3; row 2, col 1)"),
        (["A..", "..."], "colour 'A' has 1 endpoint (row 1, col 1)"),
        (["A.A", ".."], "row 2 has 2 cells but row 1 has 3"),
        (["...", "..."], "board has no colours"),
        (["A A"], "unknown cell character ' ' at row 1, col 2"),
        ([], "board has no rows"),
    ],
)
def test_bad_boards_name_the_problem(rows, message):
    with pytest.raises(PuzzleError) as caught:
        Puzzle.from_rows(rows)
    assert message in str(caught.value)


def test_direct_construction_is_validated():
    with pytest.raises(PuzzleError, match="share the endpoint"):
        Puzzle(1, 3, (Color("A"), Color("B")), (((0, 0), (0, 1)), ((0, 1), (0, 2))))
    with pytest.raises(PuzzleError, match="outside the board"):
        Puzzle(1, 2, (Color("A"),), (((0, 0), (0, 2)),))
    with pytest.raises(PuzzleError, match="on a wall"):
        Puzzle(1, 3, (Color("A"),), (((0, 0), (0, 2)),), frozenset({(0, 2)}))
    with pytest.raises(PuzzleError, match="labels repeat"):
        Puzzle(1, 4, (Color("A"), Color("A")), (((0, 0), (0, 1)), ((0, 2), (0, 3))))


def test_solution_rows_fill_every_path_cell():
    puzzle = Puzzle.from_rows(["A.B", "A.B"])
    solution = Solution(puzzle, (((0, 0), (1, 0)), ((0, 2), (0, 1), (1, 1), (1, 2))))
    assert solution.to_rows() == ["ABB", "ABB"]
    assert solution.color_grid() == [[0, 1, 1], [0, 1, 1]]
