"""Draw the game on a pygame Surface as the real game looks: black board, thin grid, dots, pipes, HUD."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pygame

from flowbot.cellmap import SQRT3, HexGeometry, WarpGates
from flowbot.game.board import GameBoard
from flowbot.game.layout import Box, Dialog, Layout, RoundButton, compute_layout
from flowbot.game.look import DOT_RADIUS, RGB, TINT, Look, Theme
from flowbot.lattice import wraps
from flowbot.model import Cell, Puzzle
from flowbot.shapes.pixels import ShapeMap

Point = tuple[float, float]

__all__ = ["DOT_RADIUS", "TINT", "Look", "Renderer", "Theme", "hud_texts", "surface_to_bgr"]

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
DISABLED: RGB = (90, 90, 90)
DIALOG_FILL: RGB = (25, 25, 25)
LINE_WIDTH = 2  # grid lines and the board outline, in pixels at every window size
DIALOG_BORDER = 3
BUTTON_BORDER = 3
PIPE_WIDTH = 1 / 3  # of a cell
TILE: RGB = Theme().tile_rgb  # a cell drawn as a tile, in the tiles variant (dark page)
TILE_GAP = 2  # pixels of page between neighbouring tiles
PANEL_PAD = 0.12  # of a cell: the no-grid panel reaches this far past the outer cells
PANEL_CORNER = 0.3  # of a cell: the panel's corner radius
MARKER_RADIUS = 0.05  # of a cell, at least 1.5 and at most 5 pixels: a faint dot on an empty cell
GLYPH_SIZE = 0.5  # a glyph's radius, of the dot's radius
GLYPHS = ("circle", "triangle", "square", "star", "diamond", "plus", "hexagon", "cross")
PLAIN_FILL: RGB = (225, 225, 225)  # the text-style push button
PLAIN_BORDER: RGB = (128, 128, 128)
PLAIN_LABEL: RGB = (20, 20, 20)
NEXT_LABEL = "Next Level"
BRIDGE_RGB: RGB = (200, 200, 200)
BRIDGE_HUMP = 0.14  # of a cell: half the width of a bridge line's arch
WALL_RGB: RGB = (230, 230, 230)
WARP_LIP = 0.3  # of a cell: how far a warp opening's walls reach out of the board
WARP_STUB_EDGE = 0.2  # of a cell: the outline kept at each end of a warp's opening
WARP_STUB = 0.6  # of a cell: how far a pipe through a warp is drawn out of the board from a cell's centre
WON = "You won!"
# A Shapes board's outline: this share of a cell wide (and at least SHAPE_RIM_MIN pixels), in a
# brighter shade of the cell borders' colour, as the game draws it; the Shapes reader tells the
# outline from the borders by its width.
SHAPE_RIM = 0.07
SHAPE_RIM_MIN = 4
SHAPE_DOT_ROOM = 0.92  # a dot reaches at most this share of the way from a cell's middle to its edge

# Font heights in reference pixels (540x960 window); pygame's default font draws a little smaller.
TITLE_FONT = 54
SIZE_FONT = 34
HUD_FONT = 28
DIALOG_TITLE_FONT = 44
DIALOG_TEXT_FONT = 32
BUTTON_FONT = 36
PLAIN_FONT = 30
BANNER_FONT = 44
STATUS_FONT = 28


class Renderer:
    """Draws frames of the game in a theme and a look; keeps the fonts it has loaded, one per pixel size."""

    def __init__(self, theme: Theme | None = None, look: Look | None = None) -> None:
        self.theme = theme or Theme()
        self.look = look or Look()
        self._fonts: dict[int, pygame.font.Font] = {}

    def layout(
        self, surface: pygame.Surface, board: GameBoard, dialog: Dialog | None = None, *, won: bool = False
    ) -> Layout:
        """Where everything goes on this surface for this board (what `draw` uses)."""
        puzzle = board.puzzle
        width, height = surface.get_size()
        shape = puzzle if puzzle.is_graph else None
        return compute_layout(
            width, height, puzzle.rows, puzzle.cols, dialog, look=self.look, won=won, puzzle=shape
        )

    def draw(
        self,
        surface: pygame.Surface,
        board: GameBoard,
        *,
        level: int,
        dialog: Dialog | None = None,
        back: bool = True,
        won: bool = False,
        status: str | None = None,
    ) -> Layout:
        """Draw the whole window for a board and return the layout used (the pixel map for the pointer).

        `won` shows the win banner (with a look that has one) and moves the board under it; `status`
        is a line at the window's top right (a time trial's clock).
        """
        puzzle = board.puzzle
        layout = self.layout(surface, board, dialog, won=won)
        surface.fill(self.theme.page_rgb)
        if layout.title_shown:
            self._title(surface, layout, level, size_text(puzzle))
        if layout.hud_shown:
            self._hud(surface, layout, board)
        if layout.header is not None:
            self._header(surface, layout, board, level)
        if layout.banner is not None:
            self._banner(surface, layout)
        if status is not None:
            self._status(surface, layout, status)
        self._background(surface, layout, board)
        self._tints(surface, layout, board)
        self._grid(surface, layout, board)
        self._pipes(surface, layout, board)
        self._dots(surface, layout, board)
        for button in layout.buttons:
            self._button(surface, layout, button, enabled=back or button.name != "previous")
        for arrow in layout.arrows:
            self._arrow(surface, layout, arrow)
        if layout.next_box is not None:
            self._push_button(surface, layout, layout.next_box)
        if dialog is not None and layout.dialog is not None and layout.dialog.style == "text":
            self._plain_dialog(surface, layout)
        elif dialog is not None and layout.dialog is not None and layout.dialog.style == "modal":
            from flowbot.game.modal import draw_modal

            draw_modal(surface, layout, self.theme, self._font)
        elif dialog is not None:
            self._dialog(surface, layout, dialog)
        return layout

    # --- the board ---------------------------------------------------------------------------------

    def _background(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """The board's own ground: a rounded panel without a grid, the board's colour on a light page."""
        theme = self.theme
        hexes = layout.geometry
        if isinstance(hexes, ShapeMap):
            if theme.board_rgb != theme.page_rgb:
                for cell in board.puzzle.cells():
                    pygame.draw.polygon(surface, theme.board_rgb, hexes.outline(cell))
            return
        if isinstance(hexes, HexGeometry):
            if theme.board_rgb != theme.page_rgb:
                for cell in board.puzzle.cells():
                    pygame.draw.polygon(surface, theme.board_rgb, hexes.corners(cell))
            return
        xs, ys = layout.geometry.xs, layout.geometry.ys
        if not theme.grid:
            pad = _panel_pad(layout.cell)
            panel = pygame.Rect(
                int(xs[0]) - pad,
                int(ys[0]) - pad,
                int(xs[-1] - xs[0]) + 2 * pad,
                int(ys[-1] - ys[0]) + 2 * pad,
            )
            pygame.draw.rect(surface, theme.board_rgb, panel, border_radius=round(PANEL_CORNER * layout.cell))
        elif theme.board_rgb != theme.page_rgb and not theme.tiles:
            for row, col in board.puzzle.cells():
                left, top = int(xs[col]), int(ys[row])
                surface.fill(
                    theme.board_rgb, pygame.Rect(left, top, int(xs[col + 1]) - left, int(ys[row + 1]) - top)
                )

    def _tints(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Fill the cells under each pipe with a shade of its colour, as the game does."""
        geometry = layout.geometry
        for color, pipe in enumerate(board.pipes):
            if len(pipe) < 2:
                continue
            tint = self.theme.tint(self.theme.rgb(board.puzzle, color))
            for row, col in pipe:
                if board.puzzle.is_bridge((row, col)):
                    continue  # two flows share it: its symbol stays on the dark ground
                if isinstance(geometry, HexGeometry):
                    pygame.draw.polygon(surface, tint, geometry.corners((row, col)))
                    continue
                if isinstance(geometry, ShapeMap):
                    pygame.draw.polygon(surface, tint, geometry.outline((row, col)))
                    continue
                x, y = geometry.xs[col], geometry.ys[row]
                surface.fill(tint, pygame.Rect(x, y, geometry.xs[col + 1] - x, geometry.ys[row + 1] - y))

    def _grid(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Draw the four edges of every board cell; holes get none of their own, so only the outline shows."""
        puzzle = board.puzzle
        if isinstance(layout.geometry, ShapeMap):
            self._shape_grid(surface, layout.geometry, board)
            return
        if isinstance(layout.geometry, HexGeometry):
            self._hex_grid(surface, layout.geometry, board)
        elif not self.theme.grid:
            self._markers(surface, layout, board)
        elif self.theme.tiles:
            self._tiles(surface, layout, board)
        else:
            self._lines(surface, layout, board)
        for cell in puzzle.bridges:
            self._bridge(surface, layout, cell)
        if puzzle.edge_walls:
            self._walls(surface, layout, board)

    def _lines(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """The four edges of every cell; a warp's opening leaves the middle of an outer edge out, with
        two short walls leading out of the board from the gap's ends."""
        xs, ys = layout.geometry.xs, layout.geometry.ys
        color = self.theme.line_rgb
        half = LINE_WIDTH // 2
        puzzle = board.puzzle
        warps = puzzle.warps
        last_row, last_col = puzzle.rows - 1, puzzle.cols - 1
        for row, col in puzzle.cells():
            left, right, top, bottom = int(xs[col]), int(xs[col + 1]), int(ys[row]), int(ys[row + 1])
            stub = round(WARP_STUB_EDGE * (right - left))
            span_x = right - left + LINE_WIDTH
            span_y = bottom - top + LINE_WIDTH
            for y, open_ in ((top, row == 0), (bottom, row == last_row)):
                if open_ and ("col", col) in warps:
                    for x in (left, right - stub):
                        surface.fill(color, pygame.Rect(x - half, y - half, stub + LINE_WIDTH, LINE_WIDTH))
                else:
                    surface.fill(color, pygame.Rect(left - half, y - half, span_x, LINE_WIDTH))
            for x, open_ in ((left, col == 0), (right, col == last_col)):
                if open_ and ("row", row) in warps:
                    for y in (top, bottom - stub):
                        surface.fill(color, pygame.Rect(x - half, y - half, LINE_WIDTH, stub + LINE_WIDTH))
                else:
                    surface.fill(color, pygame.Rect(x - half, top - half, LINE_WIDTH, span_y))
        reach = round(WARP_LIP * layout.cell)
        stub = round(WARP_STUB_EDGE * layout.cell)
        for gate in getattr(layout.geometry, "gates", ()):
            left, top, right, bottom = (round(v) for v in gate.box)
            if gate.outward[1]:  # a row's opening: walls out from the gap's top and bottom
                x = left if gate.outward[1] > 0 else right - reach
                for y in (top + stub, bottom - stub):
                    surface.fill(color, pygame.Rect(x - half, y - half, reach + LINE_WIDTH, LINE_WIDTH))
            else:
                y = top if gate.outward[0] > 0 else bottom - reach
                for x in (left + stub, right - stub):
                    surface.fill(color, pygame.Rect(x - half, y - half, LINE_WIDTH, reach + LINE_WIDTH))

    def _empty_markers(self, surface: pygame.Surface, geometry, board: GameBoard) -> None:
        """A faint marker in each cell no pipe or dot takes (a board drawn without a grid)."""
        taken = {cell for pipe in board.pipes if len(pipe) > 1 for cell in pipe}
        taken |= {cell for pair in board.puzzle.endpoints for cell in pair}
        radius = min(5.0, max(1.5, MARKER_RADIUS * geometry.cell_size))
        for cell in board.puzzle.cells():
            if cell not in taken:
                pygame.draw.aacircle(surface, self.theme.marker_rgb, geometry.center(cell), radius)

    def _hex_grid(self, surface: pygame.Surface, geometry: HexGeometry, board: GameBoard) -> None:
        """Every cell's hexagon outlined (or a faint marker in each, without a grid)."""
        if not self.theme.grid:
            self._empty_markers(surface, geometry, board)
            return
        for cell in board.puzzle.cells():
            pygame.draw.polygon(surface, self.theme.line_rgb, geometry.corners(cell), LINE_WIDTH)

    def _shape_grid(self, surface: pygame.Surface, geometry: ShapeMap, board: GameBoard) -> None:
        """Every cell's polygon outlined thin, and the board's outline thick and brighter (a faint marker
        in each empty cell instead, without a grid)."""
        if not self.theme.grid:
            self._empty_markers(surface, geometry, board)
            return
        for cell in board.puzzle.cells():
            pygame.draw.polygon(surface, self.theme.line_rgb, geometry.outline(cell), LINE_WIDTH)
        rim = _rim_rgb(self.theme)
        width = max(SHAPE_RIM_MIN, round(SHAPE_RIM * geometry.cell_size))
        for start, end in geometry.rims():
            _thick_line(surface, rim, start, end, width)
            # Round ends: the outline's pieces meet at angles without notches.
            pygame.draw.circle(surface, rim, start, width / 2)
            pygame.draw.circle(surface, rim, end, width / 2)

    def _bridge(self, surface: pygame.Surface, layout: Layout, cell: tuple[int, int]) -> None:
        """The game's bridge: two grey lines across the cell, each arched over the middle."""
        x, y = layout.geometry.center(cell)
        size = layout.cell
        half, hump = size / 2, size * BRIDGE_HUMP
        width = max(2, round(size * 0.05))
        for level in (y - size * 0.18, y + size * 0.18):
            pygame.draw.line(surface, BRIDGE_RGB, (x - half, level), (x - hump, level), width)
            pygame.draw.line(surface, BRIDGE_RGB, (x + hump, level), (x + half, level), width)
            arch = pygame.Rect(round(x - hump), round(level - hump * 0.8), round(2 * hump), round(1.6 * hump))
            pygame.draw.arc(surface, BRIDGE_RGB, arch, 0, math.pi, width)

    def _walls(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """A thick line of the outline's colour between two cells a wall keeps apart."""
        geometry = layout.geometry
        width = max(3, round(layout.cell * 0.08))
        for a, b in board.puzzle.edge_walls:
            (xa, ya), (xb, yb) = geometry.center(a), geometry.center(b)
            mid_x, mid_y = (xa + xb) / 2, (ya + yb) / 2
            # Across the link, as long as the edge the two cells share.
            dx, dy = (yb - ya) / 2, (xa - xb) / 2
            if isinstance(geometry, HexGeometry):
                dx, dy = dx / SQRT3, dy / SQRT3
            pygame.draw.line(surface, WALL_RGB, (mid_x - dx, mid_y - dy), (mid_x + dx, mid_y + dy), width)

    def _tiles(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Cells as tiles with gaps of the page between, no lines; a tinted cell keeps its tint."""
        xs, ys = layout.geometry.xs, layout.geometry.ys
        tinted = {cell for pipe in board.pipes if len(pipe) > 1 for cell in pipe}
        for row, col in board.puzzle.cells():
            if (row, col) in tinted:
                continue
            left, top = int(xs[col]) + TILE_GAP, int(ys[row]) + TILE_GAP
            width, height = int(xs[col + 1]) - left - TILE_GAP, int(ys[row + 1]) - top - TILE_GAP
            surface.fill(self.theme.tile_rgb, pygame.Rect(left, top, width, height))

    def _markers(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """A small faint dot in every empty cell of a panel without a grid (none under pipes or on dots)."""
        taken = {cell for pipe in board.pipes if len(pipe) > 1 for cell in pipe}
        taken |= {cell for pair in board.puzzle.endpoints for cell in pair}
        radius = min(5.0, max(1.5, MARKER_RADIUS * layout.cell))
        for cell in board.puzzle.cells():
            if cell not in taken:
                pygame.draw.aacircle(surface, self.theme.marker_rgb, layout.geometry.center(cell), radius)

    def _pipes(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Draw each pipe a third of a cell wide, with round joints at every cell it passes."""
        geometry = layout.geometry
        width = max(2, round(layout.cell * PIPE_WIDTH))
        hexes = isinstance(geometry, HexGeometry)
        if isinstance(geometry, ShapeMap):
            self._shape_pipes(surface, geometry, board, width)
            return
        over: list[tuple[RGB, Point, Point]] = []  # the flows going across bridges, drawn last
        for color, pipe in enumerate(board.pipes):
            if len(pipe) < 2:
                continue
            rgb = self.theme.rgb(board.puzzle, color)
            centres = [geometry.center(cell) for cell in pipe]
            for (a, b), (start, end) in zip(pairwise(pipe), pairwise(centres), strict=True):
                if hexes:
                    _thick_line(surface, rgb, start, end, width)
                elif wraps(a, b):
                    self._through_warp(surface, geometry, rgb, a, b, width)
                else:
                    surface.fill(rgb, _segment(*start, *end, width))
                    if board.puzzle.is_bridge(b) and a[0] == b[0]:
                        over.append((rgb, start, end))
                    if board.puzzle.is_bridge(a) and a[0] == b[0]:
                        over.append((rgb, start, end))
            # Round the head and every turn; a circle where the pipe runs straight would bulge out of it.
            for index, (x, y) in enumerate(centres):
                before, after = centres[index - 1] if index else None, centres[index + 1 : index + 2]
                turns = before is None or not after or (before[0] != after[0][0] and before[1] != after[0][1])
                if hexes or turns:
                    pygame.draw.aacircle(surface, rgb, (x, y), width / 2)
        shade = max(1, width // 4)
        for rgb, start, end in over:  # over the other flow, with a dark edge along each side
            surface.fill(self.theme.page_rgb, _segment(*start, *end, width + 2 * shade))
            surface.fill(rgb, _segment(*start, *end, width))

    def _shape_pipes(self, surface: pygame.Surface, geometry: ShapeMap, board: GameBoard, width: int) -> None:
        """Each pipe from cell middle to cell middle through the middle of the border between, with
        round joints, so it bends with the board (along the curve on rings)."""
        for color, pipe in enumerate(board.pipes):
            if len(pipe) < 2:
                continue
            rgb = self.theme.rgb(board.puzzle, color)
            points = [geometry.center(pipe[0])]
            for a, b in pairwise(pipe):
                points += [geometry.border_middle(a, b), geometry.center(b)]
            for start, end in pairwise(points):
                _thick_line(surface, rgb, start, end, width)
            for point in points:
                pygame.draw.aacircle(surface, rgb, point, width / 2)

    def _through_warp(
        self, surface: pygame.Surface, geometry: WarpGates, rgb: RGB, a: Cell, b: Cell, width: int
    ) -> None:
        """A pipe through a warp: out of the board beyond `a`, and in again on the far side up to `b`."""
        (xa, ya), (xb, yb) = geometry.center(a), geometry.center(b)
        size = geometry.cell_size
        if a[0] == b[0]:
            out = size if xa > xb else -size
            surface.fill(rgb, _segment(xa, ya, xa + out * WARP_STUB, ya, width))
            surface.fill(rgb, _segment(xb - out * WARP_STUB, yb, xb, yb, width))
        else:
            out = size if ya > yb else -size
            surface.fill(rgb, _segment(xa, ya, xa, ya + out * WARP_STUB, width))
            surface.fill(rgb, _segment(xb, yb - out * WARP_STUB, xb, yb, width))

    def _dots(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """Draw every endpoint as a filled, antialiased disc 0.7 of a cell across, with its glyph if asked."""
        radius = self.theme.dot_radius * layout.cell
        geometry = layout.geometry
        for color, pair in enumerate(board.puzzle.endpoints):
            rgb = self.theme.rgb(board.puzzle, color)
            for cell in pair:
                centre = geometry.center(cell)
                if isinstance(geometry, ShapeMap):  # a dot fills its cell, however small the cell
                    radius = min(self.theme.dot_radius * layout.cell, SHAPE_DOT_ROOM * geometry.room(cell))
                pygame.draw.aacircle(surface, rgb, centre, radius)
                if self.theme.glyphs:
                    ink = BLACK if min(rgb) > 200 else WHITE  # white on a white dot would not show
                    _glyph(surface, GLYPHS[color % len(GLYPHS)], centre, GLYPH_SIZE * radius, ink)

    # --- text and controls -------------------------------------------------------------------------

    def _title(self, surface: pygame.Surface, layout: Layout, level: int, size: str) -> None:
        """'level N' in the pack's colour and the board size smaller after it, centred at the top."""
        name = self._font(layout.px(TITLE_FONT)).render(f"level {level}", True, self.theme.heading_rgb)
        small = self._font(layout.px(SIZE_FONT)).render(size, True, self.theme.text_rgb)
        gap = layout.px(14)
        left = (layout.width - name.get_width() - gap - small.get_width()) / 2
        surface.blit(name, name.get_rect(midleft=(left, layout.title_y)))
        surface.blit(small, small.get_rect(midleft=(left + name.get_width() + gap, layout.title_y)))

    def _hud(self, surface: pygame.Surface, layout: Layout, board: GameBoard) -> None:
        """The HUD line above the board: flows connected at the left, moves in the middle, pipe % right."""
        font = self._font(layout.px(HUD_FONT))
        hud = layout.hud
        y = hud.y + hud.height / 2
        anchors = (("midleft", hud.x), ("center", hud.x + hud.width / 2), ("midright", hud.x + hud.width))
        for text, (anchor, x) in zip(hud_texts(board), anchors, strict=True):
            image = font.render(text, True, self.theme.text_rgb)
            surface.blit(image, image.get_rect(**{anchor: (x, y)}))

    def _header(self, surface: pygame.Surface, layout: Layout, board: GameBoard, level: int) -> None:
        """'level 12  6x6  flows 0/6' at the board's left, its letters within half a cell above the board."""
        band = layout.header
        assert band is not None
        puzzle = board.puzzle
        text = f"level {level}  {size_text(puzzle)}  flows {board.connected}/{len(board.pipes)}"
        gap = max(1, round(0.06 * layout.cell))
        if not self.theme.grid:
            gap += _panel_pad(layout.cell)  # the words stay off the panel
        room = min(band.height, 0.5 * layout.cell) - gap
        image = self._fitted(text, layout.px(HUD_FONT), room, self.theme.text_rgb)
        surface.blit(image, image.get_rect(bottomleft=(band.x, band.y + band.height - gap)))

    def _banner(self, surface: pygame.Surface, layout: Layout) -> None:
        """'You won!' centred over the board, in the room the board was pushed down from."""
        box = layout.banner
        assert box is not None
        image = self._fitted(WON, layout.px(BANNER_FONT), 0.8 * box.height, self.theme.text_rgb)
        surface.blit(image, image.get_rect(center=box.center))

    def _status(self, surface: pygame.Surface, layout: Layout, status: str) -> None:
        """A line under the level's name, or at the window's top right when no name is shown."""
        image = self._font(layout.px(STATUS_FONT)).render(status, True, self.theme.text_rgb)
        if layout.title_shown:
            surface.blit(image, image.get_rect(center=(layout.width / 2, 2 * layout.title_y - layout.px(12))))
        else:
            margin = layout.px(12)
            surface.blit(image, image.get_rect(topright=(layout.width - margin, margin)))

    def _fitted(self, text: str, size: int, height: float, rgb: RGB) -> pygame.Surface:
        """The text drawn at `size` pixels, or smaller until its image is at most `height` tall."""
        size = max(6, size)
        image = self._font(size).render(text, True, rgb)
        while image.get_height() > height and size > 6:
            size -= 1
            image = self._font(size).render(text, True, rgb)
        return image

    def _button(self, surface: pygame.Surface, layout: Layout, button: RoundButton, *, enabled: bool) -> None:
        """A round outlined button with its icon: arrow left, restart arrow, arrow right."""
        color = self.theme.icon_rgb[0 if enabled else 1]
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

    def _arrow(self, surface: pygame.Surface, layout: Layout, arrow: RoundButton) -> None:
        """A skip arrow beside the board: a bare chevron, '<' or '>', as level pickers draw them."""
        sign = -1 if arrow.name == "previous" else 1
        half = arrow.radius * 0.7
        tip = (arrow.x + sign * half / 2, arrow.y)
        ends = [(arrow.x - sign * half / 2, arrow.y - half), tip, (arrow.x - sign * half / 2, arrow.y + half)]
        pygame.draw.lines(surface, self.theme.text_rgb, False, ends, max(3, layout.px(5)))

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

    def _plain_dialog(self, surface: pygame.Surface, layout: Layout) -> None:
        """A plain grey push button labelled 'Next Level' with 'Level complete' in small words above it."""
        placed = layout.dialog
        assert placed is not None and placed.button is not None
        self._push_button(surface, layout, placed.button)
        words = self._font(layout.px(HUD_FONT)).render("Level complete", True, self.theme.text_rgb)
        surface.blit(words, words.get_rect(center=placed.title.center))

    def _push_button(self, surface: pygame.Surface, layout: Layout, box: Box) -> None:
        """A plain grey push button labelled 'Next Level'."""
        button = _rect(box)
        surface.fill(PLAIN_FILL, button)
        pygame.draw.rect(surface, PLAIN_BORDER, button, max(1, layout.px(1)))
        label = self._font(layout.px(PLAIN_FONT)).render(NEXT_LABEL, True, PLAIN_LABEL)
        surface.blit(label, label.get_rect(center=button.center))

    def draw_screen(self, surface: pygame.Surface, screen: str, levels: int) -> None:
        """A screen in place of everything (the win-screen fault's): 'win', a big title and bare words
        with no box around them, or 'levels', the list of the `levels` level numbers under a heading."""
        from flowbot.game import winscreen as ws

        width, height = surface.get_size()
        scale = ws.screen_scale(width, height)
        surface.fill(self.theme.page_rgb)
        if screen == "win":
            placed = ws.win_screen(width, height)
            self._word(surface, ws.TITLE, ws.TITLE_FONT * scale, placed.title.center, self.theme.heading_rgb)
            for _, text, box in placed.words:
                self._word(surface, text, ws.WORD_FONT * scale, box.center, self.theme.text_rgb)
            return
        heading = (width / 2, ws.LIST_HEADING_Y * height)
        self._word(surface, ws.LEVELS, ws.WORD_FONT * scale, heading, self.theme.heading_rgb)
        for index, box in enumerate(ws.level_list(width, height, levels)):
            self._word(surface, str(index + 1), ws.LIST_FONT * scale, box.center, self.theme.text_rgb)

    def _word(self, surface: pygame.Surface, text: str, size: float, centre: Point, rgb: RGB) -> None:
        """Bare text of `size` pixels centred on a point."""
        image = self._font(max(6, round(size))).render(text, True, rgb)
        surface.blit(image, image.get_rect(center=(round(centre[0]), round(centre[1]))))

    def _font(self, size: int) -> pygame.font.Font:
        """pygame's default font at a pixel size, loaded once."""
        if size not in self._fonts:
            if not pygame.font.get_init():
                pygame.font.init()
            self._fonts[size] = pygame.font.Font(None, size)
        return self._fonts[size]


def hud_texts(board: GameBoard) -> tuple[str, str, str]:
    """The HUD's three counters as the game's own model has them: flows connected, moves, pipe share."""
    flows = f"flows: {board.connected}/{len(board.pipes)}"
    return flows, f"moves: {board.moves}", f"pipe: {board.pipe_percent}%"


def size_text(puzzle: Puzzle) -> str:
    """The board's size as the title shows it: columns x rows, or a Shapes board's kind."""
    if puzzle.kind == "shapes" and puzzle.source is not None and "shape" in puzzle.source.details:
        return str(puzzle.source.details["shape"])
    return f"{puzzle.cols}x{puzzle.rows}"


# A window's frame drawn the same as the one it shows is not put on it again (each put copies the whole
# window to the X server: most of an idle game's CPU and the server's), but after an event that may
# have spoilt what it shows, and at least every REFRESH_FRAMES frames anyway.
EXPOSING_EVENTS = frozenset(
    (pygame.VIDEOEXPOSE, pygame.VIDEORESIZE, pygame.WINDOWEXPOSED, pygame.WINDOWRESIZED,
     pygame.WINDOWSIZECHANGED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED, pygame.WINDOWMAXIMIZED)
)  # fmt: skip
REFRESH_FRAMES = 30


class ShownFrame:
    """The pixels a game window shows (the last frame put on it), to tell whether a frame just drawn
    needs putting on it."""

    def __init__(self) -> None:
        self.pixels: np.ndarray | None = None
        self.kept = 0  # frames drawn the same since the last one put on the window

    def changed(self, surface: pygame.Surface, exposed: bool = False) -> bool:
        """True when `surface` (the window's, just drawn) is to be put on the window: it differs from
        what the window shows, the window was `exposed` (an EXPOSING_EVENTS event came), or
        REFRESH_FRAMES frames were kept; remembered as shown then. Always True for a surface whose
        pixels cannot be compared in place (24 bits a pixel)."""
        try:
            pixels = pygame.surfarray.pixels2d(surface)
        except (ValueError, pygame.error):
            return True
        try:
            if (
                not exposed
                and self.kept < REFRESH_FRAMES
                and self.pixels is not None
                and self.pixels.shape == pixels.shape
                and np.array_equal(self.pixels, pixels)
            ):
                self.kept += 1
                return False
            self.pixels, self.kept = pixels.copy(), 0
            return True
        finally:
            del pixels  # the surface stays locked while a view of its pixels lives


def surface_to_bgr(surface: pygame.Surface) -> np.ndarray:
    """The pixels of a surface as a frame for `read_puzzle`.

    returns : (H, W, 3) uint8 ndarray, BGR
    """
    if surface.get_bitsize() < 24:
        # surfarray indexes pixels [x, y] in RGB; frames are [y, x] in BGR. (Its scaling of fewer
        # bits to eight differs from SDL's, so those surfaces keep this path.)
        return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2)[:, :, ::-1])
    # The same pixels in half the time: SDL's RGB bytes, row by row, reversed to BGR in one copy.
    width, height = surface.get_size()
    rgb = np.frombuffer(pygame.image.tobytes(surface, "RGB"), np.uint8).reshape(height, width, 3)
    return rgb[:, :, ::-1].copy()


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


def _glyph(surface: pygame.Surface, shape: str, centre: tuple[float, float], size: float, ink: RGB) -> None:
    """A filled shape about `size` in radius at `centre`: one of GLYPHS."""
    x, y = centre
    if shape == "circle":
        pygame.draw.aacircle(surface, ink, centre, size)
        return
    if shape in ("plus", "cross"):
        arm, half = size * 1.05, size * 0.32
        outline = [(half, arm), (half, half), (arm, half), (arm, -half), (half, -half), (half, -arm)]
        outline += [(-px, -py) for px, py in outline]
        turn = math.pi / 4 if shape == "cross" else 0.0
        points = [_turned(px, py, turn) for px, py in outline]
    else:
        corners, radius, inner, turn = {
            "triangle": (3, 1.2, None, -math.pi / 2),
            "square": (4, 1.15, None, math.pi / 4),
            "diamond": (4, 1.2, None, 0.0),
            "hexagon": (6, 1.05, None, 0.0),
            "star": (5, 1.25, 0.5, -math.pi / 2),
        }[shape]
        points = []
        for index in range(corners):
            angle = turn + 2 * math.pi * index / corners
            points.append((radius * math.cos(angle), radius * math.sin(angle)))
            if inner is not None:
                angle += math.pi / corners
                points.append((inner * math.cos(angle), inner * math.sin(angle)))
        points = [(px * size, py * size) for px, py in points]
    pygame.draw.polygon(surface, ink, [(x + px, y + py) for px, py in points])


def _thick_line(surface: pygame.Surface, rgb: RGB, start: Point, end: Point, width: int) -> None:
    """A pipe segment at any angle: a filled quadrilateral `width` pixels across."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = (y1 - y2) / length * width / 2, (x2 - x1) / length * width / 2
    corners = [(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)]
    pygame.draw.polygon(surface, rgb, corners)


def _rim_rgb(theme: Theme) -> RGB:
    """A Shapes board's outline: the cell borders' colour made stronger against the page (twice as
    bright on the dark page, half as bright on the light one)."""
    red, green, blue = theme.line_rgb
    if theme.light:
        return red // 2, green // 2, blue // 2
    return min(255, 2 * red), min(255, 2 * green), min(255, 2 * blue)


def _panel_pad(cell: float) -> int:
    """How far the no-grid panel reaches past the outer cells, in pixels."""
    return max(2, round(PANEL_PAD * cell))


def _turned(x: float, y: float, angle: float) -> tuple[float, float]:
    """A point turned about the origin by `angle` radians."""
    return x * math.cos(angle) - y * math.sin(angle), x * math.sin(angle) + y * math.cos(angle)


def _rect(box: Box) -> pygame.Rect:
    """A layout box as a pygame Rect (whole pixels)."""
    return pygame.Rect(round(box.x), round(box.y), round(box.width), round(box.height))
