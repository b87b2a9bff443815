"""Draw boards in a terminal: coloured blocks where the terminal allows, plain labels otherwise."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

from flowbot.model import WALL, Puzzle, Solution
from flowbot.palette import display_rgb

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
    return _render(solution.puzzle, solution.to_rows(), colors)


def render_puzzle(puzzle: Puzzle, colors: int) -> str:
    """The unsolved board: endpoints in their colour, empty cells as dots."""
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
