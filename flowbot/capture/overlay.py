"""Draw what flowbot read and solved over the screenshot: the picture a person wants to check."""

from __future__ import annotations

from itertools import pairwise

import cv2
import numpy as np

from flowbot.model import Cell, Geometry, Solution

# typing is for the type checker alone: the Shapes reader is not imported to draw a square board.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from flowbot.capture.shapes import ShapeReading

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


def draw_cells_overlay(
    frame: np.ndarray,
    centres: dict[Cell, tuple[float, float]],
    cell_size: float,
    seen_rgb: tuple[tuple[int, int, int], ...],
    solution: Solution | None,
) -> np.ndarray:
    """draw_overlay for any board (hexagons, bridges, warps): each cell read marked at its middle and,
    when solved, every path drawn from middle to middle.

    A step between cells far apart is a warp: drawn as two stubs out through the board's edge, not as
    a line across the board. frame : (H, W, 3) uint8 ndarray, BGR
    """
    picture = frame.copy()
    for x, y in centres.values():
        cv2.circle(picture, _point(x, y), max(2, round(cell_size / 12)), OUTLINE, 1, cv2.LINE_AA)
    if solution is None:
        return picture
    pipe = max(2, round(cell_size / 3))
    for index, path in enumerate(solution.paths):
        colour = _bgr(seen_rgb, index)
        for first, second in pairwise(path):
            (x1, y1), (x2, y2) = centres[first], centres[second]
            if np.hypot(x2 - x1, y2 - y1) <= 1.6 * cell_size:
                cv2.line(picture, _point(x1, y1), _point(x2, y2), colour, pipe, cv2.LINE_AA)
                continue
            # Through a warp: out of each cell towards the edge it leaves by (away from the other).
            dx, dy = (x2 - x1) / np.hypot(x2 - x1, y2 - y1), (y2 - y1) / np.hypot(x2 - x1, y2 - y1)
            half = 0.6 * cell_size
            cv2.line(
                picture, _point(x1, y1), _point(x1 - dx * half, y1 - dy * half), colour, pipe, cv2.LINE_AA
            )
            cv2.line(
                picture, _point(x2, y2), _point(x2 + dx * half, y2 + dy * half), colour, pipe, cv2.LINE_AA
            )
        for end in (path[0], path[-1]):
            cv2.circle(picture, _point(*centres[end]), round(0.35 * cell_size), colour, -1, cv2.LINE_AA)
    return picture


