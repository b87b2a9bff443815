"""The bundled Number Match window: the phone game's look (white grid, dark digits, faint cleared
ones, blue added ones, the round "+" with its badge, score and stage), played with the mouse.

    flowbot game --numbermatch [--seed S] [--start 27|35] [--adds N] [--rules NAME=VALUE,...]
        [--results FILE] [--size WxH]

Click two cells to clear a pair, click "+" to add; drag the grid (or turn the wheel) to scroll a board
taller than the window. The state and rules live in flowbot.numbermatch.game; this module draws and
turns pointer events into its actions.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from flowbot.display import DisplayError
from flowbot.game.session import ResultsFile
from flowbot.numbermatch.game import NumberMatchGame
from flowbot.numbermatch.rules import Rules

RGB = tuple[int, int, int]
PAGE: RGB = (255, 255, 255)
LINE: RGB = (226, 228, 232)
FRAME: RGB = (168, 176, 190)
INK: RGB = (28, 28, 30)
BLUE: RGB = (38, 118, 204)
FAINT_INK: RGB = (224, 224, 226)
FAINT_BLUE: RGB = (208, 224, 240)
SELECTED: RGB = (206, 230, 252)
BUTTON: RGB = (236, 238, 242)
MUTED: RGB = (120, 124, 130)
DRAG_SLOP = 8  # pixels a press must move before it scrolls instead of clicking


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things sit in a window of `size`: the grid's columns and scrolled area, the "+" button."""

    size: tuple[int, int]

    @property
    def left(self) -> float:
        """The grid's left edge."""
        return self.size[0] * 0.04

    @property
    def cell(self) -> float:
        """A cell's side."""
        return (self.size[0] - 2 * self.left) / 9

    @property
    def area_top(self) -> float:
        """The top of the grid's scrolled area (under the score and stage)."""
        return self.size[1] * 0.19

    @property
    def area_bottom(self) -> float:
        """The bottom of the grid's scrolled area (above the "+" button)."""
        return self.size[1] - max(self.size[1] * 0.2, 2.4 * self.cell)

    @property
    def plus(self) -> tuple[float, float, float]:
        """The "+" button's centre and radius."""
        return self.size[0] / 2, (self.area_bottom + self.size[1]) / 2, self.cell * 0.8

    def content_rows(self, board_rows: int) -> int:
        """Grid rows drawn: the board's and two empty ones, at least enough to fill the area."""
        return max(board_rows + 2, math.ceil((self.area_bottom - self.area_top) / self.cell))

    def max_offset(self, board_rows: int) -> float:
        """How far the grid may scroll."""
        return max(0.0, self.content_rows(board_rows) * self.cell - (self.area_bottom - self.area_top))

    def slot_at(self, x: float, y: float, offset: float) -> int | None:
        """The slot index under a pixel of the grid area (None off the grid or outside the area)."""
        if not self.area_top <= y < self.area_bottom:
            return None
        col = math.floor((x - self.left) / self.cell)
        row = math.floor((y - self.area_top + offset) / self.cell)
        if not 0 <= col < 9 or row < 0:
            return None
        return row * 9 + col

    def on_plus(self, x: float, y: float) -> bool:
        """True for a pixel on the "+" button."""
        cx, cy, radius = self.plus
        return math.hypot(x - cx, y - cy) <= radius


