"""Maps between board cells and pixels for every kind of board, beside the square `model.Geometry`.

Each map has `center(cell)`, `cell_at(x, y)`, `cell_size` (pixels between neighbouring centres) and
`bounds` (left, top, right, bottom of the board's drawing). Pure: the game, the stroke planner and the
bot share them.

- `HexGeometry`: flat-topped hexagons in columns, the columns of parity `lower` half a cell lower.
- `WarpGates`: a square grid whose warp openings lead through: a pixel just outside the board beyond
  an edge cell of a wrapping row or column stands for the cell on the other side of the warp.
- `CentreMap`: whatever cell centres were read from a screen, nearest centre within half a cell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from flowbot.lattice import warp_ends
from flowbot.model import Cell, Geometry, Puzzle

Point = tuple[float, float]
Box = tuple[float, float, float, float]

SQRT3 = math.sqrt(3.0)
GATE_DEPTH = 1.0  # of a cell: how far past the board a warp opening still leads through


class CellMap(Protocol):
    """What the game and the planner need of a board's place on screen."""

    @property
    def cell_size(self) -> float: ...

    @property
    def bounds(self) -> Box: ...

    def center(self, cell: Cell) -> Point: ...

    def cell_at(self, x: float, y: float) -> Cell | None: ...


@dataclass(frozen=True, slots=True)
class HexGeometry:
    """Flat-topped hexagons of circumradius `radius`; cell (0, 0)'s lattice centre at (x0, y0).

    A column is `1.5 * radius` from the next; a cell `sqrt(3) * radius` below the one above it; the
    columns of parity `lower` sit half of that lower. `cells` are the board's cells (for `bounds`).
    """

    x0: float
    y0: float
    radius: float
    rows: int
    cols: int
    lower: int = 1
    cells: frozenset[Cell] = field(default=frozenset())

    @property
    def cell_size(self) -> float:
        """Pixels between the centres of two neighbouring cells."""
        return SQRT3 * self.radius

    @property
    def bounds(self) -> Box:
        """The box around every cell's hexagon."""
        cells = self.cells or frozenset((r, c) for r in range(self.rows) for c in range(self.cols))
        xs = [self.center(cell)[0] for cell in cells]
        ys = [self.center(cell)[1] for cell in cells]
        half = self.cell_size / 2
        return min(xs) - self.radius, min(ys) - half, max(xs) + self.radius, max(ys) + half

    def center(self, cell: Cell) -> Point:
        """The pixel at the middle of a cell's hexagon."""
        row, col = cell
        drop = 0.5 if col % 2 == self.lower else 0.0
        return self.x0 + 1.5 * self.radius * col, self.y0 + self.cell_size * (row + drop)

    def corners(self, cell: Cell, inset: float = 0.0) -> list[Point]:
        """The six corners of a cell's hexagon, `inset` pixels in from the true outline."""
        x, y = self.center(cell)
        reach = self.radius - inset / (SQRT3 / 2) if inset else self.radius
        return [
            (x + reach * math.cos(math.pi / 3 * k), y + reach * math.sin(math.pi / 3 * k)) for k in range(6)
        ]

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The cell whose hexagon holds the pixel (the nearest lattice centre), or None off the lattice."""
        guess = round((x - self.x0) / (1.5 * self.radius))
        best: tuple[float, Cell] | None = None
        for col in (guess - 1, guess, guess + 1):
            drop = 0.5 if col % 2 == self.lower else 0.0
            row = round((y - self.y0) / self.cell_size - drop)
            for r in (row - 1, row, row + 1):
                cx, cy = self.center((r, col))
                distance = math.hypot(x - cx, y - cy)
                if best is None or distance < best[0]:
                    best = (distance, (r, col))
        assert best is not None
        row, col = best[1]
        return best[1] if 0 <= row < self.rows and 0 <= col < self.cols else None

    def shifted(self, dx: float, dy: float) -> HexGeometry:
        """The same board moved by (dx, dy) pixels."""
        x0, y0 = self.x0 + dx, self.y0 + dy
        return HexGeometry(x0, y0, self.radius, self.rows, self.cols, self.lower, self.cells)


@dataclass(frozen=True, slots=True)
class Gate:
    """A warp opening: the box outside the board beyond `edge` cell, leading to `through` cell."""

    box: Box
    edge: Cell
    through: Cell
    outward: tuple[int, int]  # the direction out of the board, as (d_row, d_col)

    def contains(self, x: float, y: float) -> bool:
        """True when the pixel lies in the opening's box."""
        left, top, right, bottom = self.box
        return left <= x < right and top <= y < bottom


