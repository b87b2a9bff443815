"""Turn a frame into a puzzle: find the board, its dots, their colours, and build the Puzzle."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from flowbot.capture.board import Board, board_candidates, no_board_message, one_piece, without_text_edges
from flowbot.capture.colors import Dot, find_dots, group_dots, name_groups
from flowbot.capture.image import decode_image
from flowbot.errors import CaptureError
from flowbot.formats import image_format
from flowbot.model import EMPTY, WALL, Geometry, Puzzle, Source

# Labels by first appearance, as in the truth files and `flowbot solve --json`.
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# Around an earlier board, this share of its larger side is read on each side: room for the next
# level's board to be a little larger or elsewhere, and for the rows the reader looks at beyond it.
NEAR_MARGIN = 0.25
# A part narrower or shorter than this (pixels) holds no board worth reading.
MIN_NEAR = 64


@dataclass(frozen=True, slots=True)
class Reading:
    """A board read from a frame: the puzzle, where its grid lies, and each colour as seen (RGB)."""

    puzzle: Puzzle
    geometry: Geometry
    seen_rgb: tuple[tuple[int, int, int], ...]


def read_puzzle(frame: np.ndarray, source: Source | None = None, near: Geometry | None = None) -> Reading:
    """Read the board on a frame; raise CaptureError when no board is there or the reading cannot be right.

    `near`: where a board was on an earlier frame of the same screen (the last level's reading's
    geometry). The part of the frame around it is read first, as the whole frame would be read; the
    whole frame is read when no board lies well inside that part (the board moved or grew).

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise CaptureError(f"expected an (H, W, 3) uint8 BGR frame, got {frame.shape} {frame.dtype}")
    if near is not None:
        reading = _read_near(frame, near, source)
        if reading is not None:
            return reading
    return _read_boards(frame, source)


def _read_near(frame: np.ndarray, near: Geometry, source: Source | None) -> Reading | None:
    """The reading of the part of the frame around `near`, in the frame's pixels, or None when no
    board reads there clear of the part's edges (unless they are the frame's own)."""
    height, width = frame.shape[:2]
    left, top, right, bottom = near.bounds
    margin = NEAR_MARGIN * max(right - left, bottom - top)
    x0, y0 = max(0, int(left - margin)), max(0, int(top - margin))
    x1, y1 = min(width, int(right + margin) + 1), min(height, int(bottom + margin) + 1)
    if x1 - x0 < MIN_NEAR or y1 - y0 < MIN_NEAR:
        return None
    try:
        reading = _read_boards(frame[y0:y1, x0:x1], source, scale=(height, width))
    except CaptureError:
        return None
    geometry = reading.geometry
    # A board cut by the part's edge would read as a smaller board: the whole board lies at least a
    # cell inside each edge that is not the frame's.
    room = geometry.cell_size
    found_left, found_top, found_right, found_bottom = geometry.bounds
    clear = (
        (x0 == 0 or found_left >= room)
        and (y0 == 0 or found_top >= room)
        and (x1 == width or found_right <= x1 - x0 - room)
        and (y1 == height or found_bottom <= y1 - y0 - room)
    )
    if not clear:
        return None
    return Reading(reading.puzzle, geometry.shifted(x0, y0), reading.seen_rgb)


def _read_boards(frame: np.ndarray, source: Source | None, scale: tuple[int, int] | None = None) -> Reading:
    """The first board candidate of the frame whose dots pair up; CaptureError if none (`scale`: the
    whole frame's height and width when `frame` is a part of it)."""
    failures: list[str] = []
    misread: CaptureError | None = None
    for board in board_candidates(frame, failures, scale):
        board, dots = _trimmed(frame, board)
        # A dot sits in a cell: a place inside the board holding one is never a hole, however faint
        # the lines around it (small cells, a glow behind them).
        board = Board(board.geometry, board.holes - {dot.cell for dot in dots})
        try:
            groups = group_dots([dot for dot in dots if dot.cell not in board.holes])
        except CaptureError as error:
            # The most trusted board's trouble is the one to tell, if no other board reads.
            misread = misread or error
            continue
        return _reading(board, groups, source)
    raise misread or CaptureError(no_board_message(failures))


