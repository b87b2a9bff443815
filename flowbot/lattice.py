"""Which cells are next to which: square and hex lattices, warp links, and the walls that cut links.

Pure functions on plain data, shared by the model, the formats and the renderers. Cells are (row, col).
Hex boards are flat-topped hexagons stacked in columns; the columns whose index has parity `lower`
sit half a cell lower than the others (`lower=1` is the usual "odd-q" layout).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

Cell = tuple[int, int]
Link = tuple[Cell, Cell]

# How a square-lattice link runs: a bridge cell keeps a horizontal and a vertical flow apart.
ACROSS, DOWN = "h", "v"


def square_around(cell: Cell) -> tuple[Cell, ...]:
    """The four orthogonal lattice neighbours of a cell (some may be off the board)."""
    row, col = cell
    return (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)


def hex_around(cell: Cell, lower: int) -> tuple[Cell, ...]:
    """The six neighbours of a hex cell: above, below, and two in each column beside it."""
    row, col = cell
    if col % 2 == lower:  # this column sits lower: its side neighbours are level with it and one below
        side = ((row, col - 1), (row + 1, col - 1), (row, col + 1), (row + 1, col + 1))
    else:
        side = ((row - 1, col - 1), (row, col - 1), (row - 1, col + 1), (row, col + 1))
    return ((row - 1, col), (row + 1, col), *side)


def link_key(a: Cell, b: Cell) -> Link:
    """One spelling of the link between two cells, whatever their order."""
    return (a, b) if a <= b else (b, a)


def warp_ends(warp: tuple[str, int], present: Callable[[Cell], bool], rows: int, cols: int) -> Link | None:
    """The two cells a warp joins: the last and first playable cell of its row (or column), or None."""
    axis, at = warp
    if axis == "row":
        line = [(at, col) for col in range(cols) if present((at, col))]
    else:
        line = [(row, at) for row in range(rows) if present((row, at))]
    if len(line) < 3:
        return None  # too short to wrap without joining a cell to itself or to its neighbour twice
    return line[-1], line[0]


def wraps(a: Cell, b: Cell) -> bool:
    """True when a step between two linked cells of a square board goes through a warp (not next door)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1


def axis_of(a: Cell, b: Cell) -> str:
    """ACROSS for a link within a row (a warp of a row too), DOWN for one within a column."""
    return ACROSS if a[0] == b[0] else DOWN


def build_links(
    cells: Iterable[Cell],
    present: Callable[[Cell], bool],
    *,
    hex_lower: int | None,
    warp_links: Iterable[Link],
    cut: frozenset[Link],
) -> dict[Cell, tuple[Cell, ...]]:
    """Every playable cell's linked neighbours: lattice neighbours and warp partners, minus walls."""
    links: dict[Cell, list[Cell]] = {}
    for cell in cells:
        around = square_around(cell) if hex_lower is None else hex_around(cell, hex_lower)
        links[cell] = [n for n in around if present(n) and link_key(cell, n) not in cut]
    for a, b in warp_links:
        links[a].append(b)
        links[b].append(a)
    return {cell: tuple(linked) for cell, linked in links.items()}


def each_link(links: dict[Cell, tuple[Cell, ...]]) -> Iterator[Link]:
    """Every link once, in reading order of its first cell."""
    for cell, linked in links.items():
        for other in linked:
            if cell < other:
                yield cell, other
