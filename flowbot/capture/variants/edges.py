"""Line pixels of any direction, and how much of a straight edge between two points they cover."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.capture.lines import brightness

# A line pixel stands this far above what is around it (the top-hat), like a square board's lines.
LINE_LEVEL = 25


def line_mask(frame: np.ndarray) -> np.ndarray:
    """Thin bright lines of any direction: a top-hat wider than a board's outline, narrower than a dot.

    frame : (H, W, 3) uint8 ndarray, BGR; returns (H, W) bool
    """
    level = brightness(frame)
    height, width = level.shape
    size = int(np.clip(min(height, width) / 50, 7, 41)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    return cv2.morphologyEx(level, cv2.MORPH_TOPHAT, kernel) > LINE_LEVEL


def edge_mask(frame: np.ndarray, length: int | None = None) -> np.ndarray:
    """Bright lines of any direction and any thickness up to a board's outline: a top-hat along rows
    and one along columns, each keeping lines thinner than its kernel across them. A dot, wider
    than the kernel both ways, leaves only thin crescents at its rim, inside its cell.

    frame : (H, W, 3) uint8 ndarray, BGR; returns (H, W) bool
    length : the kernel, pixels; by default from the frame's size (give it for a crop of a frame)
    """
    level = brightness(frame)
    height, width = level.shape
    length = length or edge_kernel(height, width)
    pad = length
    padded = cv2.copyMakeBorder(level, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    inner = (slice(pad, pad + height), slice(pad, pad + width))
    across_rows = cv2.getStructuringElement(cv2.MORPH_RECT, (1, length))
    across_cols = cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1))
    level_lines = cv2.morphologyEx(padded, cv2.MORPH_TOPHAT, across_rows)[inner]
    upright_lines = cv2.morphologyEx(padded, cv2.MORPH_TOPHAT, across_cols)[inner]
    return cv2.max(level_lines, upright_lines) > LINE_LEVEL


def edge_kernel(height: int, width: int) -> int:
    """The top-hat length for `edge_mask` on a frame of this size: past an outline, short of a dot."""
    return int(np.clip(min(height, width) / 32, 11, 51)) | 1


def near_lines(mask: np.ndarray, tolerance: int) -> np.ndarray:
    """(H, W) bool: pixels within `tolerance` of a line pixel (a lattice is never fitted exactly)."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * tolerance + 1, 2 * tolerance + 1))
    return cv2.dilate(mask.view(np.uint8), kernel).astype(bool)


def coverage(near: np.ndarray, starts: np.ndarray, ends: np.ndarray, fractions: np.ndarray) -> np.ndarray:
    """Per edge (N, 2) from starts to ends (pixels x, y), the share of points at `fractions` along it
    that lie near a line; points off the frame count as not covered."""
    height, width = near.shape
    points = starts[:, None, :] + fractions[None, :, None] * (ends - starts)[:, None, :]
    xs = np.rint(points[..., 0]).astype(int)
    ys = np.rint(points[..., 1]).astype(int)
    inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    hit = np.zeros(xs.shape, dtype=bool)
    hit[inside] = near[ys[inside], xs[inside]]
    return hit.mean(axis=1)
