"""Read a Number Match board from a screenshot: the grid, each cell (digit, cleared, empty), the adds left.

Pure: a BGR frame in, a `Reading` out. The grid is found by its lines: the outer frame's two long
vertical lines with the seven inner ones evenly between them, then the horizontal lines at the same
spacing; a look that draws each cell as its own tile (no line runs down the board) is found by its
tiles instead. Each cell's ink is measured against the cell's own background (a selected cell is
light blue, a covered one dark): strong ink is a live digit (black, or blue when added), faint ink a
cleared digit, none an empty slot, or a cleared one amid the numbers in a look that draws cleared
cells blank. Live digits are matched against font templates (`glyphs`). The "+" button is the cross
under the grid (the game's blue one, or any colour that stands out); its badge is the coloured disc
at its upper right, with the adds left in white."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from flowbot.errors import CaptureError
from flowbot.numbermatch.glyphs import glyph_of, match

WIDTH = 9
CLEARED, EMPTY, UNKNOWN = ".", "_", "?"
# Ink (background level minus pixel level, 0-255) of the darkest part of a glyph: a cleared digit is
# drawn at 10-15% contrast (25-40), a live one at 50% or more (blue ~110, black ~200).
FAINT_INK = 12
LIVE_INK = 75
# A cell whose ink covers less than this share of it is empty (JPEG noise, a stray line end).
MIN_INK_SHARE = 0.01
MIN_GLYPH_HEIGHT = 0.3  # of the inset cell
# A glyph that fits its best template worse than this, or hardly better than the next, is refused.
MIN_SCORE = 0.55
MIN_MARGIN = 0.04
BADGE_HEIGHT = 96  # pixels a badge is enlarged to before its digit is cut out
# The glyph is looked for inside the cell less this share on each side (lines, a selection's edge).
INSET = 0.1
# A line is a pixel darker than the pixels this far to either side (lines are at most ~7 px wide).
LINE_REACH = 4
LINE_DELTA = 3


class NumberMatchReadError(CaptureError):
    """A screenshot in which no Number Match board can be read, or whose reading cannot be right."""


@dataclass(frozen=True, slots=True)
class Grid:
    """Where the board is: column edges (WIDTH + 1 x positions), row edges (y positions of the fully
    visible rows), whether the first of them is the grid's top (False: scrolled, rows above), and
    whether the last is its bottom (no cells drawn under it: a look that draws only the board's rows)."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    top_visible: bool
    bottom_visible: bool = False

    @property
    def cell(self) -> float:
        """The width of a cell in pixels."""
        return (self.xs[-1] - self.xs[0]) / WIDTH

    def center(self, row: int, col: int) -> tuple[float, float]:
        """The pixel (x, y) at the middle of a visible cell (row counted from the first visible row)."""
        return (self.xs[col] + self.xs[col + 1]) / 2, (self.ys[row] + self.ys[row + 1]) / 2


@dataclass(frozen=True, slots=True)
class Reading:
    """The board as read: rows of WIDTH characters (digit, '.', '_'), which digits are blue, the adds
    left (None when no badge was read), where the grid and the "+" button are, and how sure each digit was."""

    rows: tuple[str, ...]
    blue: tuple[tuple[bool, ...], ...]
    adds_left: int | None
    grid: Grid
    plus: tuple[float, float] | None
    weakest: float  # the lowest margin between a digit's best and second-best template
    end_seen: bool  # the board's end shows: an empty slot or an empty row after the last number
    top_seen: bool  # no cell lines above the first row read (in a game that scrolls under a header,
    # a row cut exactly at the header's edge looks the same: see `Grid.top_visible`)
    rectified: bool = False  # read from the frame straightened: `grid` and `plus` are not its pixels
    # For a straightened reading, the 3x3 matrix (rows of floats) from its pixels back to the frame's.
    to_frame: tuple[tuple[float, ...], ...] | None = None

    def frame_point(self, x: float, y: float) -> tuple[float, float]:
        """A point of the reading's pixels (its grid, its "+") as a pixel of the frame it was read from."""
        if self.to_frame is None:
            return x, y
        (a, b, c), (d, e, f), (g, h, i) = self.to_frame
        scale = g * x + h * y + i
        return (a * x + b * y + c) / scale, (d * x + e * y + f) / scale

    @property
    def whole(self) -> bool:
        """True when the whole board shows: its first row and its end."""
        return self.end_seen and self.top_seen


def read_board(frame: np.ndarray, name: str = "<frame>", straighten: bool = True) -> Reading:
    """The Number Match board on a BGR frame; NumberMatchReadError naming `name` and the problem.

    With `straighten`, a frame whose grid does not read whole as it is (a photo of a phone: tilted,
    in perspective, so only part of the grid looks straight) is read again straightened
    (`rectify`); that reading's grid is in the straightened picture's pixels (`rectified`).
    """
    try:
        reading = _read_upright(frame, name)
    except NumberMatchReadError as error:
        if not straighten:
            raise
        return _read_straightened(frame, name, error)
    if reading.whole or not straighten:
        return reading
    try:
        again = _read_straightened(frame, name, None)
    except NumberMatchReadError:
        return reading
    # Straightened, a photo shows rows that did not read as it was; an upright screenshot of a
    # scrolled board shows the same rows, and is no more whole for it.
    return again if again.whole and len(again.rows) > len(reading.rows) else reading


def _read_straightened(frame: np.ndarray, name: str, error: NumberMatchReadError | None) -> Reading:
    """The board read from the frame straightened; the first error is raised again when no grid is found."""
    from flowbot.numbermatch.rectify import straightened

    found = straightened(frame)
    if found is None:
        if error is not None:
            raise error
        raise NumberMatchReadError(f"{name}: no grid found straightened either")
    upright, matrix = found
    back = tuple(tuple(float(value) for value in row) for row in np.linalg.inv(matrix))
    try:
        reading = _read_upright(upright, name, photo=True)
        return replace(reading, rectified=True, to_frame=back)
    except NumberMatchReadError as again:
        if error is None:
            raise
        raise NumberMatchReadError(f"{again} (read straightened, as a photo; as it is: {error})") from None


def _read_upright(frame: np.ndarray, name: str, photo: bool = False) -> Reading:
    """`read_board` on a frame whose grid lines run straight across and down.

    A `photo` (straightened) is read without the guesses a screen allows: its blank cell amid the
    numbers is as likely glare as a cleared cell, and a "+" found only by contrast may be a
    reflection, its badge too blurred to trust.
    """
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    grid = find_grid(gray, name)
    cells = [
        [_read_cell(frame, gray, grid, row, col) for col in range(WIDTH)] for row in range(len(grid.ys) - 1)
    ]
    rows = ["".join(cell[0] for cell in line) for line in cells]
    blue = [tuple(cell[1] for cell in line) for line in cells]
    margins = [cell[2] for line in cells for cell in line if cell[0].isdigit()]
    # Empty rows under the board are part of the drawn grid, not of the board; so is a row with no
    # live digit (a faint speck on an empty row of a photo): the game takes away a row once cleared.
    seen_end = False
    while rows and not any(char.isdigit() or char == UNKNOWN for char in rows[-1]):
        rows.pop()
        blue.pop()
        seen_end = True
    rows = _check_rows(rows, name, blank_is_cleared=not photo)
    plus = find_plus(frame, grid, any_colour=not photo)
    adds = read_adds(frame, plus, grid.cell) if plus is not None else None
    end_seen = seen_end or rows[-1].endswith(EMPTY) or grid.bottom_visible
    return Reading(
        tuple(rows), tuple(blue), adds, grid, plus, min(margins, default=1.0), end_seen, grid.top_visible
    )


def _check_rows(rows: list[str], name: str, blank_is_cleared: bool = True) -> list[str]:
    """The rows, with blank cells amid the numbers read as cleared where the look draws cleared cells
    blank; refused when no game can show them: none, a gap before the last number in a look that
    draws cleared digits faint, nothing but cleared cells."""
    if not rows:
        raise NumberMatchReadError(f"{name}: the grid holds no digit (an empty or unreadable board)")
    text = "".join(rows)
    if UNKNOWN in text:
        row, col = divmod(text.index(UNKNOWN), WIDTH)
        raise NumberMatchReadError(
            f"{name}: row {row + 1}, column {col + 1} holds a mark that is no digit 1-9"
        )
    last = max(text.rfind(char) for char in "123456789.")
    if blank_is_cleared and EMPTY in text[:last] and CLEARED not in text:
        # No cleared digit drawn faint anywhere: this look draws a cleared cell blank (a cell of
        # the grid with nothing in it), so a blank before the last number is a cleared one.
        text = text[:last].replace(EMPTY, CLEARED) + text[last:]
        rows = [text[start : start + WIDTH] for start in range(0, len(text), WIDTH)]
    if EMPTY in text[:last]:
        row, col = divmod(text.index(EMPTY), WIDTH)
        raise NumberMatchReadError(
            f"{name}: row {row + 1}, column {col + 1} reads as an empty slot before the last number "
            "(empty slots only follow the last number)"
        )
    if not any(char.isdigit() for char in text):
        raise NumberMatchReadError(f"{name}: every cell reads as cleared or empty (no live digit)")
    return rows


# --- the grid ------------------------------------------------------------------------------------


def find_grid(gray: np.ndarray, name: str = "<frame>") -> Grid:
    """The grid's columns and fully visible rows; NumberMatchReadError when no 9-column grid is seen.

    A grid drawn with lines is found by them; one drawn as separate tiles (square cells on a page
    of another colour, with no line running down the board) by its tiles (`find_tile_grid`).
    """
    try:
        return _find_line_grid(gray, name)
    except NumberMatchReadError:
        tiles = find_tile_grid(gray)
        if tiles is None:
            raise
        return tiles


def _find_line_grid(gray: np.ndarray, name: str) -> Grid:
    """`find_grid` by the grid's lines."""
    height, width = gray.shape
    columns = _line_positions(_vertical_lines(gray), max(height // 12, 12))
    best = None
    for i, left in enumerate(columns):
        for right in columns[i + 1 :]:
            span = right - left
            if span < width / 3:
                continue
            step = span / WIDTH
            inner = sum(
                any(abs(x - (left + k * step)) <= max(2.0, step * 0.06) for x in columns)
                for k in range(1, WIDTH)
            )
            key = (inner, span)
            if inner >= WIDTH - 3 and (best is None or key > best[0]):
                best = (key, left, right)
    if best is None:
        raise NumberMatchReadError(
            f"{name}: no grid of {WIDTH} columns found (no evenly spaced vertical lines)"
        )
    _, left, right = best
    step = (right - left) / WIDTH
    xs = tuple(left + k * step for k in range(WIDTH + 1))
    inside = gray[:, int(left) : int(right) + 1]
    rows = _line_positions(_vertical_lines(inside.T).T, max(int(step * 3), 12), axis=0)
    ys = _even_run(rows, step)
    if len(ys) < 2:
        raise NumberMatchReadError(f"{name}: the grid's columns were found but no whole row of cells")
    ys += _short_last_row(gray, left, ys[-1], step)
    top_visible = _is_top(gray, left, right, ys[0], step)
    return Grid(xs, tuple(ys), top_visible, _is_bottom(gray, left, right, ys[-1], step))


def _short_last_row(gray: np.ndarray, left: float, y: float, step: float) -> list[float]:
    """[the bottom edge] of a row under y drawn only part way across (a look that draws a cell only
    for a slot: a last row of one or two cells has lines too short for a row of the grid), or []."""
    first = gray[:, int(left) : int(left + step) + 1]
    lines = _line_positions(_vertical_lines(first.T).T, max(int(step * 0.6), 8), axis=0)
    tolerance = max(2.0, step * 0.08)
    below = [line for line in lines if abs(line - (y + step)) <= tolerance]
    if not below or _is_bottom(gray, left, left + step, y, step):
        return []  # no line a row down, or nothing drawn in the first cell under y
    return [below[0]]


def _vertical_lines(gray: np.ndarray) -> np.ndarray:
    """A mask of pixels darker than the pixels LINE_REACH to their left and right (thin vertical lines)."""
    level = gray.astype(np.int16)
    mask = np.zeros(level.shape, np.uint8)
    reach = LINE_REACH
    centre = level[:, reach:-reach]
    darker = (centre + LINE_DELTA < level[:, : -2 * reach]) & (centre + LINE_DELTA < level[:, 2 * reach :])
    mask[:, reach:-reach] = darker
    return mask


def _line_positions(mask: np.ndarray, length: int, axis: int = 1) -> list[float]:
    """Centres of the lines in a line mask that run at least `length` px (vertical lines for axis=1)."""
    if axis == 1:
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (1, length))
    else:
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1))
    # Where lines cross, neither is darker than its sides: close those gaps before measuring length.
    gap = (1, 2 * LINE_REACH + 1) if axis == 1 else (2 * LINE_REACH + 1, 1)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, gap))
    opened = cv2.morphologyEx(closed, cv2.MORPH_OPEN, kernel)
    profile = opened.sum(axis=0 if axis == 1 else 1)
    hits = np.nonzero(profile >= length)[0]
    positions: list[float] = []
    run: list[int] = []
    for index in hits.tolist():
        if run and index != run[-1] + 1:
            positions.append(float(np.mean(run)))
            run = []
        run.append(index)
    if run:
        positions.append(float(np.mean(run)))
    return positions