def _trimmed(frame: np.ndarray, board: Board) -> tuple[Board, list[Dot]]:
    """The board cut to what is its own, and its dots: one piece of cells (a toolbar's boxes below it
    are not its), and no line of words beside it read as a row of holes."""
    dots = find_dots(frame, board.geometry, frozenset())
    for trim in (one_piece, partial(without_text_edges, frame)):
        trimmed = trim(board, frozenset(dot.cell for dot in dots))
        if trimmed.geometry != board.geometry:
            board = trimmed
            dots = find_dots(frame, board.geometry, frozenset())
    return board, dots


def grid_between(corners: tuple[tuple[float, float], tuple[float, float]], rows: int, cols: int) -> Geometry:
    """The grid of a board of `rows` x `cols` equal cells whose outer corners (x, y) are given."""
    if rows < 1 or cols < 1:
        raise CaptureError(f"a board needs at least one row and one column, not {rows}x{cols}")
    (left, top), (right, bottom) = corners
    if right <= left or bottom <= top:
        raise CaptureError(f"the corners ({left}, {top}) and ({right}, {bottom}) do not span a board")
    xs = tuple(float(x) for x in np.linspace(left, right, cols + 1))
    ys = tuple(float(y) for y in np.linspace(top, bottom, rows + 1))
    return Geometry(xs, ys)


def read_known_grid(frame: np.ndarray, geometry: Geometry) -> Reading:
    """Read a board whose grid is known (a person gave its corners and size): the dots at the cells'
    middles, whatever the look between them; CaptureError naming the colours that do not pair.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise CaptureError(f"expected an (H, W, 3) uint8 BGR frame, got {frame.shape} {frame.dtype}")
    groups = group_dots(find_dots(frame, geometry, frozenset()))
    return _reading(Board(geometry, frozenset()), groups, None)


def _reading(board: Board, groups: list, source: Source | None) -> Reading:
    """The reading of a board whose dots group into pairs."""
    geometry = board.geometry
    if len(groups) > len(LABELS):
        raise CaptureError(f"{len(groups)} colours is more than a board can hold")
    names = name_groups(groups)
    grid = [[EMPTY] * geometry.cols for _ in range(geometry.rows)]
    for row, col in board.holes:
        grid[row][col] = WALL
    # Groups come in order of their first dot, and dots in reading order: labels follow first appearance.
    for label, group in zip(LABELS, groups, strict=False):
        for dot in group:
            grid[dot.cell[0]][dot.cell[1]] = label
    labels = dict(zip(LABELS, names, strict=False))
    puzzle = Puzzle.from_rows(["".join(line) for line in grid], names=labels, source=source)
    seen = tuple(groups[index][0].rgb for index in range(len(groups)))
    return Reading(puzzle, geometry, seen)


def read_image(data: bytes, path: str) -> Reading:
    """Read the board in an image file's bytes; the source records the image, its size and the grid."""
    frame = decode_image(data)
    reading = read_puzzle(frame)
    source = image_source(data, path, frame, reading.geometry)
    return Reading(reading.puzzle.with_source(source), reading.geometry, reading.seen_rgb)


def image_source(data: bytes, path: str, frame: np.ndarray, geometry: Geometry | None) -> Source:
    """Where a puzzle read from an image file came from: the image's name and size, and the grid's
    pixel lines when the board has a square grid."""
    height, width = frame.shape[:2]
    details: dict = {"image": Path(path).name, "width": width, "height": height}
    if geometry is not None:
        details["grid"] = {"xs": [round(x, 1) for x in geometry.xs], "ys": [round(y, 1) for y in geometry.ys]}
    return Source(kind="image", path=path, index=0, format=image_format(data), details=details)
