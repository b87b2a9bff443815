"""The bundled game's sister games: rules on bridges, hexes and warps, their pixel maps, and whole levels
played in-process by planned strokes (the game's own judgement decides)."""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import replace
from itertools import pairwise

import pytest

from flowbot.act.plan import PointerSettings, plan_strokes
from flowbot.cellmap import CentreMap, HexGeometry, WarpGates
from flowbot.errors import UsageError
from flowbot.game.app import build_parser, levels_for, trial_from
from flowbot.game.board import GameBoard
from flowbot.game.layout import compute_layout
from flowbot.game.trial import generated
from flowbot.model import Geometry, Puzzle
from flowbot.solve.sat import solve

FAST = PointerSettings(move_delay=0, release_pause=0, flow_pause=0)
CELLS = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0, settle=False)


def drawn(board: GameBoard, *cells) -> None:
    """One stroke: press on the first cell, drag through the rest, release."""
    assert board.press(cells[0])
    for cell in cells[1:]:
        board.drag(cell)
    board.release()


# --- rules -----------------------------------------------------------------------------------------


def test_a_hex_pipe_steps_to_any_of_six_neighbours_and_no_further():
    puzzle = Puzzle.from_lines("hexes", ["A..", "...", "..A"])
    board = GameBoard(puzzle)
    assert board.press((0, 0))
    board.drag((1, 1))  # column 1 sits lower: (1, 1) is not next to (0, 0)
    assert board.pipes[0] == [(0, 0)]
    board.drag((0, 1))  # but (0, 1) is
    board.drag((1, 2))  # odd column: its right neighbours are level with it and one below
    assert board.pipes[0] == [(0, 0), (0, 1), (1, 2)]
    board.drag((0, 1))  # one step back
    assert board.pipes[0] == [(0, 0), (0, 1)]


def test_a_pipe_goes_straight_over_a_bridge_and_another_crosses_it():
    puzzle = Puzzle.from_lines("bridges", [".A.", "B+B", ".A."])
    board = GameBoard(puzzle)
    assert board.press((0, 1))
    board.drag((1, 1))
    board.drag((1, 0))  # no turning on a bridge
    board.drag((1, 2))
    assert board.pipes[0] == [(0, 1), (1, 1)]
    board.drag((2, 1))
    board.release()
    drawn(board, (1, 0), (1, 1), (1, 2))  # the other way across: nothing is cut
    assert board.is_connected(0) and board.is_connected(1)
    assert (board.covered, board.to_cover) == (6, 10)  # the bridge counts for each way across
    assert not board.complete  # four corners are empty
    assert board.pipe_percent == 60


def test_entering_a_bridge_the_way_another_pipe_holds_it_cuts_that_pipe():
    puzzle = Puzzle.from_lines("bridges", ["B..", "A+B", "..A"])
    board = GameBoard(puzzle)
    a, b = puzzle.label_index()["A"], puzzle.label_index()["B"]
    drawn(board, (1, 0), (1, 1))  # A's head rests on the bridge, going across
    drawn(board, (1, 2), (1, 1))  # B enters it across too: A is cut back to its dot
    assert board.pipes[a] == [(1, 0)] and board.pipes[b] == [(1, 2), (1, 1)]
    drawn(board, (1, 0), (1, 1))  # and back again
    assert board.pipes[a] == [(1, 0), (1, 1)] and board.pipes[b] == [(1, 2)]


def test_a_pipe_may_cross_itself_on_a_bridge_and_is_taken_up_by_its_end_there():
    puzzle = Puzzle.from_lines("bridges", ["....", "A+..", "....", ".A.."])
    board = GameBoard(puzzle)
    drawn(board, (1, 0), (1, 1), (1, 2), (0, 2), (0, 1), (1, 1))  # across, round, and down onto it
    assert board.pipes[0][-1] == (1, 1) and board.pipes[0].count((1, 1)) == 2
    assert board.press((1, 1))  # the pipe whose end rests on the bridge
    board.drag((2, 1))
    board.drag((3, 1))
    board.release()
    assert board.is_connected(0)