def _even_run(lines: list[float], step: float) -> list[float]:
    """The longest run of lines spaced `step` apart (a missing line in between is filled in)."""
    best: list[float] = []
    tolerance = max(2.0, step * 0.08)
    for start in lines:
        run = [start]
        while True:
            target = run[-1] + step
            near = [y for y in lines if abs(y - target) <= tolerance]
            if near:
                run.append(near[0])
                continue
            # One faint line may be missing (a selected cell's edge): the next one must be there.
            after = [y for y in lines if abs(y - (target + step)) <= tolerance]
            if after:
                run.extend([target, after[0]])
                continue
            break
        if len(run) > len(best):
            best = run
    return best


def _is_top(gray: np.ndarray, left: float, right: float, y: float, step: float) -> bool:
    """True when the line at y is the grid's top: no cell lines continue above it."""
    above = gray[max(0, int(y - step * 0.6)) : max(0, int(y - 2)), int(left) : int(right) + 1]
    if above.size == 0:
        return True
    lines = _line_positions(_vertical_lines(above), max(above.shape[0] - 2, 4))
    return len(lines) < WIDTH - 2


def _is_bottom(gray: np.ndarray, left: float, right: float, y: float, step: float) -> bool:
    """True when the line at y is the grid's bottom: under it, for most of a row, nothing is drawn
    (no line, no digit: a row cut by a footer or by the frame's edge shows some of its own)."""
    if y + step > gray.shape[0]:
        return False
    below = gray[int(y + 3) : int(y + step * 0.8), int(left) : int(right) + 1]
    if below.shape[0] < 4:
        return False
    return float((cv2.Canny(below, 40, 120) > 0).mean()) < 0.002


