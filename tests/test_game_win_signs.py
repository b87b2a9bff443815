"""Faults that change what a win is and how it shows: lost-release (the game misses a stroke's end, so
a board that looks won is not, and the HUD's counters say so), next-in-place (no dialog, the next
level at once) and no-sign (nothing shows, nothing moves on). Pure state and plain surfaces, no window."""

from __future__ import annotations

import argparse

import numpy as np
import pygame
import pytest

from flowbot.errors import UsageError
from flowbot.game.app import main
from flowbot.game.board import GameBoard
from flowbot.game.faults import Fault, Faults, FaultSpec, parse_fault
from flowbot.game.look import Look, Variant
from flowbot.game.packs import levels_from
from flowbot.game.render import Renderer, hud_texts, surface_to_bgr
from flowbot.game.session import Session
from flowbot.game.view import GameView
from flowbot.solve.sat import solve
from tests.test_game_faults import WINDOW, Clock, press, stroke, win


def game(spec: FaultSpec, variant: Variant | None = None, clock: Clock | None = None):
    """A game view on a plain surface (no window), its results and the surface."""
    pygame.font.init()
    results: list = []
    clock = clock or Clock()
    session = Session(levels_from("5x5", None)[:3], report=results.append)
    view = GameView(session, variant or Variant(), clock=clock, faults=Faults(spec, clock=clock))
    surface = pygame.Surface(WINDOW)
    view.draw(surface)
    return view, results, surface


def solved(results) -> list[tuple[int, bool]]:
    """The results as (level, solved)."""
    return [(result.level, result.solved) for result in results]


def bottom_next(view: GameView):
    """The bottom bar's 'next' button."""
    [button] = [button for button in view.layout.buttons if button.name == "next"]
    return button


# --- the command line ------------------------------------------------------------------------------


def test_the_new_faults_parse_and_refuse_a_bad_value():
    assert parse_fault("lost-release:0.3") == Fault("lost-release", 0.3)
    assert parse_fault("next-in-place") == Fault("next-in-place")
    assert parse_fault("no-sign") == Fault("no-sign")
    for bad, words in (
        ("lost-release", "needs a chance P"),
        ("lost-release:1.5", "the chance is 0 to 1"),
        ("next-in-place:1", "takes no value"),
        ("no-sign:x", "takes no value"),
        ("no-signs", "unknown fault"),
    ):
        with pytest.raises(argparse.ArgumentTypeError, match=words):
            parse_fault(bad)
    faults = [Fault("lost-release", 0.25), Fault("next-in-place")]
    spec = FaultSpec.of(faults, seed=9)
    assert (spec.lost_release, spec.next_in_place, spec.no_sign, spec.seed) == (0.25, True, False, 9)
    assert spec.active
    assert FaultSpec.of([Fault("no-sign")]).active and FaultSpec(lost_release=0.1).active


@pytest.mark.parametrize(
    "pair",
    [
        ("next-in-place", "no-sign"),
        ("next-in-place", "popup-window"),
        ("next-in-place", "dialog-closes"),
        ("no-sign", "popup-window"),
        ("no-sign", "dialog-closes"),
    ],
)
def test_two_faults_that_change_what_a_win_shows_are_refused(pair):
    with pytest.raises(UsageError, match="pick one") as refused:
        FaultSpec.of([Fault(name) for name in pair])
    assert all(name in str(refused.value) for name in pair)
    assert FaultSpec.of([Fault("lost-release", 0.5), Fault(pair[0])]).lost_release == 0.5


@pytest.mark.parametrize("fault", ["next-in-place", "no-sign"])
def test_a_time_trial_refuses_the_faults_that_change_how_it_moves_on(fault, capsys):
    code = main(["--time-trial", "10", "--board", "5x5", "--seed", "1", "--fault", fault])
    assert code == UsageError.exit_code
    assert f"--fault {fault}: a time trial" in capsys.readouterr().err


# --- lost-release ----------------------------------------------------------------------------------


def test_lost_release_at_one_leaves_a_drawn_and_joined_solution_unconnected_and_unsolved():
    view, results, surface = game(FaultSpec(lost_release=1.0))
    win(view, surface)
    board = view.session.board
    flows = len(board.pipes)
    assert all(board.joined(color) for color in range(flows))  # the screen shows every join
    assert "." not in "".join(board.to_rows())  # and every cell filled
    assert board.connected == 0 and board.covered == 0 and not board.complete
    assert hud_texts(board) == (f"flows: 0/{flows}", "moves: 0", "pipe: 0%")
    assert not view.won and view.controls.shown_dialog() is None and view.layout.dialog is None
    view.session.leave()
    assert solved(results) == [(1, False)]


