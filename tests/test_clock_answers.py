"""The class "the game's clock or score answers the last stroke" (saleh-flow's: no dialog, nothing moves
on by itself, an always active "Next Level"; a header clock that stops on the win and a score that
jumps): in-process against the bundled game's numbers line (`--clock`, `--score`) with `--fault
no-sign` (the line is all a win changes) and `--next-button always` (a "Next Level" that moves on, won
or not, pressed only once the game's clock confirmed the win). The game's results judge: no level is
claimed that the game did not take. A clock that keeps running, counts down, or a score that rises per
flow joined gives no claim."""

from __future__ import annotations

import json
import random

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture import ocr
from flowbot.game.faults import FaultSpec
from flowbot.game.look import Look, Variant
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

pytestmark = pytest.mark.skipif(not ocr.available(), reason="tesseract is not installed")

# A pace at which a 5x5 level takes about three seconds of the game's time to draw: a clock counting
# seconds then runs MIN_RUN or more before it stops (a faster drawing is confirmed from the second
# level on, once the clock is known to count seconds).
PACED = PointerSettings(moves_per_cell=2, move_delay=0.06)


@pytest.fixture(scope="module")
def levels():
    """Three 5x5 levels."""
    return [make_level(5, 5, 4, random.Random(300 + seed)).puzzle for seed in range(3)]


def play(levels, tmp_path, clock: str | None, score: str | None, count: int, faults: FaultSpec | None = None):
    """The live loop on the bundled game showing a numbers line (the clock and score kinds given) with
    nothing else to show a win, and the game."""
    look = Look(clock=clock, score=score, next_button="always")
    game = SimulatedGame(levels, variant=Variant(look=look), faults=faults or FaultSpec(no_sign=True))
    loop = AutoClear(game, game, PACED, None, count, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=2.0, verify_timeout=0.3)  # fmt: skip
    return loop.run(), game


def taken(game) -> list[bool]:
    """Which levels the game took, in order, the one showing last included."""
    return [result.solved for result in game.results] + [game.session.board.complete]


def assert_no_false_claim(report, game) -> None:
    """Every level flowbot claimed, the game took, and no level was left unwon (a skip)."""
    won = taken(game)
    for level in report.levels:
        assert not level.cleared or won[level.number - 1], f"level {level.number} claimed, not taken"
    assert all(result.solved for result in game.results), "a level was left unwon"


@pytest.mark.parametrize(("score", "word"), [("win", "clock stopped, score rose"), (None, "clock stopped")])
def test_a_clock_that_stops_on_the_win_confirms_levels_nothing_else_shows(levels, tmp_path, score, word):
    report, game = play(levels, tmp_path, "stops", score, count=2)
    assert report.cleared == 2, report.summary()
    assert taken(game)[:2] == [True, True]
    assert_no_false_claim(report, game)
    # What confirmed each level, in the per-level JSON.
    assert [record["won_by"] for record in map(lambda level: level.record(), report.levels)] == [word] * 2
    assert json.loads(json.dumps(report.levels[0].record()))["won_by"] == word


def test_a_clock_that_keeps_running_gives_no_claim(levels, tmp_path):
    # The game took the level (no-sign records it) but its clock runs on and its score rose: nothing
    # says the last stroke was what the game took, so nothing is claimed.
    report, game = play(levels, tmp_path, "runs", "win", count=1)
    assert report.cleared == 0 and "gave no sign" in report.stopped, report.summary()
    assert game.presses and all(result.solved for result in game.results)  # "Next Level" never pressed


@pytest.mark.parametrize("clock", ["runs", None])
def test_a_score_counted_per_flow_gives_no_claim(levels, tmp_path, clock):
    report, _ = play(levels, tmp_path, clock, "flows", count=1)
    assert report.cleared == 0 and "gave no sign" in report.stopped, report.summary()


def test_a_clock_counting_down_gives_no_claim(levels, tmp_path):
    report, _ = play(levels, tmp_path, "down", "win", count=1)
    assert report.cleared == 0 and "gave no sign" in report.stopped, report.summary()


def test_a_game_that_misses_releases_has_only_the_levels_it_took_claimed(levels, tmp_path):
    # lost-release: the pipes show joined while the game counts flows not drawn; its clock stops only
    # when it takes the level, and its per-flow score rises with each flow it holds. Claims follow the
    # clock, never the joins or the score.
    faults = FaultSpec(no_sign=True, lost_release=0.4, seed=2)
    report, game = play(levels, tmp_path, "stops", "flows", count=2, faults=faults)
    assert_no_false_claim(report, game)
    assert report.cleared >= 1, report.summary()
