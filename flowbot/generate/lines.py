"""Grow a board full of flows: start from straight lines, then move, merge and split their ends."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from flowbot.errors import UsageError
from flowbot.model import PALETTE, Cell
from flowbot.solve.check import touches_itself

MIN_FLOW = 3  # every flow covers at least three cells


def color_range(rows: int, cols: int) -> tuple[int, int]:
    """How many colours a board of this size has in the game's packs (fewest, most)."""
    side = math.sqrt(rows * cols)
    low = max(2, round(0.4 * side))
    high = min(len(PALETTE), round(side) + 2, rows * cols // MIN_FLOW)
    return min(low, high), high


def default_colors(rows: int, cols: int, rng: random.Random) -> int:
    """A colour count typical of the game for this size, varied a little."""
    low, high = color_range(rows, cols)
    typical = round(0.9 * math.sqrt(rows * cols))
    return max(low, min(high, typical + rng.choice((-1, 0, 0, 1))))


def check_size(rows: int, cols: int, colors: int | None) -> None:
    """Refuse sizes and colour counts the generator (and the game) do not make."""
    if not (4 <= rows <= 20 and 4 <= cols <= 20):
        raise UsageError(f"board size {rows}x{cols} is outside 4x4 to 20x20")
    if colors is not None:
        low, high = color_range(rows, cols)
        if not low <= colors <= high:
            raise UsageError(
                f"{colors} colours on a {rows}x{cols} board: the game's packs use {low} to {high}"
            )


def straight_lines(rows: int, cols: int, rng: random.Random) -> list[list[Cell]]:
    """Cover the board with straight horizontal (or vertical) lines of at least three cells."""
    vertical = rng.random() < 0.5 and rows >= MIN_FLOW
    if cols < MIN_FLOW:
        vertical = True
    outer, inner = (cols, rows) if vertical else (rows, cols)
    lines = []
    for a in range(outer):
        for start, length in _pieces(inner, rng):
            cells = [(a, b) for b in range(start, start + length)]
            lines.append([(b, a) for a, b in cells] if vertical else cells)
    return lines


def grow(rows: int, cols: int, colors: int, rng: random.Random, steps: int | None = None) -> list[list[Cell]]:
    """Flows covering the board: straight lines reshaped by many random end moves.

    An end move takes the end cell of one flow onto the neighbouring end of another (one grows, the
    other shrinks); merges and splits bring the count to `colors`. No move lets a flow run alongside
    itself, so no flow ever holds a 2x2 block, and no flow drops below three cells.
    """
    return reshape(straight_lines(rows, cols, rng), rows, cols, colors, rng, steps)


def reshape(
    paths: list[list[Cell]], rows: int, cols: int, colors: int, rng: random.Random, steps: int | None = None
) -> list[list[Cell]]:
    """Apply random end moves (and merges or splits towards `colors` flows) to a copy of some flows."""
    paths = [list(path) for path in paths]
    owner = _owners(paths)
    steps = steps if steps is not None else 6 * rows * cols
    for _ in range(steps):
        if len(paths) > colors:
            _merge(paths, owner, rng)
        elif len(paths) < colors:
            _split(paths, owner, rng)
        _move_end(paths, owner, rng, rows, cols)
    for _ in range(4 * rows * cols):  # the count may still be off if no merge fit: keep trying
        if len(paths) == colors:
            break
        (_merge if len(paths) > colors else _split)(paths, owner, rng)
        _move_end(paths, owner, rng, rows, cols)
    return paths


# --- the moves -------------------------------------------------------------------------------------


def _move_end(
    paths: list[list[Cell]], owner: dict[Cell, int], rng: random.Random, rows: int, cols: int
) -> None:
    """Move one flow's end cell onto a neighbouring flow's end, if both stay valid."""
    donor = rng.randrange(len(paths))
    path = paths[donor]
    if len(path) <= MIN_FLOW:
        return
    at_start = rng.random() < 0.5
    cell = path[0] if at_start else path[-1]
    neighbours = [n for n in _around(cell) if n in owner and owner[n] != donor]
    rng.shuffle(neighbours)
    for other_cell in neighbours:
        taker = owner[other_cell]
        other = paths[taker]
        if other_cell not in (other[0], other[-1]):
            continue
        grown = [cell, *other] if other_cell == other[0] else [*other, cell]
        if _touches(grown, cell):
            continue
        paths[taker] = grown
        paths[donor] = path[1:] if at_start else path[:-1]
        owner[cell] = taker
        return


def _merge(paths: list[list[Cell]], owner: dict[Cell, int], rng: random.Random) -> None:
    """Join two flows whose ends are neighbours into one, if it does not touch itself."""
    first = rng.randrange(len(paths))
    path = paths[first]
    for end in rng.sample((path[0], path[-1]), 2):
        for n in _around(end):
            second = owner.get(n)
            if second is None or second == first or n not in (paths[second][0], paths[second][-1]):
                continue
            left = path if end == path[-1] else path[::-1]
            right = paths[second] if n == paths[second][0] else paths[second][::-1]
            joined = left + right
            if touches_itself(joined):
                continue
            paths[first] = joined
            paths.pop(second)
            owner.clear()
            owner.update(_owners(paths))
            return


def _split(paths: list[list[Cell]], owner: dict[Cell, int], rng: random.Random) -> None:
    """Cut a long flow in two (pieces of a flow that does not touch itself do not either)."""
    long = [i for i, path in enumerate(paths) if len(path) >= 2 * MIN_FLOW]
    if not long:
        return
    index = rng.choice(long)
    path = paths[index]
    cut = rng.randint(MIN_FLOW, len(path) - MIN_FLOW)
    paths[index] = path[:cut]
    paths.append(path[cut:])
    for cell in path[cut:]:
        owner[cell] = len(paths) - 1


# --- helpers ---------------------------------------------------------------------------------------


def _pieces(length: int, rng: random.Random) -> list[tuple[int, int]]:
    """Cut a line of `length` cells into pieces of at least three: (start, length) each."""
    pieces, start = [], 0
    while start < length:
        rest = length - start
        size = rest if rest < 2 * MIN_FLOW else rng.randint(MIN_FLOW, rest - MIN_FLOW)
        pieces.append((start, size))
        start += size
    return pieces


def _owners(paths: Sequence[Sequence[Cell]]) -> dict[Cell, int]:
    """Which flow each cell belongs to."""
    return {cell: index for index, path in enumerate(paths) for cell in path}


def _around(cell: Cell) -> tuple[Cell, ...]:
    """The four orthogonal neighbours of a cell (some may be off the board)."""
    row, col = cell
    return (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)


def _touches(path: list[Cell], new_end: Cell) -> bool:
    """True when the new end cell sits next to any cell of the path other than the one it joins."""
    joined_to = path[1] if path[0] == new_end else path[-2]
    body = set(path)
    return any(n in body and n != joined_to for n in _around(new_end))
