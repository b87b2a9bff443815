"""The icon a button's label ends with, told by its shape, in any language and font: something pointing
right (an arrow, a chevron or two, a triangle) or a check mark says "go on", whatever the words before
it say; OCR often reads such a glyph as a dash or drops it. Pure functions of a label's pixels."""

from __future__ import annotations

import itertools

import cv2
import numpy as np

# Labels are enlarged so that their line of ink is this many rows tall before their glyphs are looked
# at: a 15 px font's arrow is 9 px wide and 4 rows tall, too few pixels for a shape.
INK_ROWS = 48
MAX_SCALE = 6.0
# Ink: pixels at least this share of the label's contrast away from its ground.
INK_SHARE = 0.35
# The smallest glyph looked at, in enlarged pixels on its longer side (a speck is no icon).
MIN_GLYPH = 10


def ends_in_go_icon(patch: np.ndarray) -> bool:
    """True when a label's last glyph is an arrow pointing right, a chevron (one or the last of two), a
    triangle or a check mark.

    patch : (H, W, 3) uint8 ndarray, BGR, the inside of a button
    """
    glyph = last_glyph(patch)
    if glyph is None:
        return False
    return any(test(glyph) for test in (is_right_arrow, is_chevron, is_triangle, is_check))


def last_glyph(patch: np.ndarray) -> np.ndarray | None:
    """The ink of the rightmost glyph of a label (the components overlapping it across, as an accent
    with its letter), cut to its box, as a bool mask; None when the label shows no ink."""
    ink = _ink(patch)
    if ink is None:
        return None
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    parts = [index for index in range(1, count) if max(stats[index][2:4]) >= MIN_GLYPH // 3]
    if not parts:
        return None
    last = max(parts, key=lambda index: stats[index][0] + stats[index][2])
    # The parts lying mostly within it across are of the same glyph (an accent over its letter); two
    # glyphs set close may overlap a little (the two chevrons of a small »).
    glyph = [index for index in parts if _within(stats[index], stats[last])]
    mask = np.isin(labels, glyph)
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    cut = mask[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    return cut if max(cut.shape) >= MIN_GLYPH else None


def _within(part: np.ndarray, glyph: np.ndarray) -> bool:
    """True when at least half of a part's width (stats: left, top, width, height) lies across a
    glyph's."""
    shared = min(part[0] + part[2], glyph[0] + glyph[2]) - max(part[0], glyph[0])
    return shared >= 0.5 * min(part[2], glyph[2])


def _ink(patch: np.ndarray) -> np.ndarray | None:
    """The label's ink, its line enlarged to INK_ROWS rows: pixels far from the ground (the border's median
    grey), light on dark or dark on light alike."""
    if patch.size == 0 or min(patch.shape[:2]) < 4:
        return None
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    border = np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])
    away = np.abs(grey - float(np.median(border)))
    contrast = float(away.max())
    if contrast < 40:
        return None
    rows = np.flatnonzero((away >= INK_SHARE * contrast).any(axis=1))
    scale = min(MAX_SCALE, max(1.0, INK_ROWS / (rows[-1] - rows[0] + 1)))
    away = cv2.resize(away, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    return away >= INK_SHARE * contrast


def _columns(glyph: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of a glyph: its top ink row, its bottom ink row, and how many runs of ink it has."""
    height = glyph.shape[0]
    rows = np.arange(height)[:, None]
    tops = np.where(glyph, rows, height).min(axis=0)
    bottoms = np.where(glyph, rows, -1).max(axis=0)
    starts = glyph & ~np.vstack([np.zeros((1, glyph.shape[1]), bool), glyph[:-1]])
    return tops, bottoms, starts.sum(axis=0)


def _tip_in_middle(glyph: np.ndarray, thin: float) -> bool:
    """True when the glyph's rightmost columns hold one short run of ink halfway down: a tip pointing
    right (not a bowl, a stem or two arms)."""
    height, width = glyph.shape
    rows = np.flatnonzero(glyph[:, max(0, width - max(2, round(0.1 * height))) :].any(axis=1))
    if rows.size == 0:
        return False
    span = rows[-1] - rows[0] + 1
    middle = (rows[0] + rows[-1]) / 2
    centred = abs(middle - (height - 1) / 2) <= 0.2 * height
    return span <= thin * height and rows.size >= 0.6 * span and centred


def _mirrored(glyph: np.ndarray, share: float = 0.7) -> bool:
    """True when the glyph is about the same turned upside down (an arrow pointing right is)."""
    both = np.count_nonzero(glyph & glyph[::-1])
    return both >= share * np.count_nonzero(glyph)


def is_right_arrow(glyph: np.ndarray) -> bool:
    """→: wider than tall; a thin shaft halfway down on the left, a head as tall as the glyph on the
    right, ending in a tip."""
    height, width = glyph.shape
    if width < 1.2 * height or not _tip_in_middle(glyph, 0.5) or not _mirrored(glyph, 0.6):
        return False
    tops, bottoms, _ = _columns(glyph)
    spans = bottoms - tops + 1
    shaft = spans[width // 10 : max(width // 10 + 1, (4 * width) // 10)]
    head = spans[width // 2 :]
    middle = (tops + bottoms)[width // 10 : (4 * width) // 10] / 2
    return (
        bool(np.all(shaft <= 0.45 * height))
        and bool(np.all(np.abs(middle - (height - 1) / 2) <= 0.2 * height))
        and float(head.max()) >= 0.75 * height
    )


def is_chevron(glyph: np.ndarray) -> bool:
    """A chevron pointing right (the last of two, too): two arms from the top and bottom of the left
    edge meeting in a tip halfway down on the right."""
    height, width = glyph.shape
    if not 0.35 * height <= width <= 1.3 * height or not _tip_in_middle(glyph, 0.45):
        return False
    if not _mirrored(glyph) or np.count_nonzero(glyph) > 0.65 * glyph.size:
        return False
    tops, bottoms, runs = _columns(glyph)
    edge = slice(0, max(1, width // 8))
    # The arms' ends: ink near the top and the bottom of the left edge, none halfway between.
    middle = glyph[round(0.4 * height) : max(round(0.4 * height) + 1, round(0.6 * height)), edge]
    # Halfway across, the arms have come in from the top and the bottom; a bold chevron's thick arms
    # may meet there already, but still span much of the height three quarters across on their way to
    # the tip, and it is wider than a brace (whose tip is a small bump beside its upright stem).
    half, late = width // 2, (3 * width) // 4
    come_in = tops[half] >= 0.12 * height and bottoms[half] <= 0.88 * height
    thick = width >= 0.55 * height and bottoms[late] - tops[late] + 1 >= 0.3 * height
    return (
        float(tops[edge].min()) <= 0.2 * height
        and float(bottoms[edge].max()) >= 0.8 * height - 1
        and (come_in or thick)
        and not middle.any()
        and bool(np.any(runs[edge] == 2) or middle.size == 0)
    )


def is_triangle(glyph: np.ndarray) -> bool:
    """▶: a filled triangle, its left edge about as tall as the glyph, narrowing to a tip halfway down
    on the right, solid along its middle row."""
    height, width = glyph.shape
    if not 0.5 * height <= width <= 1.5 * height or not _tip_in_middle(glyph, 0.35) or not _mirrored(glyph):
        return False
    if not 0.35 <= glyph.mean() <= 0.7 or glyph[height // 2].mean() < 0.85:
        return False
    tops, bottoms, _ = _columns(glyph)
    columns = (round(share * (width - 1)) for share in (0.1, 0.3, 0.5, 0.7))
    spans = [float(bottoms[col] - tops[col] + 1) for col in columns]
    narrowing = all(later <= earlier + 0.05 * height for earlier, later in itertools.pairwise(spans))
    return spans[0] >= 0.75 * height and spans[-1] <= 0.6 * height and narrowing


def is_check(glyph: np.ndarray) -> bool:
    """✓: a short arm down from the left, a long arm up to the top right, meeting low on the left half;
    thin, with nothing in the top left corner (a V has its arm there)."""
    height, width = glyph.shape
    if not 0.6 * height <= width <= 1.7 * height or np.count_nonzero(glyph) > 0.5 * glyph.size:
        return False
    tops, bottoms, _ = _columns(glyph)
    right = max(1, width // 10)
    if float((bottoms[-right:] - tops[-right:]).max()) > 0.5 * height:
        return False  # a stem at the right (J), not the end of an arm
    low = np.flatnonzero(glyph[-max(1, height // 10) :].any(axis=0))
    if low.size == 0:
        return False
    if low.max() - low.min() > 0.4 * width:
        return False  # not one low point where the arms meet (letters run together)
    bottom_x = low.mean() / width
    left_middle = (tops[:right] + bottoms[:right]).mean() / 2
    corner = glyph[: max(1, height // 5), : max(1, (3 * width) // 10)]
    return (
        0.15 <= bottom_x <= 0.6
        and float(tops[-right:].mean()) <= 0.25 * height
        and 0.2 * height <= left_middle <= 0.75 * height
        and not corner.any()
    )
