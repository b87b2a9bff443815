"""The endpoint dots of a Shapes board: a bright, solid blob filling a good part of a cell."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.capture.colors import Dot
from flowbot.capture.lines import brightness
from flowbot.capture.shapes.regions import Regions

# A dot is at least this bright (the brightest channel) and this much brighter than its cell's ground.
DOT_LEVEL = 70
DOT_CONTRAST = 50
# ...and covers at least this share of its cell (real dots: 0.3-0.5; a glow's bright speck far less).
DOT_SHARE = 0.15
# ...and is solid: this share of its convex hull (a disc or an ellipse fills it all; a stroke, no).
DOT_SOLIDITY = 0.85
# The cell's ground: this low percentile of its brightness (a dot may cover half the cell).
GROUND_PERCENTILE = 20
# Pixels this close to a blob's rim are blurred with the ground: the colour comes from inside.
RIM = 2


def find_shape_dots(frame: np.ndarray, regions: Regions) -> list[Dot]:
    """The dots in the cells, in cell order; a Dot's cell is (0, cell number).

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    level = brightness(frame)
    dots = []
    inner = np.ones((2 * RIM + 1, 2 * RIM + 1), np.uint8)
    for index in range(regions.count):
        x, y, width, height = (int(value) for value in regions.boxes[index])
        cell = (regions.labels[y : y + height, x : x + width] == index + 1).view(np.uint8)
        cell = cv2.erode(cell, inner).astype(bool)  # clear of the lines' blurred edges
        if not cell.any():
            continue
        seen = level[y : y + height, x : x + width]
        ground = float(np.percentile(seen[cell], GROUND_PERCENTILE))
        bright = (cell & (seen >= max(DOT_LEVEL, ground + DOT_CONTRAST))).view(np.uint8)
        blob = _largest(bright)
        if blob is None or blob.sum() < DOT_SHARE * regions.areas[index]:
            continue
        if not _solid(blob):
            continue
        core = cv2.erode(blob.view(np.uint8), inner).astype(bool)
        pixels = frame[y : y + height, x : x + width][core if core.any() else blob]
        blue, green, red = (int(value) for value in np.median(pixels, axis=0))
        dots.append(Dot((0, index), (red, green, blue), _lab(blue, green, red)))
    return dots


def _largest(mask: np.ndarray) -> np.ndarray | None:
    """The largest connected blob of a (H, W) uint8 mask, as bool, or None."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count < 2:
        return None
    return labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))


def _solid(blob: np.ndarray) -> bool:
    """Whether a blob fills its convex hull as a disc or an ellipse does."""
    contours, _ = cv2.findContours(blob.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.contourArea(cv2.convexHull(max(contours, key=cv2.contourArea)))
    return hull > 0 and blob.sum() >= DOT_SOLIDITY * hull


def _lab(blue: int, green: int, red: int) -> tuple[float, float, float]:
    """CIE Lab (L 0-100) of one BGR colour."""
    pixel = np.array([[[blue, green, red]]], dtype=np.float32) / 255.0
    return tuple(float(value) for value in cv2.cvtColor(pixel, cv2.COLOR_BGR2Lab)[0, 0])
