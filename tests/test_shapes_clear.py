"""`flowbot auto-clear` on the bundled game's Shapes boards, played in-process: each board read with the
Shapes reader, solved, drawn from centre to centre through the middle of each shared border, and counted
only when the game takes it."""

from __future__ import annotations

import math

import pytest

from flowbot.act.borders import ACROSS, BorderMap, plan_through_borders
from flowbot.act.plan import PointerSettings, plan_strokes
from flowbot.game.render import surface_to_bgr
from flowbot.game.trial import generated_shapes
from flowbot.model import Puzzle, Solution
from flowbot.modes.variant_clear import VariantClear, read_sister, sister_on_screen
from flowbot.shapes.kinds import SHAPES
from flowbot.solve.sat import solve
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)


def three_in_a_row() -> tuple[Solution, BorderMap]:
    """A board of three cells in a row whose borders' middles lie off the line between the centres (as
    on a bent board), one colour from the first to the last."""
    puzzle = Puzzle.from_shapes("A.A", [(0, 1), (1, 2)])
    centres = {(0, 0): (0.0, 0.0), (0, 1): (100.0, 0.0), (0, 2): (200.0, 0.0)}
    middles = {((0, 0), (0, 1)): (50.0, 20.0), ((0, 1), (0, 2)): (150.0, -20.0)}
    return Solution(puzzle, (((0, 0), (0, 1), (0, 2)),)), BorderMap(centres, 100.0, middles)


def test_a_stroke_crosses_each_border_at_its_middle():
    solution, geometry = three_in_a_row()
    (stroke,) = plan_through_borders(solution, geometry, PointerSettings(moves_per_cell=2))
    assert stroke.points[0] == (0.0, 0.0)
    for middle in geometry.middles.values():
        near = [point for point in stroke.points if math.dist(point, middle) <= ACROSS * 100 + 1e-9]
        assert len(near) == 2, f"the stroke crosses the border at {middle} off its middle"
    assert (100.0, 0.0) in stroke.points  # through the middle cell's centre
    assert stroke.points[-1] == (200.0, 0.0) and not stroke.lifts


def test_a_flow_over_a_border_not_read_keeps_the_plain_plan():
    solution, geometry = three_in_a_row()
    partial = BorderMap(geometry.centres, geometry.size, {((0, 0), (0, 1)): (50.0, 20.0)})
    settings = PointerSettings()
    assert plan_through_borders(solution, partial, settings) == plan_strokes(solution, partial, settings)


def test_a_border_map_moves_its_middles_with_its_cells():
    _, geometry = three_in_a_row()
    moved = geometry.shifted(10, -5)
    assert moved.center((0, 1)) == (110.0, -5.0)
    assert moved.middle((0, 2), (0, 1)) == (160.0, -25.0)
    assert moved.cell_at(112, -3) == (0, 1)


@pytest.mark.parametrize("shape", ["ring", "eight", "cube"])
def test_strokes_on_a_bent_board_stay_in_their_own_cells(shape):
    game = SimulatedGame([generated_shapes(shape, 4)(0)])
    reading = read_sister(surface_to_bgr(game.surface))
    assert reading.puzzle.kind == "shapes" and isinstance(reading.geometry, BorderMap)
    result = solve(reading.puzzle, timeout=10)
    assert result.solution is not None
    cells = game.layout.geometry
    game_cell = {cell: cells.cell_at(*reading.geometry.center(cell)) for cell in reading.puzzle.cells()}
    for stroke in plan_through_borders(result.solution, reading.geometry, PointerSettings()):
        own = {game_cell[cell] for cell in stroke.cells}
        strays = [point for point in stroke.points if cells.cell_at(*point) not in own]
        assert not strays, f"{shape}: a stroke goes through cells not its own at {strays}"


@pytest.mark.parametrize("shape", SHAPES)
def test_the_loop_reads_and_clears_the_bundled_games_shapes_boards(shape, tmp_path):
    levels = [generated_shapes(shape, 3)(index) for index in range(3)]
    game = SimulatedGame(levels)
    assert sister_on_screen(game, None)
    loop = VariantClear(game, game, FAST, None, 2, artifacts=tmp_path, clock=game.clock,
                        settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    report = loop.run()
    assert report.cleared == 2, report.summary()
    # The game's own word: it took the first level (the second's result comes when the third shows).
    assert [result.solved for result in game.results] == [True]
    assert game.session.board.complete


def test_a_frame_with_no_board_still_reads_as_none():
    import numpy as np

    from flowbot.errors import CaptureError

    with pytest.raises(CaptureError):
        read_sister(np.zeros((960, 540, 3), dtype=np.uint8))


def test_scrape_saves_shapes_levels_with_their_cells(tmp_path):
    import json

    from flowbot.formats import load_puzzles
    from flowbot.modes.scrape import PackFolder, scrape
    from flowbot.progress import Progress

    levels = [generated_shapes("ring", 5)(index) for index in range(2)]
    game = SimulatedGame(levels)
    folder = PackFolder.open(tmp_path / "pack", "rings", resume=False)
    loop = VariantClear(game, game, FAST, None, 2, artifacts=tmp_path, clock=game.clock,
                        settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    summary = scrape(loop, folder, 2, keep_images=False, progress=Progress(0, "test", enabled=False))
    assert summary.saved == ["001.json", "002.json"], summary.stopped
    for name in summary.saved:
        saved = load_puzzles(tmp_path / "pack" / name)[0]
        assert saved.kind == "shapes" and saved.cols == levels[0].cols
        cells = json.loads((tmp_path / "pack" / name).read_text())["source"]["details"]["cells"]
        assert len(cells["centres"]) == levels[0].cols  # where each cell was read, for the record
