"""What a board of any cell shape read from a picture is, as plain data: cells, borders, endpoints."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Labels by first appearance in cell order, as in the truth files and `flowbot solve --json`.
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
EMPTY = "."

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
    """

    cells: tuple[ShapeCell, ...]
    neighbours: frozenset[Pair]
    borders: dict[Pair, tuple[float, float]] = field(hash=False)
    letters: str
    cell_size: float
    names: tuple[str | None, ...] = ()
    seen_rgb: tuple[tuple[int, int, int], ...] = ()

    @property
    def centres(self) -> list[tuple[float, float]]:
        """Every cell's middle (x, y), in cell order."""
        return [cell.centre for cell in self.cells]

    def around(self, index: int) -> list[int]:
        """The cells that share a border with cell `index`, in order."""
        return sorted(b if a == index else a for a, b in self.neighbours if index in (a, b))
