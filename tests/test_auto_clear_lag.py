"""A game that shows the screen late (busy, or behind a slow mirror): the bot must judge a level by
what the game settles on, and take the game's win dialog at its word."""

from __future__ import annotations

import random

import numpy as np

from flowbot.act.plan import PointerSettings
from flowbot.act.tuning import start_tuner
from flowbot.capture.screen import Frame, Region
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

LAG = 0.6  # seconds of the game's clock between what the game does and what the screen shows


class LateScreen(SimulatedGame):
    """The in-process game whose screen shows what it drew LAG seconds ago."""

    def __init__(self, levels) -> None:
        self.history: list[tuple[float, np.ndarray]] = []
        super().__init__(levels)

    def _note(self) -> None:
        """Remember what the game shows now, with the time."""
        self.history.append((self.clock.now(), SimulatedGame.grab(self).pixels))

    def move(self, x: float, y: float) -> None:
        """Pointer motion, drawn now, seen later."""
        super().move(x, y)
        self._note()

    def down(self) -> None:
        """A press, seen later."""
        super().down()
        self._note()

    def up(self) -> None:
        """A release, seen later."""
        super().up()
        self._note()

    def grab(self, region: Region | None = None) -> Frame:
        """What the game drew LAG seconds ago."""
        self._note()
        now = self.clock.now()
        pixels = next((frame for moment, frame in reversed(self.history) if moment <= now - LAG),
                      self.history[0][1])  # fmt: skip
        self.history = [item for item in self.history if item[0] > now - LAG - 1] or self.history[-1:]
        if region is None:
            return Frame(pixels)
        part = pixels[region.top : region.top + region.height, region.left : region.left + region.width]
        return Frame(np.ascontiguousarray(part), region.left, region.top)


def test_self_tuning_on_a_late_screen_takes_the_win_dialog_at_its_word(tmp_path):
    rng = random.Random(7)
    levels = [make_level(side, side, side - 1, rng).puzzle for side in (5, 6, 7, 8, 9, 5)]
    game = LateScreen(levels)
    loop = AutoClear(game, game, PointerSettings(), None, 6, artifacts=tmp_path, clock=game.clock)
    loop.tuner = start_tuner(PointerSettings())
    report = loop.run()
    assert report.cleared == 6, report.summary()
    assert [result.solved for result in game.results] == [True] * 5