def test_a_lost_release_keeps_one_flow_out_until_a_stroke_of_it_is_released():
    puzzle = levels_from("5x5", None)[0]
    paths = solve(puzzle).solution.paths
    board = GameBoard(puzzle)
    for color, path in enumerate(paths):
        board.press(path[0])
        for cell in path[1:]:
            board.drag(cell)
        board.release(taken=color != 0)  # the game misses the first flow's release
    flows = len(paths)
    assert all(board.joined(color) for color in range(flows))
    assert not board.is_connected(0) and board.connected == flows - 1 < flows
    assert board.pipe_percent < 100 and not board.complete
    assert hud_texts(board)[0] == f"flows: {flows - 1}/{flows}"
    board.press(paths[1][-1])  # another flow's stroke (a tap on its far end) does not settle the first
    board.release()
    assert not board.is_connected(0)
    board.press(paths[1][0])  # nor does that flow drawn again
    for cell in paths[1][1:]:
        board.drag(cell)
    board.release()
    assert not board.is_connected(0) and board.connected == flows - 1
    board.press(paths[0][0])  # drawn again, and this time the release is taken
    for cell in paths[0][1:]:
        board.drag(cell)
    board.release()
    assert board.is_connected(0) and board.complete and board.pipe_percent == 100
    # The redraw is the first flow's move: the game never took the stroke before it.
    assert hud_texts(board) == (f"flows: {flows}/{flows}", f"moves: {flows + 1}", "pipe: 100%")


def test_a_redraw_whose_release_is_taken_connects_the_flow_and_wins_in_the_view():
    view, results, surface = game(FaultSpec(lost_release=1.0))
    win(view, surface)
    view.faults = view.controls.faults = Faults(FaultSpec())  # from here every release is taken
    win(view, surface)
    assert view.session.board.complete and view.layout.dialog is not None
    press(view, surface, *view.layout.dialog.button.center)
    assert solved(results) == [(1, True)] and view.session.level == 2


def test_lost_release_at_zero_changes_nothing():
    plain, plain_results, plain_surface = game(FaultSpec())
    zero, zero_results, zero_surface = game(FaultSpec(lost_release=0.0, seed=5))
    for view, surface in ((plain, plain_surface), (zero, zero_surface)):
        win(view, surface)
        view.session.leave()
    assert np.array_equal(surface_to_bgr(plain_surface), surface_to_bgr(zero_surface))
    assert solved(zero_results) == solved(plain_results) == [(1, True)]


def test_lost_release_rolls_once_per_stroke_with_its_seed():
    def joins(seed: int) -> list[bool]:
        """Whether each of 40 strokes of the first flow left it connected."""
        view, _, surface = game(FaultSpec(lost_release=0.5, seed=seed))
        path = solve(view.session.board.puzzle).solution.paths[0]
        outcome = []
        for _ in range(40):
            stroke(view, surface, path, wiggle=3)  # more pointer moves roll no more dice
            outcome.append(view.session.board.is_connected(0))
        return outcome

    first = joins(3)
    assert 8 < sum(first) < 32  # some releases are taken, some missed
    assert joins(3) == first
    assert joins(4) != first


# --- the HUD's counters ----------------------------------------------------------------------------


def test_the_hud_draws_the_models_counters_above_the_board_and_only_there_do_they_differ():
    pygame.font.init()
    puzzle = levels_from("5x5", None)[0]
    board = GameBoard(puzzle)
    board.pipes = [list(path) for path in solve(puzzle).solution.paths]
    renderer = Renderer()
    settled = pygame.Surface(WINDOW)
    layout = renderer.draw(settled, board, level=1)
    board.unsettled = {0}  # the same pipes on screen, one flow's release missed
    lost = pygame.Surface(WINDOW)
    renderer.draw(lost, board, level=1)
    flows = len(puzzle.colors)
    assert hud_texts(board)[0] == f"flows: {flows - 1}/{flows}" and hud_texts(board)[2] != "pipe: 100%"
    changed = np.any(surface_to_bgr(settled) != surface_to_bgr(lost), axis=2)
    rows, cols = np.nonzero(changed)
    hud = layout.hud
    assert rows.size > 0
    assert hud.y <= rows.min() and rows.max() < hud.y + hud.height  # the HUD line, above the board
    assert hud.x <= cols.min() and cols.max() < hud.x + hud.width
    assert rows.max() < layout.geometry.bounds[1]


