"""A Shapes board's drawn lines: the network of thin cell borders and the thick outline around them."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from flowbot.capture.variants.edges import line_mask
from flowbot.errors import CaptureError

# The board's lines are the frame's longest connected drawing: at least this share of its smaller
# side across, or no board is there.
MIN_EXTENT = 0.25
# The outline is drawn at least this many times as wide as the cell borders, or is not told apart.
THICKER = 1.3


@dataclass(frozen=True)
class BoardLines:
    """The lines of one board, as (H, W) bool masks of the frame (or of the part read).

    lines : every line pixel of the board (thin borders and outline, all connected).
    outline : the thick ones: the board's outline and the rims of holes in it.
    inside : the board: everything the outermost line encloses, lines included.
    """

    lines: np.ndarray
    outline: np.ndarray
    inside: np.ndarray


def board_lines(frame: np.ndarray) -> BoardLines:
    """The board's lines: the largest connected drawing of thin bright lines on the frame.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    mask = line_mask(frame).view(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count < 2:
        raise CaptureError("no board found: no lines drawn on the picture")
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    width, height = stats[biggest, cv2.CC_STAT_WIDTH], stats[biggest, cv2.CC_STAT_HEIGHT]
    if min(width, height) < MIN_EXTENT * min(frame.shape[:2]):
        raise CaptureError("no board found: no drawing of lines large enough to be one")
    lines = (labels == biggest).view(np.uint8)
    contours, _ = cv2.findContours(lines, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    inside = np.zeros_like(lines)
    cv2.drawContours(inside, contours, -1, 1, thickness=cv2.FILLED)
    return BoardLines(lines.astype(bool), _thick(lines, inside), inside.astype(bool))


def _thick(lines: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """The line pixels of the thick lines: where a line's half-width along its middle is nearer the
    outline's than the cell borders' (the outline is two or three times wider than the borders).

    The outline's width is measured where it surely is, along the board's outer edge; the borders'
    on every other line. On a small picture a border's blur may make it a pixel wider here and there:
    the split between the two widths seen, not one between any two widths, keeps it a border.
    """
    depth = cv2.distanceTransform(lines, cv2.DIST_L2, 5)
    # The middle of a line: where the depth is a local peak; its depth is the line's half-width.
    middle = (depth > 0) & (depth >= cv2.dilate(depth, np.ones((3, 3), np.uint8)))
    widest = float(depth.max())
    edge = cv2.distanceTransform(inside, cv2.DIST_L2, 3) <= 2 * widest + 1
    outline_width = float(np.median(depth[middle & edge])) if (middle & edge).any() else 0.0
    border_width = float(np.median(depth[middle & ~edge])) if (middle & ~edge).any() else outline_width
    if outline_width < THICKER * border_width:
        return np.zeros(lines.shape, dtype=bool)  # one width drawn: no outline to tell apart
    split = (outline_width + border_width) / 2
    core = (depth > split).view(np.uint8)
    reach = 2 * int(np.ceil(split)) + 3
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
    return cv2.dilate(core, kernel).astype(bool) & lines.astype(bool)
