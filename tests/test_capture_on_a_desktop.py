"""A game window in the corner of a bigger screen: the reader must find the board in the window, not a
board the size of the window (the page around a panel is not board cells)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from flowbot.capture.read import read_puzzle
from flowbot.game.look import LIGHT_LINES, Look, Theme, Variant
from flowbot.generate.levels import make_level
from tests.boards import canonical
from tests.simulated_game import SimulatedGame

LOOKS = {
    "light panel, glyphs, header": Variant(
        Theme(grid=False, light=True, glyphs=True, line_rgb=LIGHT_LINES), look=Look(header=True)
    ),
    "dark panel": Variant(Theme(grid=False)),
    "light lines": Variant(Theme(light=True, line_rgb=LIGHT_LINES), look=Look(header=True)),
}


@pytest.mark.parametrize("name", sorted(LOOKS))
@pytest.mark.parametrize("side", [5, 6, 8])
def test_a_window_in_the_corner_of_a_dark_desktop_reads_exactly(name, side):
    puzzle = make_level(side, side, side - 1, random.Random(side)).puzzle
    window = SimulatedGame([puzzle], size=(540, 960), variant=LOOKS[name]).grab().pixels
    desktop = np.zeros((1000, 1280, 3), dtype=np.uint8)
    desktop[: window.shape[0], : window.shape[1]] = window
    assert read_puzzle(desktop).puzzle.to_rows() == canonical(puzzle.to_rows())
