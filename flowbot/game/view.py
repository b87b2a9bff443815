"""The session as a player sees it in one variant: what is drawn each frame, where input lands, and the
level that loads by itself without a dialog. Shared by the window (app) and the in-process test game."""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from flowbot.game.controls import Controls
from flowbot.game.faults import Faults
from flowbot.game.layout import Dialog, Layout
from flowbot.game.look import Variant, shift_offset
from flowbot.game.render import Renderer
from flowbot.game.session import Session
from flowbot.game.stats import Stats

NEXT_LEVEL_DELAY = 0.4  # seconds a finished level stays up when there is no dialog


class GameView:
    """Draws the session in a variant and routes window pixels to its controls."""

    def __init__(
        self,
        session: Session,
        variant: Variant | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        delay: float = NEXT_LEVEL_DELAY,
        faults: Faults | None = None,
    ) -> None:
        self.session = session
        self.variant = variant or Variant()
        self.faults = faults or Faults(clock=clock)
        self.controls = Controls(session, dialog=self.variant.dialog, faults=self.faults)
        self.renderer = Renderer(self.variant.theme, self.variant.look)
        self.clock = clock
        self.delay = delay
        self.size = (0, 0)
        self.layout: Layout | None = None
        self._completed_at: float | None = None
        look = self.variant.look
        shows_stats = look.clock is not None or look.score is not None
        self.stats = Stats(look.clock, look.score, clock) if shows_stats else None

    @property
    def won(self) -> bool:
        """True once the shown level is complete and no stroke is held (the banner shows then)."""
        board = self.session.board
        return board.complete and board.drawing is None

    def offset(self) -> tuple[int, int]:
        """Where the frame sits in the window: moved a little per level in the shifting variant."""
        if not self.variant.shift:
            return 0, 0
        at_top_left = self.variant.look.board_px is not None
        dx, dy = shift_offset(self.session.level, *self.size, forward_only=at_top_left)
        layout = self.layout
        if layout is None:
            return dx, dy
        # Never so far that part of the board leaves the window (a wide board has little room).
        (left, top, right, bottom), (width, height) = layout.geometry.bounds, self.size
        dx = min(max(dx, -int(left) + 1), width - int(right) - 2)
        dy = min(max(dy, -int(top) + 1), height - int(bottom) - 2)
        return dx, dy

    def draw(self, surface: pygame.Surface) -> Layout:
        """Draw the session's state on the surface; the layout returned maps the next input."""
        session = self.session
        self.size = surface.get_size()
        screen = None if session.closed else self.controls.screen()
        if screen is not None:  # the whole window, unshifted: the board's map stays for the pointer
            self.layout = self.renderer.layout(surface, session.board)
            self.renderer.draw_screen(surface, screen, len(session.levels))
            return self.layout
        # An ended game's screen (a time trial's) shows in every variant; else what the faults let show.
        dialog = session.dialog() if session.closed else self.controls.shown_dialog()
        # A win banner shows only if the faults let a win show anything.
        won = self.won and self.faults.shows_win
        options = {"level": session.level, "dialog": dialog, "back": session.can_go_back, "won": won}
        options["status"] = session.status()
        if options["status"] is None and self.stats is not None:
            options["status"] = self.stats.line(session)  # the numbers line: clock, moves, score
        if not self.variant.shift:
            self.layout = self.renderer.draw(surface, session.board, **options)
        else:
            canvas = pygame.Surface(self.size)
            self.layout = self.renderer.draw(canvas, session.board, **options)
            surface.fill(self.renderer.theme.page_rgb)
            surface.blit(canvas, self.offset())
        return self.layout

    def board_centre(self) -> tuple[float, float]:
        """The middle of the board in window pixels, as last drawn (the window's middle before that)."""
        if self.layout is None:
            return self.size[0] / 2, self.size[1] / 2
        left, top, right, bottom = self.layout.geometry.bounds
        dx, dy = self.offset()
        return (left + right) / 2 + dx, (top + bottom) / 2 + dy

    def popup_centre(self) -> tuple[float, float]:
        """Where the game's popup window is centred, in window pixels: on the board's middle, but for
        next-under-popup's over its lower rows (the rows above it read as a smaller board)."""
        x, y = self.board_centre()
        if not self.faults.spec.next_under_popup or self.layout is None:
            return x, y
        top, bottom = self.layout.geometry.bounds[1], self.layout.geometry.bounds[3]
        return x, y + (bottom - top) * 0.3

    def local(self, x: float, y: float) -> tuple[float, float]:
        """A window pixel in the drawn frame's own pixels (a screen in place of everything is not shifted)."""
        if not self.session.closed and self.controls.screen() is not None:
            return x, y
        dx, dy = self.offset()
        return x - dx, y - dy

    def pointer_down(self, x: float, y: float) -> str:
        """A press of the main button at a window pixel; returns what it hit (see Controls.pointer_down)."""
        return self.controls.pointer_down(*self.local(x, y), self._layout())

    def popup(self) -> Dialog | None:
        """What the game's own popup window says now (the popup-window fault's win message), or None."""
        session = self.session
        return self.faults.popup(session.dialog() if self.variant.dialog and not session.closed else None)

    def pointer_move(self, x: float, y: float, *, held: bool = True) -> None:
        """The pointer moved to a window pixel, with the main button held or not."""
        if self.faults.drops_motion():
            return  # the lossy fault: a busy game misses this move
        self.controls.pointer_move(*self.local(x, y), self._layout(), held=held)

    def pointer_up(self) -> None:
        """The main button was released."""
        self.controls.pointer_up()

    def tick(self) -> None:
        """Once a frame: without a dialog, a finished level stays a moment, then the next loads by itself
        (never with the no-sign fault)."""
        self.session.tick()  # a time trial moves on at once, and ends
        if self.variant.dialog or not self.faults.moves_on_by_itself:
            return
        if self.won:
            now = self.clock()
            if self._completed_at is None:
                self._completed_at = now
            if now - self._completed_at > self.delay:
                self.session.next()
                self._completed_at = None
        else:
            self._completed_at = None

    def _layout(self) -> Layout:
        """The layout of the last frame drawn (input before the first frame has nothing to land on)."""
        if self.layout is None:
            raise RuntimeError("input before the first frame was drawn")
        return self.layout
