"""The independent checker: everything that is wrong with a claimed solution, in words."""

from __future__ import annotations

from collections.abc import Sequence

from flowbot.lattice import ACROSS, DOWN, axis_of
from flowbot.model import Cell, Puzzle, cell_name


def check_paths(puzzle: Puzzle, paths: Sequence[Sequence[Cell]]) -> list[str]:
    """List every rule a set of paths (one per colour, in colour order) breaks; empty means solved."""
    problems: list[str] = []
    if len(paths) != len(puzzle.colors):
        problems.append(f"{len(paths)} paths given for {len(puzzle.colors)} colours")
    if puzzle.is_graph:
        return problems + _graph_problems(puzzle, [[tuple(cell) for cell in path] for path in paths])
    used: dict[Cell, str] = {}
    for index, path in enumerate(paths[: len(puzzle.colors)]):
        label = puzzle.colors[index].label
        problems.extend(_path_problems(puzzle, index, [tuple(cell) for cell in path]))
        for cell in path:
            cell = tuple(cell)
            if cell in used and used[cell] != label:
                problems.append(f"cell {_where(cell)} is used by colours {used[cell]!r} and {label!r}")
            used.setdefault(cell, label)
    uncovered = [cell for cell in puzzle.cells() if cell not in used]
    if uncovered:
        listed = ", ".join(_where(cell) for cell in uncovered[:5])
        more = f" and {len(uncovered) - 5} more" if len(uncovered) > 5 else ""
        problems.append(f"{len(uncovered)} cell(s) not covered by any path: {listed}{more}")
    return problems


def _path_problems(puzzle: Puzzle, index: int, path: list[Cell]) -> list[str]:
    """The problems of one colour's path on its own: ends, steps, cells, repeats."""
    label = puzzle.colors[index].label
    if not path:
        return [f"colour {label!r} has an empty path"]
    problems = []
    ends = set(puzzle.endpoints[index])
    if {path[0], path[-1]} != ends or len(path) < 2:
        problems.append(
            f"colour {label!r} path runs from {_where(path[0])} to {_where(path[-1])}, "
            f"not between its endpoints {' and '.join(_where(cell) for cell in puzzle.endpoints[index])}"
        )
    seen: set[Cell] = set()
    for step, cell in enumerate(path):
        if not puzzle.on_board(cell):
            problems.append(f"colour {label!r} path leaves the board at {_where(cell)}")
        if cell in seen:
            problems.append(f"colour {label!r} path visits {_where(cell)} twice")
        seen.add(cell)
        owner = puzzle.endpoint_color(cell)
        if owner is not None and owner != index:
            other = puzzle.colors[owner].label
            problems.append(f"colour {label!r} path crosses the endpoint of {other!r} at {_where(cell)}")
        if step and abs(cell[0] - path[step - 1][0]) + abs(cell[1] - path[step - 1][1]) != 1:
            problems.append(f"colour {label!r} path jumps from {_where(path[step - 1])} to {_where(cell)}")
    return problems


def _graph_problems(puzzle: Puzzle, paths: list[list[Cell]]) -> list[str]:
    """The rules on a board with bridges, hex cells, warps or edge walls: every step along a link,
    through a bridge straight on, and every cell (each way of a bridge) covered once."""
    problems: list[str] = []
    used: dict[tuple, str] = {}  # a cell, or (cell, axis) on a bridge -> the colour on it
    for index, path in enumerate(paths[: len(puzzle.colors)]):
        label = puzzle.colors[index].label
        if not path:
            problems.append(f"colour {label!r} has an empty path")
            continue
        ends = set(puzzle.endpoints[index])
        if {path[0], path[-1]} != ends or len(path) < 2:
            problems.append(
                f"colour {label!r} path runs from {_where(path[0])} to {_where(path[-1])}, "
                f"not between its endpoints {' and '.join(_where(cell) for cell in puzzle.endpoints[index])}"
            )
        for step, cell in enumerate(path):
            if not puzzle.on_board(cell):
                problems.append(f"colour {label!r} path leaves the board at {_where(cell)}")
                continue
            owner = puzzle.endpoint_color(cell)
            if owner is not None and owner != index:
                other = puzzle.colors[owner].label
                problems.append(f"colour {label!r} path crosses the endpoint of {other!r} at {_where(cell)}")
            if step and not puzzle.linked(path[step - 1], cell):
                jump = f"from {_where(path[step - 1])} to {_where(cell)}"
                problems.append(f"colour {label!r} path jumps {jump}")
            node = _node(puzzle, path, step)
            if node is None:
                problems.append(f"colour {label!r} path turns or ends on the bridge at {_where(cell)}")
                continue
            if node in used:
                who = "itself" if used[node] == label else repr(used[node])
                way = f" going {'across' if node[-1] == ACROSS else 'down'}" if len(node) == 3 else ""
                problems.append(f"cell {_where(cell)}{way} is used by colour {label!r} and by {who}")
            used.setdefault(node, label)
    missing = []
    for cell in puzzle.cells():
        ways = [(*cell, ACROSS), (*cell, DOWN)] if puzzle.is_bridge(cell) else [cell]
        missing.extend(cell for way in ways if way not in used)
    if missing:
        listed = ", ".join(_where(cell) for cell in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        problems.append(f"{len(missing)} cell(s) not covered by any path (a bridge by two): {listed}{more}")
    return problems


def _node(puzzle: Puzzle, path: Sequence[Cell], step: int) -> tuple | None:
    """What a path's step occupies: the cell, or on a bridge the cell and the axis it goes straight along
    (None when it turns or ends there)."""
    cell = path[step]
    if not puzzle.is_bridge(cell):
        return cell
    if step == 0 or step == len(path) - 1:
        return None
    before, after = path[step - 1], path[step + 1]
    axis = axis_of(before, cell)
    if axis_of(cell, after) != axis or before == after:
        return None
    return (*cell, axis)


def touches_itself_on(puzzle: Puzzle, path: Sequence[Cell]) -> bool:
    """True when a path runs alongside itself on any board: two linked places on it, not consecutive."""
    if not puzzle.is_graph:
        return touches_itself(path)
    path = [tuple(cell) for cell in path]
    where: dict[tuple, int] = {}
    for step in range(len(path)):
        node = _node(puzzle, path, step)
        if node is not None:
            where[node] = step
    for node, step in where.items():
        cell = node[:2]
        for other in puzzle.neighbors(cell):
            if len(node) == 3 and axis_of(cell, other) != node[2]:
                continue  # a bridge's flow only meets the cells it goes straight through
            axis = axis_of(cell, other)
            other_node = (*other, axis) if puzzle.is_bridge(other) else other
            if other_node in where and abs(where[other_node] - step) > 1:
                return True
    return False


def touches_itself(path: Sequence[Cell]) -> bool:
    """True when a path runs alongside itself: two cells next to each other that are not consecutive."""
    position = {tuple(cell): step for step, cell in enumerate(path)}
    for step, (row, col) in enumerate(path):
        for other in ((row + 1, col), (row, col + 1), (row - 1, col), (row, col - 1)):
            if other in position and abs(position[other] - step) > 1:
                return True
    return False


def _where(cell: Cell) -> str:
    """A cell position as a person reads it, in brackets so lists of cells stay readable."""
    return f"({cell_name(cell)})"
