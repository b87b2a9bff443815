"""The verdict's looks at many small squares at once give what one square at a time gives: the same
medians, the same Lab colours, the same NaN off the frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from flowbot.capture.verdict import (
    JOIN_AT,
    JOIN_REACH,
    MARK_AT,
    MEDIAN_SQUARE,
    NEAREST_SQUARE,
    SAMPLE,
    _lab,
    _mark_colours,
    centre_colours,
    join_colours,
    rgb_to_lab,
    solution_joins,
)
from flowbot.generate.levels import make_level
from flowbot.model import Geometry
from flowbot.solve.sat import solve


def one_square(frame, x, y, half):
    """The Lab of the median of one square, NaN when it is not wholly on the frame."""
    height, width = frame.shape[:2]
    if not (half <= x < width - half and half <= y < height - half):
        return np.full(3, np.nan)
    return _lab(np.median(frame[y - half : y + half + 1, x - half : x + half + 1].reshape(-1, 3), axis=0))


def one_at_a_time(frame, geometry, solution, flow_rgb):
    """Centre colours, mark colours and join looks, each square looked at on its own."""
    size = geometry.cell_size
    half = max(1, round(SAMPLE * size / 2))
    centres = np.full((geometry.rows, geometry.cols, 3), np.nan)
    marks = np.full((geometry.rows, geometry.cols, 4, 3), np.nan)
    offsets = [(dx * MARK_AT * size, dy * MARK_AT * size) for dx in (-1, 1) for dy in (-1, 1)]
    for row in range(geometry.rows):
        for col in range(geometry.cols):
            cx, cy = geometry.center((row, col))
            centres[row, col] = one_square(frame, round(cx), round(cy), half)
            for index, (dx, dy) in enumerate(offsets):
                marks[row, col, index] = one_square(frame, round(cx + dx), round(cy + dy), half)
    wide, tiny = max(1, round(MEDIAN_SQUARE * size)), max(1, round(NEAREST_SQUARE * size))
    flows = np.array([rgb_to_lab(rgb) for rgb in flow_rgb])
    joins = solution_joins(solution)
    median = np.full((len(joins), len(JOIN_AT), 3), np.nan)
    nearest = np.full((len(joins), len(JOIN_AT)), np.nan)
    for index, (color, (a, b)) in enumerate(joins):
        (xa, ya), (xb, yb) = geometry.center(a), geometry.center(b)
        if np.hypot(xb - xa, yb - ya) > JOIN_REACH * size:
            continue
        for step, share in enumerate(JOIN_AT):
            x, y = round(xa + share * (xb - xa)), round(ya + share * (yb - ya))
            median[index, step] = one_square(frame, x, y, wide)
            if np.isnan(median[index, step]).any():
                continue
            small = frame[y - tiny : y + tiny + 1, x - tiny : x + tiny + 1]
            labs = cv2.cvtColor(small.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab).reshape(-1, 3)
            nearest[index, step] = float(np.linalg.norm(labs - flows[color], axis=1).min())
    return centres, marks, median, nearest


@pytest.mark.parametrize("seed", range(4))
def test_looking_at_every_square_at_once_matches_one_at_a_time(seed):
    rng = np.random.default_rng(seed)
    side = (5, 7, 9, 6)[seed]
    level = make_level(side, side, side - 1, __import__("random").Random(seed))
    solution = solve(level.puzzle).solution
    frame = rng.integers(0, 256, size=(300, 280, 3), dtype=np.uint8)
    frame = cv2.GaussianBlur(frame, (5, 5), 0)  # neighbouring pixels alike, as on a screen
    cell = float(rng.uniform(24, 40))
    # Shifted so that some cells, marks and joins fall off the frame's edges.
    left, top = float(rng.uniform(-30, 10)), float(rng.uniform(-30, 10))
    geometry = Geometry(
        tuple(left + cell * i for i in range(side + 1)), tuple(top + cell * i for i in range(side + 1))
    )
    flow_rgb = tuple(tuple(int(v) for v in rng.integers(0, 256, 3)) for _ in level.puzzle.colors)
    centres, marks, median, nearest = one_at_a_time(frame, geometry, solution, flow_rgb)
    looks = join_colours(frame, geometry, solution, flow_rgb)
    assert np.isnan(centres).any() and not np.isnan(centres).all()
    np.testing.assert_array_equal(centre_colours(frame, geometry), centres)
    np.testing.assert_array_equal(_mark_colours(frame, geometry), marks)
    np.testing.assert_array_equal(looks.median, median)
    np.testing.assert_array_equal(looks.nearest, nearest)


def test_a_board_wholly_off_the_frame_has_no_colours():
    frame = np.zeros((50, 50, 3), dtype=np.uint8)
    geometry = Geometry(tuple(100.0 + 30 * i for i in range(4)), tuple(100.0 + 30 * i for i in range(4)))
    assert np.isnan(centre_colours(frame, geometry)).all()
    assert np.isnan(_mark_colours(frame, geometry)).all()