class NumberMatchView:
    """Draws a game and turns presses, drags and releases into its clicks and scrolling."""

    def __init__(self, game: NumberMatchGame, size: tuple[int, int]) -> None:
        self.game = game
        self.layout = Layout(size)
        self.offset = 0.0
        self._press: tuple[float, float, float] | None = None  # x, y, offset at the press
        self._dragging = False
        self._fonts: dict[int, object] = {}
        self._stage = game.stage

    def resize(self, size: tuple[int, int]) -> None:
        """A resized window lays out again."""
        self.layout = Layout(size)
        self._clamp()

    def pointer_down(self, x: float, y: float) -> None:
        """A press: remember where, for a click or a drag."""
        self._press = (x, y, self.offset)
        self._dragging = False

    def pointer_move(self, x: float, y: float) -> None:
        """A move with the button held: past DRAG_SLOP on the grid area, it scrolls."""
        if self._press is None:
            return
        _, start_y, start_offset = self._press
        if not self._dragging and abs(y - start_y) > DRAG_SLOP and self._in_area(start_y):
            self._dragging = True
        if self._dragging:
            self.offset = start_offset - (y - start_y)
            self._clamp()

    def pointer_up(self, x: float, y: float) -> None:
        """A release: a click where it was pressed, unless the press scrolled."""
        press, dragging = self._press, self._dragging
        self._press, self._dragging = None, False
        if press is None or dragging:
            return
        if self.game.stuck:
            self.game.give_up()
        elif self.layout.on_plus(x, y):
            self.game.add()
        elif self._in_area(y):
            self.game.click(self.layout.slot_at(x, y, self.offset))
        else:
            self.game.click(None)
        if self.game.stage != self._stage:
            self._stage = self.game.stage
            self.offset = 0.0
        self._clamp()

    def wheel(self, steps: int) -> None:
        """The mouse wheel: a cell per step (up is positive)."""
        self.offset -= steps * self.layout.cell
        self._clamp()

    def _in_area(self, y: float) -> bool:
        """True for a y inside the grid's scrolled area."""
        return self.layout.area_top <= y < self.layout.area_bottom

    def _clamp(self) -> None:
        """Keep the scroll inside the grid."""
        self.offset = min(max(self.offset, 0.0), self.layout.max_offset(self.game.row_count))

    # --- drawing -----------------------------------------------------------------------------------

    def draw(self, surface) -> None:
        """One frame: header, grid (or the panel of a board ended with adds unused), "+" button."""
        surface.fill(PAGE)
        self._draw_header(surface)
        if self.game.ended_early:
            self._draw_game_over(surface)
        else:
            self._draw_grid(surface)
        self._draw_plus(surface)

    def _font(self, size: int):
        """pygame's bundled font at a pixel size (kept)."""
        import pygame

        size = max(8, int(size))
        if size not in self._fonts:
            self._fonts[size] = pygame.font.Font(None, size)
        return self._fonts[size]

    def _draw_header(self, surface) -> None:
        """The score in the middle, the stage at the left, a note when the board is stuck."""
        layout, game = self.layout, self.game
        width, height = layout.size
        score = self._font(height * 0.06).render(str(game.score), True, INK)
        surface.blit(score, score.get_rect(center=(width / 2, height * 0.07)))
        label = self._font(height * 0.03).render("Stage", True, MUTED)
        surface.blit(label, (layout.left, height * 0.11))
        stage = self._font(height * 0.03).render(str(game.stage), True, MUTED)
        surface.blit(stage, (layout.left, height * 0.14))
        if game.stuck and not game.ended_early:
            note = self._font(height * 0.03).render("No more moves: click for a new board", True, INK)
            surface.blit(note, note.get_rect(center=(width / 2, height * 0.16)))

    def _draw_grid(self, surface) -> None:
        """The cells in the scrolled area: lines, selection, digits (faint when cleared, blue when added)."""
        import pygame

        layout, game = self.layout, self.game
        cell, left = layout.cell, layout.left
        top, bottom = layout.area_top, layout.area_bottom
        right = left + 9 * cell
        clip = pygame.Rect(0, round(top), layout.size[0], round(bottom - top))
        surface.set_clip(clip)
        rows = layout.content_rows(game.row_count)
        font = self._font(cell * 0.95)
        first = max(0, math.floor(self.offset / cell))
        last = min(rows, math.ceil((self.offset + bottom - top) / cell) + 1)
        for row in range(first, last):
            y = top + row * cell - self.offset
            for col in range(9):
                index = row * 9 + col
                x = left + col * cell
                if index == game.selected:
                    pygame.draw.rect(
                        surface, SELECTED, pygame.Rect(round(x), round(y), round(cell), round(cell))
                    )
                if index < len(game.slots):
                    slot = game.slots[index]
                    colour = (
                        (FAINT_BLUE if slot.blue else FAINT_INK)
                        if slot.cleared
                        else (BLUE if slot.blue else INK)
                    )
                    glyph = font.render(str(slot.digit), True, colour)
                    surface.blit(glyph, glyph.get_rect(center=(round(x + cell / 2), round(y + cell / 2))))
        for row in range(first, last + 1):
            y = round(top + row * cell - self.offset)
            pygame.draw.line(
                surface,
                FRAME if row == 0 else LINE,
                (round(left), y),
                (round(right), y),
                3 if row == 0 else 2,
            )
        for col in range(10):
            x = round(left + col * cell)
            frame = col in (0, 9)
            y0 = max(top, top - self.offset)
            pygame.draw.line(
                surface, FRAME if frame else LINE, (x, round(y0)), (x, round(bottom)), 3 if frame else 2
            )
        surface.set_clip(None)

    def _draw_game_over(self, surface) -> None:
        """The panel a game that ends when no pair is left draws over the board, as third-party
        games do: the board is gone from view, and a click deals a new one."""
        import pygame

        layout = self.layout
        top, bottom = layout.area_top, layout.area_bottom
        panel = pygame.Rect(round(layout.left), round(top), round(9 * layout.cell), round(bottom - top))
        pygame.draw.rect(surface, BUTTON, panel, border_radius=round(layout.cell * 0.3))
        lines = (
            ("Game over", 0.08, INK),
            ("No pairs left", 0.035, MUTED),
            ("Click for a new board", 0.035, MUTED),
        )
        y = top + (bottom - top) * 0.35
        for text, share, colour in lines:
            glyphs = self._font(layout.size[1] * share).render(text, True, colour)
            surface.blit(glyphs, glyphs.get_rect(center=(layout.size[0] / 2, round(y))))
            y += layout.size[1] * max(share, 0.05) * 1.2

    def _draw_plus(self, surface) -> None:
        """The round "+" button with its blue cross, and the badge with the adds left (none at 0)."""
        import pygame

        cx, cy, radius = self.layout.plus
        pygame.draw.circle(surface, BUTTON, (round(cx), round(cy)), round(radius))
        arm = self.layout.cell * 0.36
        thick = max(2, round(self.layout.cell * 0.07))
        colour = BLUE if self.game.adds_left else MUTED
        pygame.draw.line(surface, colour, (round(cx - arm), round(cy)), (round(cx + arm), round(cy)), thick)
        pygame.draw.line(surface, colour, (round(cx), round(cy - arm)), (round(cx), round(cy + arm)), thick)
        if self.game.adds_left:
            bx, by = cx + radius * 0.72, cy - radius * 0.72
            badge = self.layout.cell * 0.3
            pygame.draw.circle(surface, BLUE, (round(bx), round(by)), round(badge))
            text = self._font(badge * 1.6).render(str(self.game.adds_left), True, PAGE)
            surface.blit(text, text.get_rect(center=(round(bx), round(by))))


