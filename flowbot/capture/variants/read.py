"""Read any board flowbot knows from a frame: classic square, Bridges, Warps, walls, or Hexes; refuse,
naming it, a board it cannot read (Shapes: cubes, rings)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from flowbot.capture.board import Board, board_candidates, no_board_message, without_text_edges
from flowbot.capture.colors import Dot, dots_at, find_dots, group_dots, name_groups
from flowbot.capture.variants.bridges import find_bridges
from flowbot.capture.variants.edges import edge_kernel, edge_mask
from flowbot.capture.variants.hexes import HexBoard, find_hex_board
from flowbot.capture.variants.reading import BRIDGE, EMPTY, LABELS, NO_CELL, Cell, VariantReading
from flowbot.capture.variants.shapes import line_cover, line_directions, looks_square, unreadable_kind
from flowbot.capture.variants.walls import find_walls
from flowbot.capture.variants.warps import find_warps, may_warp
from flowbot.errors import CaptureError, UnreadableBoardError
from flowbot.model import Geometry

# A hexagon's dot is 0.64 of its height across; dot sampling is tuned for dots 0.7 of a square cell.
HEX_DOT_CELL = 0.64 / 0.7
# Where a hexagon's background shows: towards its six corners, clear of the dot and the edges
# (0.42 of its height from the middle; the corners are 0.58 away, the dot's rim 0.32).
HEX_CORNER = 0.42


def read_variant(frame: np.ndarray) -> VariantReading:
    """Read the board on a frame, of whichever kind it is; CaptureError naming what cannot be read.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise CaptureError(f"expected an (H, W, 3) uint8 BGR frame, got {frame.shape} {frame.dtype}")
    shares = line_directions(frame)
    # Square boards are looked for first, unless the lines say otherwise: the square board's finder
    # tries hard (up to seconds on a large frame) before it gives up on another kind of board.
    square_first = looks_square(shares)
    found: list[Board] = []
    if square_first:
        try:
            return _read_square(frame, found=found)
        except CaptureError as error:
            square_error = error
    try:
        hexes = find_hex_board(frame)
    except CaptureError:
        hexes = None
    if hexes is not None:
        return _hex_reading(frame, hexes)  # a board of hexagons is there: its dots' trouble is told
    if not square_first:
        # Slanted lines may be the page's (a bright drawing beside the board outweighs a dim grid):
        # a square board is still taken, if the lines around it run level and upright.
        try:
            return _read_square(frame, square_lines=True, found=found)
        except CaptureError as error:
            square_error = error
    kind = unreadable_kind(shares, line_cover(frame))
    # A board drawn with no lines at all (a lattice of marks in a panel) is square: the directions
    # seen are its dots' round edges and glyphs, never the lines of a Shapes board.
    if kind is not None and all(board.lined for board in found):
        raise UnreadableBoardError(f"this is a {kind}: flowbot cannot read it yet")
    raise square_error


def _read_square(
    frame: np.ndarray, square_lines: bool = False, found: list[Board] | None = None
) -> VariantReading:
    """A square board (with bridges, walls, warps); CaptureError as the classic reader gives it.
    With `square_lines`, only a board whose surroundings' lines run level and upright (a board drawn
    with none is taken as it is). Each board found is appended to `found`."""
    failures: list[str] = []
    misread: CaptureError | None = None
    for board in board_candidates(frame, failures):
        if board.holes:
            # A line of words beside the board may close a cell or two of a row of holes (a board
            # with no holes has no such row: its dots are not looked for twice).
            dots = frozenset(dot.cell for dot in find_dots(frame, board.geometry, frozenset()))
            board = without_text_edges(frame, board, dots)
        if found is not None:
            found.append(board)
        crop, (left, top) = _around(frame, board.geometry)
        local = board.geometry.shifted(-left, -top)
        warps, opened = frozenset(), frozenset()
        if may_warp(crop, local):
            kernel = edge_kernel(*frame.shape[:2])
            warps, opened = find_warps(edge_mask(crop, kernel), local, board.holes)
        board = replace(board, holes=board.holes - opened)
        try:
            groups = group_dots(find_dots(frame, board.geometry, board.holes))
        except CaptureError as error:
            misread = misread or error
            continue
        if square_lines and board.lined and not looks_square(line_directions(crop)):
            misread = misread or CaptureError("the lines around the board found are not level and upright")
            continue
        return _square_reading(crop, local, board, groups, warps)
    raise misread or CaptureError(no_board_message(failures))


