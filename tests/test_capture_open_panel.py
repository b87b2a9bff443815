"""Reading a board drawn with no lines at all (issue 34): a panel almost the page's colour, set off
only by a thin border, whose cells are marked by small dots at their middles and big endpoint dots.
The looks are drawn here, light and dark, 3x3 to 9x9, on a page filling the screen or in a window on
a desktop of any colour, empty or with flows partly drawn."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from flowbot.capture.read import read_puzzle
from flowbot.capture.screenshot import read_screenshot
from flowbot.capture.variants import read_variant
from flowbot.errors import CaptureError, UnreadableBoardError
from flowbot.generate.levels import make_level
from flowbot.model import Puzzle
from tests.boards import canonical
from tests.images import draw_open_panel
from tests.test_capture_looks import scatter_board

# Flat colours (RGB) as web games draw their flows: strong, none of them near white.
FLAT_COLOURS = [
    (229, 62, 62), (49, 110, 240), (34, 180, 90), (240, 190, 20), (245, 120, 30),
    (160, 80, 240), (230, 70, 150), (20, 190, 220), (140, 90, 40),
]  # fmt: skip


def open_colours(rng: random.Random, light: bool) -> dict[str, tuple[int, int, int]]:
    """BGR colours of a page, a panel a few levels off it (one flat area with it, to a colour's
    tolerance), its thin border and the small marks of empty cells (greyish, a little blue)."""
    tint = [rng.randint(-3, 3) for _ in range(3)]
    # A light panel is whiter than its page, a dark one (a few levels, or none) lighter.
    if light:
        page = [rng.randint(240, 250) + shade for shade in tint]
        panel = [min(255, level + rng.randint(1, 5)) for level in page]
        border, mark = -rng.randint(12, 22), -rng.randint(25, 45)
    else:
        page = [rng.randint(8, 30) + shade for shade in tint]
        panel = [level + rng.randint(0, 2) for level in page]
        border, mark = rng.randint(12, 22), rng.randint(20, 40)
    bluer = (8, 0, -4)
    return {
        "page": tuple(page),
        "panel": tuple(panel),
        "border": tuple(int(np.clip(level + border, 0, 255)) for level in panel),
        "mark": tuple(
            int(np.clip(level + mark + shift, 0, 255)) for level, shift in zip(panel, bluer, strict=True)
        ),
    }


def open_scene(
    rng: random.Random,
    puzzle: Puzzle,
    light: bool,
    paths: tuple = (),
    palette: list | None = None,
    window: bool | None = None,
) -> np.ndarray:
    """A 1600x1000 screen (BGR) of a web game: a title above the board's panel, outlined buttons
    below it; the page fills the screen (a kiosk) or is a window on a desktop of a random colour
    (`window`; by chance if None)."""
    side = max(puzzle.rows, puzzle.cols)
    cell = rng.randint(max(28, 150 // side), 620 // side)
    pad = rng.randint(2, max(3, cell // 5))
    board_w, board_h = cell * puzzle.cols, cell * puzzle.rows
    left, top = rng.randint(150, 1450 - board_w), rng.randint(130, 840 - board_h)
    colours = open_colours(rng, light)
    where = dict(cell=cell, origin=(left, top), pad=pad)
    frame = draw_open_panel(puzzle, colours=colours, paths=paths, light=light, palette=palette, **where)
    ink = (40, 40, 40) if light else (230, 230, 230)
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(frame, "Daily Flow", (left, top - pad - 60), font, 0.9, ink, 2, cv2.LINE_AA)
    cv2.putText(frame, "Level 1", (left, top - pad - 20), font, 0.6, ink, 1, cv2.LINE_AA)
    below = top + board_h + pad + 30
    for index, text in enumerate(("Undo", "Hint", "Reset")):
        x0 = left + index * (board_w // 3)
        corner, far = (x0, below), (x0 + board_w // 3 - 10, below + 40)
        cv2.rectangle(frame, corner, far, colours["panel"], -1)
        cv2.rectangle(frame, corner, far, colours["border"], 1)
        cv2.putText(frame, text, (x0 + 12, below + 27), font, 0.6, ink, 1, cv2.LINE_AA)
    if not (rng.random() < 0.5 if window is None else window):
        return frame
    desktop = np.empty_like(frame)
    desktop[:] = [rng.randint(0, 255) for _ in range(3)]
    # A browser window on the desktop: a page well wider and taller than the board.
    x0, y0 = max(0, left - pad - rng.randint(150, 400)), max(0, top - pad - rng.randint(110, 200))
    x1, y1 = left + board_w + pad + rng.randint(150, 400), below + rng.randint(80, 200)
    desktop[y0:y1, x0:x1] = frame[y0:y1, x0:x1]
    return desktop


def assert_reads(frame: np.ndarray, puzzle: Puzzle) -> None:
    """The frame reads as exactly the puzzle: found afresh, near where it was, and as a screenshot."""
    reading = read_puzzle(frame)
    assert reading.puzzle.to_rows() == canonical(puzzle.to_rows())
    assert read_puzzle(frame, near=reading.geometry).puzzle.to_rows() == canonical(puzzle.to_rows())
    assert read_screenshot(frame).puzzle.to_rows() == canonical(puzzle.to_rows())


@pytest.mark.parametrize("light", [True, False], ids=["light", "dark"])
@pytest.mark.parametrize("side", [3, 4, 5, 6, 7, 9])
@pytest.mark.parametrize("seed", range(2))
def test_an_empty_board_with_no_lines_in_a_panel_of_the_pages_colour_reads_exactly(seed, side, light):
    rng = random.Random(f"open {seed} {side} {light}")
    puzzle = scatter_board(rng, side, rng.choice([side, rng.randint(3, 9)]))
    assert_reads(open_scene(rng, puzzle, light), puzzle)


def _half_drawn(seed: int, light: bool) -> tuple[np.ndarray, Puzzle]:
    """A screen (the page filling it, as the live bot sees a kiosk) of a level with some flows
    drawn, whole or in part, from their first end."""
    rng = random.Random(f"half {seed} {light}")
    side = rng.randint(5, 9)
    level = make_level(side, side, side, rng)
    drawn = [rng.choice([0, 2, len(path) // 2, len(path)]) for path in level.solution.paths]
    paths = tuple(tuple(path[:count]) for path, count in zip(level.solution.paths, drawn, strict=True))
    return open_scene(rng, level.puzzle, light, paths, FLAT_COLOURS, window=False), level.puzzle


@pytest.mark.parametrize("light", [True, False], ids=["light", "dark"])
@pytest.mark.parametrize("seed", range(5))
def test_a_board_with_no_lines_reads_the_same_with_flows_partly_drawn(seed, light):
    # Pipes cover the marks of the cells they pass and join their dots into one shape: the lattice
    # is the round marks', and a pipe's end or bend is never a dot.
    frame, puzzle = _half_drawn(seed, light)
    assert_reads(frame, puzzle)


@pytest.mark.parametrize("light", [True, False], ids=["light", "dark"])
def test_a_board_with_no_lines_is_a_square_board_never_a_shapes_board(light):
    # Round dots and their glyphs give every direction of edge, as curved cells do: a board of marks
    # on a square lattice is square all the same, and when its dots do not pair, that is the trouble.
    rng = random.Random(f"shapes {light}")
    puzzle = scatter_board(rng, 5, 5)
    frame = open_scene(rng, puzzle, light)
    assert read_variant(frame).kind == "square"
    # One more dot on an empty cell: a colour with one end (or three).
    geometry = read_puzzle(frame).geometry
    empty = next(cell for cell in puzzle.cells() if puzzle.to_rows()[cell[0]][cell[1]] == ".")
    centre = tuple(round(value) for value in geometry.center(empty))
    red, green, blue = FLAT_COLOURS[0]
    cv2.circle(frame, centre, round(geometry.cell_size * 0.32), (blue, green, red), -1, cv2.LINE_AA)
    with pytest.raises(CaptureError, match="endpoint") as error:
        read_variant(frame)
    assert not isinstance(error.value, UnreadableBoardError)
