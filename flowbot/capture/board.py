"""Find the board in a frame: its grid, and which cells of the grid belong to it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from flowbot.capture.lines import (
    RIDGE_LEVEL,
    Lattice,
    LineMasks,
    brightness,
    find_lattice,
    line_masks,
    small_differs,
)
from flowbot.capture.panel import find_panel_grid
from flowbot.errors import CaptureError
from flowbot.model import Cell, Geometry

# A cell edge counts as drawn when line pixels cover this share of it.
EDGE_COVERAGE = 0.6
# ...and when the middle of the neighbouring cells is not covered as well (noise, text, hatching).
CLUTTER_COVERAGE = 0.5
# The outer thirds of an edge, short of the corners: a pipe crossing the edge covers only its
# middle third, and the corners belong to the crossing lines as well.
OUTER_THIRDS = ((0.1, 0.33), (0.67, 0.9))
# Or when it is a continuous ridge this strong relative to the board's typical line (a dim line
# crossing a bright glow), but never weaker than JPEG noise.
RELATIVE_STRENGTH = 0.4
MIN_STRENGTH = 8
# A dark line fully drawn and this deep relative to the board's typical line is a line amid clutter.
DARK_THROUGH_CLUTTER = 0.8
# A strip beyond the lattice is a row of cells when its cells' colour is this close (of 255, per
# channel) to the typical colour inside: the board's outer edge may be no line at all, only where
# the cells stop (tiles on a page, a mirrored phone's edge against the desktop).
ALIKE_LEVEL = 12
# ...in all but a few pixels of each cell's corners: a cell's sides are left out by this share of a
# step (they hold the lines' own pixels), its middle to this radius (a dot).
ALIKE_SHARE = 0.9
TYPICAL_STRIDE = 3
# ...or when most of the board's edge one step out is a line seen from the cells' side.
EDGE_SHARE = 0.5
# A cell closed by such an edge only is the board's when half its row and column are closed.
MOSTLY_CLOSED = 0.5
STRIP_INSET = 0.1
DOT_RADIUS = 0.4
# An outer row (or column) of the board holding no dot is not the board's when more than this share
# of it is holes and every place of it read as a cell holds strokes: a line of words just past the
# board (a level's header), whose letters line up with the lattice here and there, closes a cell or
# two of a row of holes. A real row of a shaped board holds empty cells, however few.
EDGE_HOLES = 0.5
# A cell holds strokes when this share of its inside stands out as thin marks, brighter or darker
# than what is around them (letters, an icon's outline): a letter-crossed cell reads 0.2-0.3, an
# empty one (on a glow, through JPEG) at most 0.015 on the screenshots of ../shared.
STROKE_SHARE = 0.05
# The inside of a cell: short of its lines by this share of a step either side.
STROKE_INSET = 0.15
# Marks thinner than this share of a step are strokes: a letter's, not a pipe's or a dot's.
STROKE_WIDTH = 0.1
# How a box (top, bottom, left, right) shrinks when its outer line on a side is dropped.
INWARD = {"top": (1, 0, 0, 0), "bottom": (0, -1, 0, 0), "left": (0, 0, 1, 0), "right": (0, 0, 0, -1)}


@dataclass(frozen=True, slots=True)
class Board:
    """The grid of a board on a frame, and the positions inside its bounding box that are not cells;
    `lined` is False for a board drawn with no lines or tile gaps (a lattice of marks in a panel)."""

    geometry: Geometry
    holes: frozenset[Cell]
    lined: bool = True

    @property
    def rows(self) -> int:
        """Rows of the bounding box."""
        return self.geometry.rows

    @property
    def cols(self) -> int:
        """Columns of the bounding box."""
        return self.geometry.cols


def find_board(frame: np.ndarray) -> Board:
    """Locate the board: the first of `board_candidates`; CaptureError saying what was tried if none.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    failures: list[str] = []
    for board in board_candidates(frame, failures):
        return board
    raise CaptureError(no_board_message(failures))


def no_board_message(failures: list[str]) -> str:
    """What was tried to find a board and why each way failed, for the user."""
    return "no board found: " + "; ".join(dict.fromkeys(failures))


