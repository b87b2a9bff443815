"""The bundled game's numbers line (`--clock`, `--score`: a clock that stops on the win, runs on or
counts down; a score that rises on the win or per flow joined) and its "Next Level" push button always
shown (`--next-button always`, moving on won or not). Pure state and plain surfaces, no window."""

from __future__ import annotations

import pygame
import pytest

from flowbot.errors import UsageError
from flowbot.game.app import build_parser, main, variant_from
from flowbot.game.faults import Faults, FaultSpec
from flowbot.game.look import Look, Variant
from flowbot.game.packs import levels_from
from flowbot.game.session import Session
from flowbot.game.stats import COUNTDOWN, FLOW_POINTS, WIN_POINTS, Stats
from flowbot.game.view import GameView
from flowbot.solve.sat import solve
from tests.test_game_faults import WINDOW, Clock, press, stroke, win


def game(look: Look, spec: FaultSpec | None = None):
    """A game view with `look` on a plain surface, its results, the surface and its clock."""
    pygame.font.init()
    results: list = []
    clock = Clock()
    session = Session(levels_from("5x5", None)[:3], report=results.append)
    faults = Faults(spec or FaultSpec(no_sign=True), clock=clock)
    view = GameView(session, Variant(look=look), clock=clock, faults=faults)
    surface = pygame.Surface(WINDOW)
    view.draw(surface)
    return view, results, surface, clock


def numbers(view: GameView) -> str:
    """The numbers line as it reads now."""
    assert view.stats is not None
    return view.stats.line(view.session)


def later(view: GameView, surface, clock: Clock, seconds: float) -> str:
    """The numbers line `seconds` on."""
    clock.now += seconds
    view.draw(surface)
    return numbers(view)


def test_a_clock_that_stops_stands_still_once_the_level_is_taken_and_the_score_jumps():
    view, _, surface, clock = game(Look(clock="stops", score="win"))
    assert numbers(view) == "00:00     Moves: 0     Score: 0"
    assert later(view, surface, clock, 7.2).startswith("00:07")
    win(view, surface)
    flows = len(view.session.board.pipes)
    taken = later(view, surface, clock, 0.0)
    assert taken.endswith(f"Score: {WIN_POINTS + FLOW_POINTS * flows}")
    assert later(view, surface, clock, 30.0).split()[0] == "00:07"  # stands still
    view.session.next()
    view.draw(surface)
    assert numbers(view).startswith("00:00") and numbers(view).endswith(taken.split()[-1])  # adds up


def test_a_clock_that_runs_never_stops_and_one_counting_down_stops_on_the_win():
    view, _, surface, clock = game(Look(clock="runs"))
    later(view, surface, clock, 3.0)
    win(view, surface)
    assert later(view, surface, clock, 10.0).split()[0] == "00:13"
    assert "Score" not in numbers(view)
    view, _, surface, clock = game(Look(clock="down"))
    assert numbers(view).startswith(f"{COUNTDOWN // 60:02d}:00")
    assert later(view, surface, clock, 4.0).startswith("04:56")
    win(view, surface)
    assert later(view, surface, clock, 10.0).startswith("04:56")


def test_a_score_per_flow_rises_with_each_flow_joined_won_or_not():
    view, _, surface, _ = game(Look(score="flows"))
    paths = solve(view.session.board.puzzle).solution.paths
    stroke(view, surface, paths[0])
    assert numbers(view).endswith(f"Score: {FLOW_POINTS}")
    stroke(view, surface, paths[1])
    assert numbers(view).endswith(f"Score: {2 * FLOW_POINTS}")


def test_the_clock_stops_only_when_the_game_takes_the_level():
    # lost-release: the pipes show joined, the game counts the flows not drawn; its clock runs on.
    view, _, surface, clock = game(Look(clock="stops"), FaultSpec(no_sign=True, lost_release=1.0))
    later(view, surface, clock, 2.0)
    win(view, surface)
    assert not view.session.board.complete
    assert later(view, surface, clock, 5.0).startswith("00:07")


def test_next_level_always_shown_moves_on_won_or_not():
    view, results, surface, _ = game(Look(next_button="always"))
    box = view.layout.next_box
    assert box is not None and box.y > view.layout.geometry.bounds[3]  # under the board
    press(view, surface, *box.center)
    assert view.session.level == 2 and [r.solved for r in results] == [False]  # a skip, if unwon
    win(view, surface)
    press(view, surface, *view.layout.next_box.center)
    assert view.session.level == 3 and [r.solved for r in results] == [False, True]


def test_the_command_line_asks_for_the_numbers_line_and_refuses_it_in_a_time_trial(capsys):
    args = build_parser().parse_args(["--clock", "stops", "--score", "win", "--next-button", "always"])
    look = variant_from(args).look
    assert (look.clock, look.score, look.next_button) == ("stops", "win", "always")
    assert main(["--time-trial", "30", "--board", "5x5", "--clock", "runs"]) == UsageError.exit_code
    assert "a time trial shows its own clock" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--clock", "sometimes"])


def test_no_numbers_line_without_a_clock_or_a_score():
    view, _, _, _ = game(Look())
    assert view.stats is None
    assert Stats(None, "win", lambda: 0.0).line(view.session) == "Moves: 0     Score: 0"
