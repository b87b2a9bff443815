"""What the terminal game paints: positioned spans of text with colours, built from a session, no curses.

The screen, centred in the terminal:

    level 1/3  7x7.txt
    flows: 2/7   moves: 3   pipe: 45%
    ┌──────────────┐
    │A █ · ...     │      each cell two columns wide, so the board looks square
    └──────────────┘
    drawing A (red): arrows draw, Enter drops
    arrows move  Enter pick up/drop  a solve ...   (when there is room)
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from flowbot.model import Cell, Puzzle
from flowbot.palette import display_rgb
from flowbot.play.colors import Rgb, ink_for
from flowbot.play.session import PlaySession
from flowbot.render import BASIC, XTERM_256

# The HUD's longest line ("flows: 16/16   moves: 999   pipe: 100%") fits this; narrower boards widen to it.
HUD_WIDTH = 36
# Title, flows line, and status line around the board and its border.
TEXT_LINES = 3
HELP_WIDE = ("arrows move  Enter pick up/drop  h hint  a solve  u undo  r restart  n/p level  q quit",)
HELP_NARROW = (
    "arrows move   Enter pick up/drop",
    "h hint  a solve  u undo  r restart",
    "n/p next/previous level  q quit",
)


@dataclass(frozen=True, slots=True)
class Style:
    """How a span looks: foreground and background RGB (None: the terminal's own) and attributes."""

    fg: Rgb | None = None
    bg: Rgb | None = None
    bold: bool = False
    dim: bool = False
    reverse: bool = False
    underline: bool = False


PLAIN_STYLE = Style()


@dataclass(frozen=True, slots=True)
class Span:
    """Text to paint at a screen row and column (both from 0), in one style."""

    row: int
    col: int
    text: str
    style: Style = PLAIN_STYLE


@dataclass(frozen=True, slots=True)
class Frame:
    """One screenful: the spans to paint and where the terminal's cursor should rest (row, col)."""

    spans: tuple[Span, ...]
    cursor: tuple[int, int] | None = None

    def text(self, width: int, height: int) -> list[str]:
        """The frame as plain lines of text, for tests and logs."""
        grid = [[" "] * width for _ in range(height)]
        for span in self.spans:
            for offset, char in enumerate(span.text):
                if 0 <= span.row < height and 0 <= span.col + offset < width:
                    grid[span.row][span.col + offset] = char
        return ["".join(line).rstrip() for line in grid]


@dataclass(frozen=True, slots=True)
class Glyphs:
    """The characters the board is drawn with: box drawing where the terminal has UTF-8, ASCII otherwise."""

    empty: str
    corners: str  # top-left, top-right, bottom-left, bottom-right
    horizontal: str
    vertical: str
    link: str  # between two cells of one pipe, in the lettered (8-colour and no-colour) style
    dot_mark: str  # beside a dot's label under the cursor, in the block style


UNICODE = Glyphs("·", "┌┐└┘", "─", "│", "─", "◂")
ASCII = Glyphs(".", "++++", "-", "|", "-", "<")


def needed_size(puzzle: Puzzle) -> tuple[int, int]:
    """The (columns, lines) a terminal needs to show this board and its HUD."""
    return max(2 * puzzle.cols + 2, HUD_WIDTH), puzzle.rows + 2 + TEXT_LINES


def render(session: PlaySession, width: int, height: int, depth: int, glyphs: Glyphs = UNICODE) -> Frame:
    """The frame for a terminal of `width` columns and `height` lines at a colour depth."""
    puzzle = session.board.puzzle
    need_width, need_height = needed_size(puzzle)
    if width < need_width or height < need_height:
        return too_small(puzzle, width, height)
    help_lines = _help(width, height - need_height)
    # Centred as one block, the help included, so every line starts at the same column.
    left = (width - max([need_width, *map(len, help_lines)])) // 2
    top = (height - need_height - len(help_lines)) // 2
    spans = [
        Span(top, left, _clip(_title(session), width - left), Style(bold=True)),
        Span(top + 1, left, _clip(_counts(session), width - left)),
    ]
    spans += _border(top + 2, left, puzzle, glyphs)
    spans += _cells(session, top + 3, left + 1, depth, glyphs)
    status_style = Style(bold=True) if session.solved else PLAIN_STYLE
    spans.append(Span(top + 3 + puzzle.rows + 1, left, _clip(session.status(), width - left), status_style))
    for number, line in enumerate(help_lines):
        spans.append(Span(top + need_height + number, left, _clip(line, width - left), Style(dim=True)))
    row, col = session.cursor
    return Frame(tuple(spans), (top + 3 + row, left + 1 + 2 * col))


def too_small(puzzle: Puzzle, width: int, height: int) -> Frame:
    """A message instead of a board that would not fit: how big the terminal is and needs to be."""
    need_width, need_height = needed_size(puzzle)
    message = (
        f"terminal is {width}x{height}; this {puzzle.rows}x{puzzle.cols} board needs "
        f"{need_width}x{need_height} - enlarge the window or press q"
    )
    lines = textwrap.wrap(message, max(1, width))
    top = max(0, (height - len(lines)) // 2)
    spans = [Span(top + number, 0, _clip(line, width)) for number, line in enumerate(lines[:height])]
    return Frame(tuple(spans), None)


def _title(session: PlaySession) -> str:
    """The first line: which level of how many, and where it comes from."""
    return f"level {session.index + 1}/{len(session.levels)}  {session.level.name}"


def _counts(session: PlaySession) -> str:
    """The second line: flows connected, moves made, and how much of the board pipes cover."""
    board = session.board
    return f"flows: {board.connected}/{len(board.pipes)}   moves: {board.moves}   pipe: {board.pipe_percent}%"


def _help(width: int, spare_lines: int) -> tuple[str, ...]:
    """The key help: one line when wide enough, three when not, none when no lines are spare."""
    for lines in (HELP_WIDE, HELP_NARROW):
        if len(lines) <= spare_lines and max(map(len, lines)) <= width:
            return lines
    return ()


def _clip(text: str, width: int) -> str:
    """Text cut to a width, with an ellipsis when cut."""
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."


def _border(top: int, left: int, puzzle: Puzzle, glyphs: Glyphs) -> list[Span]:
    """A box around the board's cells."""
    inner = 2 * puzzle.cols
    tl, tr, bl, br = glyphs.corners
    style = Style(dim=True)
    spans = [Span(top, left, tl + glyphs.horizontal * inner + tr, style)]
    for row in range(puzzle.rows):
        spans.append(Span(top + 1 + row, left, glyphs.vertical, style))
        spans.append(Span(top + 1 + row, left + 1 + inner, glyphs.vertical, style))
    spans.append(Span(top + 1 + puzzle.rows, left, bl + glyphs.horizontal * inner + br, style))
    return spans


def _cells(session: PlaySession, top: int, left: int, depth: int, glyphs: Glyphs) -> list[Span]:
    """Every cell of the board, two columns each."""
    board = session.board
    puzzle = board.puzzle
    # Where each cell sits on a pipe that shows (a lone dot picked up is no pipe yet).
    place: dict[Cell, tuple[int, int]] = {}
    for color, pipe in enumerate(board.pipes):
        if len(pipe) >= 2:
            place.update((cell, (color, step)) for step, cell in enumerate(pipe))
    spans = []
    for row in range(puzzle.rows):
        for col in range(puzzle.cols):
            cell = (row, col)
            text, style = _cell(session, cell, place, depth, glyphs)
            spans.append(Span(top + row, left + 2 * col, text, style))
    return spans


def _cell(
    session: PlaySession, cell: Cell, place: dict[Cell, tuple[int, int]], depth: int, glyphs: Glyphs
) -> tuple[str, Style]:
    """The two characters of one cell and their style."""
    puzzle = session.board.puzzle
    under_cursor = cell == session.cursor
    if not puzzle.on_board(cell):
        return "  ", Style(reverse=under_cursor)
    dot = puzzle.endpoint_color(cell)
    color = dot if dot is not None else place.get(cell, (None, 0))[0]
    hinted = cell in session.hint_cells
    if color is None:
        if under_cursor:
            return "[]", Style(bold=True, reverse=True)
        if hinted:
            return "<>", Style(bold=True)  # a cell the hint points at
        return glyphs.empty + " ", Style(dim=True)
    if hinted:
        under_cursor = True  # the cursor's mark shows a hinted pipe cell or dot too
    label = puzzle.colors[color].label
    rgb = display_rgb(puzzle, color)
    if depth >= XTERM_256:
        return _block_cell(label, rgb, dot is not None, under_cursor, glyphs)
    # Lettered cells: with 8 colours (or none) two palette colours can look alike, so letters tell them apart.
    link = glyphs.link if _linked_right(cell, place) else " "
    fg = rgb if depth >= BASIC else None
    return label + link, Style(fg=fg, bold=dot is not None, underline=dot is not None, reverse=under_cursor)


def _block_cell(label: str, rgb: Rgb, is_dot: bool, under_cursor: bool, glyphs: Glyphs) -> tuple[str, Style]:
    """A cell in the game's colour: a dot shows its label, a pipe cell is a solid block."""
    ink = Style(fg=ink_for(rgb), bg=rgb, bold=True, underline=under_cursor)
    if is_dot:
        return label + (glyphs.dot_mark if under_cursor else " "), ink
    if under_cursor:
        # Reverse video would lose the colour; brackets in the dot's ink keep it.
        return "[]", ink
    return "  ", Style(bg=rgb)


def _linked_right(cell: Cell, place: dict[Cell, tuple[int, int]]) -> bool:
    """True when the cell and the one to its right are next to each other on the same pipe."""
    right = (cell[0], cell[1] + 1)
    if cell not in place or right not in place:
        return False
    (color, step), (other, other_step) = place[cell], place[right]
    return color == other and abs(step - other_step) == 1
