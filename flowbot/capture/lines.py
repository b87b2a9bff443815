"""Find the board's grid lines in a frame: thin bright ridges that repeat at one spacing."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

import cv2
import numpy as np

# OpenCV's worker threads cost more than they save on a frame's work (each top-hat takes about a
# millisecond): on a busy machine they wait for a core. Measured with scripts/bench_mirror.py on 2 cores
# at load 10: median read 72 ms with them, 28 ms without (CPU time 19 and 16 ms).
cv2.setNumThreads(1)

# A ridge must stand this many levels (of 255) above what is around it to count as a line pixel;
# JPEG noise stays below it, while a dim line over a bright glow can stand only ~15 above it.
RIDGE_LEVEL = 14
# Cells drawn as tiles are at least this bright (the black background is near 0).
TILE_LEVEL = 25
# A dark line stands at least this share of the deepest dark lines below its surroundings.
DARK_SHARE = 0.35
# For boards much smaller than the frame: a ridge kernel for cells from ~14 px, lines at least 6 px apart.
SMALL_KERNEL = 5
MIN_STEP = 6.0
# Every other line of a chain is not a line when it is this much weaker than the rest (median).
HALF_CHAIN = 0.35


@dataclass(frozen=True, slots=True)
class LineMasks:
    """Pixels that belong to thin horizontal and vertical lines of a frame, and how strongly.

    horizontal, vertical : (H, W) bool ndarrays, ridge pixels
    horizontal_ridge, vertical_ridge : (H, W) uint8 ndarrays, how far each pixel stands above its surroundings
    """

    horizontal: np.ndarray
    vertical: np.ndarray
    horizontal_ridge: np.ndarray
    vertical_ridge: np.ndarray
    # The widest a line may be, in pixels: it grows with the frame, as lines do.
    widest: int
    # Dark lines: the gaps between cells drawn as tiles, in games without grid lines.
    dark: bool = False
    level: np.ndarray | None = None  # (H, W) uint8 brightness, kept for tiled boards
    # The shortest spacing of lines that can be a board's (pixels).
    min_step: float = 6.0
    # The top-hat's length across the lines (pixels): wider than a line, narrower than a dot.
    kernel: int = 0


@dataclass(frozen=True, slots=True)
class Lattice:
    """Line positions in pixels, and whether each outermost line was only inferred at the frame edge."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    virtual_x: frozenset[int] = frozenset()
    virtual_y: frozenset[int] = frozenset()


def brightness(frame: np.ndarray) -> np.ndarray:
    """The brightest channel of each pixel: grid lines of any hue stand out from the black background.

    frame : (H, W, 3) uint8 ndarray, BGR
    returns : (H, W) uint8 ndarray
    """
    blue, green, red = cv2.split(frame)
    return cv2.max(cv2.max(blue, green), red)


