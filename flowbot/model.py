"""The puzzle model: boards, colours, endpoints and solutions as frozen values."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from flowbot.errors import PuzzleError
from flowbot.lattice import (
    ACROSS,
    Link,
    axis_of,
    build_links,
    each_link,
    hex_around,
    link_key,
    square_around,
    warp_ends,
)

# The game's palette in its own order; a colour's index here is its usual rank in a level.
PALETTE: tuple[str, ...] = (
    "red", "green", "blue", "yellow", "orange", "cyan", "magenta", "maroon",
    "purple", "white", "grey", "lime", "tan", "dark blue", "teal", "pink",
)  # fmt: skip

EMPTY = "."
WALL = "#"
BRIDGE = "+"

# The kinds of board: Flow Free and its sister games.
KINDS = ("square", "bridges", "hexes", "warps")

Cell = tuple[int, int]
"""A board position as (row, col), both from 0."""


@dataclass(frozen=True, slots=True)
class Color:
    """One flow colour: the character that stands for it in grids, and its palette name if known."""

    label: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Source:
    """Where a puzzle came from: a file (and its index inside), an image, a generator, a screen."""

    kind: str
    path: str | None = None
    index: int = 0
    format: str | None = None
    details: Mapping[str, object] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A Flow board: size, the two endpoints of each colour, the cells that are not on it, and the
    sister games' features: bridge cells, a hex lattice, warps (rows or columns that wrap around) and
    edge walls (between two neighbouring cells).

    `walls` are missing cells (an old name kept for the square boards that have always had them).
    `hex_lower` is None on square lattices; on hex boards, the parity (0 or 1) of the columns that
    sit half a cell lower (1: "odd-q"). A board with none of the features is a classic square board and
    keeps the fast paths everywhere (`is_graph` is False).

    `shape_links` are the links of a Flow Free: Shapes board (cells of any shape, read from a picture):
    its cells are (0, n) for cell n of a one-row board, and these pairs, nothing else, are its links.
    """

    rows: int
    cols: int
    colors: tuple[Color, ...]
    endpoints: tuple[tuple[Cell, Cell], ...]
    walls: frozenset[Cell] = frozenset()
    source: Source | None = field(default=None, compare=False)
    bridges: frozenset[Cell] = frozenset()
    hex_lower: int | None = None
    warps: frozenset[tuple[str, int]] = frozenset()
    edge_walls: frozenset[Link] = frozenset()
    shape_links: frozenset[Link] = frozenset()
    _owner: dict[Cell, int] = field(init=False, repr=False, compare=False, hash=False)
    _links: dict[Cell, tuple[Cell, ...]] | None = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise PuzzleError(f"board size {self.rows}x{self.cols} has no cells")
        if not self.colors:
            raise PuzzleError("board has no colours")
        if len(self.colors) != len(self.endpoints):
            raise PuzzleError(f"{len(self.colors)} colours but {len(self.endpoints)} endpoint pairs")
        labels = [color.label for color in self.colors]
        for label in labels:
            if len(label) != 1 or label in (EMPTY, WALL) or label.isspace():
                raise PuzzleError(f"colour label {label!r} must be one character, not '.' or '#'")
        if len(set(labels)) != len(labels):
            raise PuzzleError(f"colour labels repeat: {''.join(labels)}")
        for wall in self.walls:
            if not self.in_bounds(wall):
                raise PuzzleError(f"wall at {cell_name(wall)} is outside the {self.rows}x{self.cols} board")
        owner: dict[Cell, int] = {}
        for index, pair in enumerate(self.endpoints):
            label = self.colors[index].label
            for cell in pair:
                if not self.in_bounds(cell):
                    raise PuzzleError(
                        f"colour {label!r} has an endpoint outside the board at {cell_name(cell)}"
                    )
                if cell in self.walls:
                    raise PuzzleError(f"colour {label!r} has an endpoint on a wall at {cell_name(cell)}")
                if cell in owner:
                    other = self.colors[owner[cell]].label
                    raise PuzzleError(
                        f"colours {other!r} and {label!r} share the endpoint at {cell_name(cell)}"
                    )
                owner[cell] = index
        object.__setattr__(self, "_owner", owner)
        object.__setattr__(self, "_links", None)
        if self.shape_links:
            object.__setattr__(self, "_links", self._shape_links())
        elif self.bridges or self.hex_lower is not None or self.warps or self.edge_walls:
            object.__setattr__(self, "_links", self._graph_links(labels))

    def _shape_links(self) -> dict[Cell, tuple[Cell, ...]]:
        """Check a Shapes board's links and list every cell's linked neighbours."""
        if self.bridges or self.hex_lower is not None or self.warps or self.edge_walls or self.rows != 1:
            raise PuzzleError("a Shapes board is one row of cells joined by its own links, nothing else")
        links: dict[Cell, list[Cell]] = {cell: [] for cell in self.cells()}
        for a, b in sorted(self.shape_links):
            if (a, b) != link_key(a, b) or a == b or not (self.on_board(a) and self.on_board(b)):
                raise PuzzleError(f"link {(a, b)!r} does not join two cells of the board in order")
            links[a].append(b)
            links[b].append(a)
        return {cell: tuple(linked) for cell, linked in links.items()}

    def _graph_links(self, labels: list[str]) -> dict[Cell, tuple[Cell, ...]]:
        """Check the sister games' features and work out every cell's linked neighbours."""
        hexes = self.hex_lower is not None
        if hexes and self.hex_lower not in (0, 1):
            raise PuzzleError(
                f"hex_lower must be 0 or 1 (parity of the lower columns), not {self.hex_lower!r}"
            )
        if hexes and (self.bridges or self.warps):
            raise PuzzleError("hex boards have no bridges or warps")
        if self.bridges and BRIDGE in labels:
            raise PuzzleError(f"colour label {BRIDGE!r} stands for a bridge on a board with bridges")
        for cell in sorted(self.bridges):
            if not self.on_board(cell):
                raise PuzzleError(f"bridge at {cell_name(cell)} is not a cell of the board")
            if cell in self._owner:
                raise PuzzleError(f"bridge at {cell_name(cell)} is also an endpoint")
        warp_links = []
        for warp in sorted(self.warps):
            axis, at = warp
            if axis not in ("row", "col") or not isinstance(at, int):
                raise PuzzleError(f"warp {warp!r} is not ('row', ROW) or ('col', COL)")
            if not 0 <= at < (self.rows if axis == "row" else self.cols):
                raise PuzzleError(f"warp of {axis} {at + 1} is outside the {self.size} board")
            ends = warp_ends(warp, self.on_board, self.rows, self.cols)
            if ends is None:
                raise PuzzleError(f"warp of {axis} {at + 1}: fewer than 3 cells, nothing to wrap around")
            warp_links.append(ends)
        for a, b in self.edge_walls:
            if (a, b) != link_key(a, b):
                raise PuzzleError(f"wall {(a, b)!r} is not written in order (use lattice.link_key)")
            around = square_around(a) if not hexes else hex_around(a, self.hex_lower)
            if b not in around:
                raise PuzzleError(f"wall between {cell_name(a)} and {cell_name(b)}: not neighbours")
            if not (self.on_board(a) and self.on_board(b)):
                raise PuzzleError(f"wall between {cell_name(a)} and {cell_name(b)}: both must be cells")
        return build_links(
            self.cells(), self.on_board, hex_lower=self.hex_lower, warp_links=warp_links, cut=self.edge_walls
        )

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[str],
        names: Mapping[str, str | None] | None = None,
        source: Source | None = None,
    ) -> Puzzle:
        """Build a puzzle from row strings: '.' empty, '#' not on the board, other characters endpoints."""
        if not rows:
            raise PuzzleError("board has no rows")
        width = len(rows[0])
        for number, row in enumerate(rows):
            if len(row) != width:
                raise PuzzleError(f"row {number + 1} has {len(row)} cells but row 1 has {width}")
        seen: dict[str, list[Cell]] = {}
        walls = set()
        for row, text in enumerate(rows):
            for col, char in enumerate(text):
                if char == WALL:
                    walls.add((row, col))
                elif char != EMPTY:
                    if char.isspace() or not char.isprintable():
                        raise PuzzleError(f"unknown cell character {char!r} at {cell_name((row, col))}")
                    seen.setdefault(char, []).append((row, col))
        if not seen:
            raise PuzzleError("board has no colours")
        for label, cells in seen.items():
            if len(cells) != 2:
                places = "; ".join(cell_name(cell) for cell in cells[:4])
                raise PuzzleError(
                    f"colour {label!r} has {len(cells)} endpoint{'s' if len(cells) > 1 else ''} "
                    f"({places}); every colour needs exactly 2"
                )
        names = names or {}
        colors = tuple(Color(label, names.get(label)) for label in seen)
        endpoints = tuple((cells[0], cells[1]) for cells in seen.values())
        return cls(len(rows), width, colors, endpoints, frozenset(walls), source)

    @classmethod
    def from_lines(
        cls,
        kind: str,
        lines: Sequence[str],
        walls: Iterable[tuple[Cell, Cell]] = (),
        warps: Iterable[tuple[str, int]] = (),
        names: Mapping[str, str | None] | None = None,
        source: Source | None = None,
    ) -> Puzzle:
        """Build any kind of board from plain data (what the screenshot reader and the files give).

        `kind` is 'square', 'bridges', 'hexes' or 'warps'. `lines` are rows as in the truth files: a
        character per cell, '.' empty, '#' no cell, '+' a bridge (bridges only), any other character an
        endpoint; hex lines are odd-q (odd columns half a cell lower, row r = the r-th cell of each
        column). `walls` are pairs of neighbouring (row, col) cells with a wall between them (pairs
        touching a missing cell are dropped: no link crosses there anyway). `warps` are ('row', r) or
        ('col', c) for each row or column that wraps around (warps boards only).
        """
        if kind not in KINDS:
            raise PuzzleError(f"unknown kind of board {kind!r} (one of {', '.join(KINDS)})")
        bridges = frozenset(
            (row, col) for row, text in enumerate(lines) for col, char in enumerate(text) if char == BRIDGE
        )
        if bridges and kind != "bridges":
            raise PuzzleError(f"'+' (a bridge) at {cell_name(min(bridges))} on a {kind} board")
        warps = frozenset((str(axis), int(at)) for axis, at in warps)
        if warps and kind != "warps":
            raise PuzzleError(f"warps on a {kind} board (only warps boards wrap around)")
        plain = [text.replace(BRIDGE, EMPTY) for text in lines] if bridges else list(lines)
        puzzle = cls.from_rows(plain, names, source)
        hex_lower = 1 if kind == "hexes" else None
        edge_walls = set()
        for a, b in walls:
            a, b = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
            if puzzle.on_board(a) and puzzle.on_board(b):
                edge_walls.add(link_key(a, b))
        return puzzle.rebuilt(
            bridges=bridges, hex_lower=hex_lower, warps=warps, edge_walls=frozenset(edge_walls)
        )

    @classmethod
    def from_shapes(
        cls,
        letters: str,
        links: Iterable[tuple[int, int]],
        names: Mapping[str, str | None] | None = None,
        source: Source | None = None,
    ) -> Puzzle:
        """A Flow Free: Shapes board: one character per cell ('.' empty, else an endpoint's letter) and
        the pairs of cell numbers that share a border. Cell n is (0, n)."""
        puzzle = cls.from_rows([letters], names, source)
        pairs = frozenset(link_key((0, int(a)), (0, int(b))) for a, b in links)
        return puzzle.rebuilt(shape_links=pairs)

    def to_rows(self) -> list[str]:
        """The board as row strings, the inverse of `from_rows` ('+' marks a bridge)."""
        grid = [[EMPTY] * self.cols for _ in range(self.rows)]
        for row, col in self.walls:
            grid[row][col] = WALL
        for row, col in self.bridges:
            grid[row][col] = BRIDGE
        for cell, index in self._owner.items():
            grid[cell[0]][cell[1]] = self.colors[index].label
        return ["".join(line) for line in grid]

    def in_bounds(self, cell: Cell) -> bool:
        """True when the position lies inside the rows x cols rectangle."""
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def on_board(self, cell: Cell) -> bool:
        """True when the position is a playable cell (inside the rectangle and not a wall)."""
        return self.in_bounds(cell) and cell not in self.walls

    def endpoint_color(self, cell: Cell) -> int | None:
        """The colour index whose endpoint sits on this cell, or None."""
        return self._owner.get(cell)

    def cells(self) -> Iterator[Cell]:
        """Every playable cell in reading order."""
        for row in range(self.rows):
            for col in range(self.cols):
                if (row, col) not in self.walls:
                    yield (row, col)

    def neighbors(self, cell: Cell) -> list[Cell]:
        """The playable cells a flow can step to from this one (lattice, warps; not through walls)."""
        if self._links is not None:
            return list(self._links.get(cell, ()))
        row, col = cell
        around = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        return [other for other in around if self.on_board(other)]

    def linked(self, a: Cell, b: Cell) -> bool:
        """True when a flow can step straight from cell a to cell b."""
        if self._links is not None:
            return b in self._links.get(a, ())
        return self.on_board(a) and self.on_board(b) and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1

    def links(self) -> list[Link]:
        """Every pair of cells a flow can step between, once each."""
        if self._links is not None:
            return list(each_link(self._links))
        return [(cell, other) for cell in self.cells() for other in self.neighbors(cell) if cell < other]

    def is_bridge(self, cell: Cell) -> bool:
        """True on a bridge cell (two flows cross it, each straight through)."""
        return cell in self.bridges

    @property
    def is_graph(self) -> bool:
        """True when the board has a sister game's feature (bridges, hexes, warps or edge walls)."""
        return self._links is not None

    @property
    def kind(self) -> str:
        """Which game the board belongs to: 'square', 'bridges', 'hexes', 'warps' or 'shapes'."""
        if self.shape_links:
            return "shapes"
        if self.hex_lower is not None:
            return "hexes"
        if self.bridges:
            return "bridges"
        if self.warps:
            return "warps"
        return "square"

    @property
    def size(self) -> str:
        """The board size as 'ROWSxCOLS'."""
        return f"{self.rows}x{self.cols}"

    @property
    def cell_count(self) -> int:
        """How many playable cells the board has."""
        return self.rows * self.cols - len(self.walls)

    def label_index(self) -> dict[str, int]:
        """Map each colour label to its index."""
        return {color.label: index for index, color in enumerate(self.colors)}

    def with_source(self, source: Source) -> Puzzle:
        """The same board with another source."""
        return self.rebuilt(source=source)

    def rebuilt(self, **changes: object) -> Puzzle:
        """The same board with some fields changed (colours, endpoints, source...), checked again."""
        fields = {
            "rows": self.rows, "cols": self.cols, "colors": self.colors, "endpoints": self.endpoints,
            "walls": self.walls, "source": self.source, "bridges": self.bridges,
            "hex_lower": self.hex_lower, "warps": self.warps, "edge_walls": self.edge_walls,
            "shape_links": self.shape_links,
        }  # fmt: skip
        fields.update(changes)
        return Puzzle(**fields)


