"""Stroke planning: every cell of a flow is still entered in order, with fewer moves and less travel."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from flowbot.act.plan import PointerSettings, Stroke, plan_strokes, travel
from flowbot.act.tuning import LADDER
from flowbot.generate.levels import make_level
from flowbot.model import Geometry, Solution
from flowbot.solve.sat import solve

CELL = 40


def geometry_for(rows: int, cols: int) -> Geometry:
    """A board of 40-pixel cells at (100, 300)."""
    xs = tuple(100 + CELL * i for i in range(cols + 1))
    return Geometry(xs, tuple(300 + CELL * i for i in range(rows + 1)))


def generated(count: int, sizes=(5, 7, 9)) -> list[Solution]:
    """Solutions of generated levels of several sizes."""
    solutions = []
    for index in range(count):
        side = sizes[index % len(sizes)]
        level = make_level(side, side, side - 1 if side < 9 else 9, random.Random(1000 + index))
        solutions.append(solve(level.puzzle).solution)
    return solutions


SOLUTIONS = generated(12)
CELLS = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0, settle=False)
JUMPS = PointerSettings(corners_only=True, move_delay=0, release_pause=0, flow_pause=0, settle=False)


def cells_entered(stroke: Stroke, geometry: Geometry, fill: bool) -> list:
    """The cells a game enters from the stroke's points: each point's cell, and with `fill` the cells
    of a straight jump in between (as a game that fills jumps does)."""
    entered = [geometry.cell_at(*stroke.points[0])]
    for point in stroke.points[1:]:
        cell = geometry.cell_at(*point)
        head = entered[-1]
        if cell == head:
            continue
        if fill and (cell[0] == head[0] or cell[1] == head[1]):
            d_row = (cell[0] > head[0]) - (cell[0] < head[0])
            d_col = (cell[1] > head[1]) - (cell[1] < head[1])
            while head != cell:
                head = (head[0] + d_row, head[1] + d_col)
                entered.append(head)
        else:
            entered.append(cell)
    return entered


@pytest.mark.parametrize("settings", [PointerSettings(), CELLS, JUMPS], ids=["default", "cells", "jumps"])
def test_every_stroke_passes_through_its_whole_path_in_order(settings):
    for solution in SOLUTIONS:
        geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
        strokes = plan_strokes(solution, geometry, settings)
        assert sorted(stroke.color for stroke in strokes) == list(range(len(solution.paths)))
        for stroke in strokes:
            path = solution.paths[stroke.color]
            assert stroke.cells in (path, path[::-1])
            assert cells_entered(stroke, geometry, fill=settings.jumps) == list(stroke.cells)
            assert stroke.points[0] == geometry.center(stroke.cells[0])
            assert stroke.points[-1] == geometry.center(stroke.cells[-1])


@pytest.mark.parametrize("settings", [PointerSettings(), CELLS], ids=["default", "cells"])
def test_without_jumps_consecutive_points_are_at_most_a_cell_apart(settings):
    for solution in SOLUTIONS:
        geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
        for stroke in plan_strokes(solution, geometry, settings):
            steps = [math.dist(a, b) for a, b in zip(stroke.points, stroke.points[1:], strict=False)]
            assert max(steps, default=0) <= CELL + 1e-9


@pytest.mark.parametrize("settings", [PointerSettings(), CELLS], ids=["default", "cells"])
def test_every_point_is_well_inside_a_cell_and_each_cell_gets_its_moves(settings):
    # A point on a border is either cell by a game's rounding; a game merging a frame's moves into
    # one must still see each cell when one of its moves is lost.
    for solution in SOLUTIONS[:4]:
        geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
        for stroke in plan_strokes(solution, geometry, settings):
            for x, y in stroke.points:
                assert min((x - 100) % CELL, (y - 300) % CELL) >= CELL / 5
            inside = [geometry.cell_at(*point) for point in stroke.points]
            for cell in stroke.cells[1:-1]:
                assert inside.count(cell) >= settings.moves_per_cell


def test_the_first_move_after_the_press_stays_in_the_first_cell():
    # A game that starts a drag only once the pointer moved past a threshold (a few pixels) takes the
    # cell under the pointer then as the drag's start: that must still be the dot pressed.
    for settings in (PointerSettings(), CELLS, JUMPS):
        for solution in SOLUTIONS[:4]:
            geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
            for stroke in plan_strokes(solution, geometry, settings):
                first, lead = stroke.points[:2]
                assert geometry.cell_at(*lead) == stroke.cells[0]
                assert math.dist(first, lead) >= CELL / 4


def test_with_jumps_points_share_a_row_or_column_and_the_cells_between_are_the_paths():
    fewer = 0
    for solution in SOLUTIONS:
        geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
        for stroke in plan_strokes(solution, geometry, JUMPS):
            cells = [geometry.cell_at(*point) for point in stroke.points]
            for a, b in itertools.pairwise(cells):
                assert a[0] == b[0] or a[1] == b[1]
                run = stroke.cells[stroke.cells.index(a) : stroke.cells.index(b) + 1]
                assert all(cell[0] == a[0] for cell in run) or all(cell[1] == a[1] for cell in run)
            fewer += len(stroke.cells) - len(stroke.points)
    assert fewer > 0  # straight runs became single moves


def test_jumps_need_fewer_moves_than_cells():
    for solution in SOLUTIONS:
        geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
        jumps = sum(len(stroke.points) for stroke in plan_strokes(solution, geometry, JUMPS))
        cells = sum(len(stroke.points) for stroke in plan_strokes(solution, geometry, CELLS))
        assert jumps < cells


def naive(solution: Solution, geometry: Geometry, settings: PointerSettings) -> list[Stroke]:
    """The strokes in the solution's order, each from its first endpoint (how flowbot drew before)."""
    return [
        Stroke(color, path, (geometry.center(path[0]), geometry.center(path[-1])))
        for color, path in enumerate(solution.paths)
    ]


