"""The Shapes boards the bundled game plays, as pure geometry: cells, shared borders, links, layout."""

from __future__ import annotations

import math
from collections import deque
from itertools import pairwise

import pytest

from flowbot.shapes.board import board_of
from flowbot.shapes.geometry import area, box, contains, edge_distance, middle_of, piece_length, shared_pieces
from flowbot.shapes.kinds import SHAPES, shape_board
from flowbot.shapes.pixels import ShapeMap

SQUARE = [(0, 0), (1, 0), (1, 1), (0, 1)]

# Cells, and links worked out by hand where the count follows from the kind's plan.
CELLS = {"cube": 48, "stack": 63, "ring": 54, "eight": 60, "star": 48, "triangle": 36, "hexhex": 37}
LINKS = {
    "cube": 3 * 24 + 3 * 4,  # 24 inside each 4x4 face, 4 along each of the 3 edges where faces meet
    "ring": 12 + 18 + 24 + 24 + 36,  # around each band; across 12|18 (24 pieces) and 18|24 (36)
    "eight": 2 * (12 + 18 + 24) + 2,  # two rings of two bands, and two links across the joint
    "triangle": 3 * 15,  # a triangle of side 6: 15 inner edges in each of three directions
    "hexhex": 90,  # 3 (3 r^2 + r) for radius 3
}


def moved(polygon, dx, dy):
    """A polygon moved by (dx, dy)."""
    return [(x + dx, y + dy) for x, y in polygon]


def test_squares_side_by_side_share_their_edge_and_corner_neighbours_share_nothing():
    assert piece_length(shared_pieces(SQUARE, moved(SQUARE, 1, 0))) == pytest.approx(1)
    assert shared_pieces(SQUARE, moved(SQUARE, 1, 1)) == []  # a corner is no border
    half = [(1, 0.5), (2, 0.5), (2, 1.5), (1, 1.5)]  # half its side against the first square's
    pieces = shared_pieces(SQUARE, half)
    assert piece_length(pieces) == pytest.approx(0.5)
    assert middle_of(pieces) == pytest.approx((1, 0.75))


def test_the_middle_of_a_curved_border_is_halfway_along_it_whatever_the_order_of_its_pieces():
    arc = [(math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 91, 10)]
    pieces = list(pairwise(arc))[::-1]  # pieces in the wrong order and each backwards
    pieces = [(b, a) for a, b in pieces[::2]] + pieces[1::2]
    x, y = middle_of(pieces)
    assert math.hypot(x, y) == pytest.approx(1, abs=0.01)
    assert math.degrees(math.atan2(y, x)) == pytest.approx(45, abs=1)


def test_cells_that_only_touch_at_a_corner_are_not_linked():
    board = board_of("checks", [SQUARE, moved(SQUARE, 1, 1), moved(SQUARE, 1, 0)])
    assert board.count == 3 and len(board.links) == 2
    corner = [i for i in range(3) if len(board.neighbours(i)) == 1]
    assert len(corner) == 2 and corner[1] not in board.neighbours(corner[0])


@pytest.mark.parametrize("name", SHAPES)
def test_each_kind_has_its_cells_and_links(name):
    board = shape_board(name)
    assert board.count == CELLS[name]
    if name in LINKS:
        assert len(board.links) == LINKS[name]


@pytest.mark.parametrize("name", SHAPES)
def test_linked_cells_share_a_border_of_real_length_and_the_pipe_crosses_its_middle(name):
    board = shape_board(name)
    for a, b in board.links:
        shared = piece_length(shared_pieces(board.outlines[a], board.outlines[b]))
        assert shared > 0.2, f"{name}: cells {a} and {b} share only {shared:.3f}"
        middle = board.borders[(a, b)]
        assert edge_distance(board.outlines[a], *middle) < 1e-6
        assert edge_distance(board.outlines[b], *middle) < 1e-6
    # Cells not linked share no border at all (a corner at most).
    linked = set(board.links)
    for a in range(board.count):
        for b in range(a + 1, board.count):
            if (a, b) not in linked:
                assert piece_length(shared_pieces(board.outlines[a], board.outlines[b])) < 1e-6