# --- a grid of tiles -------------------------------------------------------------------------------

MIN_TILE = 12  # pixels: a cell smaller than this holds no readable digit
TILE_FILL = 0.45  # a tile's free area (less its digit's outline) of its box, at least


def find_tile_grid(gray: np.ndarray) -> Grid | None:
    """The grid of a look that draws each cell as its own square tile, or None.

    Tiles are the regions no edge crosses (a cell's inside less its digit), square and of one size,
    lying on a lattice of one step across and down; the board is the lattice's rows of WIDTH
    columns. Nothing here depends on the tiles' or the page's colours.
    """
    edges = cv2.dilate(cv2.Canny(gray, 40, 120), np.ones((3, 3), np.uint8))
    free = (edges == 0).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
    height, width = gray.shape
    tiles = []
    for index in range(1, count):
        x, y, w, h, area = stats[index]
        if w < MIN_TILE or w > width / 4 or not 0.85 < w / h < 1.18 or area < TILE_FILL * w * h:
            continue
        if x == 0 or y == 0 or x + w >= width or y + h >= height:
            continue  # the page around everything, or a tile cut by the frame
        tiles.append((float(x + w / 2), float(y + h / 2), float(w)))
    best: tuple[int, Grid] | None = None
    for size in sorted({round(tile[2]) for tile in tiles}):
        # One size, or smaller: a covered cell's inside may be drawn several pixels smaller than a live one's.
        alike = [tile for tile in tiles if size * 0.6 <= tile[2] <= size + max(2.0, size * 0.08)]
        found = _lattice(alike, size, gray)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    return None if best is None else best[1]


