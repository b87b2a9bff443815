"""Board builders for tests: random solvable boards and a brute-force solution counter."""

from __future__ import annotations

import random

from flowbot.model import Puzzle
from flowbot.solve.check import touches_itself

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def snake_board(rng: random.Random, rows: int, cols: int, max_walls: int = 2) -> Puzzle:
    """A solvable board: one snake through the grid cut into flows; some pieces become holes."""
    order = []
    for row in range(rows):
        line = [(row, col) for col in range(cols)]
        order.extend(line if row % 2 == 0 else reversed(line))
    if rng.random() < 0.5:  # the same snake column by column
        order = [(col, row) for row, col in order] if rows == cols else order
    pieces, start = [], 0
    while start < len(order):
        length = min(rng.randint(2, max(2, len(order) // 3)), len(order) - start)
        if len(order) - start - length == 1:
            length += 1  # never leave a single cell behind
        pieces.append(order[start : start + length])
        start += length
    grid = [["."] * cols for _ in range(rows)]
    walls = 0
    flows = 0
    for piece in pieces:
        if walls < max_walls and len(pieces) - walls > 1 and rng.random() < 0.2:
            for row, col in piece:
                grid[row][col] = "#"
            walls += 1
            continue
        label = LABELS[flows]
        flows += 1
        grid[piece[0][0]][piece[0][1]] = label
        grid[piece[-1][0]][piece[-1][1]] = label
    return Puzzle.from_rows(["".join(line) for line in grid])


def count_solutions(puzzle: Puzzle, limit: int = 3) -> tuple[int, int]:
    """Count (strict, relaxed) solutions by plain depth-first search, up to `limit` each."""
    counts = [0, 0]
    total = puzzle.cell_count
    used: set = set()
    paths: list[list] = []

    def extend(color: int, path: list) -> None:
        if counts[1] >= limit:
            return
        head = path[-1]
        goal = puzzle.endpoints[color][1]
        if head == goal:
            paths.append(path)
            place(color + 1)
            paths.pop()
            return
        for step in puzzle.neighbors(head):
            if step in used:
                continue
            if step != goal and puzzle.endpoint_color(step) is not None:
                continue
            used.add(step)
            path.append(step)
            extend(color, path)
            path.pop()
            used.discard(step)

    def place(color: int) -> None:
        if color == len(puzzle.colors):
            if len(used) == total:
                counts[1] += 1
                if counts[0] < limit and not any(touches_itself(path) for path in paths):
                    counts[0] += 1
            return
        start = puzzle.endpoints[color][0]
        used.add(start)
        extend(color, [start])
        used.discard(start)

    place(0)
    return counts[0], counts[1]


def canonical(rows: list[str]) -> list[str]:
    """Rows with colour labels renamed A, B, C... in order of first appearance, as a reading names them."""
    names: dict[str, str] = {}
    for char in "".join(rows):
        if char not in ".#" and char not in names:
            names[char] = LABELS[len(names)]
    return ["".join(names.get(char, char) for char in row) for row in rows]


def count_graph_solutions(puzzle: Puzzle, limit: int = 3) -> tuple[int, int]:
    """Count (strict, relaxed) solutions of a board with bridges, hexes, warps or walls by plain search.

    A step goes along one of the puzzle's links; through a bridge it must go straight on, and each of a
    bridge's two ways holds one flow. The search stops at `limit` strict solutions (the relaxed count
    is capped at `limit` too). Slow: for boards of a few dozen cells.
    """
    from flowbot.lattice import axis_of
    from flowbot.solve.check import touches_itself_on

    counts = [0, 0]
    total = sum(2 if puzzle.is_bridge(cell) else 1 for cell in puzzle.cells())
    used: set = set()
    paths: list[list] = []

    def extend(color: int, path: list) -> None:
        if counts[0] >= limit:
            return
        head = path[-1]
        goal = puzzle.endpoints[color][1]
        if head == goal:
            paths.append(list(path))
            place(color + 1)
            paths.pop()
            return
        for step in puzzle.neighbors(head):
            axis = axis_of(head, step)
            if puzzle.is_bridge(head) and axis_of(path[-2], head) != axis:
                continue  # straight through a bridge only
            if len(path) > 1 and step == path[-2]:
                continue
            node = (*step, axis) if puzzle.is_bridge(step) else step
            if node in used or (step != goal and puzzle.endpoint_color(step) is not None):
                continue
            used.add(node)
            path.append(step)
            extend(color, path)
            path.pop()
            used.discard(node)

    def place(color: int) -> None:
        if color == len(puzzle.colors):
            if len(used) == total:
                counts[1] = min(limit, counts[1] + 1)
                if not any(touches_itself_on(puzzle, path) for path in paths):
                    counts[0] += 1
            return
        start = puzzle.endpoints[color][0]
        used.add(start)
        extend(color, [start])
        used.discard(start)

    place(0)
    return counts[0], counts[1]
