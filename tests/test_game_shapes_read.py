"""The bundled game's Shapes boards read back by the Shapes reader: the same cells, the same cells
sharing borders, the same dots in the same colours, off-screen (no display)."""

from __future__ import annotations

import pytest

from flowbot.capture.shapes.read import read_shapes
from flowbot.game.render import surface_to_bgr
from flowbot.game.trial import generated_shapes
from flowbot.shapes.kinds import SHAPES
from tests.simulated_game import SimulatedGame


def dot_pairs(letters: str, names, cell_of) -> list[tuple[str | None, tuple[int, int]]]:
    """Each colour's name and its two dots' cells, in order, with `cell_of` turning a place into a cell."""
    places: dict[str, list[int]] = {}
    for place, letter in enumerate(letters):
        if letter != ".":
            places.setdefault(letter, []).append(cell_of(place))
    ordered = sorted(places)
    return sorted((names[ordered.index(letter)], tuple(sorted(cells))) for letter, cells in places.items())


@pytest.mark.parametrize("size", [(540, 960), (400, 700)])
@pytest.mark.parametrize("name", SHAPES)
def test_the_shapes_reader_reads_the_games_board_as_it_was_made(name, size):
    level = generated_shapes(name, 1)(0)
    game = SimulatedGame([level], size=size)
    reading = read_shapes(surface_to_bgr(game.surface))
    cells = game.layout.geometry
    # Each cell read is the game's cell under its middle, and every game cell is read once.
    mine = []
    for cell in reading.cells:
        found = cells.cell_at(*cell.centre)
        assert found is not None, f"a cell read at {cell.centre} is no cell of the game's"
        mine.append(found[1])
    assert sorted(mine) == list(range(level.cols))
    links = {tuple(sorted((mine[a], mine[b]))) for a, b in reading.neighbours}
    assert links == {(a[1], b[1]) for a, b in level.shape_links}
    names = [color.name for color in level.colors]
    assert dot_pairs(reading.letters, reading.names, lambda place: mine[place]) == dot_pairs(
        level.to_rows()[0], names, lambda place: place
    )