def test_a_warp_joins_the_ends_of_its_row():
    puzzle = Puzzle.from_lines("warps", ["A..B", "....", "B..A"], warps=[("row", 0)])
    board = GameBoard(puzzle)
    assert board.press((0, 0))
    board.drag((0, 3))  # the other end of the row is B's dot: refused
    assert board.pipes[0] == [(0, 0)]
    board.release()
    assert board.press((0, 3))
    board.drag((0, 0))  # A's dot
    assert board.pipes[1] == [(0, 3)]
    board.drag((1, 3))
    board.drag((1, 0))  # row 1 does not wrap
    assert board.pipes[1] == [(0, 3), (1, 3)]


def test_interpolation_stays_off_hex_boards():
    puzzle = Puzzle.from_lines("hexes", ["A...", "....", "...A"])
    board = GameBoard(puzzle, interpolate=True)
    board.press((0, 0))
    board.drag((3, 0) if puzzle.on_board((3, 0)) else (2, 0))
    assert board.pipes[0] == [(0, 0)]


# --- pixels ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("lower", [0, 1])
def test_hex_cells_are_found_under_their_centres_and_near_their_edges(lower):
    hexes = HexGeometry(50.0, 40.0, 20.0, 5, 6, lower)
    size = hexes.cell_size
    for row in range(5):
        for col in range(6):
            x, y = hexes.center((row, col))
            assert hexes.cell_at(x, y) == (row, col)
            for k in range(6):  # just inside each side of the hexagon
                angle = math.pi / 6 + math.pi / 3 * k
                assert hexes.cell_at(
                    x + 0.45 * size * math.cos(angle), y + 0.45 * size * math.sin(angle)
                ) == (
                    row,
                    col,
                )
    neighbours = [math.dist(hexes.center((2, 2)), hexes.center(other)) for other in ((1, 2), (2, 1), (2, 3))]
    assert all(abs(d - size) < 1e-9 for d in neighbours)
    assert hexes.cell_at(-100, -100) is None


def test_a_warp_opening_leads_to_the_far_end_of_its_line():
    puzzle = Puzzle.from_lines("warps", ["A...", "..B.", "A..B"], warps=[("row", 1), ("col", 2)])
    grid = Geometry(tuple(100.0 + 30 * i for i in range(5)), tuple(200.0 + 30 * i for i in range(4)))
    gates = WarpGates.of(grid, puzzle)
    assert gates.cell_at(*grid.center((1, 1))) == (1, 1)
    assert gates.cell_at(100 + 4 * 30 + 10, 200 + 45) == (1, 0)  # out on the right of row 1
    assert gates.cell_at(100 - 10, 200 + 45) == (1, 3)  # out on the left
    assert gates.cell_at(100 + 75, 200 + 3 * 30 + 10) == (0, 2)  # below column 2
    assert gates.cell_at(100 + 75, 200 - 10) == (2, 2)  # above it
    assert gates.cell_at(100 - 10, 200 + 15) is None  # row 0 does not wrap
    assert gates.shifted(5, 5).cell_at(100 - 5, 200 + 50) == (1, 3)


def test_layouts_of_every_kind_fit_the_window():
    for variant in ("hexes", "bridges", "warps"):
        puzzle = generated(6, 7, 11, variant)(0)
        layout = compute_layout(540, 960, puzzle.rows, puzzle.cols, puzzle=puzzle)
        left, top, right, bottom = layout.geometry.bounds
        assert 0 <= left < right <= 540 and layout.hud.y + layout.hud.height <= top + 1
        assert bottom < min(button.y - button.radius for button in layout.buttons)
        for cell in puzzle.cells():
            assert layout.geometry.cell_at(*layout.geometry.center(cell)) == cell
        if variant == "warps":  # the openings lie inside the window
            for gate in layout.geometry.gates:
                assert gate.box[0] >= 0 and gate.box[2] <= 540


# --- whole levels, planned and played --------------------------------------------------------------


def cells_entered(stroke, cellmap) -> list:
    """The cells a stroke's points fall in, in order, each once (a lift and press again counts once)."""
    entered = []
    for point in stroke.points:
        cell = cellmap.cell_at(*point)
        if cell is not None and (not entered or entered[-1] != cell):
            entered.append(cell)
    return entered


