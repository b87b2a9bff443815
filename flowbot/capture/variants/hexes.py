"""Find a board of flat-topped hexagons: its lattice from the horizontal edges, its cells by their six
drawn edges, their odd-q rows and columns (as MANIFEST.md of the variant screenshots numbers them)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from flowbot.capture.variants.edges import coverage, edge_mask, near_lines
from flowbot.errors import CaptureError

Cell = tuple[int, int]

# A horizontal edge is a run of line pixels at least this long (pixels) and far flatter than long.
MIN_EDGE = 8
FLAT_RATIO = 0.2
# An edge counts as drawn when line pixels lie near this share of points along its middle.
EDGE_COVERAGE = 0.7
EDGE_POINTS = np.linspace(0.15, 0.85, 11)
# Fewer cells than this is no board (a 5x5 Hexes level has 22).
MIN_CELLS = 7
# Inside a hexagon (its middle, and 0.4 of a half cell around it) at most this share is line pixels.
INSIDE = 0.4
MAX_INSIDE = 0.2
# The lattice neighbour across each edge of a hexagon, edges in the order of HexLattice.vertices.
NEIGHBOURS = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))
# Missing cells inside are told only where the outline is this many times (and 2 px) thicker than
# the lines between cells (real boards: 3 times); thickness is measured across an edge at these
# points along it, reaching this share of a half cell either side.
OUTLINE_RATIO = 1.4
THICK_POINTS = np.array([0.35, 0.5, 0.65])
THICK_REACH = 0.3
# Widths of horizontal edges within this share of each other are taken as one board's edges.
SAME_WIDTH = 0.15


@dataclass(frozen=True, slots=True)
class HexLattice:
    """Flat-topped hexagons: column k's centre at x0 + pitch * k; centres of column k at
    y0 + half * m for every m of the parity of k + 1 (half: half a cell's height)."""

    x0: float
    pitch: float
    y0: float
    half: float

    @property
    def side(self) -> float:
        """The side of a hexagon (its centre to a vertex), pixels."""
        return self.pitch / 1.5

    def centre(self, k: int, m: int) -> tuple[float, float]:
        """Pixel (x, y) of the lattice position (column k, half-row m)."""
        return self.x0 + self.pitch * k, self.y0 + self.half * m

    def vertices(self, k: int, m: int) -> np.ndarray:
        """(6, 2) pixel corners of the hexagon at (k, m), clockwise from the right vertex."""
        x, y = self.centre(k, m)
        side, half = self.side, self.half
        return np.array(
            [
                (x + side, y),
                (x + side / 2, y + half),
                (x - side / 2, y + half),
                (x - side, y),
                (x - side / 2, y - half),
                (x + side / 2, y - half),
            ]
        )


@dataclass(frozen=True, slots=True)
class HexBoard:
    """The cells of a hex board: odd-q (row, col) -> pixel centre, and the lattice they sit on."""

    centres: dict[Cell, tuple[float, float]]
    lattice: HexLattice
    rows: int
    cols: int

    @property
    def height(self) -> float:
        """A cell's height, flat side to flat side, pixels."""
        return 2 * self.lattice.half


def find_hex_board(frame: np.ndarray, mask: np.ndarray | None = None) -> HexBoard:
    """The hex board on a frame; CaptureError when no lattice of hexagons with drawn edges is there.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    mask = edge_mask(frame) if mask is None else mask
    segments = _horizontal_edges(mask)
    if len(segments) < 4:
        raise CaptureError("no hexagon edges found")
    best: tuple[int, HexLattice, list] | None = None
    # Each family of edges of one width is a guess at the lattice; the one whose hexagons are drawn wins.
    for width in _width_modes(segments[:, 2]):
        family = segments[np.abs(segments[:, 2] - width) <= SAME_WIDTH * width]
        lattice = _fit_lattice(family, width)
        if lattice is None:
            continue
        cells = _drawn_cells(mask, lattice)
        if best is None or len(cells) > best[0]:
            best = (len(cells), lattice, cells)
    if best is None or best[0] < MIN_CELLS:
        raise CaptureError("no board of hexagons: too few hexagons with all six edges drawn")
    _, lattice, cells = best
    if _cluttered(mask, lattice, cells):
        raise CaptureError("no board of hexagons: line pixels fill the hexagons, not only their edges")
    holes = _enclosed_holes(mask, lattice, cells)
    return _odd_q(lattice, [cell for cell in cells if cell not in holes])


def _horizontal_edges(mask: np.ndarray) -> np.ndarray:
    """(N, 4) float: x of the middle, y, width, height of each flat run of line pixels."""
    runs = cv2.morphologyEx(
        mask.view(np.uint8), cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (MIN_EDGE, 1))
    )
    count, _, stats, centroids = cv2.connectedComponentsWithStats(runs, connectivity=8)
    found = []
    for index in range(1, count):
        left, _, width, height = stats[index, :4]
        if width >= 2 * MIN_EDGE and height <= FLAT_RATIO * width:
            found.append((left + width / 2, centroids[index][1], width, height))
    return np.array(found, dtype=np.float64).reshape(-1, 4)


def _width_modes(widths: np.ndarray) -> list[float]:
    """The typical widths of edges, most common first: centres of groups of similar widths."""
    order = sorted(widths, key=lambda width: -np.sum(np.abs(widths - width) <= SAME_WIDTH / 2 * width))
    modes: list[float] = []
    for width in order:
        if all(abs(width - mode) > SAME_WIDTH * mode for mode in modes):
            modes.append(float(width))
    return modes[:4]


def _fit_lattice(edges: np.ndarray, width: float) -> HexLattice | None:
    """The lattice whose horizontal edges these are: column pitch from neighbouring columns' edges,
    row pitch from edges of one column, phases by least squares; None if they do not repeat."""
    xs, ys = edges[:, 0], edges[:, 1]
    dx = np.abs(xs[:, None] - xs[None, :])
    dy = np.abs(ys[:, None] - ys[None, :])
    # A side is a bit shorter than its drawn edge (line ends and joints): neighbouring columns lie
    # 1.5 sides apart, cells of one column sqrt(3) sides.
    pitches = dx[(dx >= 1.1 * width) & (dx <= 1.9 * width)]
    heights = dy[(dx <= 0.25 * width) & (dy >= 1.2 * width) & (dy <= 2.3 * width)]
    if pitches.size == 0 or heights.size == 0:
        return None
    pitch = _refine(xs, float(np.median(pitches)))
    half = _refine(ys, float(np.median(heights)) / 2)
    if pitch is None or half is None:
        return None
    (x0, pitch), (y0, half) = pitch, half
    # Centres lie half a cell's height from a horizontal edge.
    return HexLattice(x0, pitch, y0 + half, half)


def _refine(values: np.ndarray, step: float) -> tuple[float, float] | None:
    """(origin, step) of the lattice origin + step * n that fits most values, by least squares."""
    phase = np.angle(np.mean(np.exp(2j * np.pi * values / step))) * step / (2 * np.pi)
    for _ in range(3):
        index = np.rint((values - phase) / step)
        fits = np.abs(values - phase - index * step) <= 0.15 * step
        if fits.sum() < 3 or np.ptp(index[fits]) == 0:
            return None
        step, phase = np.polyfit(index[fits], values[fits], 1)
    return float(phase), float(step)


def _drawn_cells(mask: np.ndarray, lattice: HexLattice) -> list[tuple[int, int]]:
    """Lattice positions (k, m) whose six edges are all drawn."""
    height, width = mask.shape
    near = near_lines(mask, max(2, round(0.08 * lattice.half)))
    ks = range(math.floor(-lattice.x0 / lattice.pitch), math.ceil((width - lattice.x0) / lattice.pitch) + 1)
    ms = range(math.floor(-lattice.y0 / lattice.half), math.ceil((height - lattice.y0) / lattice.half) + 1)
    places = [(k, m) for k in ks for m in ms]
    corners = np.array([lattice.vertices(k, m) for k, m in places]).reshape(-1, 2)
    ends = np.roll(corners.reshape(-1, 6, 2), -1, axis=1).reshape(-1, 2)
    drawn = (coverage(near, corners, ends, EDGE_POINTS) >= EDGE_COVERAGE).reshape(-1, 6).all(axis=1)
    found = [place for place, whole in zip(places, drawn, strict=True) if whole]
    # Hexagons sit at half-rows of one parity with their column's; a position of the other parity
    # straddles two cells, and passes only where dots' rims and noise happen to lie on its edges.
    parity = np.bincount([(k + m) % 2 for k, m in found], minlength=2).argmax()
    return [(k, m) for k, m in found if (k + m) % 2 == parity]


def _cluttered(mask: np.ndarray, lattice: HexLattice, cells: list[tuple[int, int]]) -> bool:
    """Whether the hexagons' insides are line pixels as much as their edges (noise, text, a photo):
    a board's cells are clear inside, a dot being too wide for a line."""
    angles = np.radians(np.arange(0, 360, 60))
    ring = INSIDE * lattice.half * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    offsets = np.vstack([[0.0, 0.0], ring])
    centres = np.array([lattice.centre(k, m) for k, m in cells])
    points = np.rint(centres[:, None, :] + offsets[None, :, :]).astype(int)
    height, width = mask.shape
    xs, ys = np.clip(points[..., 0], 0, width - 1), np.clip(points[..., 1], 0, height - 1)
    return float(mask[ys, xs].mean()) > MAX_INSIDE


def _enclosed_holes(mask: np.ndarray, lattice: HexLattice, cells: list[tuple[int, int]]) -> set:
    """Positions inside the board that are no cells: all six neighbours are cells, and each of its
    edges is the board's outline, drawn much thicker than the lines between cells. (A missing cell
    at the rim, or two side by side, show an edge not drawn and are never taken for cells.)"""
    corners = np.array([lattice.vertices(k, m) for k, m in cells])  # (cells, 6, 2)
    ends = np.roll(corners, -1, axis=1)
    along = ends - corners
    normal = np.stack([-along[..., 1], along[..., 0]], axis=-1) / np.linalg.norm(along, axis=-1)[..., None]
    reach = max(3, round(THICK_REACH * lattice.half))
    offsets = np.arange(-reach, reach + 1)
    # (cells, 6, points along, offsets across): how many line pixels cross the edge there.
    points = corners[:, :, None, :] + THICK_POINTS[None, None, :, None] * along[:, :, None, :]
    samples = points[..., None, :] + offsets[:, None] * normal[:, :, None, None, :]
    height, width = mask.shape
    xs = np.clip(np.rint(samples[..., 0]).astype(int), 0, width - 1)
    ys = np.clip(np.rint(samples[..., 1]).astype(int), 0, height - 1)
    thickness = np.median(mask[ys, xs].sum(axis=-1), axis=-1)  # (cells, 6)
    present = set(cells)
    shared = np.array([[(k + dk, m + dm) in present for dk, dm in NEIGHBOURS] for k, m in cells])
    if shared.all() or not shared.any():
        return set()
    inner, outline = float(np.median(thickness[shared])), float(np.median(thickness[~shared]))
    if outline < max(OUTLINE_RATIO * inner, inner + 2):
        return set()  # the outline is drawn no thicker: a missing cell inside cannot be told
    middle = (inner + outline) / 2
    enclosed = shared.all(axis=1)
    return {
        cell
        for cell, whole, edges in zip(cells, enclosed, thickness, strict=True)
        if whole and (edges >= middle).all()
    }


def _odd_q(lattice: HexLattice, cells: list[tuple[int, int]]) -> HexBoard:
    """Number the cells odd-q: column 0 the leftmost, odd columns half a cell lower, row 0 the top."""
    first = min(k for k, _ in cells)
    # Within an odd column a cell is half a row lower than the even one beside it: take that off.
    levels = {(k, m): m - (k - first) % 2 for k, m in cells}
    top = min(levels.values())
    centres = {}
    for (k, m), level in levels.items():
        centres[((level - top) // 2, k - first)] = lattice.centre(k, m)
    rows = 1 + max(row for row, _ in centres)
    cols = 1 + max(col for _, col in centres)
    return HexBoard(centres, lattice, rows, cols)
