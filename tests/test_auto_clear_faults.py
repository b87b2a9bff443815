"""The live loop against a game that loses input, in-process: whatever the game drops, a level the
bot counts as cleared is one the game counted as solved (no false wins), and its `won_by` says why."""

from __future__ import annotations

import random

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)


@pytest.fixture(scope="module")
def levels():
    """Five 6x6 levels."""
    return [make_level(6, 6, 5, random.Random(100 + seed)).puzzle for seed in range(5)]


class FaultyGame(SimulatedGame):
    """The game losing input: each motion with probability `lossy`, or, with probability `last_step`,
    the move of a stroke that reaches a dot other than the one it started on."""

    def __init__(self, levels, *, lossy: float = 0.0, last_step: float = 0.0, seed: int = 1) -> None:
        super().__init__(levels)
        self.lossy, self.last_step, self.random = lossy, last_step, random.Random(seed)
        self.start = None

    def down(self) -> None:
        """A press: remember the cell the stroke starts on."""
        self.start = self.layout.geometry.cell_at(self.x, self.y)
        super().down()

    def move(self, x: float, y: float) -> None:
        """Motion, sometimes lost."""
        if self.held:
            cell = self.layout.geometry.cell_at(x, y)
            dots = {dot for pair in self.session.levels[self.session.index].endpoints for dot in pair}
            if self.random.random() < self.lossy:
                self.x, self.y = x, y
                return
            if cell in dots and cell != self.start and self.random.random() < self.last_step:
                self.x, self.y = x, y
                return
        super().move(x, y)


@pytest.mark.parametrize("fault", [{"lossy": 0.05}, {"lossy": 0.2}, {"last_step": 0.3}], ids=str)
def test_no_level_is_claimed_that_the_game_did_not_take(levels, tmp_path, fault):
    game = FaultyGame(levels, **fault)
    loop = AutoClear(game, game, FAST, None, 5, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2)  # fmt: skip
    report = loop.run()
    solved = [result.solved for result in game.results] + [game.session.board.complete]
    for level in report.levels:
        if level.cleared:
            assert solved[level.number - 1], f"level {level.number} claimed ({level.won_by}), not taken"
            assert level.won_by in ("joins", "dialog", "message", "new level")
        else:
            assert level.missing_cells or level.missing_joins
    assert report.cleared <= sum(solved)


class StubbornGame(SimulatedGame):
    """The game losing every motion of the first `times` drags of one flow (drags from either of its
    dots; a press with no motion, a tap, is no drag)."""

    def __init__(self, levels, flow: int, times: int) -> None:
        super().__init__(levels)
        self.dots, self.times = set(levels[0].endpoints[flow]), times
        self.drags = 0
        self.dragging = False

    def down(self) -> None:
        """A press: a drag of the flow once it moves."""
        self.dragging = False
        self.pressed_on_flow = self.layout.geometry.cell_at(self.x, self.y) in self.dots
        super().down()

    def move(self, x: float, y: float) -> None:
        """Motion, lost during the flow's first drags."""
        if self.held and self.pressed_on_flow:
            if not self.dragging:
                self.dragging, self.drags = True, self.drags + 1
            if self.drags <= self.times:
                self.x, self.y = x, y
                return
        super().move(x, y)


def test_a_flow_the_game_lost_twice_in_a_row_is_drawn_again_while_no_more_flows_break(levels, tmp_path):
    # The first flow lost on the first try and on its redraw: one flow broken after each try, no
    # fewer, yet each redraw is a fresh chance for a game that loses input now and then.
    game = StubbornGame(levels[:1], flow=0, times=2)
    loop = AutoClear(game, game, FAST, None, 1, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2)  # fmt: skip
    report = loop.run()
    assert report.cleared == 1, report.stopped
    assert report.levels[0].retries == 2


def test_a_win_dialog_that_closes_by_itself_is_pressed_with_no_second_reading(levels, tmp_path, monkeypatch):
    # Each reading of a label costs 0.3 s of the game's clock; the dialog closes 0.5 s after showing.
    # The button the verdict read is pressed from its look: a second reading would come too late.
    from flowbot.capture import ocr
    from flowbot.game.faults import Faults, FaultSpec

    game = SimulatedGame(levels[:2])
    clock = game.clock
    game.view.faults = game.view.controls.faults = Faults(FaultSpec(dialog_closes=True), clock=clock)

    def slow(read):
        """`read`, costing the game's clock 0.3 s a call."""

        def reading(*args, **kwargs):
            clock.advance(0.3)
            return read(*args, **kwargs)

        return reading

    monkeypatch.setattr(ocr, "read_lines", slow(ocr.read_lines))  # every label is read through it

    loop = AutoClear(game, game, FAST, None, 2, artifacts=tmp_path, clock=clock,
                     settle_timeout=1.0, verify_timeout=0.2)  # fmt: skip
    report = loop.run()
    assert report.cleared == 2, report.stopped
    assert [result.solved for result in game.results] == [True]  # level 1 was won and moved on from