def test_ordering_shortens_the_travel_between_strokes():
    planned_total = naive_total = 0.0
    for solution in SOLUTIONS:
        geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
        start = (geometry.xs[0], geometry.ys[0])
        planned = travel(plan_strokes(solution, geometry, JUMPS), start)
        before = travel(naive(solution, geometry, JUMPS), start)
        assert planned <= before + 1e-9
        planned_total += planned
        naive_total += before
    assert planned_total < 0.7 * naive_total


def test_the_plan_starts_near_where_the_pointer_is():
    solution = SOLUTIONS[0]
    geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
    corner = (geometry.xs[-1], geometry.ys[-1])
    first = plan_strokes(solution, geometry, JUMPS, start=corner)[0]
    nearest = min(
        math.dist(corner, geometry.center(end)) for path in solution.paths for end in (path[0], path[-1])
    )
    assert math.dist(corner, first.points[0]) == pytest.approx(nearest)


def test_the_plan_is_pure():
    solution = SOLUTIONS[1]
    geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
    assert plan_strokes(solution, geometry, JUMPS) == plan_strokes(solution, geometry, JUMPS)


def test_a_flow_to_avoid_starting_from_a_dot_starts_from_its_other_dot():
    solution = SOLUTIONS[2]
    geometry = geometry_for(solution.puzzle.rows, solution.puzzle.cols)
    first = plan_strokes(solution, geometry, CELLS)
    again = plan_strokes(solution, geometry, CELLS, avoid={stroke.color: stroke.cells[0] for stroke in first})
    starts = {stroke.color: stroke.cells[0] for stroke in first}
    assert all(
        stroke.cells in (solution.paths[stroke.color], solution.paths[stroke.color][::-1]) for stroke in again
    )
    assert all(stroke.cells[0] != starts[stroke.color] for stroke in again)
    assert all(stroke.cells[-1] == starts[stroke.color] for stroke in again)


@pytest.mark.parametrize("rung", LADDER, ids=[rung.name for rung in LADDER])
def test_every_stroke_on_every_rung_ends_with_a_move_inside_its_last_cell(rung):
    # A game that adds the cell under the pointer one motion late (issue 34) takes the last cell only
    # on a motion after the pointer got there, before the release: every rung, the fastest too.
    geometry = geometry_for(9, 9)
    for solution in SOLUTIONS:
        for stroke in plan_strokes(solution, geometry, rung.settings):
            last = stroke.cells[-1]
            *_, before, moved, back = stroke.points
            assert geometry.cell_at(*before) == last
            assert geometry.cell_at(*moved) == last and moved != before
            assert geometry.cell_at(*back) == last
