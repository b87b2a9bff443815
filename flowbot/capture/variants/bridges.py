"""Find the bridge cells of a Flow Free: Bridges board: grey strokes that cross an empty cell twice."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.model import Cell, Geometry

# The bridge symbol is light grey: every channel at least this bright and the channels this close.
GREY_LEVEL = 120
GREY_SPREAD = 45
# Cells are looked at inside this margin (of a cell), clear of the grid lines and walls.
INSET = 0.1
# A stroke is a run of lines (rows or columns) of the cell this much covered by grey pixels...
STROKE_COVERAGE = 0.45
# ...reaching both sides of the cell (the first and last fifth), and two strokes lie this far apart.
SIDE = 0.2
STROKE_GAP = 0.15
# A stroke is a line, no wider than this share of the cell: grey as wide is the cell's own background
# (a light board), which a pipe across the cell splits in two bands.
STROKE_WIDTH = 0.2


def find_bridges(frame: np.ndarray, geometry: Geometry, cells: list[Cell]) -> frozenset[Cell]:
    """The cells among `cells` that show the bridge symbol: two grey strokes across the cell (either way).

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    if not cells:
        return frozenset()
    # Grey is judged once over the board; each cell looks at its part.
    height, width = frame.shape[:2]
    top, left = max(0, int(geometry.ys[0])), max(0, int(geometry.xs[0]))
    grey = _grey(
        frame[top : min(height, int(geometry.ys[-1]) + 1), left : min(width, int(geometry.xs[-1]) + 1)]
    )
    found = set()
    for cell in cells:
        row, col = cell
        inset_x = INSET * (geometry.xs[col + 1] - geometry.xs[col])
        inset_y = INSET * (geometry.ys[row + 1] - geometry.ys[row])
        x0, x1 = round(geometry.xs[col] + inset_x) - left, round(geometry.xs[col + 1] - inset_x) - left
        y0, y1 = round(geometry.ys[row] + inset_y) - top, round(geometry.ys[row + 1] - inset_y) - top
        patch = grey[max(0, y0) : y1, max(0, x0) : x1]
        if patch.shape[0] < 5 or patch.shape[1] < 5 or not patch.any():
            continue
        if _two_strokes(patch) or _two_strokes(patch.T):
            found.add(cell)
    return frozenset(found)


def _grey(patch: np.ndarray) -> np.ndarray:
    """(h, w) bool: light grey pixels."""
    blue, green, red = cv2.split(patch)
    low, high = cv2.min(cv2.min(blue, green), red), cv2.max(cv2.max(blue, green), red)
    return (low >= GREY_LEVEL) & (cv2.subtract(high, low) <= GREY_SPREAD)


def _two_strokes(grey: np.ndarray) -> bool:
    """Whether at least two separate bands of rows each cross the patch from side to side."""
    height, width = grey.shape
    side = max(1, round(SIDE * width))
    across = (grey.mean(axis=1) >= STROKE_COVERAGE) & grey[:, :side].any(axis=1) & grey[:, -side:].any(axis=1)
    rows = np.flatnonzero(across)
    if rows.size == 0:
        return False
    bands = np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1)
    if max(len(band) for band in bands) > STROKE_WIDTH * height:
        return False
    middles = [band.mean() for band in bands]
    return max(middles) - min(middles) >= STROKE_GAP * height
