"""Read a board of any cell shape from a frame: its lines, its cells, which share borders, its dots."""

from __future__ import annotations

import numpy as np

from flowbot.capture.colors import group_dots, name_groups
from flowbot.capture.shapes.borders import shared_borders
from flowbot.capture.shapes.dots import find_shape_dots
from flowbot.capture.shapes.graph import EMPTY, LABELS, ShapeCell, ShapeReading
from flowbot.capture.shapes.lines import board_lines
from flowbot.capture.shapes.regions import cell_regions, outline_of
from flowbot.errors import CaptureError


def read_shapes(frame: np.ndarray) -> ShapeReading:
    """Read the board on a frame as a graph of cells; CaptureError when no such board reads there.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise CaptureError(f"expected an (H, W, 3) uint8 BGR frame, got {frame.shape} {frame.dtype}")
    lines = board_lines(frame)
    regions = cell_regions(lines)
    cell_size = float(np.sqrt(np.median(regions.areas)))
    borders = shared_borders(lines, regions, cell_size)
    linked = {cell for pair in borders for cell in pair}
    if len(linked) < regions.count:
        alone = regions.count - len(linked)
        raise CaptureError(f"no board found: {alone} of the pieces found border no other")
    groups = group_dots(find_shape_dots(frame, regions))
    if len(groups) > len(LABELS):
        raise CaptureError(f"{len(groups)} colours is more than a board can hold")
    letters = [EMPTY] * regions.count
    for label, group in zip(LABELS, groups, strict=False):
        for dot in group:
            letters[dot.cell[1]] = label
    cells = tuple(
        ShapeCell(outline_of(regions, index), (float(x), float(y)))
        for index, (x, y) in enumerate(regions.centres)
    )
    return ShapeReading(
        cells,
        frozenset(borders),
        borders,
        "".join(letters),
        cell_size,
        tuple(name_groups(groups)),
        tuple(group[0].rgb for group in groups),
    )
