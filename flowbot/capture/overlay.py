"""Draw what flowbot read and solved over the screenshot: the picture a person wants to check."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.model import Geometry, Solution

OUTLINE = (255, 255, 255)


def draw_overlay(
    frame: np.ndarray,
    geometry: Geometry,
    seen_rgb: tuple[tuple[int, int, int], ...],
    solution: Solution | None,
) -> np.ndarray:
    """A copy of the frame with the grid found outlined and, when solved, every path drawn as a pipe.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    picture = frame.copy()
    size = geometry.cell_size
    # The grid as read: a thin outline makes a misplaced or missized board obvious at a glance.
    draw_grid(picture, geometry, OUTLINE, max(1, round(size / 40)))
    if solution is None:
        return picture
    pipe = max(2, round(size / 3))
    for index, path in enumerate(solution.paths):
        red, green, blue = seen_rgb[index]
        colour = (blue, green, red)
        points = np.array([_point(*geometry.center(cell)) for cell in path], dtype=np.int32)
        cv2.polylines(picture, [points], False, colour, pipe, cv2.LINE_AA)
        for end in (path[0], path[-1]):
            cv2.circle(picture, _point(*geometry.center(end)), round(0.35 * size), colour, -1, cv2.LINE_AA)
    return picture


def draw_grid(picture: np.ndarray, geometry: Geometry, colour: tuple[int, int, int], width: int) -> None:
    """Draw every grid line of `geometry` onto the picture, in place.

    picture : (H, W, 3) uint8 ndarray, BGR
    """
    for x in geometry.xs:
        cv2.line(picture, _point(x, geometry.ys[0]), _point(x, geometry.ys[-1]), colour, width, cv2.LINE_AA)
    for y in geometry.ys:
        cv2.line(picture, _point(geometry.xs[0], y), _point(geometry.xs[-1], y), colour, width, cv2.LINE_AA)


def encode_png(frame: np.ndarray) -> bytes:
    """The frame as PNG file bytes."""
    ok, buffer = cv2.imencode(".png", frame)
    if not ok:
        raise ValueError("PNG encoding failed")
    return buffer.tobytes()


def _point(x: float, y: float) -> tuple[int, int]:
    """A pixel position OpenCV can draw at."""
    return round(x), round(y)