def _lattice(
    tiles: list[tuple[float, float, float]], size: float, gray: np.ndarray
) -> tuple[int, Grid] | None:
    """(tiles on it, grid) of the lattice of WIDTH columns the tiles of one size lie on, or None."""
    if len(tiles) < WIDTH:
        return None
    xs = sorted(tile[0] for tile in tiles)
    # The step across: the most common gap between neighbouring tiles of a row (a tile and a gap).
    gaps = [
        b[0] - a[0]
        for a in tiles
        for b in tiles
        if abs(a[1] - b[1]) < size / 4 and size * 0.95 < b[0] - a[0] < size * 1.6
    ]
    if not gaps:
        return None
    step = float(np.median(gaps))
    tolerance = max(2.0, step * 0.08)
    best: tuple[int, Grid] | None = None
    for left in xs:
        columns = [
            tile
            for tile in tiles
            if abs((tile[0] - left) / step - round((tile[0] - left) / step)) * step <= tolerance
        ]
        on = [tile for tile in columns if 0 <= round((tile[0] - left) / step) < WIDTH]
        used = {round((tile[0] - left) / step) for tile in on}
        if used != set(range(WIDTH)):
            continue
        tops = sorted(tile[1] for tile in on)
        top = tops[0]
        rows = {
            round((tile[1] - top) / step)
            for tile in on
            if abs((tile[1] - top) / step - round((tile[1] - top) / step)) * step <= tolerance
        }
        count = max(rows) + 1
        # Every row of the board shows tiles: a lone square far under the board is not a row of it.
        if any(row not in rows for row in range(count)):
            continue
        x0, y0 = left - step / 2, top - step / 2
        xs = tuple(x0 + k * step for k in range(WIDTH + 1))
        ys = tuple(y0 + k * step for k in range(count + 1))
        # Its bottom shows when nothing is drawn under the last row (a row cut by the frame is).
        grid = Grid(xs, ys, True, _is_bottom(gray, xs[0], xs[-1], ys[-1], step))
        if best is None or len(on) > best[0]:
            best = (len(on), grid)
    return best