def line_masks(
    frame: np.ndarray, dark: bool = False, small: bool = False, scale: tuple[int, int] | None = None
) -> LineMasks:
    """Thin bright lines: what a top-hat keeps of structures thinner than a few pixels across them.

    With `dark`, thin dark lines instead (a black-hat): the gaps between tiles where a game draws
    its cells as tiles and no grid lines, or dark lines on a light board. With `small`, for a board
    much smaller than the frame: a kernel and a shortest spacing fitted to cells of ~16 px, not to
    the frame's size. `scale` (height, width) is the whole frame's when `frame` is a part of it: the
    part is read as the whole would be.
    """
    level = brightness(frame)
    height, width = scale or level.shape
    # Lines are 1-5 px thick, endpoint discs and glows far wider; the kernel sits between.
    length = SMALL_KERNEL if small else _ridge_kernel(height, width)
    operation = cv2.MORPH_BLACKHAT if dark else cv2.MORPH_TOPHAT
    # What differs from the frame's corner pixel: a flat margin around it holds no ridge.
    differs = cv2.boundingRect(cv2.compare(level, int(level[0, 0]), cv2.CMP_NE))
    horizontal = _hat(level, operation, (1, length), differs)
    vertical = _hat(level, operation, (length, 1), differs)
    widest = max(11, length // 2) | 1
    threshold = _dark_threshold(horizontal, vertical) if dark else RIDGE_LEVEL
    masks = (horizontal > threshold, vertical > threshold, horizontal, vertical, widest)
    min_step = MIN_STEP if small else max(MIN_STEP, min(height, width) / 45)
    return LineMasks(*masks, dark=dark, level=level if dark else None, min_step=min_step, kernel=length)


def _hat(level: np.ndarray, operation: int, size: tuple[int, int], differs) -> np.ndarray:
    """The top-hat (or black-hat) of `level` with a `size` (width, height) rectangle, the frame padded
    with black (a line on the frame's very edge is a ridge); worked out only around `differs` (left,
    top, width, height), the box of what differs from the frame's corner pixel: a flat margin (a
    desktop of one colour around a window) has no ridge, and the result there is zero anyway."""
    height, width = level.shape
    pad = max(size)
    result = np.zeros_like(level)
    left, top, wide, tall = differs
    if wide == 0:
        return result
    # The result a kernel's length around what differs is kept; what it depends on lies within
    # another kernel's length.
    keep_x = (max(0, left - pad), min(width, left + wide + pad))
    keep_y = (max(0, top - pad), min(height, top + tall + pad))
    see_x = (max(0, keep_x[0] - pad), min(width, keep_x[1] + pad))
    see_y = (max(0, keep_y[0] - pad), min(height, keep_y[1] + pad))
    # Black only past the frame's own edges: elsewhere the frame's pixels are there to be seen.
    borders = (
        pad if see_y[0] == 0 else 0,
        pad if see_y[1] == height else 0,
        pad if see_x[0] == 0 else 0,
        pad if see_x[1] == width else 0,
    )
    seen = cv2.copyMakeBorder(
        level[see_y[0] : see_y[1], see_x[0] : see_x[1]], *borders, cv2.BORDER_CONSTANT, value=0
    )
    hat = cv2.morphologyEx(seen, operation, cv2.getStructuringElement(cv2.MORPH_RECT, size))
    rows = slice(keep_y[0] - see_y[0] + borders[0], keep_y[1] - see_y[0] + borders[0])
    cols = slice(keep_x[0] - see_x[0] + borders[2], keep_x[1] - see_x[0] + borders[2])
    result[keep_y[0] : keep_y[1], keep_x[0] : keep_x[1]] = hat[rows, cols]
    return result


def _dark_threshold(horizontal: np.ndarray, vertical: np.ndarray) -> float:
    """How deep a dark line must be: dark lines on a light board stand ~100 below it, and JPEG's dark
    halos around coloured dots there stand well above the noise; gaps between dark tiles only ~40."""
    deepest = float(np.percentile(np.maximum(horizontal[::3, ::3], vertical[::3, ::3]), 99.5))
    return max(RIDGE_LEVEL, DARK_SHARE * deepest)


def small_differs(frame: np.ndarray, scale: tuple[int, int] | None = None) -> bool:
    """Whether the small-board kernel differs from the one the frame's size (or `scale`) gives."""
    return _ridge_kernel(*(scale or frame.shape[:2])) != SMALL_KERNEL


def _ridge_kernel(height: int, width: int) -> int:
    """Top-hat length: wider than any grid line or board outline, narrower than a dot or a glow."""
    return int(np.clip(min(height, width) / 60, 5, 41)) | 1


def find_lattice(masks: LineMasks) -> Lattice | None:
    """The evenly spaced vertical and horizontal lines that make the board, or None if there are none."""
    height, width = masks.horizontal.shape
    min_step = masks.min_step
    xs = _best_chain(_profile(masks.vertical, 0, masks.widest), min_step)
    ys = _best_chain(_profile(masks.horizontal, 1, masks.widest), min_step)
    if len(xs) < 2 or len(ys) < 2:
        return None
    # Look again inside the board found: UI outside it no longer competes with short board lines.
    margin = (xs[-1] - xs[0]) / (len(xs) - 1)
    top, bottom = _clip(ys[0] - margin, height), _clip(ys[-1] + margin, height)
    left, right = _clip(xs[0] - margin, width), _clip(xs[-1] + margin, width)
    xs = _best_chain(_profile(masks.vertical[top:bottom], 0, masks.widest), min_step) or xs
    ys = _best_chain(_profile(masks.horizontal[:, left:right], 1, masks.widest), min_step) or ys
    if len(xs) < 2 or len(ys) < 2:
        return None
    xs, virtual_x = _extend_to_edge(xs, width, masks.widest)
    ys, virtual_y = _extend_to_edge(ys, height, masks.widest)
    if masks.dark and masks.level is not None:
        xs, ys, virtual_x, virtual_y = _extend_over_tiles(masks.level, xs, ys, virtual_x, virtual_y)
    return Lattice(tuple(xs), tuple(ys), virtual_x, virtual_y)


def _extend_over_tiles(level, xs, ys, virtual_x, virtual_y):
    """Tiled boards have gaps only between tiles: the outer edges are where the tiles stop. Add an
    outer line wherever a row or column of tiles lies beyond the last gap (marked as inferred)."""
    inside = level[round(ys[0]) : round(ys[-1]), round(xs[0]) : round(xs[-1])]
    tile = float(np.median(inside)) if inside.size else 0.0
    if tile < TILE_LEVEL:
        return xs, ys, virtual_x, virtual_y
    xs, virtual_x = _extend_axis(level, xs, (round(ys[0]), round(ys[-1])), tile, virtual_x, axis=1)
    ys, virtual_y = _extend_axis(level, ys, (round(xs[0]), round(xs[-1])), tile, virtual_y, axis=0)
    return xs, ys, virtual_x, virtual_y


def _extend_axis(level, lines, span, tile, virtual, axis):
    """Extend `lines` by one step at either end where the strip beyond is as bright as the tiles."""
    lines, virtual = list(lines), set(virtual)
    step = (lines[-1] - lines[0]) / (len(lines) - 1)
    size = level.shape[axis]
    for end in (0, -1):
        outer = lines[end] + (-step if end == 0 else step)
        low, high = sorted((round(lines[end]), round(outer)))
        if low < 0 or high > size:
            continue
        strip = level[span[0] : span[1], low:high] if axis == 1 else level[low:high, span[0] : span[1]]
        if strip.size and float(np.median(strip)) >= 0.6 * tile:
            if end == 0:
                lines.insert(0, outer)
                virtual = {index + 1 for index in virtual} | {0}
            else:
                lines.append(outer)
                virtual.add(len(lines) - 1)
    return lines, frozenset(virtual)


def _clip(value: float, size: int) -> int:
    """A pixel index inside [0, size]."""
    return int(min(max(value, 0), size))


def _profile(mask: np.ndarray, axis: int, widest: int) -> np.ndarray:
    """How far each column (axis=0) or row (axis=1) stands out in line pixels from those around it.

    A grid line is a narrow spike in the count of line pixels; a wide bar of the UI or a glow edge
    is a plateau, which a one-dimensional top-hat removes before peaks are looked for.
    """
    counts = cv2.reduce(mask.view(np.uint8), axis, cv2.REDUCE_SUM, dtype=cv2.CV_32F).reshape(1, -1)
    spike = cv2.getStructuringElement(cv2.MORPH_RECT, (widest, 1))
    # Zeros beyond the frame: a line on the frame's edge is a spike, not the end of a plateau.
    return cv2.morphologyEx(
        counts, cv2.MORPH_TOPHAT, spike, borderType=cv2.BORDER_CONSTANT, borderValue=0
    ).ravel()


def _peaks(profile: np.ndarray, floor: float) -> list[tuple[float, float]]:
    """Runs of the profile at or above `floor`, as (weighted centre, peak height)."""
    above = np.flatnonzero(profile >= floor)
    if above.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(above) > 1) + 1
    peaks = []
    for run in np.split(above, breaks):
        weights = profile[run].astype(np.float64)
        peaks.append((float((run * weights).sum() / weights.sum()), float(weights.max())))
    return peaks


