"""Reading boards in looks of third-party Flow games (issue 11): no grid lines, light themes, small
boards on big screens, a title just above the board, white shapes inside the dots."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from flowbot.capture.colors import find_dots
from flowbot.capture.read import read_puzzle
from flowbot.errors import CaptureError
from flowbot.model import Geometry, Puzzle
from tests.boards import canonical
from tests.images import draw_look

LABELS = "ABCDEFGHIJKLMNOP"
FRAMES = [(400, 400), (540, 960), (800, 600), (1280, 1000), (1600, 1000)]


def scatter_board(rng: random.Random, rows: int, cols: int) -> Puzzle:
    """A board with pairs of dots at random cells (reading needs no solution), up to 16 colours."""
    colours = min(16, rows * cols // 6 + 2)
    cells = rng.sample([(row, col) for row in range(rows) for col in range(cols)], 2 * colours)
    grid = [["."] * cols for _ in range(rows)]
    for index, (row, col) in enumerate(cells):
        grid[row][col] = LABELS[index // 2]
    return Puzzle.from_rows(["".join(line) for line in grid])


def jpeg(frame: np.ndarray, quality: int = 80) -> np.ndarray:
    """The frame after a round trip through JPEG."""
    return cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def placed(rng: random.Random, *, small: bool = False, header: bool = False, min_cell: int = 18):
    """A random board, cell size, frame size and place: anywhere, or (small) a 180-220 px board
    near the top-left of a big screen."""
    rows, cols = rng.randint(5, 14), rng.randint(5, 14)
    if small:
        size = rng.choice([(1280, 1000), (1600, 1000)])
        cell = max(min_cell, rng.randint(180, 220) // max(rows, cols))
    else:
        size = rng.choice(FRAMES)
        cell = rng.randint(min_cell, min(120, (min(size) - 20) // max(rows, cols)))
    above = cell if header else 0
    if small:
        origin = (rng.randint(0, 40), rng.randint(above, above + 60))
    else:
        origin = (rng.randint(0, size[0] - cell * cols), rng.randint(above, size[1] - cell * rows))
    return scatter_board(rng, rows, cols), dict(cell=cell, size=size, origin=origin)


def assert_reads(frame: np.ndarray, puzzle: Puzzle, where: dict) -> None:
    """The frame reads as exactly the puzzle."""
    rows = read_puzzle(frame).puzzle.to_rows()
    assert rows == canonical(puzzle.to_rows()), (puzzle.size, where)


LOOKS = {
    "no grid, dark": dict(style="nogrid"),
    "no grid, light": dict(style="nogrid", light=True),
    "no grid, dark, on a grey page": dict(style="nogrid", page=(70, 70, 70)),
    "no grid, glyphs": dict(style="nogrid", glyphs=True),
    "no grid, light, pipes": dict(style="nogrid", light=True, pipes=True),
    "lines, light": dict(style="lines", light=True),
    "lines, dark": dict(style="lines"),
    "lines, light, pipes": dict(style="lines", light=True, pipes=True),
    "lines, dark, glyphs": dict(style="lines", glyphs=True),
}


@pytest.mark.parametrize("look", sorted(LOOKS))
@pytest.mark.parametrize("seed", range(4))
def test_a_look_reads_exactly_anywhere_at_any_size(look, seed):
    rng = random.Random(f"{look} {seed}")
    puzzle, where = placed(rng, min_cell=24)
    frame = draw_look(puzzle, **LOOKS[look], **where)
    assert_reads(frame, puzzle, where)
    assert_reads(jpeg(frame), puzzle, where)


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
@pytest.mark.parametrize("seed", range(6))
def test_a_small_board_on_a_big_screen_reads_whole(light, seed):
    rng = random.Random(f"small {light} {seed}")
    puzzle, where = placed(rng, small=True)
    frame = draw_look(puzzle, style="lines", light=light, **where)
    assert_reads(frame, puzzle, where)


@pytest.mark.parametrize("style", ["lines", "nogrid"])
@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
@pytest.mark.parametrize("seed", range(3))
def test_a_title_just_above_the_board_is_not_a_row(style, light, seed):
    rng = random.Random(f"header {style} {light} {seed}")
    puzzle, where = placed(rng, header=True, min_cell=24)
    frame = draw_look(puzzle, style=style, light=light, header=True, **where)
    assert_reads(frame, puzzle, where)


def test_a_five_by_five_with_its_title_reads_five_rows():
    puzzle = Puzzle.from_rows(["A...B", ".....", "..C..", ".D...", "AB.DC"])
    for style in ("lines", "nogrid"):
        for light in (False, True):
            frame = draw_look(
                puzzle, style=style, light=light, header=True, cell=60, origin=(60, 50), size=(540, 960)
            )
            assert read_puzzle(frame).puzzle.to_rows() == puzzle.to_rows(), (style, light)


def test_faint_markers_and_tints_are_never_dots():
    puzzle = Puzzle.from_rows(["A....", ".....", "..B..", ".....", "A...B"])
    for light in (False, True):
        frame = draw_look(
            puzzle, style="nogrid", light=light, pipes=True, cell=50, origin=(40, 40), size=(400, 400)
        )
        geometry = Geometry(tuple(40 + 50 * i for i in range(6)), tuple(40 + 50 * i for i in range(6)))
        cells = sorted(dot.cell for dot in find_dots(frame, geometry, frozenset()))
        assert cells == [(0, 0), (2, 2), (4, 0), (4, 4)], light


@pytest.mark.parametrize(
    "frame",
    [np.zeros((500, 500, 3), np.uint8), np.full((500, 700, 3), 240, np.uint8)],
    ids=["black", "white"],
)
def test_no_board_says_what_was_tried(frame):
    with pytest.raises(CaptureError) as caught:
        read_puzzle(frame)
    message = str(caught.value)
    assert message.startswith("no board found: ")
    for tried in ("grid lines", "tile gaps", "lattice of dots in a panel"):
        assert tried in message


# The bundled game's looks (flowbot game --no-grid --theme light --glyphs --header --board-px),
# drawn off-screen and read: every combination, at the default window and as a 200 px board at the
# top-left of a 1280x1000 window.
GAME_LOOKS = [
    dict(grid=grid, light=light, glyphs=glyphs, header=header)
    for grid in (True, False)
    for light in (False, True)
    for glyphs in (False, True)
    for header in (False, True)
]


def _look_id(look: dict) -> str:
    """A short name for a combination of game looks."""
    return "-".join(name if on else f"no {name}" for name, on in look.items())


@pytest.fixture(scope="module")
def game_levels():
    """Generated levels: the sizes a default window shows, and those a 200 px board holds at 20+ px a cell."""
    from flowbot.generate.levels import make_level

    def make(rows, cols, colours):
        return make_level(rows, cols, colours, random.Random(rows * 7 + cols)).puzzle

    large = [make(*size) for size in ((5, 5, 5), (8, 10, 8), (12, 12, 11), (14, 14, 14))]
    small = [make(*size) for size in ((5, 5, 5), (7, 7, 6), (9, 9, 8), (8, 10, 8))]
    return large, small


@pytest.mark.parametrize("small", [False, True], ids=["540x960", "200px board in 1280x1000"])
@pytest.mark.parametrize("look", GAME_LOOKS, ids=[_look_id(look) for look in GAME_LOOKS])
def test_every_game_look_reads_exactly(look, small, game_levels, monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from flowbot.game.board import GameBoard
    from flowbot.game.look import LIGHT_LINES, Look, Theme
    from flowbot.game.render import Renderer, surface_to_bgr

    pygame.font.init()
    theme = Theme(grid=look["grid"], light=look["light"], glyphs=look["glyphs"], line_rgb=LIGHT_LINES)
    if not look["light"]:
        theme = Theme(grid=look["grid"], glyphs=look["glyphs"])
    placement = Look(board_px=200 if small else None, header=look["header"])
    renderer = Renderer(theme, placement)
    for puzzle in game_levels[1] if small else game_levels[0]:
        surface = pygame.Surface((1280, 1000) if small else (540, 960))
        renderer.draw(surface, GameBoard(puzzle), level=3)
        frame = surface_to_bgr(surface)
        assert read_puzzle(frame).puzzle.to_rows() == canonical(puzzle.to_rows()), puzzle.size
