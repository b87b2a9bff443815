"""Find a board drawn without lines or tiles: one flat panel, and the regular lattice of the dots and
faint empty-cell markers that sit in it."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# A pixel belongs to a flat area when it differs from that area's colour by at most this (of 255):
# JPEG keeps flat areas within a few levels, while the faintest empty-cell markers stand ~10 apart.
SAME_LEVEL = 6
# Panels are looked for in the frame shrunk by this factor.
SHRINK = 4
# Colours are counted after dropping this many low bits per channel, so JPEG noise does not split them.
QUANTUM_BITS = 3
# The few most common colours of the frame are tried as the panel's colour.
PANEL_COLOURS = 6
# Marks smaller than this (in pixels, after a 3x3 blur) are JPEG speckles, not markers.
MIN_MARK_AREA = 3
# The lattice step is measured on at most this many marks (a 14x14 board has 196).
MAX_POINTS = 400
# A panel holds at least a 4x4 board of 12 px cells.
MIN_PANEL_SIDE = 48
# Something in the panel sits on the lattice when its centre is this close to a cell's centre (of a step).
ON_LATTICE = 0.18
# A board: most cells hold a marker or a dot, most marks sit on cell centres.
MIN_CELLS_MARKED = 0.6
MIN_MARKS_ON_LATTICE = 0.7
MIN_CELLS = 2
# Or, with no markers, when its dots (each at least this share of a cell's area, all within this
# share of their median size) fill a panel no more than this share of a step larger than its cells.
DOT_AREA = 0.2
DOT_SPREAD = 0.3
PANEL_SLACK = 0.35
# A mark is round when its box is this close to square and it fills at least this share of it.
ROUND_SLACK = 0.15
ROUND_FILL = 0.6
# A board has at least this many pairs of dots.
DOT_PAIRS = 2


@dataclass(frozen=True, slots=True)
class PanelGrid:
    """A board found as a panel with a lattice of marks: cell edges in pixels, how well marks fit."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    score: float