def _best_chain(profile: np.ndarray, min_step: float) -> list[float]:
    """The longest run of peaks at one spacing, seeded by two strong neighbouring peaks."""
    top = float(profile.max()) if profile.size else 0.0
    if top <= 0:
        return []
    candidates = _peaks(profile, 0.02 * top)
    positions = [position for position, _ in candidates]
    height = dict(candidates)
    strong = [position for position, value in candidates if value >= 0.1 * top]
    best: tuple[tuple[int, float], list[float]] | None = None
    for first_index, first in enumerate(strong):
        for second in strong[first_index + 1 :]:
            if second - first < min_step:
                continue
            chain = _grow([first, second], positions)
            score = (len(chain), sum(height[position] for position in chain))
            if best is None or score > best[0]:
                best = (score, chain)
    if best is None:
        return []
    chain = _strong_half(best[1], height)
    # At the full spacing the chain may go on past a row with no dots, where the half chain stopped.
    return _grow(chain, positions) if len(chain) < len(best[1]) else chain


def _strong_half(chain: list[float], height: dict[float, float]) -> list[float]:
    """The lines of a chain at every other position when those between are much weaker: the caps of
    a row of dots fall halfway between grid lines, and would pass for lines at half the spacing."""
    if len(chain) < 5:
        return chain
    even, odd = chain[0::2], chain[1::2]
    strength_even = float(np.median([height[position] for position in even]))
    strength_odd = float(np.median([height[position] for position in odd]))
    if strength_odd < HALF_CHAIN * strength_even:
        return even
    if strength_even < HALF_CHAIN * strength_odd:
        return odd
    return chain