@pytest.mark.parametrize("variant", ["hexes", "bridges", "warps"])
def test_planned_strokes_enter_every_cell_of_their_path_in_order(variant):
    for seed in range(3):
        puzzle = generated(6, 6, seed, variant)(0)
        layout = compute_layout(540, 960, puzzle.rows, puzzle.cols, puzzle=puzzle)
        solution = solve(puzzle).solution
        for settings in (FAST, CELLS):
            for stroke in plan_strokes(solution, layout.geometry, settings):
                assert cells_entered(stroke, layout.geometry) == list(stroke.cells)
                assert bool(stroke.lifts) == (variant == "warps" and _wraps(stroke.cells[:-1]))


def _wraps(path) -> bool:
    """True when a path crosses a warp between two cells before its last."""
    return any(abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1 for a, b in pairwise(path))


def test_strokes_can_be_planned_over_centres_read_from_a_screen():
    puzzle = generated(5, 5, 4, "hexes")(0)
    hexes = compute_layout(540, 960, 5, 5, puzzle=puzzle).geometry
    read = CentreMap.of({cell: hexes.center(cell) for cell in puzzle.cells()}, hexes.cell_size)
    solution = solve(puzzle).solution
    assert plan_strokes(solution, read, CELLS) == plan_strokes(solution, hexes, CELLS)


@pytest.mark.parametrize("variant", ["hexes", "bridges", "warps"])
def test_the_game_judges_levels_cleared_by_planned_strokes(variant):
    from flowbot.act.plan import draw_strokes
    from tests.simulated_game import SimulatedGame

    levels = [generated(5, 6, 7, variant)(index) for index in range(3)]
    game = SimulatedGame(levels)
    for level in levels:
        assert game.session.board.puzzle == level
        strokes = plan_strokes(solve(level).solution, game.layout.geometry, FAST)
        draw_strokes(game, strokes, FAST, sleep=lambda _: None)
        assert game.session.board.perfect  # every flow in one move, a warp's lift included
        game.session.next()
    assert [result.solved for result in game.results] == [True, True, True]
    assert [result.moves for result in game.results] == [len(level.colors) for level in levels]
    assert json.loads(game.results[0].to_json())["kind"] == variant


# --- command line ----------------------------------------------------------------------------------


def test_variant_levels_are_generated_from_the_seed():
    args = build_parser().parse_args(["--variant", "warps", "--board", "5x6", "--seed", "3", "--levels", "2"])
    assert trial_from(args) is None
    levels = levels_for(args)
    assert [level.kind for level in levels] == ["warps", "warps"] and levels[0].size == "5x6"
    assert levels == [generated(5, 6, 3, "warps")(index) for index in range(2)]


@pytest.mark.parametrize(
    "argv",
    [["--board", "5x5"], ["--variant", "hexes", "--pack", "demo"], ["--variant", "hexes", "--board", "3x3"]],
)
def test_variant_options_out_of_place_are_refused(argv):
    args: argparse.Namespace = build_parser().parse_args(argv)
    with pytest.raises(UsageError):
        trial_from(args)
        levels_for(args)


def test_a_time_trial_of_a_variant_plays_that_kind():
    args = build_parser().parse_args(
        ["--time-trial", "30", "--board", "5x5", "--seed", "1", "--variant", "bridges"]
    )
    spec = trial_from(args)
    assert spec is not None and spec.variant == "bridges"
    assert generated(spec.rows, spec.cols, spec.seed, spec.variant)(0).kind in ("bridges", "square")


