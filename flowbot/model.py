"""The puzzle model: boards, colours, endpoints and solutions as frozen values."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from flowbot.errors import PuzzleError

# The game's palette in its own order; a colour's index here is its usual rank in a level.
PALETTE: tuple[str, ...] = (
    "red", "green", "blue", "yellow", "orange", "cyan", "magenta", "maroon",
    "purple", "white", "grey", "lime", "tan", "dark blue", "teal", "pink",
)  # fmt: skip

EMPTY = "."
WALL = "#"

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
    """A Flow board: size, the two endpoints of each colour, and the cells that are not on it."""

    rows: int
    cols: int
    colors: tuple[Color, ...]
    endpoints: tuple[tuple[Cell, Cell], ...]
    walls: frozenset[Cell] = frozenset()
    source: Source | None = field(default=None, compare=False)
    _owner: dict[Cell, int] = field(init=False, repr=False, compare=False, hash=False)

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

    def to_rows(self) -> list[str]:
        """The board as row strings, the inverse of `from_rows`."""
        grid = [[EMPTY] * self.cols for _ in range(self.rows)]
        for row, col in self.walls:
            grid[row][col] = WALL
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
        """The playable cells orthogonally next to this one."""
        row, col = cell
        around = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        return [other for other in around if self.on_board(other)]

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
        return Puzzle(self.rows, self.cols, self.colors, self.endpoints, self.walls, source)


@dataclass(frozen=True, slots=True)
class Solution:
    """One path per colour, each from its first endpoint to its second."""

    puzzle: Puzzle
    paths: tuple[tuple[Cell, ...], ...]

    def to_rows(self) -> list[str]:
        """The filled board: every cell carries its colour's label; walls stay '#'."""
        grid = [list(line) for line in self.puzzle.to_rows()]
        for index, path in enumerate(self.paths):
            label = self.puzzle.colors[index].label
            for row, col in path:
                grid[row][col] = label
        return ["".join(line) for line in grid]

    def color_grid(self) -> list[list[int]]:
        """Colour index per cell (-1 for walls and uncovered cells)."""
        grid = [[-1] * self.puzzle.cols for _ in range(self.puzzle.rows)]
        for index, path in enumerate(self.paths):
            for row, col in path:
                grid[row][col] = index
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
