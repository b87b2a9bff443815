"""Draw boards in a terminal: coloured blocks where the terminal allows, plain labels otherwise."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

from flowbot.model import WALL, Puzzle, Solution
from flowbot.palette import display_rgb

RESET = "\x1b[0m"


def use_color(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR", "") != "":
        return False
    if environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def render_solution(solution: Solution, color: bool) -> str:
    """The solved board: endpoints as their label, pipe cells filled with their colour."""
    return _render(solution.puzzle, solution.to_rows(), color)


def render_puzzle(puzzle: Puzzle, color: bool) -> str:
    """The unsolved board: endpoints in their colour, empty cells as dots."""
    return _render(puzzle, puzzle.to_rows(), color)


def _render(puzzle: Puzzle, rows: list[str], color: bool) -> str:
    """Draw rows of labels; each cell is two characters wide so boards look square."""
    if not color:
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
                r, g, b = display_rgb(puzzle, index[label])
                if puzzle.endpoint_color((row, col)) is not None:
                    ink = "0;0;0" if r + g + b > 380 else "255;255;255"
                    parts.append(f"\x1b[48;2;{r};{g};{b}m\x1b[1;38;2;{ink}m{label} {RESET}")
                else:
                    parts.append(f"\x1b[48;2;{r};{g};{b}m  {RESET}")
        lines.append("".join(parts))
    return "\n".join(lines) + "\n"
