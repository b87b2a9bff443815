"""Games that are not ours: the bundled game's variants must read and play without special cases."""

from __future__ import annotations

import random

import pygame
import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture.read import read_puzzle
from flowbot.game.board import GameBoard
from flowbot.game.render import Renderer, Theme, surface_to_bgr
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from tests.boards import canonical
from tests.simulated_game import SimulatedGame

THEMES = {
    "pink lines": Theme(line_rgb=(200, 60, 160)),
    "dark blue lines": Theme(line_rgb=(40, 40, 110)),
    "grey lines": Theme(line_rgb=(120, 120, 120)),
    "tiles, no lines": Theme(tiles=True),
    "legacy palette, small dots": Theme(palette="legacy", dot_radius=0.3),
    "muted palette, big dots": Theme(palette="muted", dot_radius=0.45),
    "tiles, legacy palette": Theme(tiles=True, palette="legacy", dot_radius=0.3),
}


@pytest.fixture(scope="module")
def puzzles():
    """Generated levels of several sizes, with a rectangle among them."""
    return [make_level(rows, cols, colors, random.Random(rows)).puzzle
            for rows, cols, colors in ((5, 5, 5), (8, 8, 7), (10, 8, 8), (12, 12, 11))]  # fmt: skip


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_variant_reads_exactly(name, puzzles):
    pygame.font.init()
    for puzzle in puzzles:
        surface = pygame.Surface((540, 960))
        Renderer(THEMES[name]).draw(surface, GameBoard(puzzle), level=1)
        assert read_puzzle(surface_to_bgr(surface)).puzzle.to_rows() == canonical(puzzle.to_rows()), (
            puzzle.size
        )


def test_a_tiled_board_is_played_to_the_end(puzzles, tmp_path):
    game = SimulatedGame(puzzles[:2])
    game.renderer = Renderer(THEMES["tiles, legacy palette"])
    fast = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
    loop = AutoClear(game, game, fast, None, 2, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2)  # fmt: skip
    report = loop.run()
    assert report.cleared == 2, report.summary()
