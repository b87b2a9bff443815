"""The live loop on Flow's sister games, against the game played in-process: generated Bridges, Hexes and
Warps levels read, solved, drawn over the cell centres and taken by the game's own judgement."""

from __future__ import annotations

import json

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.cellmap import CentreMap
from flowbot.game.trial import generated
from flowbot.modes.variant_clear import SisterReading, VariantClear, reader_available, sister_on_screen
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
VARIANTS = ("hexes", "bridges", "warps")


class KnowingClear(VariantClear):
    """The loop with a reader that knows the game's state: the shown puzzle where it is drawn (what a
    right reading gives), so the loop is tested without the screenshot reader."""

    game: SimulatedGame | None = None

    def read(self, pixels):
        """The shown level, its cells at the centres the game drew them."""
        game = self.game
        assert game is not None
        puzzle = game.session.board.puzzle
        geometry = game.layout.geometry
        centres = {cell: geometry.center(cell) for cell in puzzle.cells()}
        return SisterReading(puzzle, CentreMap.of(centres, geometry.cell_size), ())


def loop_on(game: SimulatedGame, tmp_path, count: int, kind=VariantClear):
    """A loop on the simulated game, with waits short enough for a test."""
    loop = kind(game, game, FAST, None, count, artifacts=tmp_path, clock=game.clock,
                settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    if isinstance(loop, KnowingClear):
        loop.game = game
    return loop


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_loop_clears_sister_game_levels(variant, tmp_path):
    levels = [generated(5, 5, 21, variant)(index) for index in range(3)]
    game = SimulatedGame(levels)
    report = loop_on(game, tmp_path, 3, KnowingClear).run()
    assert report.cleared == 3, report.summary()
    assert [result.solved for result in game.results] == [True, True]  # the third is still on screen
    assert game.session.board.complete


def test_a_level_the_game_never_takes_stops_the_run(tmp_path):
    game = SimulatedGame([generated(5, 5, 2, "warps")(0)])
    game.down = lambda: None  # presses never arrive
    report = loop_on(game, tmp_path, 1, KnowingClear).run()
    assert report.cleared == 0
    assert "did not take it" in report.stopped
    assert list(tmp_path.glob("*.png"))


needs_reader = pytest.mark.skipif(not reader_available(), reason="the sister games' reader is not installed")


@needs_reader
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_loop_reads_and_clears_the_bundled_games_levels(variant, tmp_path):
    levels = [generated(6, 6, 5, variant)(index) for index in range(2)]
    game = SimulatedGame(levels)
    assert sister_on_screen(game, None)
    report = loop_on(game, tmp_path, 2).run()
    assert report.cleared == 2, report.summary()
    assert [result.solved for result in game.results] == [True]


@needs_reader
def test_a_classic_board_is_left_to_the_classic_loop():
    import random

    from flowbot.generate.levels import make_level

    game = SimulatedGame([make_level(5, 5, 5, random.Random(1)).puzzle])
    assert not sister_on_screen(game, None)


@pytest.mark.parametrize("variant", VARIANTS)
def test_scrape_saves_sister_game_levels_with_their_cells(variant, tmp_path):
    from flowbot.formats import load_puzzles
    from flowbot.modes.scrape import PackFolder, scrape
    from flowbot.progress import Progress

    levels = [generated(5, 5, 8, variant)(index) for index in range(2)]
    game = SimulatedGame(levels)
    folder = PackFolder.open(tmp_path / "pack", "sisters", resume=False)
    loop = loop_on(game, tmp_path, 2, KnowingClear)
    summary = scrape(loop, folder, 2, keep_images=False, progress=Progress(0, "test", enabled=False))
    assert summary.saved == ["001.json", "002.json"], summary.stopped
    for name, level in zip(summary.saved, levels, strict=True):
        saved = load_puzzles(tmp_path / "pack" / name)[0]
        assert saved == level  # kind, warps, bridges and hex layout kept
        cells = json.loads((tmp_path / "pack" / name).read_text())["source"]["details"]["cells"]
        drawn = {(row, col): (x, y) for row, col, x, y in cells["centres"]}
        assert set(drawn) == set(level.cells())  # where each cell was read, for the record
