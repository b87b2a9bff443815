"""A picture of a misread, and its likely cause in words: what the reader found on a frame (the board's
lattice, its holes, the dots and their colours) drawn over it, for a person to see what went wrong."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from flowbot.capture.board import Board, board_candidates, no_board_message
from flowbot.capture.colors import Dot, find_dots, group_dots
from flowbot.capture.overlay import draw_grid, wrap_text
from flowbot.errors import CaptureError
from flowbot.model import Geometry, Puzzle

LATTICE = (255, 0, 255)  # BGR magenta: the lattice read, seen on light and dark boards
HOLE = (60, 60, 230)  # BGR red: places inside the board taken as no cell
STRAY = (0, 215, 255)  # BGR amber: dot-like blobs off the lattice
# A blob is dot-like when it is this saturated and bright (HSV, of 255) and covers this share of a
# cell's area; it sits off the lattice when its middle is this far from every cell's middle (of a cell).
DOT_SATURATION = 90
DOT_VALUE = 70
DOT_AREA = (0.12, 1.0)
OFF_LATTICE = 0.3


@dataclass(frozen=True)
class Misread:
    """A frame with what was read drawn over it, and the likely cause of the misread, in words.

    picture : (H, W, 3) uint8 ndarray, BGR
    """

    picture: np.ndarray
    cause: str


def explain_misread(frame: np.ndarray, puzzle: Puzzle | None = None) -> Misread:
    """Draw what the reader finds on the frame and name the likely cause of a misread: no board, dots
    that do not pair up, dots off (or outside) the lattice, or (given the `puzzle` that was read)
    a board read whole that has no solution.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise CaptureError(f"expected an (H, W, 3) uint8 BGR frame, got {frame.shape} {frame.dtype}")
    picture = frame.copy()
    failures: list[str] = []
    board = next(iter(board_candidates(frame, failures)), None)
    if board is None:
        cause = no_board_message(failures)
        _caption(picture, cause)
        return Misread(picture, cause)
    geometry = board.geometry
    dots = find_dots(frame, geometry, board.holes)
    stray, outside = _stray_blobs(frame, geometry)
    _draw(picture, board, dots, stray + outside)
    cause = _cause(board, dots, stray, outside, puzzle)
    _caption(picture, cause)
    return Misread(picture, cause)


def _cause(board: Board, dots: list[Dot], stray: list, outside: list, puzzle: Puzzle | None) -> str:
    """The likely cause, most telling first."""
    size = f"{board.rows} rows and {board.cols} columns"
    if outside:
        return (
            f"lattice found with {size}, but {len(outside)} dot(s) lie just outside it: "
            "a row or column of the board was likely lost (its outer line not seen)"
        )
    if stray:
        return (
            f"lattice found with {size}, but {len(stray)} dot(s) sit off it, between cells: "
            "the lattice's spacing or place is likely wrong"
        )
    try:
        group_dots(dots)
    except CaptureError as error:
        holes = f" ({len(board.holes)} place(s) taken as holes)" if board.holes else ""
        return f"dots do not pair up: {error}{holes}"
    if puzzle is not None and (puzzle.rows, puzzle.cols) != (board.rows, board.cols):
        return f"the board was read as {puzzle.size} but the lattice now shows {board.rows}x{board.cols}"
    holes = f", {len(board.holes)} place(s) taken as holes" if board.holes else ""
    return (
        f"board read as {board.rows}x{board.cols} with {len(dots) // 2} colours{holes}; "
        "if it has no solution, a cell or a dot was likely misread"
    )


def _stray_blobs(frame: np.ndarray, geometry: Geometry) -> tuple[list, list]:
    """Middles (x, y) of dot-like blobs within a cell of the board that sit off its cells' middles:
    those over the board, and those just outside it."""
    size = geometry.cell_size
    left, top, right, bottom = (round(value) for value in geometry.bounds)
    height, width = frame.shape[:2]
    x0, y0 = max(0, round(left - size)), max(0, round(top - size))
    x1, y1 = min(width, round(right + size)), min(height, round(bottom + size))
    if x1 <= x0 or y1 <= y0:
        return [], []
    hsv = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)
    mask = ((hsv[..., 1] >= DOT_SATURATION) & (hsv[..., 2] >= DOT_VALUE)).astype(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    stray, outside = [], []
    for index in range(1, count):
        area = stats[index, cv2.CC_STAT_AREA] / (size * size)
        w, h = stats[index, cv2.CC_STAT_WIDTH], stats[index, cv2.CC_STAT_HEIGHT]
        if not DOT_AREA[0] <= area <= DOT_AREA[1] or max(w, h) > 1.3 * min(w, h):
            continue  # a pipe, a tint, a banner: not a dot
        x, y = centroids[index][0] + x0, centroids[index][1] + y0
        col, row = (x - left) / size - 0.5, (y - top) / size - 0.5
        if not (-0.5 <= col <= geometry.cols - 0.5 and -0.5 <= row <= geometry.rows - 0.5):
            outside.append((x, y))
        elif max(abs(col - round(col)), abs(row - round(row))) > OFF_LATTICE:
            stray.append((x, y))
    return stray, outside


def _draw(picture: np.ndarray, board: Board, dots: list[Dot], stray: list) -> None:
    """The lattice, holes crossed out, each dot ringed in its colour as read, stray blobs ringed."""
    geometry = board.geometry
    size = geometry.cell_size
    width = max(1, round(size / 30))
    draw_grid(picture, geometry, LATTICE, width)
    for row, col in board.holes:
        x0, y0, x1, y1 = geometry.xs[col], geometry.ys[row], geometry.xs[col + 1], geometry.ys[row + 1]
        cv2.line(picture, (round(x0), round(y0)), (round(x1), round(y1)), HOLE, width, cv2.LINE_AA)
        cv2.line(picture, (round(x0), round(y1)), (round(x1), round(y0)), HOLE, width, cv2.LINE_AA)
    for dot in dots:
        x, y = geometry.center(dot.cell)
        red, green, blue = dot.rgb
        centre = (round(x), round(y))
        cv2.circle(picture, centre, round(0.42 * size), LATTICE, width + 2, cv2.LINE_AA)
        cv2.circle(picture, centre, round(0.42 * size), (blue, green, red), width, cv2.LINE_AA)
    for x, y in stray:
        cv2.circle(picture, (round(x), round(y)), round(0.45 * size), STRAY, width + 1, cv2.LINE_AA)


def _caption(picture: np.ndarray, text: str) -> None:
    """The cause in wrapped lines on a dark band at the top of the picture, in place."""
    height, width = picture.shape[:2]
    scale = max(0.4, min(1.0, width / 1400))
    line_height = round(28 * scale)
    lines = wrap_text(text, max(20, int(width / (18 * scale))))
    band = min(height, line_height * len(lines) + line_height // 2)
    picture[:band] = (picture[:band] * 0.25).astype(np.uint8)
    for number, words_line in enumerate(lines):
        cv2.putText(
            picture,
            words_line,
            (8, line_height * (number + 1)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            (255, 255, 255),
            max(1, round(scale * 2)),
            cv2.LINE_AA,
        )
