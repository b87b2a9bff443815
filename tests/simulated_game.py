"""The bundled game played in-process: one object is both the Screen the bot looks at and the
Pointer it plays with, so the live loop runs fast and without a display."""

from __future__ import annotations

import numpy as np

from flowbot.capture.screen import Frame, Region


class SimulatedGame:
    """Renders the game's state for `grab`, and turns pointer calls into the game's own input."""

    def __init__(self, levels, size: tuple[int, int] = (540, 960)) -> None:
        import pygame  # drawing on a plain Surface needs no video driver, so none is set

        from flowbot.game.controls import Controls
        from flowbot.game.render import Renderer
        from flowbot.game.session import Session

        pygame.font.init()
        self.results: list = []
        self.session = Session(levels, report=self.results.append)
        self.controls = Controls(self.session)
        self.renderer = Renderer()
        self.surface = pygame.Surface(size)
        self.bounds = Region(0, 0, *size)
        self.x = self.y = 0.0
        self.held = False
        self.presses = 0
        self.layout = self._draw()

    def _draw(self):
        """Draw the current state; the layout says where everything is for the next input."""
        session = self.session
        return self.renderer.draw(
            self.surface, session.board, level=session.level, dialog=session.dialog(), back=session.index > 0
        )

    def grab(self, region: Region | None = None) -> Frame:
        """What the screen shows now."""
        from flowbot.game.render import surface_to_bgr

        self.layout = self._draw()
        pixels = surface_to_bgr(self.surface)
        if region is None:
            return Frame(pixels)
        part = pixels[region.top : region.top + region.height, region.left : region.left + region.width]
        return Frame(np.ascontiguousarray(part), region.left, region.top)

    def move(self, x: float, y: float) -> None:
        """Pointer motion, with the button held or not."""
        self.x, self.y = x, y
        self.controls.pointer_move(x, y, self.layout, held=self.held)

    def down(self) -> None:
        """Button press where the pointer is."""
        self.presses += 1
        self.held = True
        self.controls.pointer_down(self.x, self.y, self.layout)

    def up(self) -> None:
        """Button release; the game may now show its dialog."""
        self.held = False
        self.controls.pointer_up()
        self.layout = self._draw()
