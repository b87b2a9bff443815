"""Read a board of any cell shape from a frame: its lines, its cells, which share borders, its dots."""

from __future__ import annotations

import re

import cv2
import numpy as np

from flowbot.capture.colors import group_dots, name_groups
from flowbot.capture.shapes.borders import shared_borders
from flowbot.capture.shapes.dots import find_shape_dots
from flowbot.capture.shapes.graph import EMPTY, LABELS, ShapeCell, ShapeReading
from flowbot.capture.shapes.lines import board_lines
from flowbot.capture.shapes.regions import cell_regions, outline_of
from flowbot.errors import CaptureError

# A frame is read at the largest whole fraction of its size that leaves its shorter side at least
# this long: lines stay a few pixels wide (thinner, a border's blur can look like the outline).
WORK_SIDE = 500


def read_shapes(frame: np.ndarray) -> ShapeReading:
    """Read the board on a frame as a graph of cells; CaptureError when no such board reads there.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise CaptureError(f"expected an (H, W, 3) uint8 BGR frame, got {frame.shape} {frame.dtype}")
    # Cells are tens of pixels across and lines a few: a large frame is read at a whole fraction of
    # its size (OpenCV averages k x k blocks fast), its lines still a pixel or more wide.
    factor = max(1, min(frame.shape[:2]) // WORK_SIDE)
    if factor > 1:
        frame = cv2.resize(frame, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
    lines = board_lines(frame)
    regions = cell_regions(lines)
    cell_size = float(np.sqrt(np.median(regions.areas)))
    borders = shared_borders(lines, regions, cell_size)
    linked = {cell for pair in borders for cell in pair}
    if len(linked) < regions.count:
        alone = regions.count - len(linked)
        raise CaptureError(f"no board found: {alone} of the pieces found border no other")
    try:
        groups = group_dots(find_shape_dots(frame, regions))
    except CaptureError as error:
        # The dots' cells are (0, n): say "cell n", as the overlay and the truth files number them.
        message = re.sub(r"row 1, col (\d+)", lambda match: f"cell {int(match[1]) - 1}", str(error))
        raise CaptureError(message) from None
    if len(groups) > len(LABELS):
        raise CaptureError(f"{len(groups)} colours is more than a board can hold")
    letters = [EMPTY] * regions.count
    for label, group in zip(LABELS, groups, strict=False):
        for dot in group:
            letters[dot.cell[1]] = label
    outlines = [_full(outline_of(regions, index), factor) for index in range(regions.count)]
    cells = tuple(
        ShapeCell(np.rint(outline).astype(np.int32), _full_point(centre, factor))
        for outline, centre in zip(outlines, regions.centres, strict=True)
    )
    return ShapeReading(
        cells,
        frozenset(borders),
        {pair: _full_point(middle, factor) for pair, middle in borders.items()},
        "".join(letters),
        cell_size * factor,
        tuple(name_groups(groups)),
        tuple(group[0].rgb for group in groups),
    )


def _full(points: np.ndarray, factor: int) -> np.ndarray:
    """Pixels (N, 2) x, y of the frame read at 1/factor of its size, on the whole frame."""
    return (points + 0.5) * factor - 0.5


def _full_point(point: tuple[float, float], factor: int) -> tuple[float, float]:
    """One pixel (x, y) of the frame read at 1/factor of its size, on the whole frame."""
    x, y = _full(np.array(point, dtype=np.float64), factor)
    return float(x), float(y)
