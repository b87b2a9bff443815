"""What a variant board read from a screenshot is, as plain data: no puzzle model, only text and pixels."""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]
Wall = frozenset[Cell]
# A line that wraps: ("row", r) joins the ends of row r, ("col", c) the ends of column c.
Warp = tuple[str, int]

KINDS = ("square", "bridges", "hexes", "warps")
# Labels by first appearance, as in the truth files and `flowbot solve --json`.
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
EMPTY, NO_CELL, BRIDGE = ".", "#", "+"


@dataclass(frozen=True)
class VariantReading:
    """A board read from a frame.

    kind : 'square' | 'bridges' | 'hexes' | 'warps' (a square board with a warp is 'warps', else
        with a bridge 'bridges'; walls come with any square kind)
    lines : the board as text, as the truth files write it: letters by first appearance, '.' empty,
        '#' no cell, '+' a bridge; hexes in odd-q columns (odd columns half a cell lower, row r the
        r-th cell position of every column).
    walls : pairs of neighbouring cells (row, col) with a wall drawn between them.
    warps : the rows ('row', r) and columns ('col', c) whose two ends join through the outline.
    centres : pixel (x, y) of each cell's middle, for drawing and playing.
    cell_size : pixels across a cell (a hexagon: flat side to flat side).
    names : the palette name (or None) of each letter's colour, in letter order.
    seen_rgb : each letter's colour as seen, in letter order.
    """

    kind: str
    lines: tuple[str, ...]
    walls: frozenset[Wall]
    warps: frozenset[Warp]
    centres: dict[Cell, tuple[float, float]] = field(hash=False)
    cell_size: float
    names: tuple[str | None, ...] = ()
    seen_rgb: tuple[tuple[int, int, int], ...] = ()

    @property
    def rows(self) -> int:
        """Rows of the text board."""
        return len(self.lines)

    @property
    def cols(self) -> int:
        """Columns of the text board."""
        return len(self.lines[0]) if self.lines else 0
