"""What a try the game did not take says of the pointer's speed, and the redraw after it: stray pipes
of a failed try in a game that never cuts pipes are cleared (their dots tapped) before drawing again,
and neither cells blocked by another colour nor a lost release steps the pointer ladder down. In-process,
on the bundled game (no-cut, lost-release); the game's own results judge."""

from __future__ import annotations

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.act.tuning import Tuner
from flowbot.game.faults import FaultSpec
from flowbot.game.packs import levels_from
from flowbot.live.report import Evidence
from flowbot.modes.auto_clear import AutoClear
from flowbot.modes.flow_tries import UNCONFIRMED_REDRAWS, FlowTries
from tests.simulated_game import SimulatedGame

# The 5x5 pack's level 1: red (0) from (0, 2) round the left column; green (1) from (0, 3) to (1, 1).
# The game's own cursor takes red's first stroke through green's cells instead (as a game that steps
# its cursor toward the pointer may), and green, drawn next, stops at red's pipe.
RED_ASTRAY = ((1, 2), (1, 3))
CELLS_NO_PAUSES = 1  # a rung every move of which the in-process game takes


class AstrayGame(SimulatedGame):
    """The bundled game whose first stroke of red goes its own way (RED_ASTRAY), ignoring the pointer
    until the release."""

    def __init__(self, levels, **options) -> None:
        super().__init__(levels, **options)
        self.astray = False  # red's first stroke has gone astray
        self.ignoring = False  # the pointer's moves are not followed (the game's cursor went its own way)

    def down(self) -> None:
        """A press; on red's dot the first time, the game's own cursor wanders into green's cells."""
        super().down()
        board = self.session.board
        if not self.astray and board.drawing == 0:
            self.astray = self.ignoring = True
            for cell in RED_ASTRAY:
                self.view.pointer_move(*self.layout.geometry.center(cell), held=True)

    def move(self, x: float, y: float) -> None:
        """Pointer motion, not followed while the game's cursor goes its own way."""
        if self.ignoring:
            self.x, self.y = x, y
            return
        super().move(x, y)

    def up(self) -> None:
        """A release: the pointer is followed again."""
        self.ignoring = False
        super().up()


def loop_on(game, tmp_path, count: int) -> AutoClear:
    """Auto-clear on `game`, tuning from the 'cells, no pauses' rung."""
    loop = AutoClear(game, game, PointerSettings(), None, count, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=2.0, verify_timeout=0.3)  # fmt: skip
    loop.tuner = Tuner(start=CELLS_NO_PAUSES)
    return loop


def taken(game) -> list[bool]:
    """Which levels the game itself counted as solved, in order, the one showing last."""
    return [result.solved for result in game.results] + [game.session.board.complete]


def test_stray_pipes_are_tapped_away_and_the_redraw_goes_through_on_the_same_rung(tmp_path, caplog):
    game = AstrayGame(levels_from("5x5", None)[:3], faults=FaultSpec(no_cut=True))
    loop = loop_on(game, tmp_path, 2)
    with caplog.at_level("INFO"):
        report = loop.run()
    assert report.cleared == 2 and taken(game)[:2] == [True, True], report.summary()
    assert report.levels[0].retries == 1  # the strays cleared, one redraw was enough
    assert "in the way; tapping their dots first" in caplog.text
    assert loop.tuner.index == CELLS_NO_PAUSES and "dropped" not in report.pointer, report.pointer


def test_a_lost_release_keeps_the_rung_and_the_level_still_counts_only_when_taken(tmp_path):
    # The first release is lost: every pipe shows joined, the game's counters say 3 of 4. The flows are
    # drawn again one a try at the same rung until the game's dialog comes.
    from tests.test_auto_clear_confirmed import _FirstRollLost

    game = SimulatedGame(levels_from("5x5", None)[:3], faults=FaultSpec(lost_release=0.5))
    game.view.faults._dice = _FirstRollLost()
    loop = loop_on(game, tmp_path, 2)
    report = loop.run()
    assert report.cleared == 2 and taken(game)[:2] == [True, True], report.summary()
    assert {level.won_by for level in report.levels} == {"dialog"}
    assert report.levels[0].retries >= 1
    assert loop.tuner.index == CELLS_NO_PAUSES and "dropped" not in report.pointer, report.pointer


class _Stroke:
    """A planned stroke, by its flow alone."""

    def __init__(self, color: int) -> None:
        self.color = color


def tries(*colors: int) -> FlowTries:
    """FlowTries whose last try drew `colors`, for too_fast alone."""
    tries = FlowTries.__new__(FlowTries)
    tries.strokes = [_Stroke(color) for color in colors]
    tries.redrawn = {}
    tries.was_broken = len(colors) + 1  # the first try of the level: more flows broken than it has
    return tries


@pytest.mark.parametrize(
    ("broken", "in_way", "slower"),
    [({0, 1}, {0, 1}, False), ({0}, {1, 0}, False), ({0, 1}, {1}, True), ({0}, set(), True)],
)
def test_cells_blocked_by_another_colour_are_not_drawing_too_fast(broken, in_way, slower):
    assert tries(0, 1, 2).too_fast(Evidence(None, cells=((1, 1),)), broken, in_way) is slower


def test_only_a_flow_drawn_again_alone_and_unconfirmed_again_steps_down():
    unconfirmed = Evidence(None, unconfirmed=True)
    every = tries(0, 1, 2)
    assert not any(every.too_fast(unconfirmed, set(), set()) for _ in range(5))  # a whole try says nothing
    alone = tries(1)
    verdicts = [alone.too_fast(unconfirmed, set(), set()) for _ in range(UNCONFIRMED_REDRAWS)]
    assert verdicts == [False] * (UNCONFIRMED_REDRAWS - 1) + [True]
