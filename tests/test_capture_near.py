"""Reading near where the last board was (`read_puzzle(frame, near=...)`): the part of the screen around
it is read as the whole screen would be, and the whole screen is read when the board is not there."""

from __future__ import annotations

import random

import numpy as np
import pytest

from flowbot.capture.read import read_puzzle
from flowbot.generate.levels import make_level
from tests.boards import canonical
from tests.simulated_game import SimulatedGame


def _window(side: int, seed: int, size=(420, 640)):
    """The bundled game's window (BGR) showing a fresh side x side level, and that level."""
    puzzle = make_level(side, side, side - 1, random.Random(seed)).puzzle
    return SimulatedGame([puzzle], size=size).grab().pixels, puzzle


def _desktop(*placed) -> np.ndarray:
    """A dark 1600x1000 desktop with each (window, (x, y)) placed on it."""
    desktop = np.full((1000, 1600, 3), 30, dtype=np.uint8)
    for window, (x, y) in placed:
        desktop[y : y + window.shape[0], x : x + window.shape[1]] = window
    return desktop


def _alone(window, place):
    """The geometry of the board of `window` shown alone at `place` on the desktop."""
    return read_puzzle(_desktop((window, place))).geometry


@pytest.mark.parametrize("seed", range(3))
def test_near_reads_the_board_near_the_last_one_of_two_on_the_screen(seed):
    # Two games side by side: the one whose board was there before is the one read.
    rng = random.Random(seed)
    first, first_puzzle = _window(rng.randint(5, 7), seed)
    second, second_puzzle = _window(rng.randint(8, 9), seed + 10)
    places = (rng.randint(0, 200), rng.randint(0, 350)), (rng.randint(900, 1150), rng.randint(0, 350))
    both = _desktop((first, places[0]), (second, places[1]))
    near_first, near_second = _alone(first, places[0]), _alone(second, places[1])
    assert read_puzzle(both, near=near_first).puzzle.to_rows() == canonical(first_puzzle.to_rows())
    assert read_puzzle(both, near=near_second).puzzle.to_rows() == canonical(second_puzzle.to_rows())
    # Where the board was is where it is read: the geometry is the frame's, not the part's.
    found = read_puzzle(both, near=near_second).geometry
    assert found.xs + found.ys == pytest.approx(near_second.xs + near_second.ys, abs=1.0)


@pytest.mark.parametrize("seed", range(3))
def test_a_board_that_moved_or_grew_is_read_from_the_whole_screen(seed):
    rng = random.Random(seed)
    window, puzzle = _window(rng.randint(5, 8), seed)
    before = _alone(window, (100, 50))
    # Moved across the screen: nothing near the last place.
    moved = _desktop((window, (1100, 300)))
    assert read_puzzle(moved, near=before).puzzle.to_rows() == canonical(puzzle.to_rows())
    # Half of it still overlaps the last place, the rest past the part read first: never a cut board.
    shifted = _desktop((window, (100 + window.shape[1] // 2, 50 + window.shape[0] // 3)))
    assert read_puzzle(shifted, near=before).puzzle.to_rows() == canonical(puzzle.to_rows())
    # A bigger window (the board twice the size) where the small one was.
    big, big_puzzle = _window(rng.randint(5, 8), seed + 20, size=(560, 960))
    grown = _desktop((big, (60, 20)))
    assert read_puzzle(grown, near=before).puzzle.to_rows() == canonical(big_puzzle.to_rows())


def test_a_board_moved_so_the_part_cuts_it_is_never_read_cut():
    # The board moved down by a quarter of its side and half a cell: the part read first ends in the
    # middle of its last row. A last row with no dots would leave a smaller board that reads well.
    for seed in range(200):
        window, puzzle = _window(8, seed)
        if not any(cell[0] == puzzle.rows - 1 for pair in puzzle.endpoints for cell in pair):
            break
    before = _alone(window, (300, 0))
    side = before.ys[-1] - before.ys[0]
    moved = _desktop((window, (300, round(0.25 * side + before.cell_size / 2))))
    assert read_puzzle(moved, near=before).puzzle.to_rows() == canonical(puzzle.to_rows())
