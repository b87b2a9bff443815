"""Evidence in one home (issue 33): a baseline frozen when a level's drawing begins and one pure
function from (baseline, the screen now, the plan) to what the picture says; and the engine's
watch, the one place that waits over looks, on the injected clock."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pygame")

from flowbot.act.plan import PointerSettings, draw_strokes, plan_strokes
from flowbot.capture.read import read_puzzle
from flowbot.game.faults import FaultSpec
from flowbot.generate.levels import make_level
from flowbot.live.clock import ManualClock
from flowbot.live.scene import Scene
from flowbot.live.watch import tries, until, until_past
from flowbot.modes.flow_verdict import Baseline, sight
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)


def drawn_level(skip_last: bool):
    """A level read, its solution, its baseline, and the screen after drawing every flow (all but
    the last drawn with `skip_last`) in a game that gives no sign (the board stays)."""
    from flowbot.solve.sat import solve

    game = SimulatedGame([make_level(5, 5, 4, random.Random(7)).puzzle], faults=FaultSpec(no_sign=True))
    before = game.grab()
    scene = Scene(before, read_puzzle(before.pixels))
    solution = solve(scene.reading.puzzle).solution
    baseline = Baseline.of(scene, solution)
    strokes = plan_strokes(solution, scene.geometry, FAST)
    draw_strokes(game, strokes[:-1] if skip_last else strokes, FAST, lambda: False, game.clock.sleep)
    return scene, solution, baseline, game.grab(), strokes[-1].color


def test_the_baseline_against_itself_shows_nothing_drawn():
    scene, solution, baseline, _, _ = drawn_level(skip_last=True)
    seen = sight(baseline, scene.frame.pixels, scene.reading.geometry, solution, None)
    assert not seen.joined and seen.unfinished and seen.in_place


def test_a_flow_not_drawn_is_still_missing_and_the_others_are_not():
    scene, solution, baseline, after, last = drawn_level(skip_last=True)
    seen = sight(baseline, after.pixels, scene.reading.geometry, solution, None)
    path = set(solution.paths[last])
    assert seen.missing and all(set(join) <= path for join in seen.missing)
    assert seen.in_place  # the level still shows: joins are not the game's word


def test_every_flow_drawn_shows_joined_and_the_function_is_pure():
    scene, solution, baseline, after, _ = drawn_level(skip_last=False)
    pixels = after.pixels.copy()
    seen = sight(baseline, after.pixels, scene.reading.geometry, solution, None)
    assert seen.joined and not seen.unfinished and seen.in_place
    assert (after.pixels == pixels).all()
    assert sight(baseline, after.pixels, scene.reading.geometry, solution, None) == seen


def test_until_gives_up_at_its_deadline_on_the_clock_not_in_real_seconds():
    clock = ManualClock()
    looks: list[float] = []
    assert until(clock, 5.0, lambda: looks.append(clock.now()), 0.5) is None
    assert len(looks) == 10 and clock.now() - 1000.0 == pytest.approx(5.0)
    found = until(clock, 5.0, lambda: "there" if clock.now() > 1006 else None, 0.5)
    assert found == "there" and clock.now() < 1006.6


def test_until_past_looks_once_more_after_its_deadline():
    clock = ManualClock()
    looks: list[float] = []
    assert until_past(clock, 1.0, lambda: looks.append(clock.now()), 0.4) is None
    assert looks[-1] > 1001.0 and len(looks) == 4


def test_tries_pause_between_looks_and_after_the_last_only_when_asked():
    pauses: list[float] = []
    assert tries(pauses.append, 3, lambda: None, 0.1) is None and len(pauses) == 3
    pauses.clear()
    assert tries(pauses.append, 3, lambda: None, 0.1, last_pause=False) is None and len(pauses) == 2
    answers = iter([None, "yes"])
    assert tries(pauses.append, 3, lambda: next(answers), 0.1) == "yes"
