"""Plan and replay strokes: one press-drag-release per flow, paced for the game at hand."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from flowbot.act.pointer import Pointer
from flowbot.model import Cell, Geometry, Solution

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class PointerSettings:
    """How to move for a given game. The defaults are safe for a game that samples input once per
    frame: a pause of a frame after every move, and every cell entered on its own."""

    moves_per_cell: int = 2  # points per cell step; games that drop jumps need at least 1
    corners_only: bool = False  # jumps: only the path's turns, for games that fill straight drags
    move_delay: float = 0.02  # seconds after each move: one frame at 50 fps
    release_pause: float = 0.05  # before releasing, so the last cell is registered
    flow_pause: float = 0.05  # between flows, for games that animate a finished flow
    settle: bool = True  # a small move inside the last cell, for games that need it before release

    @property
    def jumps(self) -> bool:
        """True when straight runs are one move each (the game fills the cells between)."""
        return self.corners_only


@dataclass(frozen=True, slots=True)
class Stroke:
    """One flow's drag: press at the first point, move through the rest, release at the last."""

    color: int
    cells: tuple[Cell, ...]
    points: tuple[Point, ...]


def plan_strokes(
    solution: Solution, geometry: Geometry, settings: PointerSettings, start: Point | None = None
) -> list[Stroke]:
    """A stroke per flow, from one endpoint to the other through every cell's centre (or only its
    turns, with jumps), the flows ordered and oriented to shorten the pointer's travel between them
    from `start` (default: the board's top-left corner)."""
    strokes = []
    for color, path in _ordered(solution.paths, geometry, start):
        centres = [geometry.center(cell) for cell in path]
        points: list[Point] = [centres[0]]
        for index in range(1, len(centres)):
            if settings.corners_only and index < len(centres) - 1 and not _is_corner(path, index):
                continue
            points.extend(
                _between(points[-1], centres[index], 1 if settings.corners_only else settings.moves_per_cell)
            )
        if settings.settle:
            # Nudge inside the last cell and come back: some games register a cell only on a move within it.
            x, y = centres[-1]
            nudge = geometry.cell_size * 0.15
            points.extend([(x + nudge, y), (x, y)])
        strokes.append(Stroke(color, tuple(path), tuple(points)))
    return strokes


def travel(strokes: list[Stroke], start: Point) -> float:
    """Pixels the pointer moves with the button up: from `start` to the first stroke, then between strokes."""
    total, here = 0.0, start
    for stroke in strokes:
        total += math.dist(here, stroke.points[0])
        here = stroke.points[-1]
    return total


def _ordered(
    paths: tuple[tuple[Cell, ...], ...], geometry: Geometry, start: Point | None
) -> list[tuple[int, tuple[Cell, ...]]]:
    """The flows as (colour, path) in drawing order: greedy nearest endpoint from `start`, each flow
    started from its nearer end; the solution's own order when that is no longer (it rarely is)."""
    here = start if start is not None else (geometry.xs[0], geometry.ys[0])
    naive = [(color, tuple(path)) for color, path in enumerate(paths)]
    left = dict(naive)
    greedy = []
    position = here
    while left:
        _, color, flipped = min(
            (math.dist(position, geometry.center(path[-1 if flip else 0])), color, flip)
            for color, path in left.items()
            for flip in (False, True)
        )
        path = left.pop(color)
        path = path[::-1] if flipped else path
        greedy.append((color, path))
        position = geometry.center(path[-1])

    def cost(order: list[tuple[int, tuple[Cell, ...]]]) -> float:
        """Travel between the flows' ends in this order."""
        total, position = 0.0, here
        for _, path in order:
            total += math.dist(position, geometry.center(path[0]))
            position = geometry.center(path[-1])
        return total

    return greedy if cost(greedy) <= cost(naive) else naive


def draw_strokes(
    pointer: Pointer,
    strokes: list[Stroke],
    settings: PointerSettings,
    should_stop: Callable[[], bool] = lambda: False,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Replay strokes with the pointer; stop between strokes when asked. Returns how many were drawn.

    A pointer may carry a guard (act/guard.py, set where the board is read): it is asked before each
    press whether the board is still there, and raises to stop the run when it is not."""
    drawn = 0
    guard = getattr(pointer, "guard", None)
    for stroke in strokes:
        if should_stop():
            break
        if guard is not None:
            guard.check(*stroke.points[0])
        pointer.move(*stroke.points[0])
        pointer.down()
        try:
            sleep(settings.move_delay)
            for point in stroke.points[1:]:
                pointer.move(*point)
                sleep(settings.move_delay)
            sleep(settings.release_pause)
        finally:
            pointer.up()  # never leave the button held, even when interrupted mid-stroke
        drawn += 1
        sleep(settings.flow_pause)
    return drawn


def _between(start: Point, end: Point, steps: int) -> list[Point]:
    """`steps` evenly spaced points from just after `start` to `end` (inclusive)."""
    return [
        (start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps)
        for k in range(1, steps + 1)
    ]


def _is_corner(path: tuple[Cell, ...] | list[Cell], index: int) -> bool:
    """True when the path turns at this cell."""
    before, here, after = path[index - 1], path[index], path[index + 1]
    return (here[0] - before[0], here[1] - before[1]) != (after[0] - here[0], after[1] - here[1])
