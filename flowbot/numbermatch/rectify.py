"""A photo of a phone's screen made into a straight screenshot of its Number Match grid.

In a photo the grid's lines are slightly tilted and converge (perspective), so the reader's search for
long straight, evenly spaced lines fails. Here the frame is scaled to WORK_WIDTH (which also smooths
moiré), line segments are found with a Hough transform on the same thin-line mask the reader uses,
grouped into lines, and the grid picked as ten near-vertical lines about evenly spaced and a run of
near-horizontal ones; the four corners of that grid map the photo onto an upright image with square
cells of CELL pixels, the header above and the "+" button below included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

WORK_WIDTH = 1000
CELL = 96
ABOVE, BELOW = 4, 4  # cells of the photo kept above and below the grid's lines found
MAX_TILT = 0.2  # a line's slope (run over rise) at most: about 11 degrees
GROUP = 8  # pixels: segments this close at the middle belong to one line
WIDTH = 9


@dataclass(frozen=True, slots=True)
class Line:
    """A line as across = slope * along + offset (x from y for vertical lines, y from x for horizontal)."""

    slope: float
    offset: float

    def at(self, along: float) -> float:
        """The across coordinate at `along`."""
        return self.slope * along + self.offset


def rectified(frame: np.ndarray) -> np.ndarray | None:
    """The grid of a photo as an upright BGR image (None when no 9-column grid of lines is found)."""
    found = straightened(frame)
    return None if found is None else found[0]


def straightened(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """`rectified`, with the 3x3 perspective matrix that maps the photo's pixels onto the upright image."""
    from flowbot.numbermatch.read import _vertical_lines

    scale = WORK_WIDTH / frame.shape[1]
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    height, width = gray.shape
    vertical = _lines(_vertical_lines(gray), height // 8, width / 2, height / 2, transpose=False)
    horizontal = _lines(_vertical_lines(gray.T).T, width // 5, width / 2, height / 2, transpose=True)
    columns = _columns(vertical, height / 2)
    if columns is None:
        return None
    left, right = columns
    middle = (left.at(height / 2) + right.at(height / 2)) / 2
    rows = _rows(horizontal, middle, (right.at(height / 2) - left.at(height / 2)) / WIDTH)
    if rows is None:
        return None
    top, bottom, count = rows
    corners = np.float32([_cross(left, top), _cross(right, top), _cross(right, bottom), _cross(left, bottom)])
    target = np.float32(
        [
            [CELL, ABOVE * CELL],
            [(1 + WIDTH) * CELL, ABOVE * CELL],
            [(1 + WIDTH) * CELL, (ABOVE + count) * CELL],
            [CELL, (ABOVE + count) * CELL],
        ]
    )
    # The corners were found at the working scale; the picture is taken from the whole frame (the
    # badge's digit is only a dozen pixels tall at the working scale), smoothed to about one output
    # pixel so that the moiré of a photographed screen does not alias.
    corners /= min(scale, 1.0)
    shrink = (corners[1][0] - corners[0][0]) / (WIDTH * CELL)
    source = cv2.GaussianBlur(frame, (0, 0), shrink / 2) if shrink > 1.5 else frame
    matrix = cv2.getPerspectiveTransform(corners, target)
    size = ((WIDTH + 2) * CELL, (ABOVE + count + BELOW) * CELL)
    upright = cv2.warpPerspective(source, matrix, size, flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255))
    return upright, matrix


def _lines(mask: np.ndarray, length: int, mid_x: float, mid_y: float, *, transpose: bool) -> list[Line]:
    """The long straight lines of a line mask, near-vertical ones (or near-horizontal with `transpose`)."""
    found = cv2.HoughLinesP(
        mask.astype(np.uint8) * 255, 1, np.pi / 360, 80, minLineLength=length, maxLineGap=8
    )
    if found is None:
        return []
    segments = []
    for x0, y0, x1, y1 in found.reshape(-1, 4).tolist():
        along0, across0, along1, across1 = (x0, y0, x1, y1) if transpose else (y0, x0, y1, x1)
        if along0 == along1:
            continue
        slope = (across1 - across0) / (along1 - along0)
        if abs(slope) > MAX_TILT:
            continue
        middle = mid_x if transpose else mid_y
        segments.append((across0 + slope * (middle - along0), along0, across0, along1, across1))
    segments.sort()
    groups: list[list[tuple]] = []
    for segment in segments:
        if groups and segment[0] - groups[-1][-1][0] <= GROUP:
            groups[-1].append(segment)
        else:
            groups.append([segment])
    lines = []
    for group in groups:
        along = np.array([value for segment in group for value in (segment[1], segment[3])], float)
        across = np.array([value for segment in group for value in (segment[2], segment[4])], float)
        if np.ptp(along) == 0:
            continue
        slope, offset = np.polyfit(along, across, 1)
        lines.append(Line(float(slope), float(offset)))
    return lines


def _columns(lines: list[Line], middle: float) -> tuple[Line, Line] | None:
    """The grid's outer left and right lines: the widest pair with most of the 8 lines between them
    near where even spacing puts them."""
    places = [line.at(middle) for line in lines]
    best = None
    for i, left in enumerate(places):
        for j in range(i + 1, len(places)):
            step = (places[j] - left) / WIDTH
            if step < 10:
                continue
            misses = [min(abs(x - (left + k * step)) for x in places) for k in range(1, WIDTH)]
            inner = sum(miss <= step * 0.12 for miss in misses)
            # Among pairs with as many lines between, the most even spacing: a phone's edge or a
            # bezel just beyond the grid makes a wider pair that fits less well.
            key = (inner, -sum(min(miss, step * 0.12) for miss in misses) / step)
            if inner >= WIDTH - 3 and (best is None or key > best[0]):
                best = (key, i, j)
    if best is None:
        return None
    return lines[best[1]], lines[best[2]]


def _rows(lines: list[Line], middle: float, step: float) -> tuple[Line, Line, int] | None:
    """The top and bottom lines of the longest run of horizontal lines about `step` apart, and how many
    rows lie between them (a missing line inside the run is allowed for)."""
    places = sorted((line.at(middle), line) for line in lines)
    best: list[tuple[float, Line]] = []
    for start in range(len(places)):
        run = [places[start]]
        spacing = step
        while True:
            after = [item for item in places if abs(item[0] - (run[-1][0] + spacing)) <= spacing * 0.15]
            if not after:
                break
            spacing = after[0][0] - run[-1][0]  # perspective: the spacing drifts down the grid
            run.append(after[0])
        if len(run) > len(best):
            best = run
    if len(best) < 2:
        return None
    return best[0][1], best[-1][1], len(best) - 1


def _cross(vertical: Line, horizontal: Line) -> tuple[float, float]:
    """Where a near-vertical line (x from y) meets a near-horizontal one (y from x)."""
    # x = a*y + b, y = c*x + d  =>  x = a*(c*x + d) + b
    a, b, c, d = vertical.slope, vertical.offset, horizontal.slope, horizontal.offset
    denominator = 1 - a * c
    x = (a * d + b) / denominator if not math.isclose(denominator, 0) else b
    return x, c * x + d
