"""Draw a Shapes reading over its picture, for a person to check: outlines, links, numbers, letters."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.capture.shapes.graph import EMPTY, ShapeReading

OUTLINE = (0, 255, 255)  # BGR yellow
LINK = (0, 255, 0)
TEXT = (255, 255, 255)
LETTER = (255, 0, 255)


def draw_shapes(frame: np.ndarray, reading: ShapeReading) -> np.ndarray:
    """A dimmed copy of the frame with each cell's outline, its number at its middle (its letter
    beside it), and each link drawn from middle to middle through the border shared.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    picture = (frame * 0.4).astype(np.uint8)
    size = reading.cell_size
    width = max(1, round(size / 60))
    for cell in reading.cells:
        cv2.polylines(picture, [cell.outline.astype(np.int32)], True, OUTLINE, width, cv2.LINE_AA)
    for pair in sorted(reading.neighbours):
        a, b = (reading.cells[index].centre for index in pair)
        middle = reading.borders.get(pair, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        points = np.array([a, middle, b], dtype=np.float64)
        cv2.polylines(picture, [np.rint(points).astype(np.int32)], False, LINK, width, cv2.LINE_AA)
    scale = max(0.3, size / 160)
    for index, cell in enumerate(reading.cells):
        x, y = cell.centre
        cv2.circle(picture, (round(x), round(y)), max(2, round(size / 30)), TEXT, -1, cv2.LINE_AA)
        _text(picture, str(index), x - size / 5, y - size / 12, scale, TEXT)
        letter = reading.letters[index]
        if letter != EMPTY:
            _text(picture, letter, x + size / 10, y + size / 4, scale * 1.6, LETTER)
    return picture


def _text(picture: np.ndarray, text: str, x: float, y: float, scale: float, colour) -> None:
    """Text at (x, y), its baseline's left end, with a dark edge so it reads on any ground."""
    point = (round(x), round(y))
    thickness = max(1, round(scale * 2))
    cv2.putText(picture, text, point, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 2, cv2.LINE_AA)
    cv2.putText(picture, text, point, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
