"""A Shapes board's cells as closed regions: the pieces of the board its lines cut it into."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from flowbot.capture.shapes.lines import BoardLines
from flowbot.errors import CaptureError

# A piece under this share of the median cell is a sliver between lines that nearly meet, no cell.
SLIVER = 0.15
# A piece whose rim is under this share thin borders is a hole in the board (the middle of a ring):
# only the outline goes round it, where every cell has borders with its neighbours.
HOLE_BORDERS = 0.05
# Cells of one board differ in size, but not past this ratio to the median (a ring's outer sectors
# are about twice its inner ones): a picture cut into pieces of any size is no board.
SIZE_RATIO = 6.0
# Middles closer in height than this share of a cell are one row of the reading order.
ROW_GAP = 0.25
# A board has at least this many cells.
MIN_CELLS = 4


@dataclass(frozen=True)
class Regions:
    """The cells of a board: `labels` (H, W) int32, 0 off any cell, cell k+1 at cell k's pixels
    (cells in reading order); `boxes` (N, 4) each cell's x, y, width, height; `areas` (N,);
    `centres` (N, 2) each cell's middle x, y, inside it."""

    labels: np.ndarray
    boxes: np.ndarray
    areas: np.ndarray
    centres: np.ndarray

    @property
    def count(self) -> int:
        """How many cells."""
        return len(self.areas)


def cell_regions(board: BoardLines) -> Regions:
    """Every closed piece of the board between its lines, holes and slivers left out, in reading order."""
    open_ground = (board.inside & ~board.lines).view(np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(open_ground, connectivity=4)
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    if areas.size == 0:
        raise CaptureError("no board found: the lines enclose nothing")
    # Specks of a pixel or two, closed inside a line's blurred edge, are most pieces: the typical
    # cell is the median of the pieces of some size (a twentieth of the largest).
    typical = np.median(areas[areas >= 0.05 * areas.max()])
    keep = areas >= SLIVER * typical
    thin = board.lines & ~board.outline
    for index in np.flatnonzero(keep):
        if _rim_share(labels, stats[index + 1], index + 1, thin) < HOLE_BORDERS:
            keep[index] = False
    kept = np.flatnonzero(keep)
    if kept.size < MIN_CELLS:
        raise CaptureError(f"no board found: the lines enclose {kept.size} cells")
    median = np.median(areas[kept])
    if areas[kept].max() > SIZE_RATIO * median or areas[kept].min() < median / SIZE_RATIO:
        raise CaptureError("no board found: the pieces the lines enclose are not cells of one board")
    centres = centroids[kept + 1]
    order = reading_order(centres, ROW_GAP * np.sqrt(median))
    numbering = np.zeros(count, dtype=np.int32)
    numbering[kept[order] + 1] = np.arange(1, kept.size + 1, dtype=np.int32)
    labels = numbering[labels]
    boxes = stats[kept[order] + 1, :4].copy()
    return Regions(labels, boxes, areas[kept[order]], _inside(labels, boxes, centres[order]))


def _inside(labels: np.ndarray, boxes: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Each cell's middle: its centroid, or where a bent cell (a C, an L) has its centroid outside
    it, its point farthest from its edges, where a path through it best passes."""
    middles = centroids.copy()
    for index, (x, y) in enumerate(centroids):
        if labels[round(y), round(x)] == index + 1:
            continue
        left, top, width, height = (int(value) for value in boxes[index])
        piece = (labels[top : top + height, left : left + width] == index + 1).view(np.uint8)
        depth = cv2.distanceTransform(cv2.copyMakeBorder(piece, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0),
                                      cv2.DIST_L2, 5)  # fmt: skip
        row, col = np.unravel_index(int(np.argmax(depth)), depth.shape)
        middles[index] = (left + col - 1, top + row - 1)
    return middles


def reading_order(centres: np.ndarray, gap: float) -> np.ndarray:
    """Indices of middles (N, 2) x, y in reading order: rows top to bottom, each left to right.

    A row is a run of middles each within `gap` below the one before, so a pixel of difference
    (another scale, another blur) never moves a cell to another row, as rounding to bands could.
    """
    by_height = np.argsort(centres[:, 1], kind="stable")
    steps = np.diff(centres[by_height, 1])
    rows = np.concatenate([[0], np.cumsum(steps > gap)])
    return by_height[np.lexsort((centres[by_height, 0], rows))]


def _rim_share(labels: np.ndarray, stat: np.ndarray, label: int, thin: np.ndarray) -> float:
    """The share of a piece's rim (the pixels just outside it) on thin borders."""
    x, y, width, height = (int(value) for value in stat[:4])
    pad = 3
    top, left = max(0, y - pad), max(0, x - pad)
    bottom, right = min(labels.shape[0], y + height + pad), min(labels.shape[1], x + width + pad)
    piece = (labels[top:bottom, left:right] == label).view(np.uint8)
    rim = cv2.dilate(piece, np.ones((5, 5), np.uint8)).astype(bool) & ~piece.astype(bool)
    total = int(rim.sum())
    return float(thin[top:bottom, left:right][rim].sum()) / total if total else 0.0


def outline_of(regions: Regions, index: int) -> np.ndarray:
    """Cell `index`'s outline as a polygon (N, 2) of pixels (x, y), simplified to about a pixel."""
    x, y, width, height = (int(value) for value in regions.boxes[index])
    piece = (regions.labels[y : y + height, x : x + width] == index + 1).view(np.uint8)
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    simple = cv2.approxPolyDP(contour, 1.0, closed=True)
    return simple.reshape(-1, 2) + np.array([x, y])
