"""The bundled game's Shapes boards: generated levels, strokes dragged through the cells' polygons,
the game's verdict and its results lines, how the boards are drawn, and the command line."""

from __future__ import annotations

import json
import math
from itertools import pairwise

import pytest

from flowbot.errors import PuzzleError, UsageError
from flowbot.game.app import build_parser, check_shape_options, levels_for, main, trial_from
from flowbot.game.board import GameBoard
from flowbot.game.shapes import board_shape
from flowbot.game.trial import generated_shapes
from flowbot.model import Puzzle, Source
from flowbot.shapes.kinds import FEWEST_COLORS, SHAPES, shape_board
from flowbot.solve.check import check_paths
from flowbot.solve.sat import solve
from tests.simulated_game import SimulatedGame


def stroke_points(cells, path, step: float = 6.0):
    """Pointer positions for a stroke along a path of cells: middle to border middle to middle, every
    `step` pixels or so, as a hand drags."""
    corners = [cells.center(path[0])]
    for a, b in pairwise(path):
        corners += [cells.border_middle(a, b), cells.center(b)]
    points = [corners[0]]
    for (x1, y1), (x2, y2) in pairwise(corners):
        count = max(1, math.ceil(math.dist((x1, y1), (x2, y2)) / step))
        points += [(x1 + (x2 - x1) * k / count, y1 + (y2 - y1) * k / count) for k in range(1, count + 1)]
    return points


def drag(game: SimulatedGame, path) -> None:
    """Press on the path's first cell, drag through the rest of it, release."""
    dx, dy = game.view.offset()  # a shifting look draws the frame moved in the window
    points = [(x + dx, y + dy) for x, y in stroke_points(game.layout.geometry, path)]
    game.move(*points[0])
    game.down()
    for point in points[1:]:
        game.move(*point)
    game.up()


# --- levels ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHAPES)
def test_generated_levels_have_exactly_one_solution_over_every_cell(name):
    board = shape_board(name)
    make = generated_shapes(name, 5)
    for index in range(2):
        puzzle = make(index)
        assert puzzle.kind == "shapes" and puzzle.cols == board.count
        assert puzzle.source is not None and puzzle.source.details["shape"] == name
        assert len(puzzle.colors) >= FEWEST_COLORS.get(name, 2)
        result = solve(puzzle, unique=True, allow_touching=False)
        assert result.status == "solved" and result.unique
        assert check_paths(puzzle, result.solution.paths) == []
        assert sum(len(path) for path in result.solution.paths) == board.count
    assert make(1) == generated_shapes(name, 5)(1)  # the same seed, the same level
    assert make(0) != generated_shapes(name, 6)(0)


def test_a_level_is_only_drawn_on_the_board_whose_links_it_has():
    cube = generated_shapes("cube", 1)(0)
    assert board_shape(cube) is shape_board("cube")
    assert board_shape(Puzzle.from_rows(["A.A"])) is None
    with pytest.raises(PuzzleError, match="not the ring's"):
        board_shape(cube.with_source(Source("generated", details={"shape": "ring"})))
    with pytest.raises(PuzzleError, match="known kind"):
        board_shape(cube.with_source(Source("file")))


# --- play -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHAPES)
def test_strokes_dragged_through_the_cells_win_the_level_and_the_dialog_moves_on(name):
    levels = [generated_shapes(name, 2)(index) for index in range(2)]
    game = SimulatedGame(levels)
    solution = solve(levels[0]).solution
    for color, path in enumerate(solution.paths):
        assert not game.session.board.complete
        drag(game, path)
        assert game.session.board.pipes[color] == list(path)
    board = game.session.board
    assert board.complete and board.perfect
    dialog = game.layout.dialog
    assert dialog is not None and dialog.button is not None
    game.move(*dialog.button.center)
    game.down()
    game.up()
    assert game.session.level == 2
    line = json.loads(game.results[0].to_json())
    assert line["solved"] and line["kind"] == "shapes" and line["shape"] == name
    assert line["moves"] == len(levels[0].colors)
    assert line["puzzle"] == levels[0].to_rows()
    assert sorted(map(tuple, line["links"])) == sorted(shape_board(name).links)


def test_an_unfinished_shapes_level_is_reported_unsolved():
    level = generated_shapes("ring", 4)(0)
    game = SimulatedGame([level])
    drag(game, solve(level).solution.paths[0])
    game.session.leave()
    line = json.loads(game.results[0].to_json())
    assert not line["solved"] and line["moves"] == 1 and line["shape"] == "ring"


def test_a_stroke_steps_only_to_cells_that_share_a_border_and_crossing_a_pipe_cuts_it():
    level = generated_shapes("hexhex", 3)(0)
    board = GameBoard(level)
    first, second = level.endpoints[0][0], level.endpoints[1][0]
    assert board.press(first)
    far = next(cell for cell in level.cells() if cell != first and not level.linked(first, cell))
    board.drag(far)  # no border with the dot's cell: nothing happens
    assert board.pipes[0] == [first]
    step = next(cell for cell in level.neighbors(first) if level.endpoint_color(cell) is None)
    board.drag(step)
    board.release()
    assert board.pipes[0] == [first, step]
    # Another colour's stroke into that cell cuts the first pipe back to its dot.
    path = _path_to(level, second, step)
    if path is not None:
        board.press(second)
        for cell in path[1:]:
            board.drag(cell)
        board.release()
        assert board.pipes[1][-1] == step and board.pipes[0] == [first]


