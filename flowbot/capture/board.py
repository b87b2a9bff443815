"""Find the board in a frame: its grid, and which cells of the grid belong to it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from flowbot.capture.lines import Lattice, LineMasks, find_lattice, line_masks, small_differs
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


@dataclass(frozen=True, slots=True)
class Board:
    """The grid of a board on a frame, and the positions inside its bounding box that are not cells."""

    geometry: Geometry
    holes: frozenset[Cell]

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


def board_candidates(frame: np.ndarray, failures: list[str]) -> Iterator[Board]:
    """Boards the frame may hold, by the evidence for them, most trusted first: bright grid lines;
    dark gaps between tiles (or dark lines on a light board); the same for a board much smaller than
    the frame; the regular lattice of dots and faint markers in a flat panel. Why a way found
    nothing is appended to `failures`.
    """
    ways = [(False, False), (True, False)]
    if small_differs(frame):
        ways += [(False, True), (True, True)]
    for dark, small in ways:
        try:
            lattice, closed = _cells(frame, dark, small)
        except CaptureError as error:
            failures.append(str(error))
            continue
        yield _board(lattice.xs, lattice.ys, closed)
    grid = find_panel_grid(frame)
    if grid is None:
        failures.append("no lattice of dots in a panel")
        return
    yield Board(Geometry(grid.xs, grid.ys), frozenset())


def _board(xs: tuple[float, ...], ys: tuple[float, ...], closed: np.ndarray) -> Board:
    """The board spanned by the closed cells of a lattice; positions inside it not closed are holes."""
    rows = np.flatnonzero(closed.any(axis=1))
    cols = np.flatnonzero(closed.any(axis=0))
    top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    inside = closed[top:bottom, left:right]
    geometry = Geometry(xs[left : right + 1], ys[top : bottom + 1])
    holes = frozenset((int(row), int(col)) for row, col in zip(*np.nonzero(~inside), strict=True))
    return Board(geometry, holes)


def _cells(frame: np.ndarray, dark: bool, small: bool) -> tuple[Lattice, np.ndarray]:
    """The lines, their lattice and the closed cells, from bright lines (or dark gaps)."""
    masks = line_masks(frame, dark=dark, small=small)
    kind = ("tile gaps or dark lines" if dark else "grid lines") + (" at small scale" if small else "")
    lattice = find_lattice(masks)
    if lattice is None:
        raise CaptureError(f"no evenly spaced {kind}")
    closed = _closed_cells(masks, lattice)
    if closed.sum() < 4:
        raise CaptureError(f"{kind} close no cells")
    rows, cols = np.flatnonzero(closed.any(axis=1)), np.flatnonzero(closed.any(axis=0))
    if rows[-1] - rows[0] < 1 or cols[-1] - cols[0] < 1:
        raise CaptureError(f"{kind} close only a {rows[-1] - rows[0] + 1}x{cols[-1] - cols[0] + 1} grid")
    return lattice, closed


def _closed_cells(masks: LineMasks, lattice: Lattice) -> np.ndarray:
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
    return horizontal[:-1] & horizontal[1:] & vertical[:, :-1] & vertical[:, 1:]


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


def _edges(
    mask: np.ndarray, ridge: np.ndarray, lines: tuple[float, ...], across: tuple[float, ...], virtual
) -> _EdgeEvidence:
    """The evidence for each stretch of each line between its crossings with the lines across.

    mask, ridge : (H, W) ndarrays with the lines running along axis 1.
    """
    height, width = mask.shape
    step = (lines[-1] - lines[0]) / (len(lines) - 1)
    tolerance = max(2, round(0.06 * step))
    starts = np.asarray(across[:-1], dtype=np.float64)
    lengths = np.diff(np.asarray(across, dtype=np.float64))
    parts = [
        (np.rint(starts + low * lengths).astype(int), np.rint(starts + high * lengths).astype(int))
        for low, high in OUTER_THIRDS
    ]
    usable = np.all([(high > low) & (low >= 0) & (high <= width) for low, high in parts], axis=0)
    shape = (len(lines), len(across) - 1)
    covered, strength, cluttered = np.zeros(shape), np.zeros(shape), np.ones(shape)
    for index, position in enumerate(lines):
        if index in virtual:
            covered[index], strength[index], cluttered[index] = 1.0, np.inf, 0.0
            continue
        band = _band(mask, position, tolerance, height)
        peak = _band(ridge, position, tolerance, height)
        # A quarter of the way into a cell a grid leaves the picture clear (halfway would cross the
        # caps of round dots, which look like short lines); one side of an edge is a board cell.
        clutter = np.minimum(
            _band(mask, position - step / 4, tolerance, height),
            _band(mask, position + step / 4, tolerance, height),
        )
        covered[index] = np.where(usable, np.minimum(*_part_means(band, parts)), 0.0)
        strength[index] = np.where(usable, np.minimum(*_part_means(peak, parts)), 0.0)
        cluttered[index] = np.where(usable, np.add(*_part_means(clutter, parts)) / 2, 1.0)
    return _EdgeEvidence(covered, strength, cluttered)


def _part_means(values: np.ndarray, parts: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """The mean of `values` over each [low, high) stretch, for every edge at once (running sums)."""
    total = np.concatenate(([0.0], np.cumsum(values, dtype=np.float64)))
    limit = len(values)
    means = []
    for low, high in parts:
        low, high = np.clip(low, 0, limit), np.clip(high, 0, limit)
        means.append((total[high] - total[low]) / np.maximum(high - low, 1))
    return means


def _band(image: np.ndarray, position: float, tolerance: int, height: int) -> np.ndarray:
    """Per column, the largest value within `tolerance` rows of `position` (any line pixel, for masks)."""
    low = max(0, round(position) - tolerance)
    high = min(height, round(position) + tolerance + 1)
    if high <= low:
        return np.zeros(image.shape[1], dtype=image.dtype)
    return image[low:high].max(axis=0)
