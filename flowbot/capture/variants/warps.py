"""Find the warps of a square board: a row (or column) whose outline is open at both of its ends."""

from __future__ import annotations

import numpy as np

from flowbot.capture.variants.edges import coverage, near_lines
from flowbot.model import Cell, Geometry

# An outer edge is open when line pixels cover less than this share of its middle; the cell's
# other edges must be drawn (at least EDGE_DRAWN of their middles), or it is no cell at all.
OPEN = 0.3
EDGE_DRAWN = 0.6
MIDDLE = np.linspace(0.3, 0.7, 9)
SIDES = np.linspace(0.2, 0.8, 13)
# Closer than this (of a cell) to the frame's edge, an outline may be cut off rather than open.
EDGE_MARGIN = 0.1


def find_warps(
    mask: np.ndarray, geometry: Geometry, holes: frozenset[Cell]
) -> tuple[frozenset[tuple[str, int]], frozenset[Cell]]:
    """The rows and columns that wrap, and the cells of the bounding box that are cells after all:
    the board finder takes a cell with an open side for a hole.

    mask : (H, W) bool line pixels (edges.line_mask)
    """
    near = near_lines(mask, max(2, round(0.06 * geometry.cell_size)))
    rows, cols = geometry.rows, geometry.cols
    opened: dict[tuple[Cell, str], bool] = {}
    for row in range(rows):
        opened[(row, 0), "left"] = _open_end(near, geometry, (row, 0), "left")
        opened[(row, cols - 1), "right"] = _open_end(near, geometry, (row, cols - 1), "right")
    for col in range(cols):
        opened[(0, col), "top"] = _open_end(near, geometry, (0, col), "top")
        opened[(rows - 1, col), "bottom"] = _open_end(near, geometry, (rows - 1, col), "bottom")
    warps: set[tuple[str, int]] = set()
    cells: set[Cell] = set()
    for row in range(rows):
        if opened[(row, 0), "left"] and opened[(row, cols - 1), "right"]:
            warps.add(("row", row))
            cells |= {(row, 0), (row, cols - 1)}
    for col in range(cols):
        if opened[(0, col), "top"] and opened[(rows - 1, col), "bottom"]:
            warps.add(("col", col))
            cells |= {(0, col), (rows - 1, col)}
    return frozenset(warps), frozenset(cells & holes)


def _open_end(near: np.ndarray, geometry: Geometry, cell: Cell, side: str) -> bool:
    """Whether the cell's edge on `side` is open while its other three edges are drawn."""
    row, col = cell
    left, right = geometry.xs[col], geometry.xs[col + 1]
    top, bottom = geometry.ys[row], geometry.ys[row + 1]
    edges = {
        "left": ((left, top), (left, bottom)),
        "right": ((right, top), (right, bottom)),
        "top": ((left, top), (right, top)),
        "bottom": ((left, bottom), (right, bottom)),
    }
    outer = np.array([edges[side][0]]), np.array([edges[side][1]])
    # An outline on (or past) the frame's edge may just be cut off: no opening can be seen there.
    height, width = near.shape
    reach = EDGE_MARGIN * geometry.cell_size
    (x0, y0), (x1, y1) = edges[side]
    if min(x0, y0) < reach or x1 > width - 1 - reach or y1 > height - 1 - reach:
        return False
    if coverage(near, *outer, MIDDLE)[0] >= OPEN:
        return False
    others = [edge for name, edge in edges.items() if name != side]
    starts = np.array([start for start, _ in others])
    ends = np.array([end for _, end in others])
    return bool((coverage(near, starts, ends, SIDES) >= EDGE_DRAWN).all())
