"""Make Bridges, Hexes, Warps and Shapes levels: lay flows over the board's graph, keep one-solution boards.

The board's graph has a node per cell, and two on a bridge (the flow going across and the flow going
down). Flows are grown as in `lines.py`: random walks cover the graph, then end moves, merges and
splits reshape them (never letting a flow run alongside itself) until there are as many as wanted.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from flowbot.errors import SolveError, UsageError
from flowbot.generate.lines import MIN_FLOW, color_range, default_colors
from flowbot.lattice import ACROSS, DOWN, axis_of, build_links, each_link, warp_ends
from flowbot.model import EMPTY, PALETTE, Cell, Puzzle, Solution, Source
from flowbot.solve.check import check_paths
from flowbot.solve.sat import solve

VARIANTS = ("bridges", "hexes", "warps")
LABELS = "ABCDEFGHIJKLMNOP"
MAX_ATTEMPTS = 200

Node = tuple  # a cell (row, col), or (row, col, axis) on a bridge; (0, n) for a Shapes board's cell n


@dataclass(frozen=True, slots=True)
class VariantLevel:
    """A generated level of a sister game with its one solution."""

    puzzle: Puzzle
    solution: Solution
    attempts: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Board:
    """An empty board of a sister game: its shape and features, and the graph flows are laid on."""

    kind: str
    rows: int
    cols: int
    bridges: frozenset[Cell]
    warps: frozenset[tuple[str, int]]
    missing: frozenset[Cell]
    around: dict[Node, tuple[Node, ...]]

    def can_end(self, node: Node) -> bool:
        """A flow may start or end here (never half-way across a bridge)."""
        return len(node) == 2


def check_variant_size(variant: str, rows: int, cols: int, colors: int | None) -> None:
    """Refuse variants, sizes and colour counts the generator does not make."""
    if variant not in VARIANTS:
        raise UsageError(f"unknown variant {variant!r} (one of {', '.join(VARIANTS)})")
    if not (4 <= rows <= 16 and 4 <= cols <= 16):
        raise UsageError(f"{variant} board size {rows}x{cols} is outside 4x4 to 16x16")
    if colors is not None:
        cells = rows * cols - (cols + 1) // 2 * (variant == "hexes")  # see make_board's hex outline
        high = min(color_range(rows, cols)[1], cells // MIN_FLOW)
        if not 2 <= colors <= high:
            raise UsageError(f"{colors} colours on a {rows}x{cols} {variant} board: use 2 to {high}")


def default_variant_colors(rows: int, cols: int, rng: random.Random) -> int:
    """A colour count typical of the sister games for this size (their packs count as the classic's)."""
    return default_colors(rows, cols, rng)


def make_board(variant: str, rows: int, cols: int, rng: random.Random) -> Board:
    """An empty board: bridges away from the edges, warps on a few rows and columns, hexes odd-q.

    A hexes board has the game's "Classic" outline: the even (upper) columns lack row 0, so both
    ends of the board are even (a 5x5 board has 22 cells, as the game's Classic 5x5 levels).
    """
    bridges: set[Cell] = set()
    warps: set[tuple[str, int]] = set()
    if variant == "bridges":
        inner = [(r, c) for r in range(1, rows - 1) for c in range(1, cols - 1)]
        for cell in rng.sample(inner, min(len(inner), rng.randint(1, max(1, rows * cols // 20)))):
            if not any(abs(cell[0] - b[0]) + abs(cell[1] - b[1]) <= 1 for b in bridges):
                bridges.add(cell)
    elif variant == "warps":
        lines = [("row", r) for r in range(rows)] + [("col", c) for c in range(cols)]
        warps.update(rng.sample(lines, rng.randint(1, max(1, len(lines) // 4))))
    missing = frozenset((0, c) for c in range(0, cols, 2)) if variant == "hexes" else frozenset()
    cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in missing]

    def present(cell: Cell) -> bool:
        return 0 <= cell[0] < rows and 0 <= cell[1] < cols and cell not in missing

    warp_links = [warp_ends(warp, present, rows, cols) for warp in sorted(warps)]
    links = build_links(
        cells,
        present,
        hex_lower=1 if variant == "hexes" else None,
        warp_links=[link for link in warp_links if link is not None],
        cut=frozenset(),
    )
    around: dict[Node, list[Node]] = {}
    for cell in cells:
        for node in ((*cell, ACROSS), (*cell, DOWN)) if cell in bridges else (cell,):
            around[node] = []
    for a, b in each_link(links):
        axis = axis_of(a, b)
        node_a = (*a, axis) if a in bridges else a
        node_b = (*b, axis) if b in bridges else b
        around[node_a].append(node_b)
        around[node_b].append(node_a)
    frozen = {node: tuple(linked) for node, linked in around.items()}
    return Board(variant, rows, cols, frozenset(bridges), frozenset(warps), missing, frozen)


def shape_graph(count: int, links: Iterable[tuple[int, int]]) -> Board:
    """A Shapes board's graph: cell n is the node (0, n), linked to the cells it shares a border with."""
    around: dict[Node, list[Node]] = {(0, n): [] for n in range(count)}
    for a, b in links:
        around[(0, a)].append((0, b))
        around[(0, b)].append((0, a))
    frozen = {node: tuple(linked) for node, linked in around.items()}
    return Board("shapes", 1, count, frozenset(), frozenset(), frozenset(), frozen)


def default_shape_colors(count: int, rng: random.Random) -> int:
    """A colour count typical of the game for a board of this many cells (as a square of as many)."""
    side = max(4, round(math.sqrt(count)))
    return default_colors(side, side, rng)


# --- laying flows over the graph ---------------------------------------------------------------------


def cover(board: Board, rng: random.Random) -> list[list[Node]] | None:
    """Random walks that cover every node, each turning at will but never touching itself."""
    free = set(board.around)
    paths: list[list[Node]] = []
    while free:
        starts = [node for node in free if board.can_end(node)]
        if not starts:
            return None
        # Start where the board is tightest: few free neighbours left.
        fewest = min(sum(n in free for n in board.around[node]) for node in starts)
        start = rng.choice([node for node in starts if sum(n in free for n in board.around[node]) == fewest])
        path = [start]
        free.discard(start)
        while True:
            options = [n for n in board.around[path[-1]] if n in free and not _touches_at(board, path, n)]
            if not options:
                break
            onward = min(sum(m in free for m in board.around[n]) for n in options)
            step = rng.choice([n for n in options if sum(m in free for m in board.around[n]) == onward])
            path.append(step)
            free.discard(step)
        while not board.can_end(path[-1]):  # a walk stuck half-way across a bridge steps back
            free.add(path.pop())
        paths.append(path)
    return paths


def reshape(board: Board, paths: list[list[Node]], colors: int, rng: random.Random) -> list[list[Node]]:
    """End moves, merges and splits until there are `colors` flows of at least three nodes."""
    owner = _owners(paths)
    steps = 6 * len(board.around)
    for step in range(steps + 4 * len(board.around)):
        short = any(len(path) < MIN_FLOW for path in paths)
        if step >= steps and len(paths) == colors and not short:
            break
        if len(paths) > colors or (short and rng.random() < 0.5):
            _merge(board, paths, owner, rng)
        elif len(paths) < colors:
            _split(board, paths, owner, rng)
        _move_end(board, paths, owner, rng)
    return paths


def _touches_at(board: Board, path: list[Node], new_end: Node) -> bool:
    """True when a node added at the path's end would sit next to a cell of the path it does not join."""
    body = set(path[:-1])
    return any(n in body for n in board.around[new_end])


def _touches(board: Board, path: list[Node]) -> bool:
    """True when two nodes of a path are linked but not consecutive."""
    where = {node: step for step, node in enumerate(path)}
    return any(
        abs(where[n] - step) > 1 for step, node in enumerate(path) for n in board.around[node] if n in where
    )


def _owners(paths: list[list[Node]]) -> dict[Node, int]:
    """Which flow each node belongs to."""
    return {node: index for index, path in enumerate(paths) for node in path}


def _move_end(board: Board, paths: list[list[Node]], owner: dict[Node, int], rng: random.Random) -> None:
    """Move one flow's end node onto a neighbouring flow's end, if both stay valid."""
    donor = rng.randrange(len(paths))
    path = paths[donor]
    if len(path) <= MIN_FLOW:
        return
    at_start = rng.random() < 0.5
    node = path[0] if at_start else path[-1]
    rest = path[1:] if at_start else path[:-1]
    if not board.can_end(rest[0] if at_start else rest[-1]):
        return
    neighbours = [n for n in board.around[node] if owner.get(n, donor) != donor]
    rng.shuffle(neighbours)
    for other_node in neighbours:
        taker = owner[other_node]
        other = paths[taker]
        if other_node not in (other[0], other[-1]):
            continue
        grown = [node, *other] if other_node == other[0] else [*other, node]
        if _touches(board, grown):
            continue
        paths[taker] = grown
        paths[donor] = rest
        owner[node] = taker
        return


def _merge(board: Board, paths: list[list[Node]], owner: dict[Node, int], rng: random.Random) -> None:
    """Join two flows whose ends are neighbours, if the joined flow does not touch itself."""
    first = rng.randrange(len(paths))
    path = paths[first]
    for end in rng.sample((path[0], path[-1]), 2):
        for n in board.around[end]:
            second = owner.get(n)
            if second is None or second == first or n not in (paths[second][0], paths[second][-1]):
                continue
            left = path if end == path[-1] else path[::-1]
            right = paths[second] if n == paths[second][0] else paths[second][::-1]
            joined = left + right
            if _touches(board, joined):
                continue
            paths[first] = joined
            paths.pop(second)
            owner.clear()
            owner.update(_owners(paths))
            return


def _split(board: Board, paths: list[list[Node]], owner: dict[Node, int], rng: random.Random) -> None:
    """Cut a long flow in two where both new ends may be ends (not on a bridge)."""
    long = [i for i, path in enumerate(paths) if len(path) >= 2 * MIN_FLOW]
    if not long:
        return
    index = rng.choice(long)
    path = paths[index]
    cuts = [cut for cut in range(MIN_FLOW, len(path) - MIN_FLOW + 1) if board.can_end(path[cut - 1])]
    cuts = [cut for cut in cuts if board.can_end(path[cut])]
    if not cuts:
        return
    cut = rng.choice(cuts)
    paths[index] = path[:cut]
    paths.append(path[cut:])
    for node in path[cut:]:
        owner[node] = len(paths) - 1


# --- levels --------------------------------------------------------------------------------------------


def to_puzzle(board: Board, paths: list[list[Node]]) -> tuple[Puzzle, Solution]:
    """The puzzle whose dots are the flows' ends, and the flows (as cells) as its solution."""
    ends = {}
    for index, path in enumerate(paths):
        ends[path[0][:2]] = ends[path[-1][:2]] = index
    ranked: list[int] = []
    for cell in sorted(ends):
        if ends[cell] not in ranked:
            ranked.append(ends[cell])
    grid = [[EMPTY] * board.cols for _ in range(board.rows)]
    for cell in board.bridges:
        grid[cell[0]][cell[1]] = "+"
    for cell in board.missing:
        grid[cell[0]][cell[1]] = "#"
    for rank, index in enumerate(ranked):
        for node in (paths[index][0], paths[index][-1]):
            grid[node[0]][node[1]] = LABELS[rank]
    names = {LABELS[rank]: PALETTE[rank] for rank in range(len(ranked))}
    if board.kind == "shapes":
        links = [(a[1], b[1]) for a, linked in board.around.items() for b in linked if a < b]
        puzzle = Puzzle.from_shapes("".join(grid[0]), links, names, Source("generated"))
    else:
        puzzle = Puzzle.from_lines(
            board.kind,
            ["".join(line) for line in grid],
            warps=board.warps,
            names=names,
            source=Source("generated"),
        )
    cells = [[node[:2] for node in paths[index]] for index in ranked]
    # Each path runs from its colour's first dot (in reading order), as the solver gives them.
    oriented = tuple(tuple(path if path[0] < path[-1] else path[::-1]) for path in cells)
    return puzzle, Solution(puzzle, oriented)


def make_variant_level(
    variant: str, rows: int, cols: int, colors: int, rng: random.Random, budget: float = 60.0
) -> VariantLevel:
    """One level of a sister game with exactly one strict solution, confirmed by the checker."""
    check_variant_size(variant, rows, cols, colors)
    what = f"{rows}x{cols} {variant} level"
    return _unique_level(lambda: make_board(variant, rows, cols, rng), colors, rng, budget, what)


def make_shape_level(
    name: str,
    count: int,
    links: Iterable[tuple[int, int]],
    colors: int,
    rng: random.Random,
    budget: float = 60.0,
) -> VariantLevel:
    """One level on a Shapes board of `count` cells (linked in `links` pairs) with exactly one strict
    solution; its source names the shape, so the game knows which cells to draw."""
    if not 2 <= colors <= min(len(LABELS), count // MIN_FLOW):
        raise UsageError(f"{colors} colours on a {count}-cell {name} board: use 2 to {count // MIN_FLOW}")
    board = shape_graph(count, links)
    level = _unique_level(lambda: board, colors, rng, budget, f"{name} level")
    puzzle = level.puzzle.with_source(Source("generated", details={"shape": name}))
    return VariantLevel(puzzle, Solution(puzzle, level.solution.paths), level.attempts, level.seconds)


def _unique_level(
    new_board: Callable[[], Board], colors: int, rng: random.Random, budget: float, what: str
) -> VariantLevel:
    """Lay flows on fresh boards until a level has exactly one strict solution, confirmed by the checker."""
    started = time.perf_counter()
    for attempt in range(1, MAX_ATTEMPTS + 1):
        if time.perf_counter() - started > budget:
            break
        board = new_board()
        paths = cover(board, rng)
        if paths is None:
            continue
        paths = reshape(board, paths, colors, rng)
        if len(paths) != colors or any(len(path) < MIN_FLOW for path in paths):
            continue
        if any(_touches(board, path) for path in paths):
            continue
        puzzle, solution = to_puzzle(board, paths)
        result = solve(puzzle, unique=True, allow_touching=False, timeout=max(1.0, budget / 4))
        if result.status != "solved" or not result.unique:
            continue
        problems = check_paths(puzzle, solution.paths)
        if problems:
            raise SolveError("generated solution fails the checker: " + "; ".join(problems))
        return VariantLevel(puzzle, solution, attempt, time.perf_counter() - started)
    raise SolveError(f"no {what} with {colors} colours and one solution in time")
