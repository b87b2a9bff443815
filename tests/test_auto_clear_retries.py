"""How many times the live loop draws a level the game has not taken yet: a try that leaves no more
flows broken than the one before earns one more, and redrawing the last flow of a level that showed
joined but unconfirmed counts as one flow broken."""

from __future__ import annotations

import random

from flowbot.generate.levels import make_level
from flowbot.live.report import Evidence
from flowbot.modes.auto_clear import AutoClear
from tests.test_tuning import game_with, loop_for


class LosingStrokes:
    """The game's pointer, losing every press, move and release of the strokes numbered in `lost`
    (counted by presses, from 1)."""

    def __init__(self, game, lost: set[int]) -> None:
        self.game, self.lost, self.presses = game, lost, 0
        self.bounds = game.bounds

    def _passes(self) -> bool:
        """Whether the stroke under way reaches the game."""
        return self.presses not in self.lost

    def move(self, x: float, y: float) -> None:
        """A move, unless its stroke is lost."""
        if self._passes():
            self.game.move(x, y)

    def down(self) -> None:
        """A press: a new stroke."""
        self.presses += 1
        if self._passes():
            self.game.down()

    def up(self) -> None:
        """A release, unless its stroke is lost."""
        if self._passes():
            self.game.up()


def test_a_lost_redraw_after_an_unconfirmed_look_earns_another_try(tmp_path, monkeypatch):
    # As allegro-flowfree at a load of 3: the first look found every flow joined but the game gave no
    # sign, the redraw of the last flow was lost and left that flow broken, and the third try went
    # through. Before, the level was given up after the second. The game here loses the last flow's
    # stroke in the first try and in the second; the first look is made to say "unconfirmed".
    level, other = (make_level(5, 5, 4, random.Random(seed)).puzzle for seed in (5, 6))
    game = game_with([level, other], interpolate=True)  # a level won is followed by another
    flows = len(level.colors)
    loop = loop_for(game, LosingStrokes(game, {flows, flows + 1}), lambda seconds: None, 1, tmp_path)
    loop.tuner = None  # two tries at the settings in use, then one more per try that did no worse
    looks: list[Evidence] = []
    real_verdict = AutoClear.verdict

    def verdict(self, *args, **options) -> Evidence:
        """The game's own answer, but for the first look: every flow joined, no sign."""
        looks.append(Evidence(None, unconfirmed=True) if not looks else real_verdict(self, *args, **options))
        return looks[-1]

    monkeypatch.setattr(AutoClear, "verdict", verdict)
    report = loop.run()
    assert report.cleared == 1, report.summary()
    assert [look.won_by is None for look in looks] == [True, True, False]
    assert len(looks[1].cells) > 0  # the lost redraw left its flow broken
    assert report.levels[0].retries == 2
    assert game.results[0].solved  # the game's verdict