def draw_shapes_overlay(
    frame: np.ndarray,
    shapes: ShapeReading,
    seen_rgb: tuple[tuple[int, int, int], ...],
    solution: Solution | None,
) -> np.ndarray:
    """draw_overlay for a board of any cell shape: each cell read outlined and, when solved, every
    path drawn from a cell's middle through the middle of the border it crosses to the next cell's
    (so a pipe follows a ring's curve and bends where the cells do). Cell n is the puzzle's (0, n).

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    picture = frame.copy()
    size = shapes.cell_size
    outlines = [cell.outline.astype(np.int32) for cell in shapes.cells]
    cv2.polylines(picture, outlines, True, OUTLINE, max(1, round(size / 40)), cv2.LINE_AA)
    if solution is None:
        return picture
    pipe = max(2, round(size / 3))
    for index, path in enumerate(solution.paths):
        colour = _bgr(seen_rgb, index)
        points = [shapes.cells[path[0][1]].centre]
        for (_, first), (_, second) in pairwise(path):
            border = shapes.borders.get((min(first, second), max(first, second)))
            points.extend([border, shapes.cells[second].centre] if border else [shapes.cells[second].centre])
        line = np.array([_point(x, y) for x, y in points], dtype=np.int32)
        cv2.polylines(picture, [line], False, colour, pipe, cv2.LINE_AA)
        for _, end in (path[0], path[-1]):
            middle = _point(*shapes.cells[end].centre)
            cv2.circle(picture, middle, round(0.35 * size), colour, -1, cv2.LINE_AA)
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


HINT_MARK = (0, 215, 255)  # BGR amber: the cells a hint points at
WRONG_MARK = (40, 40, 230)  # BGR red: drawn cells to take off


def draw_hint(
    frame: np.ndarray,
    geometry: Geometry,
    seen_rgb: tuple[tuple[int, int, int], ...],
    joins: list[tuple[tuple[int, int], tuple[int, int], int]],
    colored: list[tuple[tuple[int, int], int]],
    marked: list[tuple[int, int]],
    wrong: list[tuple[int, int]],
    caption: str,
) -> np.ndarray:
    """A copy of the frame with one reasoning step drawn: the cells it is about framed, the joins it
    makes as short pipes, the colours it settles as rings, cells to undo crossed, and the reason
    written above the board.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    picture = frame.copy()
    size = geometry.cell_size
    thin = max(1, round(size / 40))
    draw_grid(picture, geometry, OUTLINE, thin)
    for cell in marked:
        _frame_cell(picture, geometry, cell, HINT_MARK, max(2, round(size / 14)))
    for cell in wrong:
        _frame_cell(picture, geometry, cell, WRONG_MARK, max(2, round(size / 14)))
        (x0, y0), (x1, y1) = _corners(geometry, cell, 0.25)
        cv2.line(picture, (x0, y0), (x1, y1), WRONG_MARK, max(2, round(size / 10)), cv2.LINE_AA)
        cv2.line(picture, (x0, y1), (x1, y0), WRONG_MARK, max(2, round(size / 10)), cv2.LINE_AA)
    pipe = max(2, round(size / 4))
    for a, b, color in joins:
        bgr = _bgr(seen_rgb, color)
        start, end = _point(*geometry.center(a)), _point(*geometry.center(b))
        cv2.line(picture, start, end, OUTLINE, pipe + 2 * thin + 2, cv2.LINE_AA)
        cv2.line(picture, start, end, bgr, pipe, cv2.LINE_AA)
    for cell, color in colored:
        centre = _point(*geometry.center(cell))
        cv2.circle(picture, centre, round(0.3 * size), OUTLINE, pipe // 2 + 2, cv2.LINE_AA)
        cv2.circle(picture, centre, round(0.3 * size), _bgr(seen_rgb, color), pipe // 2, cv2.LINE_AA)
    caption_above(picture, geometry.ys[0], caption)
    return picture


def _bgr(seen_rgb: tuple[tuple[int, int, int], ...], color: int) -> tuple[int, int, int]:
    """The colour as seen, in OpenCV's order; white when the colour is not known yet."""
    if 0 <= color < len(seen_rgb):
        red, green, blue = seen_rgb[color]
        return blue, green, red
    return OUTLINE


def _corners(
    geometry: Geometry, cell: tuple[int, int], inset: float
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The top-left and bottom-right pixels of a cell, moved in by a share of its size."""
    row, col = cell
    x0, x1 = geometry.xs[col], geometry.xs[col + 1]
    y0, y1 = geometry.ys[row], geometry.ys[row + 1]
    dx, dy = inset * (x1 - x0), inset * (y1 - y0)
    return _point(x0 + dx, y0 + dy), _point(x1 - dx, y1 - dy)


def _frame_cell(picture: np.ndarray, geometry: Geometry, cell, colour, width: int) -> None:
    """Draw a frame just inside a cell."""
    top_left, bottom_right = _corners(geometry, cell, 0.06)
    cv2.rectangle(picture, top_left, bottom_right, colour, width, cv2.LINE_AA)


def caption_above(picture: np.ndarray, board_top: float, text: str) -> None:
    """Write the text in wrapped lines on a dark band above the board whose top edge is at `board_top`
    (or at the top of the picture)."""
    height, width = picture.shape[:2]
    scale = max(0.4, min(1.2, width / 1100))
    thickness = max(1, round(scale * 2))
    line_height = round(30 * scale)
    lines = wrap_text(text, max(20, int(width / (19 * scale))))
    band = line_height * len(lines) + line_height // 2
    top = max(0, round(board_top) - band - 4)
    overlay = picture.copy()
    cv2.rectangle(overlay, (0, top), (width, min(height, top + band)), (30, 30, 30), -1)
    cv2.addWeighted(overlay, 0.75, picture, 0.25, 0, dst=picture)
    for number, line in enumerate(lines):
        y = top + line_height * (number + 1)
        cv2.putText(
            picture, line, (8, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thickness, cv2.LINE_AA
        )


def wrap_text(text: str, width: int) -> list[str]:
    """Split text into lines of at most `width` characters, at spaces."""
    lines: list[str] = []
    for paragraph in text.splitlines():
        line = ""
        for word in paragraph.split():
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines
