"""Stray pipes of a failed try: the bundled game's no-cut fault (a stroke stops at another flow's
pipe instead of cutting it; tapping a flow's dot clears that flow), and the pure plan of which dots
to tap before redrawing (flowbot.act.clear)."""

from __future__ import annotations

import pygame
import pytest

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


# --- the plan: which dots to tap before drawing again --------------------------------------------


def seen_in(view: GameView) -> list[list[int | None]]:
    """What the game's own board shows on each cell: the flow whose pipe covers it, or None."""
    board = view.session.board
    puzzle = board.puzzle
    return [[board.owner((row, col)) for col in range(puzzle.cols)] for row in range(puzzle.rows)]


def solution_of(view: GameView):
    """The shown level's solution."""
    from flowbot.solve.sat import solve

    return solve(view.session.board.puzzle).solution


def test_the_stray_flow_is_tapped_first_then_the_flow_it_stopped():
    from flowbot.act.clear import blocked_cells, clearing_taps, flows_in_the_way

    view = game(no_cut=True)
    stroke(view, STRAY_BLUE)
    stroke(view, RED)
    solution = solution_of(view)
    seen = seen_in(view)
    assert sorted(blocked_cells(seen, solution)) == [(2, 0), (2, 1), (2, 2)]
    assert flows_in_the_way(seen, solution) == [2, 0]  # blue is in red's way; red was stopped by it
    assert clearing_taps(seen, solution) == [solution.paths[2][0], solution.paths[0][0]]


def test_after_the_taps_the_board_is_clear_and_the_solution_goes_through():
    from flowbot.act.clear import clearing_taps

    view = game(no_cut=True)
    stroke(view, STRAY_BLUE)
    stroke(view, RED)
    solution = solution_of(view)
    for path in solution.paths:  # drawn again as it stands: red stops at the stray blue once more
        stroke(view, path)
    assert not view.session.board.complete
    for dot in clearing_taps(seen_in(view), solution):
        stroke(view, [dot])
    assert clearing_taps(seen_in(view), solution) == []  # checked clear before drawing
    for path in solution.paths:
        stroke(view, path)
    assert view.session.board.complete


def test_an_empty_board_or_one_drawn_right_so_far_needs_no_taps():
    from flowbot.act.clear import blocked_cells, clearing_taps

    view = game(no_cut=True)
    solution = solution_of(view)
    assert clearing_taps(seen_in(view), solution) == []
    stroke(view, RED[:6])  # part of red, on red's own cells
    assert clearing_taps(seen_in(view), solution) == [] and blocked_cells(seen_in(view), solution) == []
    unknown = [[None] * 5 for _ in range(5)]  # nothing could be read: nothing to tap
    assert clearing_taps(unknown, solution) == []


def test_strays_covering_more_cells_are_cleared_first_each_flow_once():
    from flowbot.act.clear import flows_in_the_way

    view = game(no_cut=True)
    solution = solution_of(view)
    seen = [[None] * 5 for _ in range(5)]
    # Green (1) shows on three of red's cells and yellow (3) on one of blue's and one of red's.
    for cell in ((2, 1), (2, 2), (2, 3)):
        seen[cell[0]][cell[1]] = 1
    seen[4][1], seen[2][4] = 3, 3
    assert flows_in_the_way(seen, solution) == [1, 3, 0, 2]


def test_the_cells_read_on_the_rendered_board_give_the_same_flows_as_the_game():
    """read_seen on the bundled game's frames: each cell's pipe, as the game has it (dots aside),
    and None for cells empty as before drawing."""
    from flowbot.act.clear import read_seen
    from flowbot.capture.verdict import centre_colours
    from flowbot.game.render import surface_to_bgr

    view = game(no_cut=True)
    surface = pygame.Surface((540, 960))
    view.draw(surface)
    geometry = view.layout.geometry
    before = centre_colours(surface_to_bgr(surface), geometry)
    stroke(view, STRAY_BLUE)
    stroke(view, RED)
    view.draw(surface)
    puzzle = view.session.board.puzzle
    flow_rgb = [view.renderer.theme.rgb(puzzle, color) for color in range(len(puzzle.colors))]
    seen = read_seen(surface_to_bgr(surface), geometry, flow_rgb, before)
    dots = {cell for pair in puzzle.endpoints for cell in pair}
    truth = seen_in(view)
    for row in range(5):
        for col in range(5):
            if (row, col) not in dots:
                assert seen[row][col] == truth[row][col], (row, col)


