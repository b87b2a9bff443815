"""A hint drawn on a screenshot of a board that is no square grid: Shapes cells by their outlines,
hexes and warps by their middles."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.capture.overlay import HINT_MARK, OUTLINE, WRONG_MARK, caption_above
from flowbot.model import Cell

Join = tuple[Cell, Cell, int]


def draw_cells_hint(
    frame: np.ndarray,
    reading,
    joins: list[Join],
    colored: list[tuple[Cell, int]],
    marked: list[Cell],
    wrong: list[Cell],
    caption: str,
) -> np.ndarray:
    """draw_hint for a ScreenshotReading without a grid: the cells the step is about outlined (a ring
    round the middle where no outline was read), each join a short pipe from middle to middle through
    the border the cells share, each settled colour a ring, cells to undo crossed, the reason on top.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    picture = frame.copy()
    size = reading.cell_size
    shapes = reading.shapes
    centres = reading.centres
    thick = max(2, round(size / 14))
    for cell, colour in [(cell, HINT_MARK) for cell in marked] + [(cell, WRONG_MARK) for cell in wrong]:
        if shapes is not None:
            outline = shapes.cells[cell[1]].outline.astype(np.int32)
            cv2.polylines(picture, [outline], True, colour, thick, cv2.LINE_AA)
        else:
            cv2.circle(picture, _point(centres[cell]), round(0.45 * size), colour, thick, cv2.LINE_AA)
    for cell in wrong:
        x, y = centres[cell]
        arm = 0.25 * size
        for dx in (-arm, arm):
            start, end = _point((x - dx, y - arm)), _point((x + dx, y + arm))
            cv2.line(picture, start, end, WRONG_MARK, max(2, round(size / 10)), cv2.LINE_AA)
    pipe = max(2, round(size / 4))
    for a, b, color in joins:
        points = [centres[a], centres[b]]
        if shapes is not None:  # through the shared border, so the pipe bends where the cells do
            border = shapes.borders.get((min(a[1], b[1]), max(a[1], b[1])))
            if border is not None:
                points.insert(1, border)
        line = np.array([_point(point) for point in points], dtype=np.int32)
        cv2.polylines(picture, [line], False, OUTLINE, pipe + 4, cv2.LINE_AA)
        cv2.polylines(picture, [line], False, _bgr(reading.seen_rgb, color), pipe, cv2.LINE_AA)
    for cell, color in colored:
        middle, radius = _point(centres[cell]), round(0.3 * size)
        cv2.circle(picture, middle, radius, OUTLINE, pipe // 2 + 2, cv2.LINE_AA)
        cv2.circle(picture, middle, radius, _bgr(reading.seen_rgb, color), pipe // 2, cv2.LINE_AA)
    top = min(y for _x, y in centres.values()) - size
    caption_above(picture, top, caption)
    return picture


def _point(point: tuple[float, float]) -> tuple[int, int]:
    """A pixel position OpenCV can draw at."""
    return round(point[0]), round(point[1])


def _bgr(seen_rgb: tuple[tuple[int, int, int], ...], color: int) -> tuple[int, int, int]:
    """The colour as seen, in OpenCV's order; white when the colour is not known yet."""
    if 0 <= color < len(seen_rgb):
        red, green, blue = seen_rgb[color]
        return blue, green, red
    return OUTLINE