# --- cells ---------------------------------------------------------------------------------------


def _cell_box(grid: Grid, row: int, col: int) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of a cell less its inset."""
    x0, x1 = grid.xs[col], grid.xs[col + 1]
    y0, y1 = grid.ys[row], grid.ys[row + 1]
    dx, dy = (x1 - x0) * INSET, (y1 - y0) * INSET
    return round(x0 + dx), round(y0 + dy), round(x1 - dx), round(y1 - dy)


def _read_cell(
    frame: np.ndarray, gray: np.ndarray, grid: Grid, row: int, col: int
) -> tuple[str, bool, float]:
    """(character, is blue, margin of the digit's match) of one cell."""
    x0, y0, x1, y1 = _cell_box(grid, row, col)
    patch = gray[y0:y1, x0:x1].astype(np.int16)
    if patch.size == 0:
        return EMPTY, False, 1.0
    values = patch.ravel()
    middle = _quantile(values, 0.5)
    if _quantile(values, 0.995) - middle > middle - _quantile(values, 0.005):
        # Light ink on the cell's ground (a selected cell drawn dark, a dark look): read it inverted.
        patch = 255 - patch
        values = patch.ravel()
    background = int(_quantile(values, 0.9))
    # The darkest pixels but a few (JPEG noise): ink is the background less the level.
    strongest = float(background - _quantile(values, 0.005))
    if strongest < FAINT_INK:
        return EMPTY, False, 1.0
    mask = (background - patch) > strongest / 2
    if mask.mean() < MIN_INK_SHARE:
        return EMPTY, False, 1.0
    blob = _largest_blob(mask)
    # A digit is about two thirds of a cell tall: a speck of dust or a line's end is not one.
    if blob is None or np.ptp(np.nonzero(blob)[0]) + 1 < MIN_GLYPH_HEIGHT * patch.shape[0]:
        return EMPTY, False, 1.0
    if strongest < LIVE_INK:
        return CLEARED, False, 1.0
    glyph = glyph_of(blob)
    if glyph is None:
        return EMPTY, False, 1.0
    digit, score, runner_up = match(glyph)
    colour = frame[y0:y1, x0:x1][mask].astype(np.int16)
    blue = bool(np.median(colour[:, 0] - colour[:, 2]) > 40)
    if score < MIN_SCORE or score - runner_up < MIN_MARGIN:
        return UNKNOWN, blue, score - runner_up
    return str(digit), blue, score - runner_up


def _quantile(values: np.ndarray, share: float) -> int:
    """The value at `share` of the way through the sorted values (np.partition: no full sort)."""
    index = min(len(values) - 1, int(share * len(values)))
    return int(np.partition(values, index)[index])


def _largest_blob(mask: np.ndarray) -> np.ndarray | None:
    """The largest 8-connected blob of a mask (a digit is one blob), or None when there is none."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return labels == largest


# --- the "+" button and its badge ---------------------------------------------------------------


def _blue_mask(frame: np.ndarray) -> np.ndarray:
    """Pixels of the game's saturated blue (the "+" sign, the badges)."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    return cv2.inRange(hsv, (95, 110, 90), (125, 255, 255))


def _saturated_mask(frame: np.ndarray) -> np.ndarray:
    """Pixels of any strong colour (a badge's disc: the game's blue, a red one)."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    return cv2.inRange(hsv, (0, 110, 90), (180, 255, 255))


def find_plus(frame: np.ndarray, grid: Grid, any_colour: bool = True) -> tuple[float, float] | None:
    """The centre of the "+" sign under the grid, or None: the game's blue cross, else (with
    `any_colour`) a cross lighter or darker than what is around it (a white "+" on a coloured button)."""
    top = int(grid.ys[-1])
    found = _cross_in(_blue_mask(frame[top:]), grid.cell)
    if found is None and any_colour:
        gray = cv2.cvtColor(frame[top:], cv2.COLOR_BGR2GRAY).astype(np.int16)
        size = int(grid.cell) | 1
        around = cv2.blur(gray, (size, size)).astype(np.int16)
        for mask in (gray - around > CROSS_CONTRAST, around - gray > CROSS_CONTRAST):
            found = _cross_in(mask.astype(np.uint8) * 255, grid.cell)
            if found is not None:
                break
    return None if found is None else (found[0], top + found[1])


CROSS_CONTRAST = 20  # grey levels a sign stands out from the mean of a cell's width around it


def _cross_in(mask: np.ndarray, cell: float) -> tuple[float, float] | None:
    """The centre of the first thin cross about a cell across in a mask, or None."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for index in range(1, count):
        x, y, width, height, area = stats[index]
        if not 0.2 * cell <= width <= 1.6 * cell or not 0.8 < width / max(height, 1) < 1.25:
            continue
        fill = area / (width * height)
        blob = labels[y : y + height, x : x + width] == index
        middle_row = blob[height // 2 - 1 : height // 2 + 2].any(axis=0).mean()
        middle_col = blob[:, width // 2 - 1 : width // 2 + 2].any(axis=1).mean()
        if fill < 0.45 and middle_row > 0.9 and middle_col > 0.9:
            return float(centroids[index][0]), float(centroids[index][1])
    return None


def read_adds(frame: np.ndarray, plus: tuple[float, float], cell: float) -> int | None:
    """The adds left in the badge at the upper right of the "+" sign, or None when none is there."""
    x, y = plus
    x0, x1 = int(x), int(x + 2.2 * cell)
    y0, y1 = int(max(0, y - 2.2 * cell)), int(y)
    area = frame[y0:y1, x0:x1]
    if area.size == 0:
        return None
    mask = _saturated_mask(area)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for index in range(1, count):
        bx, by, width, height, _ = stats[index]
        if not 0.2 * cell <= width <= 1.2 * cell or not 0.75 < width / max(height, 1) < 1.35:
            continue
        if bx == 0 or by == 0 or bx + width >= area.shape[1] or by + height >= area.shape[0]:
            continue  # cut by the search area: a digit of the grid above, not the badge
        # The badge is a blue disc; its digit is the white inside it.
        disc = (labels[by : by + height, bx : bx + width] == index).astype(np.uint8)
        filled = disc.copy()
        contours, _ = cv2.findContours(disc, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
        holes = (filled > 0) & (disc == 0)
        # A disc fills pi/4 of its box; a blue digit of the grid just above (a 6, 8, 9 has holes) less.
        if not 0.72 < filled.mean() < 0.86 or holes.mean() < 0.015:
            continue
        inner = cv2.erode(filled, np.ones((3, 3), np.uint8), iterations=max(1, width // 12)) > 0
        # The digit by brightness, halfway from the disc's blue to the digit's brightest: the blue
        # mask alone leaves out a blurred digit's edges and closes small gaps (a 5 read as a 6).
        gray = cv2.cvtColor(area[by : by + height, bx : bx + width], cv2.COLOR_BGR2GRAY).astype(np.int16)
        if not inner.any():
            continue
        digit = _badge_digit(gray, disc > 0, inner)
        if digit is not None:
            return digit
    return None


def _badge_digit(gray: np.ndarray, disc: np.ndarray, inner: np.ndarray) -> int | None:
    """The white digit inside a badge's disc, or None when it is not sure (a wrong count of adds
    would make the solver plan with adds the game does not have)."""
    blue_level = int(np.median(gray[disc]))
    # A badge a few dozen pixels across holds a digit a dozen tall: enlarged smoothly first, so that
    # the threshold keeps the strokes' shape (the gap of a 2 or a 5).
    factor = max(1, round(BADGE_HEIGHT / gray.shape[0]))
    if factor > 1:
        size = (gray.shape[1] * factor, gray.shape[0] * factor)
        gray = cv2.resize(gray.astype(np.float32), size, interpolation=cv2.INTER_CUBIC)
        inner = cv2.resize(inner.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST) > 0
    brightest = float(np.percentile(gray[inner], 99))
    glyph = glyph_of(((gray > (blue_level + brightest) / 2) & inner).astype(np.uint8))
    if glyph is None:
        return None
    digit, score, runner_up = match(glyph)
    if score < MIN_SCORE or score - runner_up < MIN_MARGIN:
        return None
    return digit