def find_panel_grid(frame: np.ndarray) -> PanelGrid | None:
    """The best board among flat panels whose marks (dots, faint markers) sit on a regular lattice.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    # Panels are looked for at a quarter of the size (fast, and JPEG noise averages out); their
    # marks, some only a few pixels, at full size.
    small = cv2.resize(frame, None, fx=1 / SHRINK, fy=1 / SHRINK, interpolation=cv2.INTER_AREA)
    best: PanelGrid | None = None
    seen: set[tuple[int, int, int, int]] = set()
    for colour in _common_colours(small):
        # A panel is an area of one colour, or (where pipes and their tints break it up) a hole in
        # the page around it.
        for outside in (False, True):
            for box in _panels(small, colour, outside):
                box = _refine(frame, colour, box, outside)
                if box in seen:
                    continue
                seen.add(box)
                grid = _lattice_in(frame, box)
                if grid is not None and (best is None or grid.score > best.score):
                    best = grid
    return best


def _common_colours(small: np.ndarray) -> list[np.ndarray]:
    """The most common colours (BGR, int16) of a shrunk frame, coarsely quantised."""
    pixels = small.reshape(-1, 3)
    coarse = (pixels >> QUANTUM_BITS).astype(np.int32)
    keys = (coarse[:, 0] << 10) | (coarse[:, 1] << 5) | coarse[:, 2]
    counts = np.bincount(keys, minlength=1 << 15)
    minimum = (MIN_PANEL_SIDE // SHRINK) ** 2
    colours = []
    for key in np.argsort(counts)[::-1][:PANEL_COLOURS]:
        if counts[key] < minimum:
            break
        # The median of the pixels in a bin is the colour itself, not the bin's corner.
        colour = np.median(pixels[keys == key], axis=0).astype(np.int16)
        # JPEG spreads one flat colour over neighbouring bins: keep it once.
        if all(np.abs(colour - other).max() > SAME_LEVEL for other in colours):
            colours.append(colour)
    return colours


def _panels(small: np.ndarray, colour: np.ndarray, outside: bool) -> list[tuple[int, int, int, int]]:
    """Bounding boxes (x, y, w, h), in the shrunk frame, of large areas of one colour (or, `outside`,
    of areas of any other colour that it surrounds)."""
    mask = _same_colour(small, colour, SAME_LEVEL + 2)
    if outside:
        mask = 1 - mask
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    height, width = small.shape[:2]
    boxes = []
    for index in range(1, count):
        x, y, w, h, area = (int(value) for value in stats[index])
        if w >= width - 1 and h >= height - 1:
            continue  # the page itself, around everything: a board does not fill the whole screen
        if min(w, h) * SHRINK >= MIN_PANEL_SIDE and area >= 0.3 * w * h:
            boxes.append((x, y, w, h))
    return boxes


def _refine(
    frame: np.ndarray, colour: np.ndarray, box: tuple[int, int, int, int], outside: bool
) -> tuple[int, int, int, int]:
    """A panel's box in the full frame: where rows and columns around the shrunk box are mostly
    its colour (or mostly not the colour around it)."""
    height, width = frame.shape[:2]
    x, y, w, h = (value * SHRINK for value in box)
    left, top = max(0, x - SHRINK), max(0, y - SHRINK)
    right, bottom = min(width, x + w + SHRINK), min(height, y + h + SHRINK)
    mask = _same_colour(cv2.blur(frame[top:bottom, left:right], (3, 3)), colour, SAME_LEVEL)
    if outside:
        mask = 1 - mask
    cols = np.flatnonzero(mask.mean(axis=0) >= 0.3)
    rows = np.flatnonzero(mask.mean(axis=1) >= 0.3)
    if cols.size == 0 or rows.size == 0:
        return left, top, right - left, bottom - top
    return left + int(cols[0]), top + int(rows[0]), int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1)


def _same_colour(frame: np.ndarray, colour: np.ndarray, level: int) -> np.ndarray:
    """(H, W) uint8 mask, 1 where a pixel is within `level` of `colour` in every channel."""
    low = np.clip(colour - level, 0, 255).astype(np.uint8)
    high = np.clip(colour + level, 0, 255).astype(np.uint8)
    return (cv2.inRange(frame, low, high) > 0).view(np.uint8)


def _lattice_in(frame: np.ndarray, box: tuple[int, int, int, int]) -> PanelGrid | None:
    """The lattice of marks inside a panel's box, and the board it spans, or None if they make none:
    from every mark (dots and empty-cell markers), else from the round dots alone (a canvas whose
    empty cells have no marker, only faint lines that a blur removes but for their crossings)."""
    x, y, w, h = box
    if min(w, h) < MIN_PANEL_SIDE:
        return None
    # In brightness, blurred: JPEG's colour speckles around saturated dots fade, while a marker of
    # a few pixels, brighter or darker than the panel, still stands out.
    inside = cv2.blur(cv2.cvtColor(frame[y : y + h, x : x + w], cv2.COLOR_BGR2GRAY), (3, 3))
    panel_level = int(np.median(inside))
    marks = (cv2.absdiff(inside, np.full_like(inside, panel_level)) > SAME_LEVEL).view(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(marks, connectivity=8)
    if count < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    lefts, tops = stats[1:, cv2.CC_STAT_LEFT], stats[1:, cv2.CC_STAT_TOP]
    widths, heights = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
    # What touches the box's edge is the page around the panel (its rounded corners), not a mark.
    inner = (lefts > 0) & (tops > 0) & (lefts + widths < w) & (tops + heights < h) & (areas >= MIN_MARK_AREA)
    grid = _fit_lattice(centroids[1:][inner], areas[inner], marks, box, dots_only=False)
    if grid is not None:
        return grid
    # Round: as wide as tall, filling about pi/4 of their box (a frame line or a text line does not).
    fill = areas / np.maximum(widths * heights, 1)
    round_ = (
        inner & (np.abs(widths - heights) <= ROUND_SLACK * np.maximum(widths, heights)) & (fill >= ROUND_FILL)
    )
    if not round_.any():
        return None
    # ...and the size of the dots: a crossing of faint lines is round but a few pixels, and there may be
    # more crossings than dots (empty rows and columns); a board has two pairs of dots at least, so the
    # fourth largest round mark is a dot's size (or an icon's, larger).
    sizes = np.sort(areas[round_])
    round_ &= areas >= 0.5 * sizes[-min(DOT_PAIRS * 2, len(sizes))]
    return _fit_lattice(centroids[1:][round_], areas[round_], marks, box, dots_only=True)


def _fit_lattice(
    centres: np.ndarray, areas: np.ndarray, marks: np.ndarray, box: tuple[int, int, int, int], dots_only: bool
) -> PanelGrid | None:
    """The board the marks' lattice spans in the panel's box, or None when they make none.

    centres : (N, 2) mark centres (x, y) in the box; marks : (h, w) uint8, 1 where not the panel.
    """
    x, y, w, h = box
    if len(centres) < 4:
        return None
    step = _spacing(centres, min(w, h) / MIN_CELLS)
    if step is None or step < 6:
        return None
    # Marks are dots (about half a cell's area) or small markers: never a whole tile or a text line.
    small = areas <= 0.7 * step * step
    centres, areas = centres[small], areas[small]
    if len(centres) < 4:
        return None
    fitted_x = _fit_axis(centres[:, 0], step, w)
    fitted_y = _fit_axis(centres[:, 1], step, h)
    if fitted_x is None or fitted_y is None:
        return None
    (first_x, step_x, cols), (first_y, step_y, rows) = fitted_x, fitted_y
    if cols < MIN_CELLS or rows < MIN_CELLS or abs(step_x - step_y) > 0.08 * max(step_x, step_y):
        return None
    # How many cells hold a mark at their centre, and how many marks sit on centres.
    col = (centres[:, 0] - first_x) / step_x
    row = (centres[:, 1] - first_y) / step_y
    near = (np.abs(col - np.rint(col)) <= ON_LATTICE) & (np.abs(row - np.rint(row)) <= ON_LATTICE)
    inside_grid = (
        near & (np.rint(col) >= 0) & (np.rint(col) < cols) & (np.rint(row) >= 0) & (np.rint(row) < rows)
    )
    # A cell is accounted for when something other than the panel covers its centre: a marker, a
    # dot, or a pipe and its tint.
    centre_x = np.rint(first_x + np.arange(cols) * step_x).astype(int)
    centre_y = np.rint(first_y + np.arange(rows) * step_y).astype(int)
    cells_marked = float(marks[np.clip(centre_y, 0, h - 1)][:, np.clip(centre_x, 0, w - 1)].mean())
    marks_on = inside_grid.sum() / len(centres)
    if marks_on < MIN_MARKS_ON_LATTICE:
        return None
    if dots_only:
        if not _dots_fill_panel(areas[inside_grid], (w, h), (cols, rows), step):
            return None
    elif cells_marked < MIN_CELLS_MARKED:
        return None
    xs = tuple(x + first_x - step_x / 2 + index * step_x for index in range(cols + 1))
    ys = tuple(y + first_y - step_y / 2 + index * step_y for index in range(rows + 1))
    # Marks that fit, not cells: a box wider than the panel (the whole window) spans more cells
    # but holds no more marks, and the tighter board wins.
    return PanelGrid(xs, ys, cells_marked * marks_on * float(inside_grid.sum()) - 0.01 * rows * cols)


def _dots_fill_panel(areas: np.ndarray, size: tuple[int, int], cells: tuple[int, int], step: float) -> bool:
    """A panel that marks no empty cell is a board when what sits on its lattice is dots alike in
    size (two or more pairs) and the panel is the lattice's cells and no more (a canvas of the board,
    not a page with a few icons on it)."""
    dots = areas[areas >= DOT_AREA * step * step]
    if len(dots) < 4 or np.ptp(dots) > DOT_SPREAD * np.median(dots):
        return False
    return all(
        abs(extent - count * step) <= PANEL_SLACK * step for extent, count in zip(size, cells, strict=True)
    )


def _spacing(centres: np.ndarray, longest: float) -> float | None:
    """The lattice step: the longest period at which the marks' x and y positions both repeat.

    For a period, the mean of exp(2 pi i position / period) has length 1 when every position is a
    multiple of it (plus one offset), and falls to ~0 for positions at random. Half or a third of the
    step fits as well as the step; twice the step does not.
    """
    periods = np.arange(6.0, max(7.0, longest), 0.5, dtype=np.float32)
    if periods.size == 0:
        return None
    turns = (2 * np.pi / periods[:, None]).astype(np.float32)
    points = centres[:MAX_POINTS].astype(np.float32)
    fit_x = np.hypot(*_circular(turns * points[None, :, 0]))
    fit_y = np.hypot(*_circular(turns * points[None, :, 1]))
    fit = np.minimum(fit_x, fit_y)
    best = float(fit.max())
    if best < 0.5:
        return None
    return float(periods[np.flatnonzero(fit >= 0.85 * best)[-1]])


def _circular(angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean cosine and sine of angles along the last axis."""
    return np.cos(angles).mean(axis=-1), np.sin(angles).mean(axis=-1)


def _fit_axis(values: np.ndarray, step: float, extent: int) -> tuple[float, float, int] | None:
    """Along one axis: the first cell centre, the refined step, and how many cells fit in the panel."""
    # The lattice's phase as a circular mean: a median could fall between two rows of marks.
    turn = np.exp(2j * np.pi * values / step).mean()
    reference = float(np.angle(turn)) / (2 * np.pi) * step
    index = np.rint((values - reference) / step)
    on = np.abs((values - reference) / step - index) <= ON_LATTICE
    if on.sum() < 2 or np.ptp(index[on]) < 1:
        return None
    slope, intercept = np.polyfit(index[on], values[on], 1)
    # Cell centres that lie inside the panel, at least a quarter of a cell from its edge.
    low = int(np.ceil((0.25 * slope - intercept) / slope))
    high = int(np.floor((extent - 0.25 * slope - intercept) / slope))
    if high < low:
        return None
    return intercept + low * slope, float(slope), high - low + 1
