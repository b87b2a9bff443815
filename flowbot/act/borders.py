"""Strokes over a board of any cell shape (Flow Free: Shapes): from centre to centre through the middle of
each shared border, so a stroke between two bent or curved cells never cuts across a third. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise

from flowbot.act.plan import LEAD_IN, PointerSettings, Stroke, _between, _toward, plan_strokes
from flowbot.cellmap import CentreMap, Point
from flowbot.model import Cell, Solution

# How far (of a cell) either side of a border's middle a stroke steps across it: each side's point is
# clearly in its own cell (a point on the border is either cell by the game's rounding).
ACROSS = 0.12


def border_key(a: Cell, b: Cell) -> tuple[Cell, Cell]:
    """The key of the border two cells share: the smaller cell first."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True, slots=True)
class BorderMap(CentreMap):
    """Cell centres read from a screen (a CentreMap, as scrape saves them) and the middle of each border
    two neighbouring cells share, keyed by `border_key`."""

    middles: Mapping[tuple[Cell, Cell], Point] = field(default_factory=dict)

    def middle(self, a: Cell, b: Cell) -> Point | None:
        """The middle of the border cells `a` and `b` share, or None when none was read."""
        return self.middles.get(border_key(a, b))

    def shifted(self, dx: float, dy: float) -> BorderMap:
        """The same cells and borders moved by (dx, dy) pixels."""
        centres = {cell: (x + dx, y + dy) for cell, (x, y) in self.centres.items()}
        moved = {key: (x + dx, y + dy) for key, (x, y) in self.middles.items()}
        return BorderMap(centres, self.size, moved)


def plan_through_borders(
    solution: Solution,
    geometry: BorderMap,
    settings: PointerSettings,
    start: Point | None = None,
    avoid: Mapping[int, Cell] | None = None,
) -> list[Stroke]:
    """`plan_strokes`' flows in its order, each drawn from centre to centre through the middle of every
    border it crosses: just short of the middle in the cell left, just past it in the cell entered, then
    `moves_per_cell` points on to the centre. A flow with a step over no border read keeps its plan."""
    strokes = []
    for stroke in plan_strokes(solution, geometry, settings, start, avoid):
        points = _through(stroke.cells, geometry, max(1, settings.moves_per_cell))
        strokes.append(stroke if points is None else Stroke(stroke.color, stroke.cells, points))
    return strokes


def _through(cells: tuple[Cell, ...], geometry: BorderMap, moves: int) -> tuple[Point, ...] | None:
    """A flow's points through its borders' middles (lead-in and closing nudge as `plan_strokes` has
    them); None when two cells of it share no border read."""
    size = geometry.cell_size
    step = ACROSS * size
    points: list[Point] = [geometry.center(cells[0])]
    for before, here in pairwise(cells):
        middle = geometry.middle(before, here)
        if middle is None:
            return None
        centre = geometry.center(here)
        inside = _toward(middle, geometry.center(before), step)
        past = _toward(middle, centre, step)
        points.extend([inside, past])
        points.extend(_between(past, centre, moves))
    if len(points) > 1:
        points.insert(1, _toward(points[0], points[1], LEAD_IN * size))
    x, y = points[-1]
    nudge = size * 0.15
    points.extend([(x + nudge, y), (x, y)])
    return tuple(points)
