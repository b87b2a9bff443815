"""A Shapes board placed in a window: its unit polygons scaled to pixels, and the cell under a pixel."""

from __future__ import annotations

from dataclasses import dataclass

from flowbot.shapes.board import ShapeBoard
from flowbot.shapes.geometry import Point, contains, edge_distance

Cell = tuple[int, int]  # (0, n) for cell n, as `Puzzle.from_shapes` numbers them


@dataclass(frozen=True, slots=True)
class ShapeMap:
    """A board's cells in window pixels: unit point (u, v) at (x0 + scale u, y0 + scale v).

    A pixel belongs to the cell whose polygon holds it; `cell_size` is the mean distance between linked
    cells' middles, as on every other kind of board.
    """

    board: ShapeBoard
    x0: float
    y0: float
    scale: float

    @property
    def cell_size(self) -> float:
        """Pixels between the middles of two linked cells, on average."""
        return self.scale

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The box around every cell, in pixels."""
        left, top, right, bottom = self.board.bounds
        return self._x(left), self._y(top), self._x(right), self._y(bottom)

    def center(self, cell: Cell) -> Point:
        """The pixel at a cell's middle."""
        u, v = self.board.centres[cell[1]]
        return self._x(u), self._y(v)

    def outline(self, cell: Cell) -> list[Point]:
        """A cell's polygon in pixels."""
        return [(self._x(u), self._y(v)) for u, v in self.board.outlines[cell[1]]]

    def border_middle(self, a: Cell, b: Cell) -> Point:
        """The pixel halfway along the border two linked cells share."""
        u, v = self.board.borders[(min(a[1], b[1]), max(a[1], b[1]))]
        return self._x(u), self._y(v)

    def room(self, cell: Cell) -> float:
        """Pixels from a cell's middle to its nearest edge (how large a dot fits in it)."""
        u, v = self.board.centres[cell[1]]
        return self.scale * edge_distance(self.board.outlines[cell[1]], u, v)

    def rims(self) -> list[tuple[Point, Point]]:
        """The board's outline (and the rims of its holes) as pixel segments."""
        return [((self._x(a[0]), self._y(a[1])), (self._x(b[0]), self._y(b[1]))) for a, b in self.board.rims]

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The cell whose polygon holds the pixel, or None off the board."""
        u, v = (x - self.x0) / self.scale, (y - self.y0) / self.scale
        for index, (outline, (left, top, right, bottom)) in enumerate(
            zip(self.board.outlines, self.board.boxes, strict=True)
        ):
            if left <= u <= right and top <= v <= bottom and contains(outline, u, v):
                return (0, index)
        return None

    def shifted(self, dx: float, dy: float) -> ShapeMap:
        """The same board moved by (dx, dy) pixels."""
        return ShapeMap(self.board, self.x0 + dx, self.y0 + dy, self.scale)

    def _x(self, u: float) -> float:
        """A unit x in pixels."""
        return self.x0 + self.scale * u

    def _y(self, v: float) -> float:
        """A unit y in pixels."""
        return self.y0 + self.scale * v
