"""Format E (samgoldman/FlowSolver "graph text"): cells and the links between them, drawn as text.

The first line names the game: STANDARD, BRIDGES, HEX or WARPS. Then cells sit at even positions of
even lines (cell (row, col) at line 2*row, character 2*col; the header not counted): '.' empty, '*' a
bridge, a letter or digit an endpoint. Between them links are drawn: '-' joins the cells left and right
of it, '|' the cells above and below, '\\' and '/' diagonal neighbours (hex boards). Two neighbouring
cells without a link between them have a wall there; missing cells make shaped boards. A '-' after the
last cell of a row wraps it round to its first cell, a '|' below a column's last cell to its top cell
(warps). On hex boards the diagonals tell which columns sit half a cell lower.
"""

from __future__ import annotations

import string
from collections.abc import Sequence

from flowbot.errors import FormatError, PuzzleError
from flowbot.lattice import hex_around, link_key, square_around, warp_ends
from flowbot.model import EMPTY, WALL, Cell, Puzzle, Source

HEADERS = {"STANDARD": "square", "BRIDGES": "bridges", "HEX": "hexes", "WARPS": "warps"}
_HEADER_OF = {kind: header for header, kind in HEADERS.items()}
_LABELS = frozenset(string.ascii_letters + string.digits)
_BRIDGE_CELL = "*"


def is_graph_text(first_line: str) -> bool:
    """True when a file's first line is one of format E's headers."""
    return first_line.strip() in HEADERS


def parse_graph_text(lines: Sequence[str], source: Source | None = None) -> Puzzle:
    """Build the puzzle drawn by format E lines (the header first); errors name the line and column."""
    kind = HEADERS.get(lines[0].strip()) if lines else None
    if kind is None:
        raise FormatError("format E starts with STANDARD, BRIDGES, HEX or WARPS")
    drawing = [line.rstrip() for line in lines[1:]]
    while drawing and not drawing[-1]:
        drawing.pop()
    if not drawing:
        raise FormatError("no cells after the header line")
    cells, labels, bridges = _cells(drawing)
    if not labels:
        raise FormatError("the board has no dots (an empty template, not a level)")
    links = _links(drawing, cells, hexes=kind == "hexes")
    rows = max(row for row, _ in cells) + 1
    cols = max(col for _, col in cells) + 1
    present = cells.__contains__
    hex_lower = _hex_parity(links) if kind == "hexes" else None
    warps = set()
    plain = set()
    for a, b, wraps in links:
        if wraps is None:
            plain.add(link_key(a, b))
            continue
        if kind == "hexes":
            raise FormatError(f"line {wraps[2]}: hex boards do not wrap around")
        warp = wraps[:2]
        if warp_ends(warp, present, rows, cols) != (a, b):
            raise FormatError(f"line {wraps[2]}: a warp joins the last cell of its {warp[0]} to the first")
        warps.add(warp)
    walls = set()
    for cell in cells:
        around = square_around(cell) if hex_lower is None else hex_around(cell, hex_lower)
        for other in around:
            if other in cells and link_key(cell, other) not in plain:
                walls.add(link_key(cell, other))
    grid = [[WALL] * cols for _ in range(rows)]
    for cell in cells:
        grid[cell[0]][cell[1]] = labels.get(cell, EMPTY)
    try:
        puzzle = Puzzle.from_rows(["".join(line) for line in grid], None, source)
    except PuzzleError as error:
        raise FormatError(str(error)) from None
    if bridges and kind != "bridges":
        raise FormatError(f"'*' (a bridge) on a {_HEADER_OF[kind]} board")
    return puzzle.rebuilt(
        bridges=frozenset(bridges), hex_lower=hex_lower, warps=frozenset(warps), edge_walls=frozenset(walls)
    )


