"""Find the warps of a square board: a row (or column) whose outline is open at both of its ends."""

from __future__ import annotations

import numpy as np

from flowbot.capture.lines import brightness
from flowbot.capture.variants.edges import coverage, near_lines
from flowbot.model import Cell, Geometry

# An outer edge is open when line pixels cover less than this share of its middle; the cell's
# other edges must be drawn (at least EDGE_DRAWN of their middles), or it is no cell at all.
OPEN = 0.3
EDGE_DRAWN = 0.6
MIDDLE = np.linspace(0.3, 0.7, 9)
SIDES = np.linspace(0.2, 0.8, 13)
CORNER = np.linspace(0.02, 0.12, 6)  # along an edge from a corner of the board: the outline's corner
# In the quick look, an outer edge is faint when it stands out less than this share of the outline.
FAINT = 0.5
# Closer than this (of a cell) to the frame's edge, an outline may be cut off rather than open.
EDGE_MARGIN = 0.1


def may_warp(frame: np.ndarray, geometry: Geometry) -> bool:
    """A quick look before `find_warps`: whether some row or column has its outline faint at both
    ends (a line standing less than half as far above what is beside it as the outline does).

    frame : (H, W, 3) uint8 ndarray, BGR (the part of a frame around the board)
    """
    reach = max(2, round(0.06 * geometry.cell_size))
    step = reach + max(2, round(0.1 * geometry.cell_size))
    xs, ys = geometry.xs, geometry.ys
    sides = {
        # Per side: the line's position, the spans of its edges, and which way is out (2 across
        # columns, 1 across rows; the sign is the direction).
        "left": (xs[0], ys, -2),
        "right": (xs[-1], ys, 2),
        "top": (ys[0], xs, -1),
        "bottom": (ys[-1], xs, 1),
    }
    contrast = {name: _contrast(frame, *side, reach, step) for name, side in sides.items()}
    typical = float(np.median(np.concatenate(list(contrast.values()))))
    faint = {name: values < FAINT * typical for name, values in contrast.items()}
    return bool((faint["left"] & faint["right"]).any() or (faint["top"] & faint["bottom"]).any())


def _contrast(frame: np.ndarray, position: float, spans, outward: int, reach: int, step: int) -> np.ndarray:
    """Per edge of an outer line, how far the line stands above what lies just outside the board
    (inside, a dot may come close to the line). Only a strip of the frame along the line is read."""
    centre = round(position)
    beyond = centre + step * (1 if outward > 0 else -1)
    low, high = min(centre - reach, beyond - 1), max(centre + reach, beyond + 1) + 1
    size = frame.shape[1] if outward in (-2, 2) else frame.shape[0]
    low, high = max(0, low), min(size, high)
    if high <= low:
        return np.zeros(len(spans) - 1)
    # The strip as (across the line, along it): lines along axis 1.
    if outward in (-2, 2):
        image = brightness(np.ascontiguousarray(frame[:, low:high])).T
    else:
        image = brightness(frame[low:high])
    spans = np.asarray(spans, dtype=np.float64)
    along = np.rint(spans[:-1, None] + MIDDLE[None, :] * np.diff(spans)[:, None]).astype(int)
    along = np.clip(along, 0, image.shape[1] - 1)
    line = _brightest(image, along, centre - reach - low, centre + reach - low)
    outside = _brightest(image, along, beyond - 1 - low, beyond + 1 - low)
    return np.median(line - outside, axis=1)


def _brightest(image: np.ndarray, along: np.ndarray, low: int, high: int) -> np.ndarray:
    """(edges, points): the brightest of rows low..high of `image` at each point along each edge."""
    rows = np.clip(np.arange(low, high + 1), 0, image.shape[0] - 1)
    return image[rows[:, None, None], along[None, :, :]].max(axis=0).astype(np.int16)


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
    others = {name: edge for name, edge in edges.items() if name != side}
    for name in _outer_sides(geometry, cell) - {side}:
        # A corner cell whose row and column both warp is open on its other outer side too; told from
        # a cut corner (no cell) by the outline's corner still drawn between the two openings.
        if _corner_drawn(near, edges[side], edges[name]):
            del others[name]
    starts = np.array([start for start, _ in others.values()])
    ends = np.array([end for _, end in others.values()])
    return bool((coverage(near, starts, ends, SIDES) >= EDGE_DRAWN).all())


def _outer_sides(geometry: Geometry, cell: Cell) -> set[str]:
    """The sides of a cell that lie on the board's bounding box."""
    row, col = cell
    sides = {"top": row == 0, "bottom": row == geometry.rows - 1, "left": col == 0}
    sides["right"] = col == geometry.cols - 1
    return {name for name, outer in sides.items() if outer}


def _corner_drawn(near: np.ndarray, first: tuple, second: tuple) -> bool:
    """Whether both edges are drawn just beside the corner they share (the ends of two openings)."""
    corner = next(point for point in first if point in second)
    for edge in (first, second):
        far = edge[1] if edge[0] == corner else edge[0]
        if coverage(near, np.array([corner]), np.array([far]), CORNER)[0] < EDGE_DRAWN:
            return False
    return True