@pytest.mark.parametrize("light", [False, True])
def test_a_redraw_planned_from_the_frames_alone_clears_the_strays_and_wins(light):
    """The redraw path as the live bot would take it, on frames only: a failed try, the cells read,
    the taps, a read that finds the board clear, then the flows drawn again."""
    from flowbot.act.clear import clearing_taps, flows_in_the_way, read_seen
    from flowbot.capture.verdict import centre_colours
    from flowbot.game.look import Theme
    from flowbot.game.render import surface_to_bgr

    pygame.font.init()
    view = GameView(
        Session(levels_from("5x5", None)[:2]),
        Variant(Theme(light=light)),
        faults=Faults(FaultSpec(no_cut=True)),
    )
    surface = pygame.Surface((540, 960))
    view.draw(surface)
    geometry = view.layout.geometry
    puzzle = view.session.board.puzzle
    flow_rgb = [view.renderer.theme.rgb(puzzle, color) for color in range(len(puzzle.colors))]
    before = centre_colours(surface_to_bgr(surface), geometry)

    def seen():
        view.draw(surface)
        return read_seen(surface_to_bgr(surface), geometry, flow_rgb, before)

    solution = solution_of(view)
    # The try fails: blue's stroke went astray (the game stepped its cursor its own way), and red
    # stops at it; drawing red again as it stands stops there once more.
    stroke(view, STRAY_BLUE)
    for color, path in enumerate(solution.paths):
        if color != 2:
            stroke(view, path)
    stroke(view, solution.paths[0])
    assert not view.session.board.complete
    shown = seen()
    # The flows drawn again: those with a cell not showing their flow (the verdict's), and those in the way.
    broken = {
        color
        for color, path in enumerate(solution.paths)
        if any(shown[row][col] != color for row, col in path[1:-1])
    }
    redraw = broken | set(flows_in_the_way(shown, solution))
    assert redraw == {0, 2}
    for dot in clearing_taps(shown, solution):
        stroke(view, [dot])
    assert clearing_taps(seen(), solution) == []
    for color in sorted(redraw):
        stroke(view, solution.paths[color])
    assert view.session.board.complete


def test_a_game_whose_taps_clear_nothing_gets_one_round_of_taps_a_level():
    # A game that clears a flow only by a new drag from its dot (a tap leaves the pipe, as a browser
    # game's does): the board a round of taps left as it was says so, and the rest of the level's
    # redraws tap no more (each tap waits a double-click's span: 13 flows cost 8 s a round).
    from types import SimpleNamespace

    from flowbot.modes.flow_tries import FlowTries

    view = game(no_cut=True)
    stroke(view, STRAY_BLUE)
    stroke(view, RED)
    solution, seen = solution_of(view), seen_in(view)
    taps: list = []
    pointer = SimpleNamespace(move=lambda x, y: taps.append((x, y)), down=lambda: None, up=lambda: None)
    loop = SimpleNamespace(pointer=pointer, clock=SimpleNamespace(sleep=lambda seconds: None))
    tries = FlowTries(loop, None, [], None, 2, 4, 2, [], (None, None), 0)
    tries.seen = lambda run: seen  # the board never changes: the taps clear nothing
    run = SimpleNamespace(number=1, solution=solution, scene=SimpleNamespace(geometry=view.layout.geometry))
    assert tries.clear_strays(run) == {0, 2}  # red and the stray blue are still drawn again
    assert len(taps) == 2 and not tries.taps_clear  # one round of two taps, not three rounds
    assert tries.clear_strays(run) == {0, 2} and len(taps) == 2  # the next redraw taps nothing


def test_flows_in_each_others_way_say_the_rung_is_too_fast_only_when_clearing_gained_nothing():
    from types import SimpleNamespace

    from flowbot.modes.flow_tries import FlowTries

    tries = FlowTries(SimpleNamespace(), None, [], None, 2, 4, 2, [], (None, None), was_broken=5)
    evidence = SimpleNamespace(unconfirmed=False)
    # Fewer flows broken than the try before, each stopped by another: the game does not cut pipes.
    assert not tries.too_fast(evidence, broken={1, 2, 3}, in_way={1, 2, 3})
    # As many as before: clearing and drawing again gained nothing, the rung is too fast.
    tries.was_broken = 3
    assert tries.too_fast(evidence, broken={1, 2, 3}, in_way={1, 2, 3})
    # Cells left empty by a flow no other stopped: too fast, as always.
    tries.was_broken = 5
    assert tries.too_fast(evidence, broken={1, 4}, in_way={1})
