"""The joins check on tiny built boards: a level shows won only when every pipe crosses every edge
between consecutive cells of its path, into both dots."""

from __future__ import annotations

from itertools import pairwise

import cv2
import numpy as np

from flowbot.capture.verdict import bare_start_dots, join_colours, missing_joins, undrawn_cells
from flowbot.model import Geometry, Puzzle, Solution

CELL = 30
RED, BLUE = (230, 40, 40), (40, 60, 230)  # RGB
GEOMETRY = Geometry(tuple(float(CELL * i) for i in range(4)), tuple(float(CELL * i) for i in range(3)))
# Red: (0,0) -> (0,1) -> (0,2) -> (1,2); blue: (1,0) -> (1,1), two dots side by side.


def board(pipes: dict[tuple[int, int, int], list[tuple[int, int]]], width: int = CELL // 3) -> np.ndarray:
    """A dark 2x3 board with grey grid lines, dots, and each flow's pipe (`width` px) through the
    cells given."""
    frame = np.full((2 * CELL, 3 * CELL, 3), 20, dtype=np.uint8)
    for i in range(4):
        frame[:, min(i * CELL, 3 * CELL - 1)] = 90
    for i in range(3):
        frame[min(i * CELL, 2 * CELL - 1), :] = 90
    dots = {RED: [(0, 0), (1, 2)], BLUE: [(1, 0), (1, 1)]}
    for rgb, cells in pipes.items():
        bgr = rgb[::-1]
        points = [tuple(round(v) for v in GEOMETRY.center(cell)) for cell in cells]
        for start, end in pairwise(points):
            cv2.line(frame, start, end, bgr, width)
        for point in points:
            cv2.circle(frame, point, max(1, width // 2), bgr, -1)
    for rgb, cells in dots.items():
        for cell in cells:
            cv2.circle(frame, tuple(round(v) for v in GEOMETRY.center(cell)), 11, rgb[::-1], -1)
    return frame


def solution() -> Solution:
    """The 2x3 level's only solution."""
    puzzle = Puzzle.from_rows(["R..", "BBR"])
    return Solution(puzzle, (((0, 0), (0, 1), (0, 2), (1, 2)), ((1, 0), (1, 1))))


RED_PATH = [(0, 0), (0, 1), (0, 2), (1, 2)]


def missing(after: np.ndarray) -> list:
    """The joins missing on `after`, judged against the empty board."""
    solved = solution()
    before = join_colours(board({}), GEOMETRY, solved, (RED, BLUE))
    return missing_joins(join_colours(after, GEOMETRY, solved, (RED, BLUE)), before, solved, (RED, BLUE))


def test_a_board_with_every_join_drawn_is_won():
    assert missing(board({RED: RED_PATH, BLUE: [(1, 0), (1, 1)]})) == []


def test_a_pipe_one_step_short_of_its_far_dot_is_not_won_though_every_cell_shows_its_colour():
    short = board({RED: RED_PATH[:3], BLUE: [(1, 0), (1, 1)]})
    # Every cell's centre shows red (the dot's cell has the dot): a cell check would pass.
    for cell in RED_PATH:
        x, y = (round(v) for v in GEOMETRY.center(cell))
        assert tuple(short[y, x]) == RED[::-1]
    assert missing(short) == [((0, 2), (1, 2))]


def test_two_dots_side_by_side_are_joined_only_by_a_pipe_between_them():
    assert missing(board({RED: RED_PATH})) == [((1, 0), (1, 1))]


def test_the_empty_board_misses_every_join():
    assert len(missing(board({}))) == 4


def test_a_pipe_of_another_colour_is_no_join():
    wrong = board({RED: RED_PATH, BLUE: [(1, 0), (1, 1)]})
    cv2.line(wrong, (45, 15), (75, 15), BLUE[::-1], CELL // 3)  # blue over red's middle join
    assert missing(wrong) == [((0, 1), (0, 2))]


def test_without_a_look_before_a_board_found_drawn_is_judged_on_colours_alone():
    solved = solution()
    drawn = join_colours(board({RED: RED_PATH, BLUE: [(1, 0), (1, 1)]}), GEOMETRY, solved, (RED, BLUE))
    short = join_colours(board({RED: RED_PATH[:3], BLUE: [(1, 0), (1, 1)]}), GEOMETRY, solved, (RED, BLUE))
    assert missing_joins(drawn, None, solved, (RED, BLUE)) == []
    assert missing_joins(short, None, solved, (RED, BLUE)) == [((0, 2), (1, 2))]


def test_a_pipe_much_thinner_than_the_looked_at_square_still_shows_its_joins():
    assert missing(board({RED: RED_PATH, BLUE: [(1, 0), (1, 1)]}, width=2)) == []
    assert missing(board({RED: RED_PATH[:3], BLUE: [(1, 0), (1, 1)]}, width=2)) == [((0, 2), (1, 2))]


def blocks(filled: dict[tuple[int, int, int], list[tuple[int, int]]]) -> np.ndarray:
    """A light 2x3 board of grey cells parted by white gaps, as a game that fills each cell a path
    takes with its colour as a solid block, the dots drawn over their cells."""
    frame = np.full((2 * CELL, 3 * CELL, 3), 255, dtype=np.uint8)
    for row in range(2):
        for col in range(3):
            frame[row * CELL + 1 : (row + 1) * CELL, col * CELL + 1 : (col + 1) * CELL] = 205
    for rgb, cells in filled.items():
        for row, col in cells:
            frame[row * CELL + 1 : (row + 1) * CELL, col * CELL + 1 : (col + 1) * CELL] = rgb[::-1]
    for rgb, cells in {RED: [(0, 0), (1, 2)], BLUE: [(1, 0), (1, 1)]}.items():
        for cell in cells:
            cv2.circle(frame, tuple(round(v) for v in GEOMETRY.center(cell)), 10, rgb[::-1], -1)
    return frame


def missing_on_blocks(after: np.ndarray, starts: dict[int, tuple[int, int]]) -> list:
    """The joins missing on a block board, the dots a game leaves bare judged outside their cell."""
    solved = solution()
    empty = blocks({})
    bare = bare_start_dots(after, GEOMETRY, empty, GEOMETRY, solved, starts)
    before = join_colours(empty, GEOMETRY, solved, (RED, BLUE))
    now = join_colours(after, GEOMETRY, solved, (RED, BLUE))
    return missing_joins(now, before, solved, (RED, BLUE), bare)


def test_a_game_that_leaves_the_cell_a_path_started_on_bare_shows_its_joins_outside_that_cell():
    # Every cell of each path filled but the first: the dot pressed keeps its grey cell.
    drawn = blocks({RED: RED_PATH[1:], BLUE: [(1, 1)]})
    assert missing_on_blocks(drawn, {0: (0, 0), 1: (1, 0)}) == []
    # Judged strictly (no stroke known to start there), the first join of each flow shows bare.
    assert missing_on_blocks(drawn, {}) == [((0, 0), (0, 1)), ((1, 0), (1, 1))]


def test_a_flow_one_step_short_of_its_far_dot_leaves_both_dots_bare_and_stays_missing():
    short = blocks({RED: RED_PATH[1:3], BLUE: [(1, 1)]})
    # Both red dots' cells bare: nothing is judged leniently, the first join and the last missing.
    assert missing_on_blocks(short, {0: (0, 0), 1: (1, 0)}) == [((0, 0), (0, 1)), ((0, 2), (1, 2))]


def test_a_flow_started_from_the_other_dot_is_judged_with_that_dot_bare():
    # Drawn from (1, 2) to (0, 0): the far dot (0, 0) must show filled, (1, 2) may stay bare.
    drawn = blocks({RED: RED_PATH[:3], BLUE: [(1, 1)]})
    assert missing_on_blocks(drawn, {0: (1, 2), 1: (1, 0)}) == []
    assert missing_on_blocks(drawn, {0: (0, 0), 1: (1, 0)}) == [((0, 2), (1, 2))]


def test_pipes_through_unmarked_cells_leave_no_dot_bare():
    drawn = board({RED: RED_PATH[:3], BLUE: [(1, 0), (1, 1)]})
    bare = bare_start_dots(drawn, GEOMETRY, board({}), GEOMETRY, solution(), {0: (0, 0), 1: (1, 0)})
    assert bare == frozenset()


def test_a_cell_left_as_it_was_before_drawing_is_undrawn_though_every_flow_is_joined_elsewhere():
    # A game's "halfway done" box stood over a board whose flows were all joined by shorter ways than
    # the solution's, three cells still empty: those cells show exactly as before.
    empty = board({})
    every = board({RED: RED_PATH, BLUE: [(1, 0), (1, 1)]})
    assert undrawn_cells(every, GEOMETRY, empty, GEOMETRY, solution()) == []
    shortcut = board({RED: [(0, 0), (0, 1)], BLUE: [(1, 0), (1, 1)]})  # (0, 2) never taken
    assert undrawn_cells(shortcut, GEOMETRY, empty, GEOMETRY, solution()) == [(0, 2)]
    covered = shortcut.copy()
    covered[5:55, 62:88] = 0  # a box over that cell hides its grid lines: not judged as empty
    assert undrawn_cells(covered, GEOMETRY, empty, GEOMETRY, solution()) == []
