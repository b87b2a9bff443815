"""Which cells of a Shapes board share a border: a stretch of thin line with one cell on each side."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.capture.shapes.lines import BoardLines
from flowbot.capture.shapes.regions import Regions

# Two cells are neighbours when the thin line between them is at least this share of a typical
# cell's side long: cells that meet only at a corner share a stretch about as long as the line is
# wide (a few pixels), neighbours a whole side (a third of a cell or more, even a ring's inner sector).
MIN_BORDER = 0.2


def shared_borders(
    board: BoardLines, regions: Regions, cell_size: float
) -> dict[tuple[int, int], tuple[float, float]]:
    """Each pair of cells (a < b, cell numbers) sharing a border of real length, with the pixel (x, y)
    in the middle of that border.

    Every line pixel goes to its nearest cell; where two cells' shares meet on a thin line, that
    meeting runs along the border between them. The outline parts no cells: across it lies no cell,
    or a hole.
    """
    off_cells = (regions.labels == 0).view(np.uint8)
    _, nearest = cv2.distanceTransformWithLabels(off_cells, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
    # DIST_LABEL_PIXEL numbers every cell pixel (in scan order); map those numbers to cell numbers.
    owner_of = np.zeros(int(nearest.max()) + 1, dtype=np.int32)
    on_cells = regions.labels > 0
    owner_of[nearest[on_cells]] = regions.labels[on_cells]
    owner = owner_of[nearest]
    thin = board.lines & ~board.outline
    lengths: dict[tuple[int, int], int] = {}
    sums: dict[tuple[int, int], np.ndarray] = {}
    for axis in (0, 1):
        here = owner[:-1, :] if axis == 0 else owner[:, :-1]
        there = owner[1:, :] if axis == 0 else owner[:, 1:]
        # A border a pixel wide goes wholly to one side: its meeting lies between it and the other
        # cell; a wider one's lies within it. Either way, beside the outline nothing meets.
        near, far = (slice(None, -1), slice(1, None))
        pick = (lambda mask, part: mask[part, :]) if axis == 0 else (lambda mask, part: mask[:, part])
        outline = pick(board.outline, near) | pick(board.outline, far)
        on_line = (pick(thin, near) | pick(thin, far)) & ~outline
        meet = on_line & (here != there) & (here > 0) & (there > 0)
        ys, xs = np.nonzero(meet)
        a, b = here[ys, xs], there[ys, xs]
        low, high = np.minimum(a, b) - 1, np.maximum(a, b) - 1
        keys = low.astype(np.int64) * (regions.count + 1) + high
        for key, count, x_sum, y_sum in _grouped(keys, xs, ys):
            pair = (int(key // (regions.count + 1)), int(key % (regions.count + 1)))
            lengths[pair] = lengths.get(pair, 0) + count
            sums[pair] = sums.get(pair, np.zeros(2)) + np.array([x_sum, y_sum])
    # A pixel of a level or upright border counts once, of a slanted one up to 1.4 times (once across,
    # once down): the bar holds for the shortest count a border of that length gives.
    bar = MIN_BORDER * cell_size
    return {pair: tuple(sums[pair] / lengths[pair]) for pair in sorted(lengths) if lengths[pair] >= bar}


def _grouped(keys: np.ndarray, xs: np.ndarray, ys: np.ndarray):
    """Per distinct key: the key, how many times it came, and the sums of its x and y."""
    if keys.size == 0:
        return []
    unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    x_sums = np.bincount(inverse, weights=xs)
    y_sums = np.bincount(inverse, weights=ys)
    return zip(unique, counts, x_sums, y_sums, strict=True)
