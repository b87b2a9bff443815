"""Draw the game on a pygame Surface as the real game looks: black board, thin grid, dots, pipes, HUD."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pygame

from flowbot.game.board import GameBoard
from flowbot.game.layout import Box, Dialog, Layout, RoundButton, compute_layout
from flowbot.model import PALETTE
from flowbot.palette import PALETTES

RGB = tuple[int, int, int]

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
DISABLED: RGB = (90, 90, 90)
DIALOG_FILL: RGB = (25, 25, 25)
LINE_WIDTH = 2  # grid lines and the board outline, in pixels at every window size
DIALOG_BORDER = 3
BUTTON_BORDER = 3
DOT_RADIUS = 0.35  # of a cell: the reader expects dots 0.7 of a cell across
PIPE_WIDTH = 1 / 3  # of a cell
# Cells under a pipe take its colour at 1/TINT brightness: at most 51 of 255, darker than any dot
# the reader accepts (70), so a tinted cell is never read as an endpoint.
TINT = 5
TILE: RGB = (45, 45, 45)  # a cell drawn as a tile, in the tiles variant
TILE_GAP = 2  # pixels of black between neighbouring tiles

# Font heights in reference pixels (540x960 window); pygame's default font draws a little smaller.
TITLE_FONT = 54
SIZE_FONT = 34
HUD_FONT = 28
DIALOG_TITLE_FONT = 44
DIALOG_TEXT_FONT = 32
BUTTON_FONT = 36


@dataclass(frozen=True, slots=True)
class Theme:
    """How a game draws: its grid lines (or tiles instead of lines), palette, dot size and title colour.

    The variants imitate other Flow games, so the bot is tested on looks it was not written for.
    """

    line_rgb: RGB = (70, 110, 70)
    title_rgb: RGB = (60, 200, 60)
    tiles: bool = False  # no grid lines: each cell a dark tile, with black gaps between
    palette: str = "current"  # a palette of flowbot.palette.PALETTES
    dot_radius: float = DOT_RADIUS  # of a cell

    def rgb(self, puzzle, color: int) -> RGB:
        """A colour of the puzzle in this theme's palette (by its name, else by its rank)."""
        name = puzzle.colors[color].name
        index = PALETTE.index(name) if name in PALETTE else color % len(PALETTE)
        return PALETTES[self.palette][index]


