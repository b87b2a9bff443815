"""Stray pipes of a failed try: the bundled game's no-cut fault (a stroke stops at another flow's
pipe instead of cutting it; tapping a flow's dot clears that flow), and the pure plan of which dots
to tap before redrawing (flowbot.act.clear)."""

from __future__ import annotations

import pygame

from flowbot.game.faults import Fault, Faults, FaultSpec, parse_fault
from flowbot.game.look import Variant
from flowbot.game.packs import levels_from
from flowbot.game.session import Session
from flowbot.game.view import GameView

# Level 1 of the 5x5 pack: '..ABA', '.B...', '.....', 'CD...', '...CD'; red (0) runs from (0, 2)
# round the left column, blue (2) from (3, 0) along the bottom row.
RED = ((0, 2), (0, 1), (0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (1, 4), (0, 4))
STRAY_BLUE = ((3, 0), (2, 0), (2, 1), (2, 2))  # an earlier try of blue, across red's way


def game(*, no_cut: bool) -> GameView:
    """Level 1 of the 5x5 pack on a plain surface, with the no-cut fault or without."""
    pygame.font.init()
    view = GameView(Session(levels_from("5x5", None)[:2]), Variant(), faults=Faults(FaultSpec(no_cut=no_cut)))
    view.draw(pygame.Surface((540, 960)))
    return view


def stroke(view: GameView, path) -> None:
    """One stroke through the cells' centres."""
    centre = view.layout.geometry.center
    view.pointer_down(*centre(path[0]))
    for cell in path[1:]:
        view.pointer_move(*centre(cell))
    view.pointer_up()


def test_no_cut_is_a_fault_of_its_own():
    assert parse_fault("no-cut") == Fault("no-cut")
    spec = FaultSpec.of([Fault("no-cut"), Fault("win-screen")])
    assert spec.no_cut and spec.win_screen and spec.active


def test_a_stroke_stops_at_another_flows_pipe_and_draws_nothing_more():
    view = game(no_cut=True)
    stroke(view, STRAY_BLUE)
    stroke(view, RED)
    pipes = view.session.board.pipes
    assert pipes[0] == list(RED[:4])  # stopped before (2, 0), blue's
    assert pipes[2] == list(STRAY_BLUE)  # not cut


def test_without_the_fault_the_same_stroke_cuts_the_stray_pipe():
    view = game(no_cut=False)
    stroke(view, STRAY_BLUE)
    stroke(view, RED)
    assert view.session.board.pipes[0] == list(RED) and view.session.board.pipes[2] == [(3, 0)]


def test_tapping_the_stray_flows_dot_clears_it_so_the_redraw_goes_through():
    view = game(no_cut=True)
    stroke(view, STRAY_BLUE)
    stroke(view, RED)
    stroke(view, [STRAY_BLUE[0]])  # a tap on blue's dot
    assert view.session.board.pipes[2] == [STRAY_BLUE[0]]
    stroke(view, RED)
    assert view.session.board.pipes[0] == list(RED)
