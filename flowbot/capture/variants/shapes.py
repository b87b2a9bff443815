"""Tell which kind of board a frame's lines draw, by their directions: what cannot be read is named."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.capture.lines import brightness
from flowbot.capture.variants.edges import line_mask

# Directions are judged on a copy of the frame at most this many pixels on its longer side.
SIDE = 480
# Only the strongest gradients speak (line edges, not JPEG noise): this share of the strongest.
STRONG = 0.2
# Shares of line directions (in 15-degree bins, 0 = horizontal) that mark each kind. Measured on
# the real screenshots: square boards have slants (30+60+120+150) of at most 0.19 and diagonals
# (45+135) of at most 0.14, hexagon boards slants of 0.3-0.5 (0.3 with hand-drawn lines over
# them); cubes 30+150 of 0.46-0.69 (others at most 0.19); the ring board 45+135 of 0.27; the
# board of squares and half-hexagons 90 of 0.21 beside 60+120 of 0.26 (hexes: 90 under 0.15).
SQUARE_SLANT = 0.25
SQUARE_DIAGONAL = 0.2
CUBE = 0.35
RINGS = 0.2
MIXED_UPRIGHT, MIXED_SLANT = 0.18, 0.15
HEXES = 0.3
# A board is thin lines on a plain page: on the real screenshots (square, hex and Shapes boards) line
# pixels cover 0.07-0.16 of the frame; on photos and noise, whose every texture passes for lines,
# 0.3-0.7. A frame more crowded than this is no drawing of a board, whatever its lines' directions.
CROWDED = 0.25


def _small(frame: np.ndarray) -> np.ndarray:
    """The frame at most SIDE pixels on its longer side."""
    # A whole factor: OpenCV averages k x k blocks much faster than it resamples by any other ratio.
    factor = -(-max(frame.shape[:2]) // SIDE)
    if factor > 1:
        frame = cv2.resize(frame, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
    return frame


def line_directions(frame: np.ndarray) -> np.ndarray:
    """(12,) shares of line pixels by direction, in 15-degree bins from horizontal (0) to 165.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    frame = _small(frame)
    return directions_of(line_mask(frame), brightness(frame))


def line_cover(frame: np.ndarray) -> float:
    """The share of the frame's pixels on lines (as `line_directions` sees them).

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    mask = line_mask(_small(frame))
    return float(mask.mean()) if mask.size else 0.0


def directions_of(mask: np.ndarray, level: np.ndarray) -> np.ndarray:
    """(12,) shares by direction of the line pixels `mask` (H, W) bool of brightness `level` (H, W)."""
    lines = np.where(mask, level, 0).astype(np.float32)
    gx = cv2.Sobel(lines, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lines, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = cv2.magnitude(gx, gy)
    top = float(magnitude.max()) if magnitude.size else 0.0
    if top <= 0:
        return np.zeros(12)
    strong = magnitude > STRONG * top
    # A line runs across its gradient; bins are centred on multiples of 15 degrees.
    angles = (np.degrees(np.arctan2(gy[strong], gx[strong])) + 90 + 7.5) % 180
    counts = np.bincount((angles // 15).astype(int) % 12, weights=magnitude[strong], minlength=12)
    return counts / counts.sum()


def looks_square(share: np.ndarray) -> bool:
    """Whether line directions (`line_directions`) are those of a square board: level and upright."""
    return bool(
        share[2] + share[4] + share[8] + share[10] < SQUARE_SLANT and share[3] + share[9] < SQUARE_DIAGONAL
    )


def unreadable_kind(share: np.ndarray, cover: float = 0.0) -> str | None:
    """What board line directions (`line_directions`) show that the square and hex readers cannot
    read (for the message), or None if they show none of them or the lines crowd the frame (`cover`,
    from `line_cover`) as no board's do."""
    if cover > CROWDED:
        return None
    kind = shapes_kind(share)
    if kind is not None:
        return kind
    if share[4] + share[8] >= HEXES:
        return "board of hexagons whose cells could not be found"
    return None


def shapes_kind(share: np.ndarray) -> str | None:
    """Which Flow Free: Shapes board line directions (`line_directions`) show, or None."""
    if share[2] + share[10] >= CUBE:
        return "Flow Free: Shapes board of isometric cube faces (parallelogram cells)"
    if share[3] + share[9] >= RINGS:
        return "Flow Free: Shapes board with curved cells (rings)"
    if share[6] >= MIXED_UPRIGHT and share[4] + share[8] >= MIXED_SLANT:
        return "Flow Free: Shapes board of squares mixed with hexagons"
    return None
