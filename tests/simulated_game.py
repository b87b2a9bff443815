"""The bundled game played in-process: one object is both the Screen the bot looks at and the
Pointer it plays with, so the live loop runs fast and without a display."""

from __future__ import annotations

import numpy as np

from flowbot.capture.screen import Frame, Region
from flowbot.live.clock import ManualClock

GRAB_TIME = 0.005  # seconds of a game's own clock that a look takes


class SimulatedGame:
    """Renders the game's state for `grab`, and turns pointer calls into the game's own input.

    `variant` (flowbot.game.look.Variant) picks the look and behaviour, drawn by the same GameView as
    the real window: no dialog (the next level loads by itself `delay` seconds of `clock` after a win),
    the shifting board, the win banner, the text button, a small board at the top-left. A session of
    one's own (a time trial's TrialSession) may be passed as `session`. `faults`
    (flowbot.game.faults.FaultSpec) switches the game's fault modes on, e.g.
    `FaultSpec(lost_release=1.0, seed=3)`, `FaultSpec(next_in_place=True)`, `FaultSpec(no_sign=True)`.
    The game's time is `clock` (a ManualClock of its own when none is given; the faults' dice and
    timers run on it): pass `game.clock` to the live loop too, so that the loop's waits are the
    game's time and no test waits real seconds.
    """

    def __init__(self, levels, size: tuple[int, int] = (540, 960), variant=None, *, clock=None,
                 delay: float | None = None, session=None, faults=None) -> None:  # fmt: skip
        import pygame  # drawing on a plain Surface needs no video driver, so none is set

        from flowbot.game.faults import Faults
        from flowbot.game.session import Session
        from flowbot.game.view import NEXT_LEVEL_DELAY, GameView

        pygame.font.init()
        # A clock of its own moves on a little at every look too, as a real capture takes time: a
        # loop on another clock (a test's own) still sees the game's time pass.
        self.own_clock = clock is None
        self.clock = clock if clock is not None else ManualClock()
        self.results: list = []
        # A session of one's own (e.g. a time trial) reports wherever it was told to.
        self.session = session or Session(levels, report=self.results.append)
        self.view = GameView(
            self.session,
            variant,
            clock=self.clock,
            delay=NEXT_LEVEL_DELAY if delay is None else delay,
            faults=Faults(faults, clock=self.clock),
        )
        self.controls = self.view.controls
        self.surface = pygame.Surface(size)
        self.bounds = Region(0, 0, *size)
        self.x = self.y = 0.0
        self.held = False
        self.presses = 0
        self.layout = self._draw()

    @property
    def renderer(self):
        """The view's renderer (tests may swap in one with another theme)."""
        return self.view.renderer

    @renderer.setter
    def renderer(self, renderer) -> None:
        self.view.renderer = renderer
        self.layout = self._draw()

    def _draw(self):
        """Let a finished level move on if it does so by itself, then draw the current state."""
        self.view.tick()
        return self.view.draw(self.surface)

    def grab(self, region: Region | None = None) -> Frame:
        """What the screen shows now."""
        from flowbot.game.render import surface_to_bgr

        if self.own_clock:
            self.clock.advance(GRAB_TIME)
        self.layout = self._draw()
        if region is None:
            return Frame(surface_to_bgr(self.surface))
        width, height = self.surface.get_size()
        left, top = region.left, region.top
        if 0 <= left < width and 0 <= top < height:
            # Only the part asked for is copied out of the surface (most looks are of a small part).
            box = (left, top, min(region.width, width - left), min(region.height, height - top))
            if box[2] > 0 and box[3] > 0:
                return Frame(surface_to_bgr(self.surface.subsurface(box)), left, top)
        pixels = surface_to_bgr(self.surface)
        part = pixels[region.top : region.top + region.height, region.left : region.left + region.width]
        return Frame(np.ascontiguousarray(part), region.left, region.top)

    def move(self, x: float, y: float) -> None:
        """Pointer motion, with the button held or not."""
        self.x, self.y = x, y
        self.view.pointer_move(x, y, held=self.held)

    def down(self) -> None:
        """Button press where the pointer is."""
        self.presses += 1
        self.held = True
        self.view.pointer_down(self.x, self.y)

    def up(self) -> None:
        """Button release; the game may now show its dialog or banner."""
        self.held = False
        self.view.pointer_up()
        self.layout = self._draw()


DESKTOP_BGR = (60, 40, 30)  # a plain desktop around the game's window


class DesktopGame(SimulatedGame):
    """The simulated game in a window at `at` on a bigger desktop (a 4K monitor, say), the rest of it
    a plain colour: a Screen of the whole desktop, a Pointer in its pixels, and the display's windows
    (`stack`, `box`: the game's alone). Every region grabbed is kept in `grabbed` (None: all)."""

    def __init__(self, levels, desktop: tuple[int, int] = (3840, 2160), at: tuple[int, int] = (1600, 600),
                 size: tuple[int, int] = (540, 960), **options) -> None:  # fmt: skip
        super().__init__(levels, size, **options)
        self.at = at
        self.window = Region(*at, *size)
        self.bounds = Region(0, 0, *desktop)
        self.desktop = np.full((desktop[1], desktop[0], 3), DESKTOP_BGR, dtype=np.uint8)
        self.grabbed: list[Region | None] = []

    def show(self) -> None:
        """Draw the game's window, as it is now, onto the desktop."""
        window = super().grab().pixels
        left, top = self.at
        self.desktop[top : top + window.shape[0], left : left + window.shape[1]] = window

    def grab(self, region: Region | None = None) -> Frame:
        """What the desktop shows now, of `region` (default: all of it)."""
        self.grabbed.append(region)
        if region is None or type(self).show is not DesktopGame.show:
            self.show()  # all of the window (a subclass's `show` sees every look)
        else:
            self._show_part(region)
        return self.copy(region)

    def _show_part(self, region: Region) -> None:
        """Draw the part of the game's window within `region` onto the desktop, as `show` does all of
        it (the rest of the window is drawn when a look takes it in; a look that takes in none of it
        draws a pixel of it, so that the game is drawn once per look all the same)."""
        left, top = self.at
        x0, y0 = max(region.left, left), max(region.top, top)
        x1 = min(region.left + region.width, left + self.window.width)
        y1 = min(region.top + region.height, top + self.window.height)
        if x1 <= x0 or y1 <= y0:
            x0, y0, x1, y1 = left, top, left + 1, top + 1
        part = super().grab(Region(x0 - left, y0 - top, x1 - x0, y1 - y0)).pixels
        self.desktop[y0:y1, x0:x1] = part

    def copy(self, region: Region | None) -> Frame:
        """The desktop's pixels of `region` as they are, copied as a capture copies them."""
        area = region or Region(0, 0, self.desktop.shape[1], self.desktop.shape[0])
        part = self.desktop[area.top : area.top + area.height, area.left : area.left + area.width]
        return Frame(part.copy(), area.left, area.top)  # a copy: the desktop is drawn on again

    def move_window(self, left: int, top: int) -> None:
        """Move the game's window (what it leaves uncovered shows the desktop)."""
        self.desktop[:] = DESKTOP_BGR
        self.at = (left, top)
        self.window = Region(left, top, self.window.width, self.window.height)

    def move(self, x: float, y: float) -> None:
        """Pointer motion at a desktop pixel, to the game in its window's pixels."""
        super().move(x - self.at[0], y - self.at[1])

    def stack(self) -> list[int]:
        """The desktop's one window: the game's."""
        return [1]

    def box(self, window_id: int) -> Region | None:
        """Where the game's window is."""
        return self.window if window_id == 1 else None