@dataclass(frozen=True, slots=True)
class Solution:
    """One path per colour, each from its first endpoint to its second."""

    puzzle: Puzzle
    paths: tuple[tuple[Cell, ...], ...]

    def to_rows(self) -> list[str]:
        """The filled board: every cell carries its colour's label; walls stay '#', bridges '+'."""
        grid = [list(line) for line in self.puzzle.to_rows()]
        bridges = self.puzzle.bridges
        for index, path in enumerate(self.paths):
            label = self.puzzle.colors[index].label
            for row, col in path:
                if (row, col) not in bridges:
                    grid[row][col] = label
        return ["".join(line) for line in grid]

    def crossing(self, cell: Cell) -> dict[str, int]:
        """Which colour crosses a bridge cell each way: {'h': colour, 'v': colour} (as far as known)."""
        ways: dict[str, int] = {}
        for index, path in enumerate(self.paths):
            for step, here in enumerate(path):
                if here == cell and 0 < step < len(path) - 1:
                    ways[axis_of(path[step - 1], here)] = index
        return ways

    def color_grid(self) -> list[list[int]]:
        """Colour index per cell (-1 for walls and uncovered cells)."""
        grid = [[-1] * self.puzzle.cols for _ in range(self.puzzle.rows)]
        for index, path in enumerate(self.paths):
            for row, col in path:
                grid[row][col] = index
        for row, col in self.puzzle.bridges:  # the flow going across stands for the bridge
            grid[row][col] = self.crossing((row, col)).get(ACROSS, -1)
        return grid