def _around(frame: np.ndarray, geometry: Geometry) -> tuple[np.ndarray, tuple[int, int]]:
    """The part of the frame a cell around the board, and where its top-left corner lies (x, y)."""
    size = geometry.cell_size
    height, width = frame.shape[:2]
    left, top = max(0, int(geometry.xs[0] - size)), max(0, int(geometry.ys[0] - size))
    right, bottom = min(width, int(geometry.xs[-1] + size) + 1), min(height, int(geometry.ys[-1] + size) + 1)
    return frame[top:bottom, left:right], (left, top)


def _square_reading(
    crop: np.ndarray,
    local: Geometry,
    board: Board,
    groups: list[list[Dot]],
    warps: frozenset[tuple[str, int]],
) -> VariantReading:
    """The reading of a square board whose dots pair up: its bridges, walls and warps too; `crop` is
    the frame around the board, `local` the board's grid on it."""
    geometry = board.geometry
    every = frozenset((row, col) for row in range(geometry.rows) for col in range(geometry.cols))
    dotted = {dot.cell for group in groups for dot in group}
    # The board finder may take bridges side by side for holes: the strokes crossing the edge
    # between them look like clutter on both of its sides.
    bridges = find_bridges(crop, local, sorted(every - dotted))
    holes = board.holes - bridges
    cells = every - holes
    walls = find_walls(crop, local, cells)
    marks = {cell: BRIDGE for cell in bridges} | {cell: NO_CELL for cell in holes}
    lines = _lines(geometry.rows, geometry.cols, cells, groups, marks)
    kind = "warps" if warps else "bridges" if bridges else "square"
    centres = {cell: geometry.center(cell) for cell in sorted(cells)}
    return _reading(kind, lines, walls, warps, centres, geometry.cell_size, groups)


def _hex_reading(frame: np.ndarray, board: HexBoard) -> VariantReading:
    """The reading of a hex board: its dots sampled in each hexagon, paired by colour."""
    cells = sorted(board.centres)
    centres = np.array([board.centres[cell] for cell in cells])
    size = HEX_DOT_CELL * board.height
    reach = HEX_CORNER * board.height / size
    angles = np.radians(np.arange(0, 360, 60))
    corners = [(reach * np.cos(angle), reach * np.sin(angle)) for angle in angles]
    # Small hexagons leave little room between a dot and the corners: one corner may catch its rim.
    groups = group_dots(dots_at(frame, cells, centres, size, corners, spare=1))
    lines = _lines(board.rows, board.cols, frozenset(cells), groups, {})
    return _reading("hexes", lines, frozenset(), frozenset(), dict(board.centres), board.height, groups)


def _lines(
    rows: int, cols: int, cells: frozenset[Cell], groups: list[list[Dot]], marks: dict
) -> tuple[str, ...]:
    """The board as text: letters by first appearance (groups come in that order), marks, '#' off it."""
    if len(groups) > len(LABELS):
        raise CaptureError(f"{len(groups)} colours is more than a board can hold")
    grid = [[EMPTY if (row, col) in cells else NO_CELL for col in range(cols)] for row in range(rows)]
    for (row, col), mark in marks.items():
        grid[row][col] = mark
    for label, group in zip(LABELS, groups, strict=False):
        for dot in group:
            grid[dot.cell[0]][dot.cell[1]] = label
    return tuple("".join(line) for line in grid)


def _reading(kind, lines, walls, warps, centres, cell_size, groups) -> VariantReading:
    """A VariantReading with the colours' palette names and seen RGB, in letter order."""
    names = tuple(name_groups(groups))
    seen = tuple(group[0].rgb for group in groups)
    return VariantReading(kind, lines, walls, warps, centres, float(cell_size), names, seen)