class Renderer:
    """Draws frames of the game; keeps the fonts it has loaded, one per pixel size."""

    def __init__(self, theme: Theme | None = None) -> None:
        self.theme = theme or Theme()
        self._fonts: dict[int, pygame.font.Font] = {}

    def draw(
        self,
        surface: pygame.Surface,
        board: GameBoard,
        *,
        level: int,
        dialog: Dialog | None = None,
        back: bool = True,
    ) -> Layout:
        """Draw the whole window for a board and return the layout used (the pixel map for the pointer)."""
        puzzle = board.puzzle
        layout = compute_layout(surface.get_width(), surface.get_height(), puzzle.rows, puzzle.cols, dialog)
        surface.fill(BLACK)
        self._title(surface, layout, level, f"{puzzle.cols}x{puzzle.rows}")
        self._hud(surface, layout, board)
        self._tints(surface, layout, board)
        self._grid(surface, layout, board)
        self._pipes(surface, layout, board)
        self._dots(surface, layout, board)
        for button in layout.buttons:
            self._button(surface, layout, button, enabled=back or button.name != "previous")
        if dialog is not None:
            self._dialog(surface, layout, dialog)
        return layout

    # --- the board ---------------------------------------------------------------------------------

    def _tints(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Fill the cells under each pipe with its colour, darkened, as the game does."""
        geometry = layout.geometry
        for color, pipe in enumerate(board.pipes):
            if len(pipe) < 2:
                continue
            red, green, blue = self.theme.rgb(board.puzzle, color)
            tint = (red // TINT, green // TINT, blue // TINT)
            for row, col in pipe:
                x, y = geometry.xs[col], geometry.ys[row]
                surface.fill(tint, pygame.Rect(x, y, geometry.xs[col + 1] - x, geometry.ys[row + 1] - y))

    def _grid(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Draw the four edges of every board cell; holes get none of their own, so only the outline shows."""
        xs, ys = layout.geometry.xs, layout.geometry.ys
        color = self.theme.line_rgb
        half = LINE_WIDTH // 2
        if self.theme.tiles:
            self._tiles(surface, layout, board)
            return
        for row, col in board.puzzle.cells():
            left, right, top, bottom = int(xs[col]), int(xs[col + 1]), int(ys[row]), int(ys[row + 1])
            span_x = right - left + LINE_WIDTH
            span_y = bottom - top + LINE_WIDTH
            for y in (top, bottom):
                surface.fill(color, pygame.Rect(left - half, y - half, span_x, LINE_WIDTH))
            for x in (left, right):
                surface.fill(color, pygame.Rect(x - half, top - half, LINE_WIDTH, span_y))

    def _tiles(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Cells as tiles with black gaps, no lines; a tinted cell keeps its tint."""
        xs, ys = layout.geometry.xs, layout.geometry.ys
        tinted = {cell for pipe in board.pipes if len(pipe) > 1 for cell in pipe}
        for row, col in board.puzzle.cells():
            if (row, col) in tinted:
                continue
            left, top = int(xs[col]) + TILE_GAP, int(ys[row]) + TILE_GAP
            width, height = int(xs[col + 1]) - left - TILE_GAP, int(ys[row + 1]) - top - TILE_GAP
            surface.fill(TILE, pygame.Rect(left, top, width, height))

    def _pipes(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Draw each pipe a third of a cell wide, with round joints at every cell it passes."""
        geometry = layout.geometry
        width = max(2, round(layout.cell * PIPE_WIDTH))
        for color, pipe in enumerate(board.pipes):
            if len(pipe) < 2:
                continue
            rgb = self.theme.rgb(board.puzzle, color)
            centres = [geometry.center(cell) for cell in pipe]
            for (x1, y1), (x2, y2) in pairwise(centres):
                surface.fill(rgb, _segment(x1, y1, x2, y2, width))
            # Round the head and every turn; a circle where the pipe runs straight would bulge out of it.
            for index, (x, y) in enumerate(centres):
                before, after = centres[index - 1] if index else None, centres[index + 1 : index + 2]
                if before is None or not after or (before[0] != after[0][0] and before[1] != after[0][1]):
                    pygame.draw.aacircle(surface, rgb, (x, y), width / 2)

    def _dots(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Draw every endpoint as a filled, antialiased disc 0.7 of a cell across."""
        radius = self.theme.dot_radius * layout.cell
        for color, pair in enumerate(board.puzzle.endpoints):
            rgb = self.theme.rgb(board.puzzle, color)
            for cell in pair:
                pygame.draw.aacircle(surface, rgb, layout.geometry.center(cell), radius)

    # --- text and controls -------------------------------------------------------------------------

    def _title(self, surface: pygame.Surface, layout: Layout, level: int, size: str) -> None:
        """'level N' in the pack's colour and the board size smaller after it, centred at the top."""
        name = self._font(layout.px(TITLE_FONT)).render(f"level {level}", True, self.theme.title_rgb)
        small = self._font(layout.px(SIZE_FONT)).render(size, True, WHITE)
        gap = layout.px(14)
        left = (layout.width - name.get_width() - gap - small.get_width()) / 2
        surface.blit(name, name.get_rect(midleft=(left, layout.title_y)))
        surface.blit(small, small.get_rect(midleft=(left + name.get_width() + gap, layout.title_y)))

    def _hud(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """The HUD line above the board: flows connected at the left, moves in the middle, pipe % right."""
        font = self._font(layout.px(HUD_FONT))
        hud = layout.hud
        y = hud.y + hud.height / 2
        parts = (
            (f"flows: {board.connected}/{len(board.pipes)}", "midleft", hud.x),
            (f"moves: {board.moves}", "center", hud.x + hud.width / 2),
            (f"pipe: {board.pipe_percent}%", "midright", hud.x + hud.width),
        )
        for text, anchor, x in parts:
            image = font.render(text, True, WHITE)
            surface.blit(image, image.get_rect(**{anchor: (x, y)}))

    def _button(self, surface: pygame.Surface, layout: Layout, button: RoundButton, *, enabled: bool) -> None:
        """A round outlined button with its icon: arrow left, restart arrow, arrow right."""
        color = WHITE if enabled else DISABLED
        centre = (button.x, button.y)
        pygame.draw.circle(surface, color, centre, button.radius, max(2, layout.px(2)))
        size = button.radius * 0.5
        stroke = max(2, layout.px(3))
        if button.name == "restart":
            # A clockwise arrow: an arc open at the top right, its head at the end of the sweep.
            box = pygame.Rect(0, 0, round(2 * size), round(2 * size))
            box.center = (round(button.x), round(button.y))
            start, end = math.radians(100), math.radians(420)
            pygame.draw.arc(surface, color, box, start, end, stroke)
            end_x, end_y = button.x + size * math.cos(end), button.y - size * math.sin(end)
            along = (math.sin(end), math.cos(end))  # the clockwise tangent at the arc's end
            across = (-along[1], along[0])
            head = size * 0.6
            pygame.draw.polygon(
                surface,
                color,
                [
                    (end_x + along[0] * head, end_y + along[1] * head),
                    (end_x + across[0] * head, end_y + across[1] * head),
                    (end_x - across[0] * head, end_y - across[1] * head),
                ],
            )
            return
        sign = -1 if button.name == "previous" else 1
        shaft_end = (button.x + sign * size, button.y)
        pygame.draw.line(surface, color, (button.x - sign * size, button.y), shaft_end, stroke)
        head = size * 0.6
        pygame.draw.polygon(
            surface,
            color,
            [
                (shaft_end[0] + sign * stroke / 2, shaft_end[1]),
                (shaft_end[0] - sign * head, shaft_end[1] - head),
                (shaft_end[0] - sign * head, shaft_end[1] + head),
            ],
        )

    def _dialog(self, surface: pygame.Surface, layout: Layout, dialog: Dialog) -> None:
        """A dark box with a white border over the board: title, text lines, and an outlined button."""
        placed = layout.dialog
        assert placed is not None
        box = _rect(placed.box)
        surface.fill(DIALOG_FILL, box)
        pygame.draw.rect(surface, WHITE, box, DIALOG_BORDER)
        title = self._font(layout.px(DIALOG_TITLE_FONT)).render(dialog.title, True, WHITE)
        surface.blit(title, title.get_rect(center=placed.title.center))
        font = self._font(layout.px(DIALOG_TEXT_FONT))
        for text, y in zip(dialog.lines, placed.line_ys, strict=True):
            image = font.render(text, True, WHITE)
            surface.blit(image, image.get_rect(center=(placed.box.center[0], y)))
        if dialog.button is not None and placed.button is not None:
            button = _rect(placed.button)
            pygame.draw.rect(surface, WHITE, button, BUTTON_BORDER)
            label = self._font(layout.px(BUTTON_FONT)).render(dialog.button, True, WHITE)
            surface.blit(label, label.get_rect(center=button.center))

    def _font(self, size: int) -> pygame.font.Font:
        """pygame's default font at a pixel size, loaded once."""
        if size not in self._fonts:
            if not pygame.font.get_init():
                pygame.font.init()
            self._fonts[size] = pygame.font.Font(None, size)
        return self._fonts[size]


def surface_to_bgr(surface: pygame.Surface) -> np.ndarray:
    """The pixels of a surface as a frame for `read_puzzle`.

    returns : (H, W, 3) uint8 ndarray, BGR
    """
    # surfarray indexes pixels [x, y] in RGB; frames are [y, x] in BGR.
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2)[:, :, ::-1])


def _segment(x1: float, y1: float, x2: float, y2: float, width: int) -> pygame.Rect:
    """The rectangle of a pipe between two neighbouring cell centres, overlapping both by a pixel.

    Ends rounded outwards: rounding each end on its own can leave a one-pixel gap between segments.
    """
    half = width / 2
    if y1 == y2:
        left, right = math.floor(min(x1, x2)), math.ceil(max(x1, x2)) + 1
        return pygame.Rect(left, round(y1 - half), right - left, width)
    top, bottom = math.floor(min(y1, y2)), math.ceil(max(y1, y2)) + 1
    return pygame.Rect(round(x1 - half), top, width, bottom - top)


def _rect(box: Box) -> pygame.Rect:
    """A layout box as a pygame Rect (whole pixels)."""
    return pygame.Rect(round(box.x), round(box.y), round(box.width), round(box.height))