def cell_name(cell: Cell) -> str:
    """A cell position as a person reads it: 1-based row and column."""
    return f"row {cell[0] + 1}, col {cell[1] + 1}"


@dataclass(frozen=True, slots=True)
class Geometry:
    """Where a board sits on a frame or screen: x of each vertical grid line, y of each horizontal one.

    The one place that turns board cells (row, col) into pixels (x, y).
    """

    xs: tuple[float, ...]
    ys: tuple[float, ...]

    @property
    def rows(self) -> int:
        """Rows of cells between the horizontal lines."""
        return len(self.ys) - 1

    @property
    def cols(self) -> int:
        """Columns of cells between the vertical lines."""
        return len(self.xs) - 1

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The grid's left, top, right and bottom, in pixels."""
        return self.xs[0], self.ys[0], self.xs[-1], self.ys[-1]

    @property
    def cell_size(self) -> float:
        """The mean distance between neighbouring lines, in pixels."""
        return ((self.xs[-1] - self.xs[0]) / self.cols + (self.ys[-1] - self.ys[0]) / self.rows) / 2

    def center(self, cell: Cell) -> tuple[float, float]:
        """The pixel (x, y) at the middle of a cell."""
        row, col = cell
        return (self.xs[col] + self.xs[col + 1]) / 2, (self.ys[row] + self.ys[row + 1]) / 2

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The cell under a pixel, or None outside the grid."""
        col = next((c for c in range(self.cols) if self.xs[c] <= x < self.xs[c + 1]), None)
        row = next((r for r in range(self.rows) if self.ys[r] <= y < self.ys[r + 1]), None)
        return None if row is None or col is None else (row, col)

    def shifted(self, dx: float, dy: float) -> Geometry:
        """The same grid moved by (dx, dy) pixels, e.g. from a captured region to the whole screen."""
        return Geometry(tuple(x + dx for x in self.xs), tuple(y + dy for y in self.ys))