def _path_to(puzzle: Puzzle, start, goal):
    """A shortest path of empty cells from a dot to a cell, or None."""
    before = {start: None}
    todo = [start]
    while todo:
        cell = todo.pop(0)
        if cell == goal:
            path = [cell]
            while before[path[-1]] is not None:
                path.append(before[path[-1]])
            return path[::-1]
        for other in puzzle.neighbors(cell):
            if other not in before and (other == goal or puzzle.endpoint_color(other) is None):
                before[other] = cell
                todo.append(other)
    return None


def test_interpolation_never_walks_a_shapes_board_as_a_row():
    level = generated_shapes("cube", 1)(0)
    board = GameBoard(level, interpolate=True)
    start = level.endpoints[0][0]
    board.press(start)
    far = (0, start[1] + 3 if start[1] + 3 < level.cols else start[1] - 3)
    board.drag(far)
    assert board.pipes[0] == [start]


# --- how it looks ----------------------------------------------------------------------------------


def test_pipes_cross_the_middle_of_each_border_and_dots_sit_at_the_cells_middles():
    from flowbot.game.render import surface_to_bgr

    level = generated_shapes("ring", 8)(0)
    game = SimulatedGame([level])
    path = solve(level).solution.paths[0]
    drag(game, path)
    pixels = surface_to_bgr(game.surface)
    cells = game.layout.geometry
    rgb = game.renderer.theme.rgb(level, 0)
    for a, b in pairwise(path):
        x, y = cells.border_middle(a, b)
        assert tuple(pixels[round(y), round(x)][::-1]) == rgb
    for index, pair in enumerate(level.endpoints):
        for cell in pair:
            x, y = cells.center(cell)
            assert tuple(pixels[round(y), round(x)][::-1]) == game.renderer.theme.rgb(level, index)
    # An empty cell's middle shows the black page.
    empty = next(
        c for c in level.cells() if game.session.board.owner(c) is None and level.endpoint_color(c) is None
    )
    x, y = cells.center(empty)
    assert tuple(pixels[round(y), round(x)]) == (0, 0, 0)


def test_the_outline_is_drawn_wider_than_the_cell_borders():
    from flowbot.game.render import surface_to_bgr

    game = SimulatedGame([generated_shapes("cube", 1)(0)])
    pixels = surface_to_bgr(game.surface)
    cells = game.layout.geometry
    left, top, right, bottom = (round(v) for v in cells.bounds)
    # Across the cube's left face at half its height: the outline's upright left edge first, then
    # the face's upright cell borders (and whatever dot or pipe lies on the way).
    row = pixels[(top + bottom) // 2, left - 10 : (left + right) // 2].max(axis=1) > 60
    runs, length = [], 0
    for lit in row:
        if lit:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    assert len(runs) >= 4
    assert runs[0] >= 2 * min(runs[1:]) and min(runs[1:]) <= 3


# --- command line ------------------------------------------------------------------------------------


def test_shapes_levels_come_from_the_kind_and_the_seed():
    args = build_parser().parse_args(
        ["--variant", "shapes", "--shape", "star", "--seed", "3", "--levels", "2"]
    )
    check_shape_options(args)
    levels = levels_for(args)
    assert levels == [generated_shapes("star", 3)(index) for index in range(2)]
    plain = build_parser().parse_args(["--variant", "shapes", "--seed", "3", "--levels", "1"])
    assert levels_for(plain)[0].source.details["shape"] == "cube"  # the default kind


@pytest.mark.parametrize(
    "argv",
    [
        ["--shape", "ring"],
        ["--variant", "hexes", "--shape", "ring"],
        ["--variant", "shapes", "--board", "5x5"],
        ["--variant", "shapes", "--board", "5x5", "--time-trial", "30"],
    ],
)
def test_shape_options_out_of_place_are_refused(argv, capsys):
    with pytest.raises(UsageError):
        check_shape_options(build_parser().parse_args(argv))
    assert main(argv) == UsageError.exit_code
    assert "flowbot game:" in capsys.readouterr().err


@pytest.mark.parametrize(
    "looks",
    [
        ["--theme", "light"],
        ["--no-grid"],
        ["--tiles", "--glyphs"],
        ["--header", "--win-banner", "--next-button", "text"],
        ["--board-px", "300", "--shift"],
    ],
)
def test_every_look_draws_a_shapes_board_that_plays(looks):
    from flowbot.game.app import variant_from

    level = generated_shapes("eight", 2)(0)
    game = SimulatedGame([level], variant=variant_from(build_parser().parse_args(looks)))
    cells = game.layout.geometry
    left, top, right, bottom = cells.bounds
    assert 0 <= left < right <= 540 and 0 <= top < bottom <= 960
    for path in solve(level).solution.paths:
        drag(game, path)
    assert game.session.board.complete


def test_a_time_trial_of_shapes_plays_fresh_levels_of_its_board():
    from flowbot.game.trial import LevelMaker, TrialSession

    args = build_parser().parse_args(
        ["--variant", "shapes", "--shape", "triangle", "--time-trial", "30", "--seed", "4"]
    )
    check_shape_options(args)
    spec = trial_from(args)
    assert spec is not None and (spec.shape, spec.seed, spec.seconds) == ("triangle", 4, 30.0)
    maker = LevelMaker(spec.maker(), ahead=1)
    try:
        session = TrialSession(maker, spec.seconds)
        game = SimulatedGame([], session=session)
        first = session.board.puzzle
        assert first == generated_shapes("triangle", 4)(0)
        for path in solve(first).solution.paths:
            drag(game, path)
        game.layout = game._draw()  # a frame: the trial counts the win and shows the next level
        assert session.solved == 1 and session.board.puzzle == generated_shapes("triangle", 4)(1)
    finally:
        maker.close()