@pytest.mark.parametrize("variant", ["bridges", "warps"])
def test_jumps_clear_square_sister_games_that_fill_straight_drags(variant):
    from flowbot.act.plan import draw_strokes
    from flowbot.game.session import Session
    from tests.simulated_game import SimulatedGame

    jumps = PointerSettings(corners_only=True, move_delay=0, release_pause=0, flow_pause=0)
    levels = [generated(6, 6, 9, variant)(index) for index in range(2)]
    results: list = []
    game = SimulatedGame(levels, session=Session(levels, report=results.append, interpolate=True))
    for level in levels:
        strokes = plan_strokes(solve(level).solution, game.layout.geometry, jumps)
        cell_by_cell = plan_strokes(
            solve(level).solution, game.layout.geometry, replace(jumps, corners_only=False)
        )
        moves = sum(len(stroke.points) for stroke in cell_by_cell)
        assert sum(len(stroke.points) for stroke in strokes) < moves  # straight runs are one move
        draw_strokes(game, strokes, jumps, sleep=lambda _: None)
        assert game.session.board.perfect
        game.session.next()
    assert [result.solved for result in results] == [True, True]


# --- how they look --------------------------------------------------------------------------------


def frame_of(board: GameBoard, size=(540, 960)):
    """The board drawn off-screen (BGR pixels) and the layout it was drawn with."""
    import pygame

    from flowbot.game.render import Renderer, surface_to_bgr

    pygame.font.init()
    surface = pygame.Surface(size)
    layout = Renderer().draw(surface, board, level=1)
    return surface_to_bgr(surface), layout


def test_a_pipe_through_a_warp_leaves_one_edge_and_comes_back_at_the_other():
    puzzle = Puzzle.from_lines("warps", ["A...", "B..B", "...A"], warps=[("row", 0)])
    board = GameBoard(puzzle)
    drawn(board, (0, 0), (0, 3))  # A's dot at the left, through the opening to the right end
    pixels, layout = frame_of(board)
    grid = layout.geometry
    y0 = grid.center((0, 0))[1]
    left, _, right, _ = grid.bounds
    red = pixels[round(y0), round(left) - 3]  # just outside the board, at the left opening
    assert red[2] > 150 and red[0] < 100
    assert (pixels[round(y0), round(right) + 3] == red).all()  # and at the right one
    for middle in ((0, 1), (0, 2)):  # nothing drawn across the board
        assert pixels[tuple(round(v) for v in grid.center(middle)[::-1])].max() == 0


def test_a_bridge_shows_its_symbol_until_pipes_cross_it_and_the_one_across_is_on_top():
    puzzle = Puzzle.from_lines("bridges", [".A.", "B+B", ".A."])
    board = GameBoard(puzzle)
    pixels, layout = frame_of(board)
    x, y = layout.geometry.center((1, 1))
    size = layout.cell
    symbol = pixels[
        round(y - 0.3 * size) : round(y + 0.3 * size), round(x - 0.45 * size) : round(x + 0.45 * size)
    ]
    assert (symbol.min(axis=2) > 150).sum() > size  # grey strokes
    drawn(board, (0, 1), (1, 1), (2, 1))
    drawn(board, (1, 0), (1, 1), (1, 2))
    pixels, _ = frame_of(board)
    across = theme_rgb(puzzle, puzzle.label_index()["B"])
    assert tuple(int(v) for v in pixels[round(y), round(x)][::-1]) == across


def theme_rgb(puzzle, color):
    """A colour as the default theme draws it (RGB)."""
    from flowbot.game.look import Theme

    return Theme().rgb(puzzle, color)


def test_hex_cells_are_drawn_as_hexagons_with_their_tints():
    puzzle = generated(5, 5, 3, "hexes")(0)
    solution = solve(puzzle).solution
    board = GameBoard(puzzle)
    board.pipes[0] = list(solution.paths[0])
    pixels, layout = frame_of(board)
    hexes = layout.geometry
    for cell in solution.paths[0][1:-1]:
        x, y = hexes.center(cell)
        # Towards a corner of the hexagon, between two neighbours' directions: the tint, not the pipe.
        corner = pixels[round(y), round(x + 0.48 * hexes.cell_size)]
        assert 0 < corner.max() <= 255 // 5 + 1
    missing = next(cell for cell in ((0, 0), (0, 2), (0, 4)) if not puzzle.on_board(cell))
    x, y = hexes.center(missing)
    assert pixels[round(y), round(x)].max() == 0  # no cell drawn where the board has none