def board_candidates(
    frame: np.ndarray, failures: list[str], scale: tuple[int, int] | None = None
) -> Iterator[Board]:
    """Boards the frame may hold, by the evidence for them, most trusted first: bright grid lines;
    dark gaps between tiles (or dark lines on a light board); the same for a board much smaller than
    the frame; the regular lattice of dots and faint markers in a flat panel. Why a way found
    nothing is appended to `failures`. `scale` (height, width) is the whole frame's when `frame` is a
    part of it.
    """
    ways = [(False, False), (True, False)]
    if small_differs(frame, scale):
        ways += [(False, True), (True, True)]
    for dark, small in ways:
        try:
            lattice, closed = _cells(frame, dark, small, scale)
        except CaptureError as error:
            failures.append(str(error))
            continue
        yield _board(lattice.xs, lattice.ys, closed)
    grid = find_panel_grid(frame)
    if grid is None:
        failures.append("no lattice of dots in a panel")
        return
    yield Board(Geometry(grid.xs, grid.ys), frozenset(), lined=False)


def _board(xs: tuple[float, ...], ys: tuple[float, ...], closed: np.ndarray) -> Board:
    """The board spanned by the closed cells of a lattice; positions inside it not closed are holes."""
    rows = np.flatnonzero(closed.any(axis=1))
    cols = np.flatnonzero(closed.any(axis=0))
    top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    inside = closed[top:bottom, left:right]
    geometry = Geometry(xs[left : right + 1], ys[top : bottom + 1])
    holes = frozenset((int(row), int(col)) for row, col in zip(*np.nonzero(~inside), strict=True))
    return Board(geometry, holes)


def one_piece(board: Board, cells: frozenset[Cell]) -> Board:
    """The board cut to its largest piece of 4-connected cells (`cells`: places known to be cells, as
    those holding a dot, besides the board's own): a board is one piece, and closed cells apart from
    it (a toolbar's boxes below it) are not its."""
    present = np.ones((board.rows, board.cols), dtype=np.uint8)
    for row, col in board.holes - cells:
        present[row, col] = 0
    count, labels = cv2.connectedComponents(present, connectivity=4)
    if count <= 2:
        return board
    largest = labels == 1 + int(np.argmax(np.bincount(labels.ravel())[1:]))
    if largest.any(axis=1).sum() < 2 or largest.any(axis=0).sum() < 2:
        return board  # a strip is no board (what shows of one under a dialog): leave it whole
    return _board(board.geometry.xs, board.geometry.ys, largest)


