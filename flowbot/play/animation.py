"""Replay a solution on a board as strokes, one cell at a time, paced to take a few seconds at any size."""

from __future__ import annotations

import math
from dataclasses import dataclass

from flowbot.game.board import GameBoard
from flowbot.model import Cell, Solution

# The whole replay lasts about this long, on a 5x5 or a 20x20 board alike.
TOTAL_SECONDS = 2.5
# Small boards step no slower than this (a 5x5 would otherwise crawl) ...
SLOWEST_TICK = 0.08
# ... and big ones no faster than a terminal can show: several cells per tick instead.
FASTEST_TICK = 0.02


@dataclass(frozen=True, slots=True)
class Pace:
    """How the replay is paced: cells drawn per tick and seconds between ticks."""

    cells_per_tick: int
    seconds_per_tick: float


def pace(steps: int) -> Pace:
    """The pace that draws `steps` cells in about TOTAL_SECONDS at most."""
    steps = max(1, steps)
    seconds = TOTAL_SECONDS / steps
    if seconds >= FASTEST_TICK:
        return Pace(1, min(SLOWEST_TICK, seconds))
    cells = math.ceil(steps * FASTEST_TICK / TOTAL_SECONDS)
    return Pace(cells, TOTAL_SECONDS / math.ceil(steps / cells))


class Animation:
    """The solution's flows drawn one after another, each as one stroke from its first dot to its second."""

    def __init__(self, solution: Solution) -> None:
        # Each step puts the pointer on a cell: the first of a path presses, the rest drag.
        self.steps: list[tuple[Cell, bool]] = [
            (cell, position == 0) for path in solution.paths for position, cell in enumerate(path)
        ]
        self.position = 0
        self.pace = pace(len(self.steps))

    @property
    def done(self) -> bool:
        """True when every step has been played."""
        return self.position >= len(self.steps)

    def advance(self, board: GameBoard, count: int | None = None) -> Cell | None:
        """Play the next `count` steps (one tick's worth by default; all with -1); returns the last cell."""
        count = self.pace.cells_per_tick if count is None else count
        end = len(self.steps) if count < 0 else min(len(self.steps), self.position + count)
        cell = None
        while self.position < end:
            cell, first = self.steps[self.position]
            if first:
                board.press(cell)  # releases the previous flow's stroke too
            else:
                board.drag(cell)
            self.position += 1
        if self.done:
            board.release()
        return cell