@pytest.mark.parametrize("name", SHAPES)
def test_each_board_is_one_piece_in_units_of_a_cell(name):
    board = shape_board(name)
    seen, todo = {0}, deque([0])
    while todo:
        for other in board.neighbours(todo.popleft()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    assert len(seen) == board.count
    spacing = [math.dist(board.centres[a], board.centres[b]) for a, b in board.links]
    assert sum(spacing) / len(spacing) == pytest.approx(1)
    assert min(spacing) > 0.4 and max(spacing) < 2


@pytest.mark.parametrize("name", SHAPES)
def test_cells_do_not_overlap_and_each_middle_is_inside_its_cell(name):
    board = shape_board(name)
    for index, outline in enumerate(board.outlines):
        assert contains(outline, *board.centres[index])
        assert edge_distance(outline, *board.centres[index]) > 0.15
    # A fine grid of points over the board: none inside two cells; the cells' areas add up to the
    # share of points inside some cell.
    left, top, right, bottom = board.bounds
    boxes = [box(outline) for outline in board.outlines]
    step = 0.06
    inside = 0
    total = 0
    y = top + step / 3
    while y < bottom:
        x = left + step / 3
        while x < right:
            holders = sum(
                contains(outline, x, y)
                for outline, (x0, y0, x1, y1) in zip(board.outlines, boxes, strict=True)
                if x0 <= x <= x1 and y0 <= y <= y1
            )
            assert holders <= 1, f"{name}: ({x:.2f}, {y:.2f}) lies in {holders} cells"
            inside += holders
            total += 1
            x += step
        y += step
    covered = inside * step * step
    assert covered == pytest.approx(sum(area(outline) for outline in board.outlines), rel=0.03)


@pytest.mark.parametrize("name", SHAPES)
def test_the_pixel_map_finds_each_cell_under_its_middle_and_its_outline(name):
    board = shape_board(name)
    cells = ShapeMap(board, 20.0, 30.0, 40.0)
    left, top, right, _ = cells.bounds
    assert (left, top) == (20.0, 30.0) and right == pytest.approx(20 + 40 * board.bounds[2])
    for index in range(board.count):
        x, y = cells.center((0, index))
        assert cells.cell_at(x, y) == (0, index)
        # Just inside each corner, towards the middle, is still the cell.
        for cx, cy in cells.outline((0, index)):
            assert cells.cell_at(cx + 0.1 * (x - cx), cy + 0.1 * (y - cy)) == (0, index)
    assert cells.cell_at(left - 5, top - 5) is None
    assert cells.shifted(5, 7).center((0, 0)) == pytest.approx(
        (cells.center((0, 0))[0] + 5, cells.center((0, 0))[1] + 7)
    )


def test_rims_are_the_outline_and_the_rims_of_holes():
    # A ring has an outer and an inner rim: their lengths are near the two circles' circumferences
    # (in units of the ring's own cell spacing, so compared as a ratio).
    board = shape_board("ring")
    rim = sum(math.dist(a, b) for a, b in board.rims)
    cx = (board.bounds[0] + board.bounds[2]) / 2
    cy = (board.bounds[1] + board.bounds[3]) / 2
    radii = [math.dist((cx, cy), a) for a, _ in board.rims]
    outer, inner = max(radii), min(radii)
    assert outer / inner == pytest.approx(3.1, rel=0.01)
    assert rim == pytest.approx(2 * math.pi * (outer + inner), rel=0.01)
    square = board_of("square", [moved(SQUARE, c, r) for r in range(2) for c in range(2)])
    assert sum(math.dist(a, b) for a, b in square.rims) == pytest.approx(8)
