"""Draw a variant reading over its screenshot: each cell's letter at its centre, walls, warps, bridges."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.capture.variants.reading import BRIDGE, EMPTY, VariantReading

TEXT = (255, 255, 255)
WALL = (0, 0, 255)  # BGR red: nothing on a Flow board is drawn in pure red lines
WARP = (255, 0, 255)


def draw_reading(frame: np.ndarray, reading: VariantReading) -> np.ndarray:
    """A dimmed copy of the frame with what was read drawn on it, for a person to check.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    picture = (frame * 0.5).astype(np.uint8)
    size = reading.cell_size
    scale = max(0.3, size / 90)
    for (row, col), (x, y) in reading.centres.items():
        char = reading.lines[row][col]
        label = "" if char == EMPTY else ("bridge" if char == BRIDGE else char)
        cv2.circle(picture, _point(x, y), max(2, round(size / 25)), TEXT, -1, cv2.LINE_AA)
        if label:
            cv2.putText(picture, label, _point(x - size / 6, y + size / 3), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        TEXT, max(1, round(scale * 2)), cv2.LINE_AA)  # fmt: skip
    for wall in reading.walls:
        first, second = sorted(wall)
        (x0, y0), (x1, y1) = reading.centres[first], reading.centres[second]
        # A wall lies across the line joining the two centres, half a cell either side of its middle.
        middle = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
        across = np.array([y0 - y1, x1 - x0]) / np.hypot(x1 - x0, y1 - y0) * size / 2
        cv2.line(
            picture, _point(*(middle - across)), _point(*(middle + across)), WALL, max(2, round(size / 15))
        )
    for kind, index in reading.warps:
        ends = [cell for cell in reading.centres if (cell[0] if kind == "row" else cell[1]) == index]
        first, last = min(ends), max(ends)
        for cell, away in ((first, -1), (last, 1)):
            x, y = reading.centres[cell]
            dx, dy = (away * size * 0.6, 0) if kind == "row" else (0, away * size * 0.6)
            cv2.arrowedLine(picture, _point(x, y), _point(x + dx, y + dy), WARP, max(2, round(size / 20)))
    return picture


def _point(x: float, y: float) -> tuple[int, int]:
    """A pixel position OpenCV can draw at."""
    return round(x), round(y)