def without_text_edges(frame: np.ndarray, board: Board, dots: frozenset[Cell]) -> Board:
    """The board without its outer rows and columns that are a line of words beside it, not cells:
    no dot, mostly holes, and strokes inside every other place (`dots`: the cells holding one).

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    box = (0, board.rows, 0, board.cols)  # top, bottom, left, right
    # One side at a time, the new outer line looked at again (two lines of a header, two rows);
    # never down to a strip: a board is at least two rows and two columns.
    while box[1] - box[0] > 2 and box[3] - box[2] > 2:
        lines = _outer_lines(*box)
        side = next((side for side, line in lines.items() if _is_text_line(frame, board, line, dots)), None)
        if side is None:
            break
        box = tuple(end + change for end, change in zip(box, INWARD[side], strict=True))
    top, bottom, left, right = box
    if box == (0, board.rows, 0, board.cols):
        return board
    xs, ys = board.geometry.xs[left : right + 1], board.geometry.ys[top : bottom + 1]
    holes = frozenset(
        (row - top, col - left) for row, col in board.holes if top <= row < bottom and left <= col < right
    )
    return Board(Geometry(xs, ys), holes, board.lined)


def _outer_lines(top: int, bottom: int, left: int, right: int) -> dict[str, list[Cell]]:
    """The places of the outermost row or column on each side of the box, by side."""
    return {
        "top": [(top, col) for col in range(left, right)],
        "bottom": [(bottom - 1, col) for col in range(left, right)],
        "left": [(row, left) for row in range(top, bottom)],
        "right": [(row, right - 1) for row in range(top, bottom)],
    }


def _is_text_line(frame: np.ndarray, board: Board, line: list[Cell], dots: frozenset[Cell]) -> bool:
    """Whether an outer row or column of places is no part of the board (see `without_text_edges`)."""
    if any(cell in dots for cell in line):
        return False
    cells = [cell for cell in line if cell not in board.holes]
    if len(line) - len(cells) <= EDGE_HOLES * len(line):
        return False
    return all(stroke_share(frame, board.geometry, cell) >= STROKE_SHARE for cell in cells)


def stroke_share(frame: np.ndarray, geometry: Geometry, cell: Cell) -> float:
    """The share of a cell's inside that is thin marks (letters, an outline), none for the flat
    colour of an empty cell: a top-hat and a black-hat narrower than a pipe keep strokes only, not
    a smooth glow.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    row, col = cell
    step = geometry.cell_size
    inset = STROKE_INSET * step
    x0, x1 = round(geometry.xs[col] + inset), round(geometry.xs[col + 1] - inset)
    y0, y1 = round(geometry.ys[row] + inset), round(geometry.ys[row + 1] - inset)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(frame.shape[1], x1), min(frame.shape[0], y1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 0.0
    level = brightness(frame[y0:y1, x0:x1])
    width = max(3, round(STROKE_WIDTH * step)) | 1
    element = cv2.getStructuringElement(cv2.MORPH_RECT, (width, width))
    bright = cv2.morphologyEx(level, cv2.MORPH_TOPHAT, element)
    dark = cv2.morphologyEx(level, cv2.MORPH_BLACKHAT, element)
    return float((cv2.max(bright, dark) > RIDGE_LEVEL).mean())


def _cells(
    frame: np.ndarray, dark: bool, small: bool, scale: tuple[int, int] | None = None
) -> tuple[Lattice, np.ndarray]:
    """The lines, their lattice and the closed cells, from bright lines (or dark gaps)."""
    masks = line_masks(frame, dark=dark, small=small, scale=scale)
    kind = ("tile gaps or dark lines" if dark else "grid lines") + (" at small scale" if small else "")
    lattice = find_lattice(masks)
    if lattice is None:
        raise CaptureError(f"no evenly spaced {kind}")
    lattice = extend_over_alike_cells(frame, lattice, masks.dark)
    closed = _closed_cells(masks, lattice, frame)
    if closed.sum() < 4:
        raise CaptureError(f"{kind} close no cells")
    rows, cols = np.flatnonzero(closed.any(axis=1)), np.flatnonzero(closed.any(axis=0))
    if rows[-1] - rows[0] < 1 or cols[-1] - cols[0] < 1:
        raise CaptureError(f"{kind} close only a {rows[-1] - rows[0] + 1}x{cols[-1] - cols[0] + 1} grid")
    return lattice, closed


def extend_over_alike_cells(frame: np.ndarray, lattice: Lattice, dark: bool = False) -> Lattice:
    """The lattice with one more line, taken as drawn, beyond each outer line where the strip of cells
    outside looks like the cells inside (empty cells are alike among themselves), or where one step
    out a line stands out from those cells with something else past it: a board whose outer edge is
    no line, only where its cells stop, or a line seen on one side only (a glow inside, a bright
    desktop outside). Whether that row is the board's is then settled as for any row, by the lines
    between its cells (a header above a lined board has none).

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    xs, ys = list(lattice.xs), list(lattice.ys)
    # Every few pixels are enough for the typical colour (a median over the whole board is slow).
    inside = frame[
        round(ys[0]) : round(ys[-1]) : TYPICAL_STRIDE, round(xs[0]) : round(xs[-1]) : TYPICAL_STRIDE
    ]
    if inside.size == 0:
        return lattice
    typical = _channel_medians(inside.reshape(-1, 3))
    xs, virtual_x = _extend_alike(frame, xs, ys, typical, lattice.virtual_x, 1, dark)
    ys, virtual_y = _extend_alike(frame, ys, xs, typical, lattice.virtual_y, 0, dark)
    return Lattice(tuple(xs), tuple(ys), virtual_x, virtual_y)


def _extend_alike(frame, lines, across, typical, virtual, axis, dark):
    """`lines` with one more step at either end where every cell beyond is the colour of the cells,
    or an edge of the board stands there (an outer line already at the frame's edge stays as it is)."""
    lines, virtual = list(lines), set(virtual)
    span = (across[0], across[-1])
    oriented = frame.transpose(1, 0, 2) if axis == 1 else frame  # its lines run along axis 1
    step = (lines[-1] - lines[0]) / (len(lines) - 1)
    size = frame.shape[axis]
    count = max(1, round((span[1] - span[0]) / step))
    for end in (0, -1):
        index = 0 if end == 0 else len(lines) - 1
        if index in virtual:
            continue
        outer = lines[end] + (-step if end == 0 else step)
        low, high = sorted((lines[end], outer))
        if low < 0 or high > size:
            continue
        cells = [(low, span[0] + number * step) for number in range(count)]
        if axis == 0:
            cells = [(along, across) for across, along in cells]
        if not all(_alike(frame, left, top, step, typical) for left, top in cells):
            candidate = [outer, *lines] if end == 0 else [*lines, outer]
            if _edge_of_board(oriented, candidate, across, end, dark).mean() < EDGE_SHARE:
                continue
        if end == 0:
            lines.insert(0, outer)
            virtual = {number + 1 for number in virtual} | {0}
        else:
            lines.append(outer)
            virtual.add(len(lines) - 1)
    return lines, frozenset(virtual)


def _alike(frame: np.ndarray, left: float, top: float, step: float, typical: np.ndarray) -> bool:
    """Whether the cell at (left, top) is the board's empty colour around its middle: its corners,
    short of its lines and of a dot in its middle, are that colour (text and icons are not)."""
    inset = STRIP_INSET * step
    x0, y0 = max(0, round(left + inset)), max(0, round(top + inset))
    x1 = min(frame.shape[1], round(left + step - inset))
    y1 = min(frame.shape[0], round(top + step - inset))
    if x1 <= x0 or y1 <= y0:
        return False
    patch = frame[y0:y1, x0:x1]
    rows, cols = np.ogrid[y0:y1, x0:x1]
    corners = (cols - (left + step / 2)) ** 2 + (rows - (top + step / 2)) ** 2 > (DOT_RADIUS * step) ** 2
    if not corners.any():
        return False
    # OpenCV's per-pixel difference and channel maximum: numpy's over 3 channels is several times slower.
    reference = np.empty_like(patch)
    reference[:] = typical.astype(np.int16)
    difference = cv2.absdiff(patch, reference)
    furthest = cv2.max(cv2.max(difference[..., 0], difference[..., 1]), difference[..., 2])
    return float((furthest <= ALIKE_LEVEL)[corners].mean()) >= ALIKE_SHARE


def _edge_of_board(frame: np.ndarray, lines, across, end: int, dark: bool) -> np.ndarray:
    """Per stretch of the outermost line `lines[end]`: a line that stands out from the cells inside
    it, with something else than those cells just past it (the board's edge against a page).

    frame : (H, W, 3) uint8 ndarray, BGR, lines running along axis 1
    """
    step = (lines[-1] - lines[0]) / (len(lines) - 1)
    outward = -1 if end == 0 else 1
    position = round(lines[end])
    width = max(2, round(0.06 * step))
    # Only the board's own stretch of the line is looked at.
    start = max(0, round(across[0]))
    span = frame[:, start : min(frame.shape[1], round(across[-1]) + 1)]
    band = _rows(span, position - width, position + width + 1)
    # Just inside: short of the round dots, which come within a sixth of a cell of the edge.
    inside = _rows(span, *sorted((position - outward * (width + 1), position - outward * (2 * width + 2))))
    outside = _rows(span, *sorted((position + outward * (width + 1), position + outward * (2 * width + 2))))
    result = np.zeros(len(across) - 1, dtype=bool)
    if band is None or inside is None or outside is None:
        return result
    for index in range(len(across) - 1):
        low = max(0, round(across[index] + 0.2 * step) - start)
        high = min(span.shape[1], round(across[index + 1] - 0.2 * step) - start)
        if high <= low:
            continue
        cells = _median(inside[:, low:high])
        line = band[:, low:high].min(axis=0) if dark else band[:, low:high].max(axis=0)
        beyond = _median(outside[:, low:high])
        stands = _median(cells - line) if dark else _median(line - cells)
        result[index] = stands >= RIDGE_LEVEL and abs(beyond - cells) > ALIKE_LEVEL
    return result


def _median(values: np.ndarray) -> float:
    """np.median of a small array, without its overhead (it runs for every stretch of an edge)."""
    ordered = np.sort(values, axis=None)
    middle = ordered.size // 2
    if ordered.size % 2:
        return float(ordered[middle])
    return (float(ordered[middle - 1]) + float(ordered[middle])) / 2


def _channel_medians(pixels: np.ndarray) -> np.ndarray:
    """np.median(pixels, axis=0) of (N, 3) uint8 pixels, from each channel's histogram (no sort)."""
    medians = np.empty(pixels.shape[1])
    for channel in range(pixels.shape[1]):
        below = np.cumsum(np.bincount(pixels[:, channel], minlength=256))
        # The values at sorted places (N - 1) // 2 and N // 2: their mean is the median.
        low = int(np.searchsorted(below, (len(pixels) - 1) // 2, side="right"))
        high = int(np.searchsorted(below, len(pixels) // 2, side="right"))
        medians[channel] = (low + high) / 2
    return medians


def _rows(frame: np.ndarray, low: int, high: int) -> np.ndarray | None:
    """The brightness (brightest channel) of frame[low:high] as int16, or None when that band falls
    outside the frame."""
    if low < 0 or high > frame.shape[0] or high <= low:
        return None
    band = frame[low:high]
    # Channel by channel: numpy's maximum along a 3-long axis is several times slower.
    return np.maximum(np.maximum(band[..., 0], band[..., 1]), band[..., 2]).astype(np.int16)


def _closed_cells(masks: LineMasks, lattice: Lattice, frame: np.ndarray) -> np.ndarray:
    """(rows, cols) bool: cells whose four edges are all drawn (or cut off by the frame edge)."""
    across_rows = _edges(masks.horizontal, masks.horizontal_ridge, lattice.ys, lattice.xs, lattice.virtual_y)
    across_cols = _edges(masks.vertical.T, masks.vertical_ridge.T, lattice.xs, lattice.ys, lattice.virtual_x)
    # How strong a drawn line of this board is: most edges of a bounding box are drawn.
    strengths = np.concatenate([across_rows.strength.ravel(), across_cols.strength.ravel()])
    typical = (
        float(np.percentile(strengths[np.isfinite(strengths)], 75)) if np.isfinite(strengths).any() else 0
    )
    horizontal = across_rows.drawn(typical, masks.dark)
    vertical = across_cols.drawn(typical, masks.dark).T
    if not masks.dark:
        # A dim line over a glow of another hue can vanish in the brightest channel (a red line on
        # a cyan glow is no brighter than the glow) yet stand out in its own: undrawn edges are
        # looked at again channel by channel. Dark lines are dark in every channel: nothing to gain.
        across_rows = _in_own_hue(frame, across_rows, horizontal, lattice.ys, lattice.xs, masks.kernel)
        across_cols = _in_own_hue(
            frame.transpose(1, 0, 2), across_cols, vertical.T, lattice.xs, lattice.ys, masks.kernel
        )
        horizontal, vertical = across_rows.drawn(typical), across_cols.drawn(typical).T
    # An outermost line need stand out only from the cells: past it may lie a page or a desktop
    # around a window, as bright as the line. A row there is the board's when the lines between
    # its cells are drawn.
    drawn_h, drawn_v = horizontal.copy(), vertical.copy()
    for end in (0, -1):
        if not horizontal[end].all():
            horizontal[end] |= _edge_of_board(frame, lattice.ys, lattice.xs, end, masks.dark)
        if not vertical[:, end].all():
            vertical[:, end] |= _edge_of_board(
                frame.transpose(1, 0, 2), lattice.xs, lattice.ys, end, masks.dark
            )
    closed = horizontal[:-1] & horizontal[1:] & vertical[:, :-1] & vertical[:, 1:]
    # A cell closed only by such an edge belongs to a row and a column mostly closed: a window's
    # edge beside a title (and a letter's stroke) closes a lone cell of a header row, not a row.
    by_edge = closed & ~(drawn_h[:-1] & drawn_h[1:] & drawn_v[:, :-1] & drawn_v[:, 1:])
    rows_mostly = closed.mean(axis=1, keepdims=True) >= MOSTLY_CLOSED
    cols_mostly = closed.mean(axis=0, keepdims=True) >= MOSTLY_CLOSED
    return closed & ~(by_edge & ~(rows_mostly & cols_mostly))


@dataclass(frozen=True, slots=True)
class _EdgeEvidence:
    """Per stretch of line between two crossings: how much of it is ridge, how strong, how cluttered.

    Arrays of shape (len(lines), len(across) - 1); strength is inf for lines taken as drawn.
    """

    covered: np.ndarray
    strength: np.ndarray
    cluttered: np.ndarray

    def drawn(self, typical: float, dark: bool = False) -> np.ndarray:
        """Edges that are lines: mostly ridge pixels, or a continuous ridge at least 40% as strong as
        the board's typical line (a dim line over a bright glow); never amid clutter, unless (dark
        lines) as deep as the board's typical line: JPEG's dark halos around two coloured dots on
        a light board are clutter on both sides of the line between them."""
        strong = (self.covered >= EDGE_COVERAGE) | (self.strength >= RELATIVE_STRENGTH * typical)
        clear = self.cluttered < CLUTTER_COVERAGE
        if dark:
            clear |= (self.covered >= EDGE_COVERAGE) & (self.strength >= DARK_THROUGH_CLUTTER * typical)
        return strong & (self.strength >= MIN_STRENGTH) & clear


def _in_own_hue(
    frame: np.ndarray, evidence: _EdgeEvidence, drawn: np.ndarray, lines, across, kernel: int
) -> _EdgeEvidence:
    """The evidence with each undrawn edge measured again on every colour channel (a ridge in any
    channel is a line), keeping the larger coverage and strength; clutter as it was.

    frame : (H, W, 3) uint8 ndarray, BGR, lines running along axis 1
    """
    covered, strength = evidence.covered.copy(), evidence.strength.copy()
    height, width = frame.shape[:2]
    step = (lines[-1] - lines[0]) / (len(lines) - 1)
    tolerance = max(2, round(0.06 * step))
    parts, usable = _outer_parts(across, width)
    (first, _), (_, last) = parts
    undrawn = ~drawn & usable & np.isfinite(strength)
    # Each run of neighbouring undrawn stretches of a line, as (line, its stretches, left, right).
    runs = []
    for index in np.flatnonzero(undrawn.any(axis=1)):
        edges = np.flatnonzero(undrawn[index])
        for run in np.split(edges, np.flatnonzero(np.diff(edges) > 1) + 1):
            runs.append((index, run, int(first[run[0]]), int(last[run[-1]])))
    if not runs:
        return evidence
    # The band within `tolerance` of each line and a kernel's length either side, for the top-hat,
    # stacked into one image (a kernel's length apart, a band sees only its own rows); black
    # beyond the frame, as for the brightness (a line on the frame's edge is a ridge).
    tall = 2 * (tolerance + kernel) + 1
    stack = np.zeros((len(runs) * tall, max(right - left for *_, left, right in runs), 3), dtype=np.uint8)
    for number, (index, _, left, right) in enumerate(runs):
        low = round(lines[index]) - tolerance - kernel
        top, bottom = max(0, low), min(height, low + tall)
        stack[number * tall + top - low : number * tall + bottom - low, : right - left] = frame[
            top:bottom, left:right
        ]
    element = cv2.getStructuringElement(cv2.MORPH_RECT, (1, kernel))
    ridge = cv2.morphologyEx(stack, cv2.MORPH_TOPHAT, element).reshape(len(runs), tall, -1, 3)
    peaks = ridge[:, kernel : kernel + 2 * tolerance + 1].max(axis=(1, 3))
    # Every undrawn edge at once: its run's row of peaks, and its outer thirds within that run.
    of_run = np.concatenate([np.full(len(run), count) for count, (_, run, _, _) in enumerate(runs)])
    on_line = np.concatenate([np.full(len(run), line) for line, run, _, _ in runs])
    edge = np.concatenate([run for _, run, _, _ in runs])
    start = np.array([run_left for *_, run_left, _ in runs])[of_run]
    thirds = [(low[edge] - start, high[edge] - start) for low, high in parts]
    hue_covered = np.minimum(*_run_means(peaks > RIDGE_LEVEL, of_run, thirds))
    hue_strength = np.minimum(*_run_means(peaks, of_run, thirds))
    covered[on_line, edge] = np.maximum(covered[on_line, edge], hue_covered)
    strength[on_line, edge] = np.maximum(strength[on_line, edge], hue_strength)
    return _EdgeEvidence(covered, strength, evidence.cluttered)


def _run_means(values: np.ndarray, rows: np.ndarray, parts) -> list[np.ndarray]:
    """Per part, the mean of `values[row]` over each [low, high) stretch (running sums), as
    `_part_means` for stretches on different rows of `values`."""
    total = np.zeros((values.shape[0], values.shape[1] + 1))
    np.cumsum(values, axis=1, dtype=np.float64, out=total[:, 1:])
    limit = values.shape[1]
    means = []
    for low, high in parts:
        low, high = np.clip(low, 0, limit), np.clip(high, 0, limit)
        means.append((total[rows, high] - total[rows, low]) / np.maximum(high - low, 1))
    return means


def _outer_parts(across, width: int) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """The OUTER_THIRDS of each stretch between crossings as pixel ranges, and which lie in the frame."""
    starts = np.asarray(across[:-1], dtype=np.float64)
    lengths = np.diff(np.asarray(across, dtype=np.float64))
    parts = [
        (np.rint(starts + low * lengths).astype(int), np.rint(starts + high * lengths).astype(int))
        for low, high in OUTER_THIRDS
    ]
    usable = np.all([(high > low) & (low >= 0) & (high <= width) for low, high in parts], axis=0)
    return parts, usable


def _edges(
    mask: np.ndarray, ridge: np.ndarray, lines: tuple[float, ...], across: tuple[float, ...], virtual
) -> _EdgeEvidence:
    """The evidence for each stretch of each line between its crossings with the lines across.

    mask, ridge : (H, W) ndarrays with the lines running along axis 1.
    """
    width = mask.shape[1]
    step = (lines[-1] - lines[0]) / (len(lines) - 1)
    tolerance = max(2, round(0.06 * step))
    parts, usable = _outer_parts(across, width)
    # Only the columns the stretches cover are looked at (a board is a part of the frame).
    low = int(np.clip(min(part[0].min() for part in parts), 0, width))
    high = int(np.clip(max(part[1].max() for part in parts), low, width))
    mask, ridge = mask[:, low:high], ridge[:, low:high]
    parts = [(start - low, stop - low) for start, stop in parts]
    positions = np.asarray(lines, dtype=np.float64)
    # Every line at once: per column, the most within `tolerance` rows of the line (any line pixel,
    # for the mask) ...
    band = _bands(mask, positions, tolerance)
    peak = _bands(ridge, positions, tolerance)
    # ... and a quarter of the way into a cell either side, where a grid leaves the picture clear
    # (halfway would cross the caps of round dots, which look like short lines); one side of an
    # edge is a board cell.
    clutter = np.minimum(
        _bands(mask, positions - step / 4, tolerance), _bands(mask, positions + step / 4, tolerance)
    )
    covered = np.where(usable, np.minimum(*_part_means(band, parts)), 0.0)
    strength = np.where(usable, np.minimum(*_part_means(peak, parts)), 0.0)
    cluttered = np.where(usable, np.add(*_part_means(clutter, parts)) / 2, 1.0)
    taken = list(virtual)
    covered[taken], strength[taken], cluttered[taken] = 1.0, np.inf, 0.0
    return _EdgeEvidence(covered, strength, cluttered)


def _part_means(values: np.ndarray, parts: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """The mean of `values` over each [low, high) stretch, for every edge at once (running sums); of
    each row's values when `values` has rows."""
    total = np.zeros((*values.shape[:-1], values.shape[-1] + 1))
    np.cumsum(values, axis=-1, dtype=np.float64, out=total[..., 1:])
    limit = values.shape[-1]
    means = []
    for low, high in parts:
        low, high = np.clip(low, 0, limit), np.clip(high, 0, limit)
        means.append((total[..., high] - total[..., low]) / np.maximum(high - low, 1))
    return means


def _bands(image: np.ndarray, positions: np.ndarray, tolerance: int) -> np.ndarray:
    """(len(positions), W): per position, per column, the largest value within `tolerance` rows of it
    (rows past the frame left out; zeros for a position whose rows all are)."""
    height = image.shape[0]
    rows = np.rint(positions).astype(int)[:, None] + np.arange(-tolerance, tolerance + 1)
    inside = (rows >= 0) & (rows < height)
    # A row past the frame is replaced by the nearest inside: a repeat changes no maximum.
    result = image[np.clip(rows, 0, height - 1)].max(axis=1)
    result[~inside.any(axis=1)] = 0
    return result
