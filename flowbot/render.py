"""Draw boards in a terminal: coloured blocks where the terminal allows, plain labels otherwise."""

from __future__ import annotations

import os
from collections.abc import Mapping
from itertools import pairwise

from flowbot.model import WALL, Puzzle, Solution
from flowbot.palette import display_rgb

# typing is for the type checker alone: its import is a few percent of a small solve's start-up.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

RESET = "\x1b[0m"
PLAIN, BASIC, XTERM_256, TRUECOLOR = 0, 8, 256, 1 << 24

# The eight basic ANSI colours in their standard order (black ... white), as xterm draws them.
BASIC_RGB = ((0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
             (0, 205, 205), (229, 229, 229))  # fmt: skip
# The six levels of each channel in the xterm 6x6x6 cube (colours 16-231).
CUBE_STEPS = (0, 95, 135, 175, 215, 255)


def terminal_colors(stream: TextIO, environ: Mapping[str, str] | None = None) -> int:
    """How many colours to draw with: 0 off a terminal or with NO_COLOR (https://no-color.org)."""
    environ = os.environ if environ is None else environ
    isatty = getattr(stream, "isatty", None)
    if environ.get("NO_COLOR", "") != "" or not (isatty and isatty()):
        return PLAIN
    term = environ.get("TERM", "")
    if term == "dumb":
        return PLAIN
    if environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return TRUECOLOR
    if "256" in term:
        return XTERM_256
    return BASIC


def render_solution(solution: Solution, colors: int) -> str:
    """The solved board: endpoints as their label, pipe cells filled with their colour."""
    if solution.puzzle.is_graph:
        return render_graph(solution.puzzle, solution, colors)
    return _render(solution.puzzle, solution.to_rows(), colors)


def render_puzzle(puzzle: Puzzle, colors: int) -> str:
    """The unsolved board: endpoints in their colour, empty cells as dots."""
    if puzzle.is_graph:
        return render_graph(puzzle, None, colors)
    return _render(puzzle, puzzle.to_rows(), colors)


def background(rgb: tuple[int, int, int], colors: int) -> str:
    """The escape sequence that sets a background colour at the terminal's colour depth."""
    r, g, b = rgb
    if colors >= TRUECOLOR:
        return f"\x1b[48;2;{r};{g};{b}m"
    if colors >= XTERM_256:
        return f"\x1b[48;5;{cube_index(rgb)}m"
    return f"\x1b[{40 + basic_index(rgb)}m"


def cube_levels(rgb: tuple[int, int, int]) -> list[int]:
    """The nearest level (0-5) of each channel in the xterm 6x6x6 cube."""
    return [min(range(6), key=lambda i, v=value: abs(CUBE_STEPS[i] - v)) for value in rgb]


def cube_index(rgb: tuple[int, int, int]) -> int:
    """The nearest colour of the xterm 6x6x6 cube (indices 16-231)."""
    red, green, blue = cube_levels(rgb)
    return 16 + 36 * red + 6 * green + blue


def basic_index(rgb: tuple[int, int, int]) -> int:
    """The nearest of the eight basic colours (0 black ... 7 white)."""
    return min(
        range(len(BASIC_RGB)), key=lambda i: sum((a - c) ** 2 for a, c in zip(rgb, BASIC_RGB[i], strict=True))
    )


def _render(puzzle: Puzzle, rows: list[str], colors: int) -> str:
    """Draw rows of labels; each cell is two characters wide so boards look square."""
    if colors == PLAIN:
        return "\n".join(rows) + "\n"
    index = puzzle.label_index()
    lines = []
    for row, text in enumerate(rows):
        parts = []
        for col, label in enumerate(text):
            if label == WALL:
                parts.append("  ")
            elif label not in index:
                parts.append("\x1b[2m· \x1b[22m")
            else:
                rgb = display_rgb(puzzle, index[label])
                paint = background(rgb, colors)
                if puzzle.endpoint_color((row, col)) is not None:
                    ink = "30" if sum(rgb) > 380 else "97"  # black on light colours, white on dark
                    parts.append(f"{paint}\x1b[1;{ink}m{label} {RESET}")
                else:
                    parts.append(f"{paint}  {RESET}")
        lines.append("".join(parts))
    return "\n".join(lines) + "\n"


# --- sister games: a drawing of cells and links ----------------------------------------------------


def _shapes_text(puzzle: Puzzle, solution: Solution | None, colors: int) -> str:
    """A Shapes board (cells of any shape, no rows to draw): each colour's cells by number (cell n is
    (0, n)), its path from end to end when solved, else its two endpoints."""
    lines = []
    for index, color in enumerate(puzzle.colors):
        cells = solution.paths[index] if solution is not None else puzzle.endpoints[index]
        label = color.label
        if colors != PLAIN:
            label = f"{background(display_rgb(puzzle, index), colors)}{label}\x1b[0m"
        joiner = " - " if solution is not None else " ... "
        lines.append(f"{label}: {joiner.join(str(cell[1]) for cell in cells)}")
    return "\n".join(lines)


def render_graph(puzzle: Puzzle, solution: Solution | None, colors: int) -> str:
    """A board with bridges, warps or walls as format E draws it (links between cells), or a hex board
    as staggered columns; solved, only the links the flows use are drawn, in their colours."""
    if puzzle.shape_links:
        return _shapes_text(puzzle, solution, colors)
    canvas = _hex_canvas(puzzle, solution) if puzzle.hex_lower is not None else _link_canvas(puzzle, solution)
    lines = []
    for line in canvas:
        parts = []
        for char, color, is_end in line:
            if colors == PLAIN or color is None:
                parts.append(char)
                continue
            rgb = display_rgb(puzzle, color)
            ink = ("30" if sum(rgb) > 380 else "97") if is_end else None
            text = f"\x1b[1;{ink}m{char}" if ink else (char if char in "+" else " ")
            parts.append(f"{background(rgb, colors)}{text}{RESET}")
        lines.append("".join(parts).rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


_Slot = tuple[str, int | None, bool]  # the character, the colour painted under it, whether it is a dot


def _cell_slots(puzzle: Puzzle, solution: Solution | None) -> dict[tuple[int, int], _Slot]:
    """What each cell shows: its dot's label, its flow's label, '+' for a bridge, '.' when empty."""
    color_of: dict[tuple[int, int], int] = {}
    if solution is not None:
        for index, path in enumerate(solution.paths):
            for cell in path:
                color_of.setdefault(cell, index)
    slots = {}
    for cell in puzzle.cells():
        dot = puzzle.endpoint_color(cell)
        if dot is not None:
            slots[cell] = (puzzle.colors[dot].label, dot, True)
        elif puzzle.is_bridge(cell):
            slots[cell] = ("+", None, False)
        elif cell in color_of:
            slots[cell] = (puzzle.colors[color_of[cell]].label.lower(), color_of[cell], False)
        else:
            slots[cell] = (".", None, False)
    return slots


def _link_canvas(puzzle: Puzzle, solution: Solution | None) -> list[list[_Slot]]:
    """Square-lattice boards: cells two characters apart, '-' and '|' for links, warps at both edges."""
    height, width = 2 * puzzle.rows + 1, 2 * puzzle.cols + 1
    canvas: list[list[_Slot]] = [[(" ", None, False)] * (width + 1) for _ in range(height + 1)]

    def put(line: int, position: int, slot: _Slot) -> None:
        canvas[line + 1][position + 1] = slot  # one spare line and column for warps coming back

    for (row, col), slot in _cell_slots(puzzle, solution).items():
        put(2 * row, 2 * col, slot)
    used: dict[tuple, int] = {}
    if solution is not None:
        for index, path in enumerate(solution.paths):
            for a, b in pairwise(path):
                used[(a, b)] = used[(b, a)] = index
    for a, b in puzzle.links():
        if solution is not None and (a, b) not in used:
            continue
        color = used.get((a, b))
        char = "-" if a[0] == b[0] else "|"
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1:  # a warp: drawn past the last cell and before the first
            first, last = min(a, b), max(a, b)
            if char == "-":
                put(2 * last[0], 2 * last[1] + 1, (char, color, False))
                put(2 * first[0], 2 * first[1] - 1, (char, color, False))
            else:
                put(2 * last[0] + 1, 2 * last[1], (char, color, False))
                put(2 * first[0] - 1, 2 * first[1], (char, color, False))
        else:
            put(a[0] + b[0], a[1] + b[1], (char, color, False))
    if not any(slot[0] != " " for slot in canvas[0]):
        canvas.pop(0)
    if all(line[0][0] == " " for line in canvas):
        canvas = [line[1:] for line in canvas]
    return canvas


def _hex_canvas(puzzle: Puzzle, solution: Solution | None) -> list[list[_Slot]]:
    """Hex boards: each column two characters wide, the lower columns half a cell (one line) down."""
    lower = puzzle.hex_lower
    canvas: list[list[_Slot]] = [[(" ", None, False)] * (2 * puzzle.cols) for _ in range(2 * puzzle.rows + 1)]
    for (row, col), slot in _cell_slots(puzzle, solution).items():
        canvas[2 * row + (1 if col % 2 == lower else 0)][2 * col] = slot
    while canvas and all(slot[0] == " " for slot in canvas[0]):
        canvas.pop(0)
    return canvas
