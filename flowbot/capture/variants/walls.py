"""Find the walls of a square board: edges between two cells drawn far brighter than the grid lines."""

from __future__ import annotations

import numpy as np

from flowbot.capture.lines import brightness
from flowbot.model import Cell, Geometry

# Along an edge its middle is looked at (the corners belong to the crossing lines), at this many
# points; across it, the pixels within this share of a cell either side of the line.
MIDDLE = np.linspace(0.2, 0.8, 16)
BAND = 0.08
# An edge's level: the brightness that this percentile of its points reach. A wall runs the whole
# edge; a dot's rim or a stroke crossing the line covers only a part of it.
ALONG = 25
# A wall stands this much brighter than the board's grid lines (levels of 255), and this share of
# their brightness: on real boards walls are near 230-255, grid lines 80-120.
WALL_CONTRAST = 50
WALL_RATIO = 1.5
# Most edges are grid lines (walls are under a third of them on real boards): the board's typical
# line is the median edge.
TYPICAL = 50

Wall = frozenset[Cell]


def find_walls(frame: np.ndarray, geometry: Geometry, cells: frozenset[Cell]) -> frozenset[Wall]:
    """Pairs of neighbouring cells (both in `cells`) with a wall between them.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    upright = [((row, col), (row, col + 1)) for row, col in sorted(cells) if (row, col + 1) in cells]
    level = [((row, col), (row + 1, col)) for row, col in sorted(cells) if (row + 1, col) in cells]
    if not upright and not level:
        return frozenset()
    image = brightness(frame)
    reach = max(2, round(BAND * geometry.cell_size))
    peaks, bodies = np.concatenate(
        [
            _levels(image.T, geometry.xs, geometry.ys, [(col + 1, row) for (row, col), _ in upright], reach),
            _levels(image, geometry.ys, geometry.xs, [(row + 1, col) for (row, col), _ in level], reach),
        ],
        axis=1,
    )
    # A grid line is as bright as its brightest pixel; a wall must be far brighter than that over
    # more than a pixel's width.
    typical = float(np.percentile(peaks, TYPICAL))
    threshold = max(typical + WALL_CONTRAST, typical * WALL_RATIO)
    edges = upright + level
    walls = [frozenset(edge) for edge, body in zip(edges, bodies, strict=True) if body >= threshold]
    return frozenset(walls)


def _levels(image: np.ndarray, lines, across, edges: list[tuple[int, int]], reach: int) -> np.ndarray:
    """(2, edges): per edge (line index, span index), how bright the line is along its middle: at its
    brightest pixel across, and at its second brightest (a wall is several pixels wide, a grid line
    one or two, half as bright each where resampling spread it over two).

    image : (H, W) brightness with the lines running along axis 1 (transposed for upright lines)
    """
    if not edges:
        return np.zeros((2, 0))
    limit, length = image.shape
    line = np.array([lines[index] for index, _ in edges])
    low = np.array([across[span] for _, span in edges])
    high = np.array([across[span + 1] for _, span in edges])
    along = np.clip(
        np.rint(low[:, None] + MIDDLE[None, :] * (high - low)[:, None]).astype(int), 0, length - 1
    )
    offsets = np.arange(-reach, reach + 1)
    rows = np.clip(np.rint(line).astype(int)[:, None] + offsets[None, :], 0, limit - 1)
    # (edges, offsets, points), sorted across the line at each point along it.
    values = np.sort(image[rows[:, :, None], along[:, None, :]], axis=1)
    return np.percentile(values[:, -1, :], ALONG, axis=1), np.percentile(values[:, -2, :], ALONG, axis=1)
