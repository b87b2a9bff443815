"""A Shapes board without pixels: its cells' unit polygons and middles, and which cells share a border."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from flowbot.shapes.geometry import (
    Point,
    Polygon,
    along,
    area,
    box,
    centroid,
    contains,
    edge_distance,
    middle_of,
    piece_length,
    shared_pieces,
)

# Two cells are linked when the border they share is at least this long, in units of the mean distance
# between linked cells' middles: cells that only touch at a corner are not.
MIN_BORDER = 0.05
# Cells in one row of the reading order have middles this close in height (in the same units).
ROW_SLACK = 0.2

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ShapeBoard:
    """A board of any cell shape, in units where linked cells' middles lie 1 apart on average.

    outlines : each cell's polygon, cells numbered in reading order (rows of middles, then left to right).
    centres : each cell's middle, inside its polygon.
    links : pairs (a < b) of cells that share a border of real length.
    borders : for each link, the point halfway along the border the two cells share.
    rims : the stretches of the cells' edges that no other cell shares (the board's outline, and the
        rims of its holes).
    boxes : each cell's left, top, right and bottom (a quick test before the polygon's own).
    """

    name: str
    outlines: tuple[Polygon, ...]
    centres: tuple[Point, ...]
    links: tuple[Pair, ...]
    borders: dict[Pair, Point]
    rims: tuple[tuple[Point, Point], ...]
    boxes: tuple[tuple[float, float, float, float], ...]

    @property
    def count(self) -> int:
        """How many cells the board has."""
        return len(self.outlines)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The left, top, right and bottom of every cell."""
        boxes = self.boxes
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )

    def neighbours(self, cell: int) -> list[int]:
        """The cells that share a border with this one."""
        return [b if a == cell else a for a, b in self.links if cell in (a, b)]


def board_of(name: str, polygons: Sequence[Sequence[Point]]) -> ShapeBoard:
    """The board these cell polygons make: linked by shared borders, scaled to unit spacing, put in
    reading order, its top-left at (0, 0)."""
    cells = [tuple((float(x), float(y)) for x, y in polygon) for polygon in polygons]
    cells = [cell if area(cell) > 0 else cell[::-1] for cell in cells]  # one winding for all
    pairs = _shared(cells)
    spacing = sum(math.dist(centroid(cells[a]), centroid(cells[b])) for a, b in pairs) / len(pairs)
    left = min(x for cell in cells for x, _ in cell)
    top = min(y for cell in cells for _, y in cell)
    cells = [tuple(((x - left) / spacing, (y - top) / spacing) for x, y in cell) for cell in cells]
    middles = [_middle(cell) for cell in cells]
    order = _reading_order(middles)
    cells = [cells[index] for index in order]
    middles = [middles[index] for index in order]
    pairs = _shared(cells)
    borders = {pair: middle_of(pieces) for pair, pieces in pairs.items()}
    boxes = tuple(box(cell) for cell in cells)
    return ShapeBoard(name, tuple(cells), tuple(middles), tuple(sorted(pairs)), borders, _rims(cells), boxes)


def _shared(cells: list[Polygon]) -> dict[Pair, list[tuple[Point, Point]]]:
    """The borders cells share, by pair of cells, where at least MIN_BORDER long (of a typical cell)."""
    boxes = [box(cell) for cell in cells]
    # A typical cell's size, so the threshold does not depend on the units the polygons came in.
    size = math.sqrt(sum(area(cell) for cell in cells) / len(cells))
    pairs = {}
    for a in range(len(cells)):
        for b in range(a + 1, len(cells)):
            if not _boxes_meet(boxes[a], boxes[b], 1e-6 * size):
                continue
            pieces = shared_pieces(cells[a], cells[b])
            if piece_length(pieces) >= MIN_BORDER * size:
                pairs[(a, b)] = pieces
    return pairs


def _rims(cells: list[Polygon]) -> tuple[tuple[Point, Point], ...]:
    """The edges (whole, or the parts) of cells that no other cell runs along."""
    pieces = []
    boxes = [box(cell) for cell in cells]
    for index, cell in enumerate(cells):
        others = [
            other
            for at, other in enumerate(cells)
            if at != index and _boxes_meet(boxes[at], boxes[index], 1e-6)
        ]
        for position in range(len(cell)):
            edge = (cell[position - 1], cell[position])
            covered = sum(piece_length(along(*edge, other)) for other in others)
            if covered < 0.5 * math.dist(*edge):
                pieces.append(edge)
    return tuple(pieces)


def _boxes_meet(first: tuple[float, ...], second: tuple[float, ...], slack: float) -> bool:
    """True when two boxes overlap or touch."""
    return not (
        first[2] < second[0] - slack
        or second[2] < first[0] - slack
        or first[3] < second[1] - slack
        or second[3] < first[1] - slack
    )


def _middle(cell: Polygon) -> Point:
    """The cell's middle: its centroid, or where a bent cell's centroid falls outside it, the point of a
    fine grid over it farthest from its edges."""
    x, y = centroid(cell)
    if contains(cell, x, y):
        return x, y
    left, top, right, bottom = box(cell)
    steps = 40
    grid = [
        (left + (right - left) * (i + 0.5) / steps, top + (bottom - top) * (j + 0.5) / steps)
        for i in range(steps)
        for j in range(steps)
    ]
    return max((p for p in grid if contains(cell, *p)), key=lambda p: edge_distance(cell, *p))


def _reading_order(middles: list[Point]) -> list[int]:
    """Cell indices in reading order: rows of middles at about one height, each left to right."""
    by_height = sorted(range(len(middles)), key=lambda index: (middles[index][1], middles[index][0]))
    rows: list[list[int]] = []
    for index in by_height:
        if rows and middles[index][1] - middles[rows[-1][0]][1] <= ROW_SLACK:
            rows[-1].append(index)
        else:
            rows.append([index])
    return [index for row in rows for index in sorted(row, key=lambda at: middles[at][0])]