# --- next-in-place ---------------------------------------------------------------------------------


def test_next_in_place_puts_the_next_level_where_the_won_one_was_with_no_dialog():
    view, results, surface = game(FaultSpec(next_in_place=True))
    bounds = view.layout.geometry.bounds
    paths = solve(view.session.board.puzzle).solution.paths
    for path in paths[:-1]:
        stroke(view, surface, path)
    assert view.session.level == 1 and not results
    stroke(view, surface, paths[-1])  # the winning stroke: the next level at once, no frame between
    assert view.session.level == 2 and view.session.board.covered == 0
    assert view.controls.shown_dialog() is None and view.layout.dialog is None and view.popup() is None
    assert view.layout.geometry.bounds == bounds  # the same place in the same window
    assert solved(results) == [(1, True)]


def test_next_in_place_shows_no_banner_and_plays_on_through_the_levels():
    view, results, surface = game(FaultSpec(next_in_place=True), Variant(look=Look(win_banner=True)))
    for _ in range(3):
        win(view, surface)
        assert view.layout.banner is None
    assert solved(results) == [(1, True), (2, True), (3, True)] and view.session.level == 1


# --- no-sign ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dialog", [True, False])
def test_no_sign_records_the_win_shows_nothing_and_never_moves_on(dialog):
    clock = Clock()
    variant = Variant(dialog=dialog, look=Look(win_banner=True))
    view, results, surface = game(FaultSpec(no_sign=True), variant, clock)
    win(view, surface)
    assert view.won  # the game's model has it won
    assert solved(results) == [(1, True)]  # written at once: nothing on screen will ever say so
    for _ in range(5):
        clock.now += 1.0
        view.tick()
        view.draw(surface)
    assert view.session.level == 1
    assert view.controls.shown_dialog() is None and view.layout.dialog is None and view.layout.banner is None
    nxt = bottom_next(view)
    press(view, surface, nxt.x, nxt.y)  # the bottom bar leaves it, with no second line for it
    assert view.session.level == 2 and solved(results) == [(1, True)]


def test_no_sign_looks_the_same_won_as_with_its_last_flow_all_but_drawn():
    view, _, surface = game(FaultSpec(no_sign=True))
    win(view, surface)
    won = surface_to_bgr(surface)
    board = view.session.board
    last = len(board.pipes) - 1
    board.unsettled = {last}  # not won any more: the model misses one flow; the pipes are the same
    view.draw(surface)
    changed = np.any(surface_to_bgr(surface) != won, axis=2)
    rows, _ = np.nonzero(changed)
    assert rows.max() < view.layout.geometry.bounds[1]  # only the HUD's counters tell the two apart


def test_a_board_won_with_no_sign_still_takes_strokes():
    view, results, surface = game(FaultSpec(no_sign=True))
    win(view, surface)
    dot = view.session.board.puzzle.endpoints[0][0]
    press(view, surface, *view.layout.geometry.center(dot))  # a new pipe from the dot: no longer won
    assert not view.session.board.complete and view.session.level == 1
    assert solved(results) == [(1, True)]  # the win was the game's word when it came


# --- the in-process game for the bot's tests -------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "level", "records"),
    [
        (FaultSpec(lost_release=1.0), 1, []),
        (FaultSpec(next_in_place=True), 2, [(1, True)]),
        (FaultSpec(no_sign=True), 1, [(1, True)]),
    ],
)
def test_the_simulated_game_plays_each_fault(spec, level, records):
    from tests.simulated_game import SimulatedGame

    simulated = SimulatedGame(levels_from("5x5", None)[:3], faults=spec)
    centre = simulated.layout.geometry.center
    for path in solve(simulated.session.board.puzzle).solution.paths:
        simulated.move(*centre(path[0]))
        simulated.down()
        for cell in path[1:]:
            simulated.move(*centre(cell))
        simulated.up()
    simulated.grab()
    assert simulated.session.level == level and solved(simulated.results) == records
    assert simulated.layout.dialog is None
