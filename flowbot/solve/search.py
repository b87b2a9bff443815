"""An exact depth-first search for small square boards: every solution it reports is one, and when it
finishes it has seen them all, so "none" and "only one" are proofs; a search that runs past its budget
says so and the SAT solver decides instead.

It exists for start-up: a 5x5 solved here never loads the SAT solver's C module, which costs more
than the whole search (see docs/benchmarks.md).
"""

from __future__ import annotations

import time

from flowbot.model import Cell, Puzzle

# The largest board searched: above it the search's worst cases outgrow what the SAT solver costs.
MAX_CELLS = 36
# Steps (a path grown by one cell, 10-40 us each) before the search gives up: about what loading
# the SAT solver costs. The corpus's 5x5 and 6x6 levels need 10-120 for a solution and its uniqueness.
STEP_BUDGET = 150

Paths = tuple[tuple[Cell, ...], ...]


class OutOfBudget(Exception):
    """The search took more steps than its budget: it proves nothing."""


class OutOfTime(Exception):
    """The search ran past its deadline."""


class Budget:
    """Steps and time left to a search (both rule sets of one solve draw on the same budget)."""

    def __init__(self, steps: int = STEP_BUDGET, end: float | None = None) -> None:
        self.steps = steps
        self.end = end  # a time.perf_counter() value, or None for no deadline

    def take(self) -> None:
        """Spend one step; OutOfBudget when none is left, OutOfTime past the deadline."""
        self.steps -= 1
        if self.steps < 0:
            raise OutOfBudget
        if self.end is not None and time.perf_counter() > self.end:
            raise OutOfTime


def searchable(puzzle: Puzzle) -> bool:
    """Whether the search takes this board: a square lattice (holes allowed) of at most MAX_CELLS cells."""
    return not puzzle.is_graph and puzzle.cell_count <= MAX_CELLS


def find_solutions(puzzle: Puzzle, *, strict: bool, limit: int, budget: Budget) -> list[Paths]:
    """Up to `limit` solutions under the strict rule (no path runs beside itself) or the relaxed one;
    fewer than `limit` means there are no more. Raises OutOfBudget or OutOfTime as `budget` runs out."""
    search = _Search(puzzle, strict, limit, budget)
    search.place(0)
    return search.found


class _Search:
    """The search's state: each cell's colour (or -1), the paths grown so far, the steps taken."""

    def __init__(self, puzzle: Puzzle, strict: bool, limit: int, budget: Budget) -> None:
        self.cells = list(puzzle.cells())
        index = {cell: i for i, cell in enumerate(self.cells)}
        self.around = [[index[other] for other in puzzle.neighbors(cell)] for cell in self.cells]
        self.color = [-1] * len(self.cells)
        self.ends = [(index[first], index[second]) for first, second in puzzle.endpoints]
        for color, pair in enumerate(self.ends):
            for end in pair:
                self.color[end] = color
        self.empty = len(self.cells) - 2 * len(self.ends)
        self.strict = strict
        self.limit = limit
        self.budget = budget
        self.paths: list[list[int]] = []
        self.found: list[Paths] = []

    def place(self, color: int) -> None:
        """Grow the path of `color` and, through it, of every later colour."""
        if color == len(self.ends):
            if self.empty == 0:
                self.found.append(tuple(tuple(self.cells[i] for i in path) for path in self.paths))
            return
        start, goal = self.ends[color]
        if not self._can_finish(color, start):
            return
        path = [start]
        self.paths.append(path)
        self._grow(color, path, goal)
        self.paths.pop()

    def _grow(self, color: int, path: list[int], goal: int) -> None:
        """Every way to lead `path` on from its head to `goal` through empty cells."""
        self.budget.take()
        head = path[-1]
        around = self.around[head]
        # Strict: a path beside its own endpoint must step onto it (side by side means joined).
        steps = (goal,) if self.strict and goal in around else around
        for step in steps:
            if len(self.found) >= self.limit:
                return
            if step == goal:
                path.append(goal)
                self.place(color + 1)
                path.pop()
                continue
            if self.color[step] != -1:
                continue
            if self.strict and any(
                self.color[other] == color and other != head and other != goal for other in self.around[step]
            ):
                continue  # the path would run beside itself
            self.color[step] = color
            self.empty -= 1
            path.append(step)
            if self._can_finish(color, step):
                self._grow(color, path, goal)
            path.pop()
            self.empty += 1
            self.color[step] = -1

    def _can_finish(self, color: int, head: int) -> bool:
        """Whether the path of `color` (at `head`) and every later colour can still be joined and fill
        the board: each empty cell has two ways out (empty cells or open ends), each region of empty
        cells borders both open ends of some colour, and each such colour has its ends in one region
        (or side by side)."""
        open_ends = [(head, self.ends[color][1]), *self.ends[color + 1 :]]
        is_open = set()
        for pair in open_ends:
            is_open.update(pair)
        region = [-1] * len(self.cells)
        regions = 0
        for cell, owner in enumerate(self.color):
            if owner != -1 or region[cell] != -1:
                continue
            region[cell] = regions
            stack = [cell]
            while stack:
                here = stack.pop()
                ways = 0
                for other in self.around[here]:
                    if self.color[other] == -1:
                        ways += 1
                        if region[other] == -1:
                            region[other] = regions
                            stack.append(other)
                    elif other in is_open:
                        ways += 1
                if ways < 2:
                    return False  # a dead end: whatever enters it cannot leave
            regions += 1
        served = [False] * regions
        for start, goal in open_ends:
            shared = self._touching(start, region) & self._touching(goal, region)
            if not shared and goal not in self.around[start]:
                return False
            for number in shared:
                served[number] = True
        return all(served)

    def _touching(self, cell: int, region: list[int]) -> set[int]:
        """The regions of empty cells beside `cell`."""
        return {region[other] for other in self.around[cell] if region[other] != -1}