def _cells(drawing: Sequence[str]) -> tuple[set[Cell], dict[Cell, str], set[Cell]]:
    """The cells at even positions of even lines: all of them, the endpoints' labels, the bridges."""
    cells: set[Cell] = set()
    labels: dict[Cell, str] = {}
    bridges: set[Cell] = set()
    for number, text in enumerate(drawing):
        for position, char in enumerate(text):
            if number % 2 or position % 2 or char == " ":
                continue
            cell = (number // 2, position // 2)
            if char == EMPTY:
                cells.add(cell)
            elif char == _BRIDGE_CELL:
                cells.add(cell)
                bridges.add(cell)
            elif char in _LABELS:
                cells.add(cell)
                labels[cell] = char
            else:
                raise FormatError(f"line {number + 2}, column {position + 1}: {char!r} is not a cell")
    return cells, labels, bridges


def _links(
    drawing: Sequence[str], cells: set[Cell], *, hexes: bool
) -> list[tuple[Cell, Cell, tuple[str, int, int] | None]]:
    """Every drawn link as (cell, cell, None), or (last cell, first cell, (axis, index, line)) for a warp."""
    links = []
    allowed = {(0, 1): "-", (1, 0): "|", (1, 1): "\\/" if hexes else ""}
    for number, text in enumerate(drawing):
        for position, char in enumerate(text):
            if char == " " or (number % 2 == 0 and position % 2 == 0):
                continue
            where = f"line {number + 2}, column {position + 1}"
            if char not in allowed[(number % 2, position % 2)]:
                raise FormatError(f"{where}: {char!r} is not a link that fits there")
            row, col = number // 2, position // 2
            if char == "-":
                left, right = (row, col), (row, col + 1)
                ends = (left, right) if right in cells else None
                wrap = ("row", row, number + 2)
            elif char == "|":
                above, below = (row, col), (row + 1, col)
                ends = (above, below) if below in cells else None
                wrap = ("col", col, number + 2)
            else:
                ends = ((row, col), (row + 1, col + 1)) if char == "\\" else ((row, col + 1), (row + 1, col))
                wrap = None
            first = ends[0] if ends else (row, col)
            if first not in cells or (ends is None and wrap is None):
                raise FormatError(f"{where}: {char!r} does not join two cells")
            if ends is not None:
                if ends[1] not in cells:
                    raise FormatError(f"{where}: {char!r} does not join two cells")
                links.append((ends[0], ends[1], None))
            else:
                links.append((first, _first_cell(cells, wrap[0], wrap[1]), wrap))
    return links


def _first_cell(cells: set[Cell], axis: str, at: int) -> Cell:
    """The first cell of a row (leftmost) or column (topmost)."""
    line = [cell for cell in cells if (cell[0] if axis == "row" else cell[1]) == at]
    return min(line, key=lambda cell: cell[1] if axis == "row" else cell[0])


def _hex_parity(links: Sequence[tuple[Cell, Cell, object]]) -> int:
    """Which column parity sits lower, read off the diagonal links (they must all agree)."""
    parities = set()
    for a, b, _ in links:
        if a[0] != b[0] and a[1] != b[1]:  # a diagonal: the column of its upper cell is the lower one
            upper = a if a[0] < b[0] else b
            parities.add(upper[1] % 2)
    if len(parities) > 1:
        raise FormatError("the diagonal links disagree on which columns sit lower")
    return parities.pop() if parities else 1


def graph_text(puzzle: Puzzle, name: str = "<graph>") -> str:
    """The puzzle drawn as format E text (with a final newline); FormatError if a label cannot be drawn."""
    if puzzle.shape_links:
        raise FormatError(
            f"{name}: a shapes board's cells join any way their borders lie: format E draws only lattices "
            "(save flowbot JSON: convert --to json)"
        )
    for color in puzzle.colors:
        if color.label not in _LABELS:
            raise FormatError(
                f"{name}: colour label {color.label!r} cannot be drawn in format E (letters and digits only)"
            )
    height, width = 2 * puzzle.rows + 1, 2 * puzzle.cols + 1
    canvas = [[" "] * width for _ in range(height)]
    for cell in puzzle.cells():
        index = puzzle.endpoint_color(cell)
        char = _BRIDGE_CELL if puzzle.is_bridge(cell) else EMPTY
        canvas[2 * cell[0]][2 * cell[1]] = char if index is None else puzzle.colors[index].label
    for a, b in puzzle.links():
        (r1, c1), (r2, c2) = a, b
        if abs(r1 - r2) + abs(c1 - c2) > 1 and (r1 == r2 or c1 == c2) and puzzle.hex_lower is None:
            last = max(a, b)  # a warp: drawn after the last cell of the row, below that of the column
            line, position = (2 * last[0], 2 * last[1] + 1) if r1 == r2 else (2 * last[0] + 1, 2 * last[1])
            canvas[line][position] = "-" if r1 == r2 else "|"
        elif r1 == r2:
            canvas[2 * r1][c1 + c2] = "-"
        elif c1 == c2:
            canvas[r1 + r2][2 * c1] = "|"
        else:
            top, bottom = (a, b) if r1 < r2 else (b, a)
            canvas[r1 + r2][c1 + c2] = "\\" if top[1] < bottom[1] else "/"
    lines = ["".join(line).rstrip() for line in canvas]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join([_HEADER_OF[puzzle.kind], *lines]) + "\n"