def _nearest(positions: list[float], value: float) -> float | None:
    """The sorted position closest to `value` (the lower one on a tie)."""
    index = bisect_left(positions, value)
    if index == 0:
        return positions[0] if positions else None
    below = positions[index - 1]
    if index == len(positions):
        return below
    above = positions[index]
    return below if value - below <= above - value else above


def _grow(chain: list[float], positions: list[float]) -> list[float]:
    """Extend a chain both ways while a peak sits where the spacing says the next line is."""
    # Kept lean: it runs for every pair of strong peaks, the bulk of finding a lattice.
    first, last, count = chain[0], chain[-1], len(chain)
    grown_before: list[float] = []
    for direction in (1, -1):
        while True:
            step = (last - first) / (count - 1)
            expected = last + step if direction > 0 else first - step
            # Screenshots are not skewed: lines repeat to within rounding, a pixel or two.
            tolerance = max(2.5, 0.04 * step)
            found = _nearest(positions, expected)
            if found is None or abs(found - expected) > tolerance:
                break
            if direction > 0:
                chain.append(found)
                last = found
            else:
                grown_before.append(found)
                first = found
            count += 1
    if grown_before:
        chain[:0] = grown_before[::-1]
    return chain


def _extend_to_edge(lines: list[float], size: int, widest: int) -> tuple[list[float], frozenset[int]]:
    """Add an outer line lost at the frame edge (touching it, or cropped off), marking it as inferred."""
    step = (lines[-1] - lines[0]) / (len(lines) - 1)
    # "At the edge" means within a line's width of it, and never more than a quarter of a cell:
    # on a small frame a line's width is much of a cell, and a HUD row would pass for one.
    near = min(widest, 0.25 * step)
    virtual = set()
    # The next line would fall within a line's width of the edge, or just past it.
    if -0.15 * step <= lines[0] - step <= near:
        lines = [lines[0] - step, *lines]
        virtual.add(0)
    if size - 1 - near <= lines[-1] + step <= size - 1 + 0.15 * step:
        lines = [*lines, lines[-1] + step]
        virtual.add(len(lines) - 1)
    # A line that touches the edge may be shown only in part (a crop through it): take it as drawn.
    if lines[0] <= near / 2:
        virtual.add(0)
    if lines[-1] >= size - 1 - near / 2:
        virtual.add(len(lines) - 1)
    return lines, frozenset(virtual)
