"""The independent checker: everything that is wrong with a claimed solution, in words."""

from __future__ import annotations

from collections.abc import Sequence

from flowbot.model import Cell, Puzzle, cell_name


def check_paths(puzzle: Puzzle, paths: Sequence[Sequence[Cell]]) -> list[str]:
    """List every rule a set of paths (one per colour, in colour order) breaks; empty means solved."""
    problems: list[str] = []
    if len(paths) != len(puzzle.colors):
        problems.append(f"{len(paths)} paths given for {len(puzzle.colors)} colours")
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
