"""Find a board drawn without lines or tiles: one flat panel, and the regular lattice of the dots and
faint empty-cell markers that sit in it."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# A pixel belongs to a flat area when it differs from that area's colour by at most this (of 255):
# JPEG keeps flat areas within a few levels, while the faintest empty-cell markers stand ~10 apart.
SAME_LEVEL = 6
# A panel almost the page's colour is one flat area with it: it shows only by its outline (a thin
# border, or a step of shade), where brightness changes by more than this between neighbouring pixels.
OUTLINE_LEVEL = SAME_LEVEL
OUTLINE_KERNEL = np.ones((3, 3), np.uint8)
# An outline is a panel's when it covers at least this share of each side of its box.
OUTLINE_SIDES = 0.6
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
# A board whose cells are marked but for this share is one of markers (every empty cell has one).
MARKED_BOARD = 0.9
# A dot's glyph leaves its rim this far (of a step) from its centre, on every side.
GLYPH_CLEAR = 0.2
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
    for box in _outlined(frame):
        # A panel of its own colour (or the window around it) is found by its outline as well.
        if any(np.abs(np.subtract(box, other)).max() <= SHRINK for other in seen):
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


def _outlined(frame: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes (x, y, w, h), in the full frame, of outlines that run round a box: a panel whose colour
    is the page's but for a few levels, told from it only by a thin border or a step of shade."""
    # Outlines are found at full size (a one-pixel border fades into its neighbours when shrunk), and
    # followed in blocks of the shrunk frame: a block is on an outline when one crosses it. The
    # outline itself, not the area it closes: pipes and tints drawn across a panel split that area.
    height, width = frame.shape[:2]
    level = cv2.cvtColor(frame[: height - height % SHRINK, : width - width % SHRINK], cv2.COLOR_BGR2GRAY)
    change = cv2.morphologyEx(level, cv2.MORPH_GRADIENT, OUTLINE_KERNEL)
    outline = cv2.compare(change, OUTLINE_LEVEL, cv2.CMP_GT)
    blocks = cv2.resize(outline, (width // SHRINK, height // SHRINK), interpolation=cv2.INTER_AREA) > 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(blocks.view(np.uint8), connectivity=8)
    boxes = []
    for index in range(1, count):
        x, y, w, h, _ = (int(value) for value in stats[index])
        if min(w, h) * SHRINK < MIN_PANEL_SIDE or (w >= blocks.shape[1] - 1 and h >= blocks.shape[0] - 1):
            continue
        if _runs_round(labels[y : y + h, x : x + w] == index):
            boxes.append(_outline_box(outline, (x * SHRINK, y * SHRINK, w * SHRINK, h * SHRINK)))
    return boxes


def _outline_box(outline: np.ndarray, blocks: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The box (x, y, w, h) of the outline's pixels (`outline` (H, W) nonzero on one) in its blocks'
    box: the border lies on the box's edge, where it is the page's, not a mark in the panel."""
    x, y, w, h = blocks
    cols = np.flatnonzero(outline[y : y + h, x : x + w].any(axis=0))
    rows = np.flatnonzero(outline[y : y + h, x : x + w].any(axis=1))
    return x + int(cols[0]), y + int(rows[0]), int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1)


def _runs_round(outline: np.ndarray) -> bool:
    """Whether an outline (h, w) bool, in blocks, runs along most of each side of its box, a block or
    two in (rounded corners cut the sides short, a faint border may break): not text, a pipe or a dot."""
    top, bottom = outline[:2].any(axis=0), outline[-2:].any(axis=0)
    left, right = outline[:, :2].any(axis=1), outline[:, -2:].any(axis=1)
    return all(side.mean() >= OUTLINE_SIDES for side in (top, bottom, left, right))


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
    from every mark (dots and empty-cell markers), else from the round marks (pipes drawn between
    them left out), else from the round dots alone (a canvas whose empty cells have no marker, only
    faint lines that a blur removes but for their crossings)."""
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
    every = _fit_lattice(centroids[1:][inner], areas[inner], marks, box, dots_only=False)
    # Round: as wide as tall (to a pixel, for a marker of a few), filling about pi/4 of their box (a
    # frame line or a text line does not).
    fill = areas / np.maximum(widths * heights, 1)
    slack = np.maximum(1, ROUND_SLACK * np.maximum(widths, heights))
    round_ = inner & (np.abs(widths - heights) <= slack) & (fill >= ROUND_FILL)
    if not round_.any() or (every is not None and round_.sum() == inner.sum()):
        return every
    # Pipes drawn from dot to dot are marks off the lattice (their middles half a step off, or near a
    # centre but not on it) that can outweigh it or pull it askew: the round marks alone, small
    # markers and big dots, share it too. The lattice that fits better is the board's.
    blobs = _fit_lattice(centroids[1:][round_], areas[round_], marks, box, dots_only=False)
    grids = [grid for grid in (every, blobs) if grid is not None]
    if grids:
        return max(grids, key=lambda grid: grid.score)
    # Round dots alone, by their size: a crossing of faint lines is round but a few pixels, and there may be
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
    inside_grid = near & _in_grid(col, row, cols, rows)
    # A cell is accounted for when something other than the panel covers its centre (a marker, a
    # dot, or a pipe and its tint), or all round it (a dot whose glyph, in its middle, is the panel's
    # own colour), or a mark sits on it.
    centre_x, centre_y = first_x + np.arange(cols) * step_x, first_y + np.arange(rows) * step_y
    covered = _marked_at(marks, centre_x, centre_y)
    reach = GLYPH_CLEAR * step_x
    covered |= (
        _marked_at(marks, centre_x - reach, centre_y)
        & _marked_at(marks, centre_x + reach, centre_y)
        & _marked_at(marks, centre_x, centre_y - reach)
        & _marked_at(marks, centre_x, centre_y + reach)
    )
    on_cells = np.zeros_like(covered)
    on_cells[np.rint(row[inside_grid]).astype(int), np.rint(col[inside_grid]).astype(int)] = True
    # Markers mark every cell of their board: an outer row or column mostly bare lies beyond it (a
    # box wider than the panel, where a title's or a button's letters fall near a centre).
    top, bottom, left, right = _marked_span(covered | on_cells)
    kept = (covered | on_cells)[top:bottom, left:right]
    if not dots_only and min(kept.shape) >= MIN_CELLS and kept.mean() >= MARKED_BOARD:
        covered, on_cells = covered[top:bottom, left:right], on_cells[top:bottom, left:right]
        first_x, first_y = first_x + left * step_x, first_y + top * step_y
        cols, rows = right - left, bottom - top
        inside_grid &= _in_grid(col - left, row - top, cols, rows)
    cells_marked = float((covered | on_cells).mean())
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
    # Cells that marks fit, not marks: a box wider than the panel (the whole window) spans more cells
    # but holds no more marks, save the letters of a title that fall by chance near a cell's centre,
    # several to a cell; the tighter board wins.
    return PanelGrid(xs, ys, cells_marked * marks_on * float(on_cells.sum()) - 0.01 * rows * cols)


def _marked_at(marks: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """(len(ys), len(xs)) bool: whether `marks` (h, w) is set at each pixel (x, y) of the grid."""
    height, width = marks.shape
    cols = np.clip(np.rint(xs).astype(int), 0, width - 1)
    rows = np.clip(np.rint(ys).astype(int), 0, height - 1)
    return marks[rows][:, cols] > 0


def _in_grid(col: np.ndarray, row: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """Whether lattice positions (in cells, from the first cell's centre) round to a cell of the grid."""
    return (np.rint(col) >= 0) & (np.rint(col) < cols) & (np.rint(row) >= 0) & (np.rint(row) < rows)


def _marked_span(marked: np.ndarray) -> tuple[int, int, int, int]:
    """The rows and columns (top, bottom, left, right; the ends past them) of a grid (rows, cols) bool
    of marked cells left when outer rows and columns under MIN_CELLS_MARKED marked are cut off, the
    barest first."""
    top, bottom, left, right = 0, marked.shape[0], 0, marked.shape[1]
    while bottom > top and right > left:
        sides = {
            "top": marked[top, left:right].mean(),
            "bottom": marked[bottom - 1, left:right].mean(),
            "left": marked[top:bottom, left].mean(),
            "right": marked[top:bottom, right - 1].mean(),
        }
        barest = min(sides, key=sides.__getitem__)
        if sides[barest] >= MIN_CELLS_MARKED:
            break
        top += barest == "top"
        bottom -= barest == "bottom"
        left += barest == "left"
        right -= barest == "right"
    return top, bottom, left, right


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
