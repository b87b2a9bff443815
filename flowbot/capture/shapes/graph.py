"""What a board of any cell shape read from a picture is, as plain data: cells, borders, endpoints."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Labels by first appearance in cell order, as in the truth files and `flowbot solve --json`.
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
EMPTY = "."

# Two linked cells whose middles lie within this many cells of each other are side by side.
SIDE_BY_SIDE = 1.6

Pair = tuple[int, int]
"""Two cells' numbers, the smaller first: they share a border."""


@dataclass(frozen=True)
class ShapeCell:
    """One cell: its pixel outline (N, 2) int (x, y) and its middle (x, y)."""

    outline: np.ndarray = field(compare=False, hash=False)
    centre: tuple[float, float]


@dataclass(frozen=True)
class ShapeReading:
    """A board read as a graph of cells.

    cells : in reading order (by the middle's y, then x); a cell's number is its place here.
    neighbours : pairs of cells (a < b) that share a border of real length.
    borders : for each pair, the pixel (x, y) in the middle of the border they share.
    letters : one character per cell: '.' empty, a letter an endpoint (letters by first appearance).
    cell_size : pixels across a typical cell (the square root of the median cell's area).
    names : the palette name (or None) of each letter's colour, in letter order.
    seen_rgb : each letter's colour as seen, in letter order.
    keys : the puzzle's cell (row, col) of each cell, in order: (0, n) for a Shapes board's cell n
        (the default, left empty), the lattice's own cell for a square or hex board.
    """

    cells: tuple[ShapeCell, ...]
    neighbours: frozenset[Pair]
    borders: dict[Pair, tuple[float, float]] = field(hash=False)
    letters: str
    cell_size: float
    names: tuple[str | None, ...] = ()
    seen_rgb: tuple[tuple[int, int, int], ...] = ()
    keys: tuple[tuple[int, int], ...] = ()

    def key(self, index: int) -> tuple[int, int]:
        """The puzzle's cell (row, col) of cell `index`."""
        return self.keys[index] if self.keys else (0, index)

    @property
    def centres(self) -> list[tuple[float, float]]:
        """Every cell's middle (x, y), in cell order."""
        return [cell.centre for cell in self.cells]

    def around(self, index: int) -> list[int]:
        """The cells that share a border with cell `index`, in order."""
        return sorted(b if a == index else a for a, b in self.neighbours if index in (a, b))


def lattice_graph(
    keys: list[tuple[int, int]],
    centres: dict[tuple[int, int], tuple[float, float]],
    links: list[tuple[tuple[int, int], tuple[int, int]]],
    letters: dict[tuple[int, int], str],
    outline,
    cell_size: float,
    names: tuple[str | None, ...] = (),
    seen_rgb: tuple[tuple[int, int, int], ...] = (),
) -> ShapeReading:
    """A square or hex board as a graph of cells, the same type a Shapes board reads as: `keys` its
    cells in order, `outline(key)` each one's pixel polygon (N, 2); a border's middle lies halfway
    between two linked cells' middles when they are side by side (a warp's two ends are not)."""
    number = {key: index for index, key in enumerate(keys)}
    cells = tuple(ShapeCell(np.asarray(outline(key), dtype=np.int32), centres[key]) for key in keys)
    pairs, borders = set(), {}
    for a, b in links:
        pair = (min(number[a], number[b]), max(number[a], number[b]))
        pairs.add(pair)
        (x0, y0), (x1, y1) = centres[a], centres[b]
        if np.hypot(x1 - x0, y1 - y0) <= SIDE_BY_SIDE * cell_size:
            borders[pair] = ((x0 + x1) / 2, (y0 + y1) / 2)
    text = "".join(letters.get(key, EMPTY) for key in keys)
    return ShapeReading(cells, frozenset(pairs), borders, text, cell_size, names, seen_rgb, tuple(keys))


def square_outline(centre: tuple[float, float], size: float) -> np.ndarray:
    """The corners (4, 2) of a square cell of side `size` around its middle."""
    x, y, half = centre[0], centre[1], size / 2
    return np.rint([(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)])


def hexagon_outline(centre: tuple[float, float], height: float) -> np.ndarray:
    """The corners (6, 2) of a flat-topped hexagon `height` from flat side to flat side."""
    radius = height / np.sqrt(3)
    angles = np.radians(np.arange(0, 360, 60))
    xs, ys = centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles)
    return np.rint(np.stack([xs, ys], axis=1))