def run_numbermatch_game(
    *,
    seed: int | None,
    start: int,
    rules: Rules,
    results: str | None,
    size: tuple[int, int],
    fps: int,
    title: str,
) -> int:
    """Open the window and play stage after stage until it is closed; returns 0."""
    from flowbot.game.app import _install_handlers, _restore_handlers, _StopRequest

    sink = ResultsFile(results) if results is not None else None
    try:
        game = NumberMatchGame(
            random.Random(seed),
            start=start,
            rules=rules,
            report=None if sink is None else sink.write,
        )
        stop = _StopRequest()
        previous = _install_handlers(stop)
        try:
            _play(game, stop, size, fps, title)
        finally:
            _restore_handlers(previous)
    finally:
        if sink is not None:
            sink.close()
    return 0


def _play(game: NumberMatchGame, stop, size: tuple[int, int], fps: int, title: str) -> None:
    """The frame loop: every queued event in order, then a frame drawn and shown."""
    import pygame

    from flowbot.game.app import HIDDEN_DRIVERS, READY
    from flowbot.game.presslog import PressLog
    from flowbot.game.render import EXPOSING_EVENTS, ShownFrame

    shown = False
    presses = PressLog()
    try:
        try:
            pygame.display.init()
            pygame.font.init()
            screen = pygame.display.set_mode(size)
        except pygame.error as error:
            raise DisplayError(f"cannot open the game window: {error}") from None
        import os

        if pygame.display.get_driver() in HIDDEN_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
            raise DisplayError("no display to open the game window on (set DISPLAY, or run it under Xvfb)")
        pygame.display.set_caption(title)
        view = NumberMatchView(game, size)
        clock = pygame.time.Clock()
        shown_frame = ShownFrame()
        view.draw(screen)
        shown_frame.changed(screen)
        pygame.display.flip()
        shown = True
        presses.opened("numbermatch", pygame.display.get_wm_info())
        print(READY, flush=True)
        while not stop.requested:
            exposed = False
            for event in pygame.event.get():
                exposed = exposed or event.type in EXPOSING_EVENTS
                if event.type == pygame.QUIT or (
                    event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_q)
                ):
                    stop.requested = True
                elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                    view.pointer_down(*event.pos)
                elif event.type == pygame.MOUSEMOTION and event.buttons[0]:
                    view.pointer_move(*event.pos)
                elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
                    view.pointer_up(*event.pos)
                elif event.type == pygame.MOUSEWHEEL:
                    view.wheel(event.y)
            if stop.requested:
                break
            view.draw(screen)
            if shown_frame.changed(screen, exposed):  # a frame the window shows already is not put again
                pygame.display.flip()
            clock.tick(fps)
    finally:
        if shown:
            game.leave(False)
        presses.close()
        pygame.quit()