@dataclass(frozen=True, slots=True)
class WarpGates:
    """A square grid with its warp openings: a pixel in an opening stands for the cell it leads to."""

    geometry: Geometry
    gates: tuple[Gate, ...] = ()

    @classmethod
    def of(cls, geometry: Geometry, puzzle: Puzzle) -> WarpGates:
        """The openings of a puzzle's warps on this grid: one at each end of each wrapping line."""
        depth = GATE_DEPTH * geometry.cell_size
        left, top, right, bottom = geometry.bounds
        gates = []
        for axis, at in sorted(puzzle.warps):
            ends = warp_ends((axis, at), puzzle.on_board, puzzle.rows, puzzle.cols)
            if ends is None:
                continue
            last, first = ends
            if axis == "row":
                y0, y1 = geometry.ys[at], geometry.ys[at + 1]
                gates.append(Gate((right, y0, right + depth, y1), last, first, (0, 1)))
                gates.append(Gate((left - depth, y0, left, y1), first, last, (0, -1)))
            else:
                x0, x1 = geometry.xs[at], geometry.xs[at + 1]
                gates.append(Gate((x0, bottom, x1, bottom + depth), last, first, (1, 0)))
                gates.append(Gate((x0, top - depth, x1, top), first, last, (-1, 0)))
        return cls(geometry, tuple(gates))

    @property
    def cell_size(self) -> float:
        """Pixels between neighbouring cell centres."""
        return self.geometry.cell_size

    @property
    def bounds(self) -> Box:
        """The grid's box (the openings lie outside it)."""
        return self.geometry.bounds

    @property
    def xs(self) -> tuple[float, ...]:
        """The grid's vertical lines."""
        return self.geometry.xs

    @property
    def ys(self) -> tuple[float, ...]:
        """The grid's horizontal lines."""
        return self.geometry.ys

    def center(self, cell: Cell) -> Point:
        """The pixel at the middle of a cell."""
        return self.geometry.center(cell)

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The cell under a pixel; in a warp opening, the cell on the other side of the warp."""
        cell = self.geometry.cell_at(x, y)
        if cell is not None:
            return cell
        return next((gate.through for gate in self.gates if gate.contains(x, y)), None)

    def shifted(self, dx: float, dy: float) -> WarpGates:
        """The same grid and openings moved by (dx, dy) pixels."""
        moved = tuple(
            Gate((g.box[0] + dx, g.box[1] + dy, g.box[2] + dx, g.box[3] + dy), g.edge, g.through, g.outward)
            for g in self.gates
        )
        return WarpGates(self.geometry.shifted(dx, dy), moved)


@dataclass(frozen=True, slots=True)
class CentreMap:
    """Cell centres read from a screen: each pixel belongs to the nearest centre within half a cell."""

    centres: Mapping[Cell, Point]
    size: float

    @classmethod
    def of(cls, centres: Mapping[Cell, Point] | Iterable[tuple[Cell, Point]], size: float) -> CentreMap:
        """A map from (cell, centre) pairs and the distance between neighbouring centres."""
        return cls(dict(centres), float(size))

    @property
    def cell_size(self) -> float:
        """Pixels between neighbouring cell centres."""
        return self.size

    @property
    def bounds(self) -> Box:
        """The box around every cell, half a cell past the outer centres."""
        xs = [x for x, _ in self.centres.values()]
        ys = [y for _, y in self.centres.values()]
        half = self.size / 2
        return min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half

    def center(self, cell: Cell) -> Point:
        """The pixel read as the cell's middle."""
        return self.centres[cell]

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The cell whose centre is nearest, if within half a cell."""
        cell, (cx, cy) = min(self.centres.items(), key=lambda item: math.dist(item[1], (x, y)))
        return cell if math.hypot(x - cx, y - cy) <= self.size / 2 else None

    def shifted(self, dx: float, dy: float) -> CentreMap:
        """The same centres moved by (dx, dy) pixels."""
        return CentreMap({cell: (x + dx, y + dy) for cell, (x, y) in self.centres.items()}, self.size)
