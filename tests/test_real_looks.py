"""Reading boards as real third-party games draw them (issue 23), by principle: the board is where the
lattice of cells is, whatever lies between the cells or around the board. Synthetic looks drawn here,
so the principles are tried on images never seen, then the real games' own screenshots."""

from __future__ import annotations

import random
import re

import cv2
import numpy as np
import pytest

from flowbot.capture.colors import find_dots
from flowbot.capture.read import grid_between, read_known_grid, read_puzzle
from flowbot.capture.screenshot import read_screenshot
from flowbot.errors import CaptureError
from flowbot.live.clock import ManualClock
from flowbot.model import Geometry, Puzzle
from flowbot.solve.sat import solve
from tests.boards import canonical
from tests.conftest import SHARED
from tests.images import draw_look, look_palette
from tests.test_capture_looks import scatter_board


def draw_tiles(
    puzzle: Puzzle,
    *,
    cell: int = 50,
    gap: int = 1,
    page: tuple[int, int, int] = (255, 255, 255),
    tile: tuple[int, int, int] = (218, 218, 218),
    size: tuple[int, int] = (1000, 800),
    origin: tuple[int, int] = (300, 250),
) -> np.ndarray:
    """A board of flat tiles on a page, no line around it: tiles `gap` px apart, round dots (BGR)."""
    width, height = size
    frame = np.empty((height, width, 3), dtype=np.uint8)
    frame[:] = page
    left, top = origin
    colours = look_palette(light=sum(page) > sum(tile))
    ends = {end: index for index, pair in enumerate(puzzle.endpoints) for end in pair}
    for row, col in puzzle.cells():
        x0, y0 = left + col * (cell + gap), top + row * (cell + gap)
        frame[y0 : y0 + cell, x0 : x0 + cell] = tile
        if (row, col) in ends:
            red, green, blue = colours[ends[(row, col)] % len(colours)]
            centre = (x0 + cell // 2, y0 + cell // 2)
            cv2.circle(frame, centre, int(cell * 0.35), (blue, green, red), -1, cv2.LINE_AA)
    return frame


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    ("page", "tile"),
    [((255, 255, 255), (218, 218, 218)), ((30, 30, 30), (70, 70, 70))],
    ids=["light", "dark"],
)
def test_tiles_with_no_outer_line_read_to_the_last_row_and_column(seed, page, tile):
    rng = random.Random(seed)
    puzzle = scatter_board(rng, rng.randint(5, 8), rng.randint(5, 8))
    frame = draw_tiles(puzzle, cell=rng.randint(30, 55), page=page, tile=tile)
    assert read_puzzle(frame).puzzle.to_rows() == canonical(puzzle.to_rows())


def draw_lined(puzzle: Puzzle, cell: int = 60) -> np.ndarray:
    """A phone-like board: black cells, dim green grid lines, a line of text above (BGR)."""
    margin = cell
    frame = np.zeros((puzzle.rows * cell + 2 * margin, puzzle.cols * cell, 3), dtype=np.uint8)
    for index in range(puzzle.cols + 1):
        x = min(index * cell, frame.shape[1] - 1)
        cv2.line(frame, (x, margin), (x, margin + puzzle.rows * cell), (40, 70, 40), 1)
    for index in range(puzzle.rows + 1):
        y = margin + index * cell
        cv2.line(frame, (0, y), (frame.shape[1] - 1, y), (40, 70, 40), 1)
    cv2.putText(frame, "flows: 0/5  moves: 0", (5, margin - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255,) * 3, 1)
    colours = look_palette(light=False)
    for index, pair in enumerate(puzzle.endpoints):
        red, green, blue = colours[index % len(colours)]
        for row, col in pair:
            centre = (col * cell + cell // 2, margin + row * cell + cell // 2)
            cv2.circle(frame, centre, int(cell * 0.35), (blue, green, red), -1, cv2.LINE_AA)
    return frame


@pytest.mark.parametrize("seed", range(8))
def test_a_board_whose_outer_lines_meet_a_brighter_desktop_reads_whole(seed):
    # A phone shown in a window: its board's outer lines touch the window's edge, and past them the
    # desktop is as bright as the lines, so they stand out on one side only.
    rng = random.Random(seed)
    puzzle = scatter_board(rng, rng.randint(5, 8), rng.randint(5, 8))
    window = draw_lined(puzzle, cell=rng.randint(40, 70))
    desktop = np.full((1000, 1600, 3), rng.choice([50, 60, 90, 140, 230]), dtype=np.uint8)
    top, left = rng.randint(0, 1000 - window.shape[0]), rng.randint(0, 1600 - window.shape[1])
    desktop[top : top + window.shape[0], left : left + window.shape[1]] = window
    assert read_puzzle(desktop).puzzle.to_rows() == canonical(puzzle.to_rows())


@pytest.mark.parametrize("seed", range(6))
def test_a_dim_line_over_a_glow_of_another_hue_still_closes_its_cells(seed):
    # The game's soft glows behind the board: where one lies over a line, the glow's own channel is
    # as bright as the line, and only the line's hue shows it (issue 23, a mirrored phone).
    rng = random.Random(seed)
    puzzle = scatter_board(rng, rng.randint(5, 8), rng.randint(5, 8))
    cell = rng.randint(40, 70)
    lined = draw_lined(puzzle, cell=cell)
    # A glow about as bright as the lines, in channels they are dim in, a few cells wide, centred on
    # a random inner crossing: it lies behind the lines and the dots, as the games draw it.
    rows, cols = np.mgrid[: lined.shape[0], : lined.shape[1]]
    x, y = rng.randint(1, puzzle.cols - 1) * cell, cell + rng.randint(1, puzzle.rows - 1) * cell
    spread = np.exp(-((cols - x) ** 2 + (rows - y) ** 2) / (2 * (1.5 * cell) ** 2))
    glow = np.zeros(lined.shape, dtype=np.uint8)
    for channel in rng.choice([(0,), (2,), (0, 2)]):
        glow[..., channel] = np.rint(rng.randint(60, 110) * spread)
    frame = np.where(lined.any(axis=2, keepdims=True), lined, glow)
    assert read_puzzle(frame).puzzle.to_rows() == canonical(puzzle.to_rows())


def _truth_screenshots() -> list[tuple]:
    """Every real screenshot with a truth board beside it (image path, truth path)."""
    folder = SHARED / "screenshots"
    pairs = []
    for truth in sorted(folder.glob("*.truth.txt")) if folder.is_dir() else []:
        stem = truth.name.removesuffix(".truth.txt")
        image = next(path for path in folder.glob(stem + ".*") if not path.name.endswith(".txt"))
        pairs.append((image, truth))
    return pairs


TRUTHS = _truth_screenshots()
DESKTOPS = [(0, 0, 0), (40, 40, 40), (210, 210, 210)]  # a bare X root window, dark and light desktops


def mirrored(image: np.ndarray, height: int, desktop: tuple[int, int, int]) -> np.ndarray:
    """A 1600x1000 desktop (BGR) showing `image` scaled to `height` px tall (narrower when too wide),
    in the middle, as a phone mirror's window shows a phone."""
    frame = np.empty((1000, 1600, 3), dtype=np.uint8)
    frame[:] = desktop
    scale = min(height / image.shape[0], 1600 / image.shape[1])
    size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
    shown = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    top, left = (1000 - size[1]) // 2, (1600 - size[0]) // 2
    frame[top : top + size[1], left : left + size[0]] = shown
    return frame


def _mirror_cases() -> list:
    """(image, truth, height) for every truth screenshot at both heights."""
    return [
        pytest.param(image, truth, height, id=f"{image.name}-{height}")
        for image, truth in TRUTHS
        for height in (1000, 700)
    ]


@pytest.mark.parametrize(("image", "truth", "height"), _mirror_cases())
def test_a_mirrored_phone_reads_as_its_screenshot_on_both_paths(image, truth, height):
    # What auto-clear reads from a full-screen frame (read_puzzle) and what `flowbot solve` reads from
    # a file (read_screenshot) are the same board: the truth.
    from flowbot.capture.image import decode_image

    desktop = DESKTOPS[TRUTHS.index((image, truth)) % len(DESKTOPS)]
    frame = mirrored(decode_image(image.read_bytes()), height, desktop)
    want = truth.read_text().split()
    reading = read_puzzle(frame)
    assert reading.puzzle.to_rows() == want
    assert read_screenshot(frame).puzzle.to_rows() == want
    # The next level's read, around where this board was (issue 25), reads the same board.
    again = read_puzzle(frame, near=reading.geometry)
    assert again.puzzle.to_rows() == want
    assert again.geometry.xs + again.geometry.ys == pytest.approx(
        reading.geometry.xs + reading.geometry.ys, abs=1.0
    )


def test_truth_screenshots_are_present_or_skipped():
    if not (SHARED / "screenshots").is_dir():
        pytest.skip("../shared/screenshots is not present")
    assert len(TRUTHS) == 52


GAME_SHOTS = sorted((SHARED / "games").glob("*/shot.png")) if (SHARED / "games").is_dir() else []


def _sizes_stated(source: str) -> set[tuple[int, int]]:
    """Every "R x C" size a game's SOURCE.md states (boards, levels, windows), both ways round."""
    sizes = {(int(a), int(b)) for a, b in re.findall(r"(\d+)\s*[x×]\s*(\d+)", source)}
    return sizes | {(b, a) for a, b in sizes}


@pytest.mark.parametrize("shot", GAME_SHOTS, ids=[shot.parent.name for shot in GAME_SHOTS])
def test_a_real_games_first_level_reads_consistently_on_both_paths(shot):
    # No answer is stored: the board read must pair its dots (or reading fails), solve with flowbot's
    # solver, have a size the game's SOURCE.md states, and read the same from a file and the screen.
    frame = cv2.imread(str(shot))
    puzzle = read_puzzle(frame).puzzle
    assert read_screenshot(frame).puzzle.to_rows() == puzzle.to_rows()
    assert solve(puzzle).status == "solved"
    assert (puzzle.rows, puzzle.cols) in _sizes_stated((shot.parent / "SOURCE.md").read_text())


def test_real_games_are_present_or_skipped():
    if not (SHARED / "games").is_dir():
        pytest.skip("../shared/games is not present")
    assert len(GAME_SHOTS) >= 5


def _jittered(corners, cell: float, rng: random.Random):
    """Corners as a careful person points at them: off by up to a sixteenth of a cell."""
    return tuple(
        (x + rng.uniform(-0.06, 0.06) * cell, y + rng.uniform(-0.06, 0.06) * cell) for x, y in corners
    )


LOOKS = {
    "dark panel, markers": dict(style="nogrid"),
    "light panel, markers, glyphs": dict(style="nogrid", light=True, glyphs=True),
    "dark lines": dict(style="lines"),
    "light lines, pipes": dict(style="lines", light=True, pipes=True),
}


@pytest.mark.parametrize("name", sorted(LOOKS))
@pytest.mark.parametrize("seed", range(3))
def test_a_board_given_its_corners_and_size_reads_by_its_cells_middles(name, seed):
    rng = random.Random(seed)
    puzzle = scatter_board(rng, rng.randint(4, 12), rng.randint(4, 12))
    cell, origin = rng.randint(24, 60), (rng.randint(0, 100), rng.randint(0, 100))
    frame = draw_look(puzzle, cell=cell, origin=origin, size=(900, 900), **LOOKS[name])
    corners = (origin, (origin[0] + cell * puzzle.cols, origin[1] + cell * puzzle.rows))
    geometry = grid_between(_jittered(corners, cell, rng), puzzle.rows, puzzle.cols)
    assert read_known_grid(frame, geometry).puzzle.to_rows() == canonical(puzzle.to_rows())


def test_tiles_given_their_corners_read_by_their_middles():
    puzzle = scatter_board(random.Random(5), 7, 7)
    frame = draw_tiles(puzzle, cell=50, gap=1, origin=(300, 250))
    corners = ((300, 250), (300 + 7 * 51 - 1, 250 + 7 * 51 - 1))
    geometry = grid_between(corners, 7, 7)
    assert read_known_grid(frame, geometry).puzzle.to_rows() == canonical(puzzle.to_rows())


def test_a_wrong_size_given_is_refused_by_its_dots():
    puzzle = Puzzle.from_rows(["A.B..", ".....", "..C..", ".....", "A.B.C"])
    frame = draw_look(puzzle, style="lines", cell=50, origin=(20, 20), size=(300, 300))
    with pytest.raises(CaptureError, match="endpoint"):
        read_known_grid(frame, grid_between(((20, 20), (270, 270)), 4, 4))
    with pytest.raises(CaptureError, match="do not span"):
        grid_between(((270, 270), (20, 20)), 5, 5)


@pytest.mark.parametrize("shot", GAME_SHOTS, ids=[shot.parent.name for shot in GAME_SHOTS])
def test_a_real_games_board_given_its_corners_reads_as_found(shot):
    # The corners are where the reader found the board, moved as a person's pointing would be.
    frame = cv2.imread(str(shot))
    found = read_puzzle(frame)
    geometry = found.geometry
    corners = ((geometry.xs[0], geometry.ys[0]), (geometry.xs[-1], geometry.ys[-1]))
    pointed = grid_between(
        _jittered(corners, geometry.cell_size, random.Random(1)), found.puzzle.rows, found.puzzle.cols
    )
    assert read_known_grid(frame, pointed).puzzle.to_rows() == found.puzzle.to_rows()


def test_calibrating_by_pointing_reads_a_board_no_detection_finds():
    # Dots alone on a bare page: no lines, no tiles, no panel, so no board is found by itself; with
    # its corners and size given, it reads at its cells' middles and solves.
    import io

    from flowbot.act.plan import PointerSettings
    from flowbot.capture.screen import ImageScreen
    from flowbot.generate.levels import make_level
    from flowbot.modes.calibrate import calibrate_by_pointing

    puzzle = make_level(5, 5, 4, random.Random(3)).puzzle
    frame = np.zeros((600, 800, 3), dtype=np.uint8)
    colours = look_palette(light=False)
    for index, pair in enumerate(puzzle.endpoints):
        red, green, blue = colours[index]
        for row, col in pair:
            cv2.circle(
                frame, (300 + col * 50 + 25, 150 + row * 50 + 25), 17, (blue, green, red), -1, cv2.LINE_AA
            )
    with pytest.raises(CaptureError):
        read_puzzle(frame)
    positions = iter([(301, 152), (549, 398)])
    answers = iter(["", "", "5x5", "s"])
    profile = calibrate_by_pointing(
        ImageScreen([frame]),
        "dots",
        PointerSettings(),
        lambda _: next(answers),
        lambda: next(positions),
        io.StringIO(),
    )
    assert (profile.rows, profile.cols) == (5, 5)
    assert profile.region.contains(301, 152) and profile.region.contains(549, 398)


def test_each_level_is_found_afresh_when_the_size_and_place_change(tmp_path):
    # A pack going 5x5 -> 6x6 with the board moved and its cells resized: the loop's look for the
    # next board reads it whole, at its new place, with no lattice kept from the level before.
    from flowbot.act.pointer import RecordingPointer
    from flowbot.capture.screen import ImageScreen
    from flowbot.generate.levels import make_level
    from flowbot.modes.auto_clear import AutoClear

    first = make_level(5, 5, 4, random.Random(1)).puzzle
    second = make_level(6, 6, 5, random.Random(2)).puzzle
    frames = [
        draw_tiles(first, cell=40, size=(1600, 1000), origin=(700, 400)),
        draw_tiles(second, cell=52, size=(1600, 1000), origin=(300, 150)),
    ]
    loop = AutoClear(ImageScreen(frames), RecordingPointer(), artifacts=tmp_path, clock=ManualClock())
    sighting = loop.wait_for_board(None)
    assert sighting is not None and sighting.rows == canonical(first.to_rows())
    following = loop.wait_for_board(sighting.rows, timeout=1.0)
    assert following is not None and following.rows == canonical(second.to_rows())
    assert following.geometry.xs[0] == pytest.approx(300, abs=3)
    assert following.geometry.ys[0] == pytest.approx(150, abs=3)


def _banded(seed: int, crossing: bool) -> tuple[np.ndarray, Puzzle]:
    """A dark lined board with three translucent bands, in the dots' hues only darker, running across
    it (all one way, or both ways when `crossing`) over the board and under the dots."""
    rng = random.Random(seed)
    puzzle = scatter_board(rng, rng.randint(5, 8), rng.randint(5, 8))
    cell, origin = rng.randint(40, 90), (20, 60)
    frame = draw_look(puzzle, style="lines", cell=cell, origin=origin, size=(900, 900))
    colours = look_palette(light=False)
    upright = rng.random() < 0.5
    for number in range(3):
        red, green, blue = colours[rng.randrange(len(colours))]
        band = np.zeros_like(frame)
        if upright != (crossing and number == 2):
            x = origin[0] + rng.randrange(puzzle.cols) * cell + cell // 2
            cv2.line(band, (x, 0), (x, 899), (blue, green, red), cell // 2)
        else:
            y = origin[1] + rng.randrange(puzzle.rows) * cell + cell // 2
            cv2.line(band, (0, y), (899, y), (blue, green, red), cell // 2)
        covered = band.any(axis=2) & (frame.max(axis=2) < 60)
        frame[covered] = (0.3 * band[covered]).astype(np.uint8) + frame[covered]
    return frame, puzzle


@pytest.mark.parametrize("seed", range(6))
def test_translucent_bands_drifting_over_the_board_are_not_dots(seed):
    # Through a cell a band reaches two opposite sides and runs on past them; a dot is round.
    frame, puzzle = _banded(seed, crossing=False)
    assert read_puzzle(frame).puzzle.to_rows() == canonical(puzzle.to_rows())


@pytest.mark.parametrize("seed", range(6))
def test_where_bands_cross_the_board_reads_exactly_or_not_at_all(seed):
    # Where two bands cross, their mix is a square patch in one cell, not a band: it may be taken for
    # a dot, but then its colour has one dot and the look is refused (the loop looks again as the
    # bands drift), never read as another board.
    frame, puzzle = _banded(seed, crossing=True)
    try:
        rows = read_puzzle(frame).puzzle.to_rows()
    except CaptureError as error:
        assert "has 1 endpoint" in str(error)
    else:
        assert rows == canonical(puzzle.to_rows())


def draw_inner_lines(
    puzzle: Puzzle, *, cell: int = 40, origin: tuple[int, int] = (600, 300), buttons: bool = True
) -> np.ndarray:
    """A small borderless canvas on a white page: grey lines between cells only (none around the
    board), round dots, and a row of buttons below it (BGR, 1600x1000)."""
    frame = np.full((1000, 1600, 3), 255, dtype=np.uint8)
    left, top = origin
    right, bottom = left + cell * puzzle.cols, top + cell * puzzle.rows
    for index in range(1, puzzle.cols):
        cv2.line(frame, (left + index * cell, top), (left + index * cell, bottom - 1), (200, 200, 200), 1)
    for index in range(1, puzzle.rows):
        cv2.line(frame, (left, top + index * cell), (right - 1, top + index * cell), (200, 200, 200), 1)
    colours = look_palette(light=True)
    for index, pair in enumerate(puzzle.endpoints):
        red, green, blue = colours[index % len(colours)]
        for row, col in pair:
            centre = (left + col * cell + cell // 2, top + row * cell + cell // 2)
            cv2.circle(frame, centre, int(cell * 0.35), (blue, green, red), -1, cv2.LINE_AA)
    if buttons:
        for number, label in enumerate(("Restart", "Undo", "Next")):
            x0 = left + number * 70
            cv2.rectangle(frame, (x0, bottom + 20), (x0 + 60, bottom + 50), (90, 160, 60), -1)
            cv2.putText(frame, label, (x0 + 4, bottom + 40), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1)
    return frame


@pytest.mark.parametrize("seed", range(4))
def test_a_small_borderless_board_reads_to_its_outer_cells_and_not_its_buttons(seed):
    rng = random.Random(seed)
    puzzle = scatter_board(rng, 5, 5)
    frame = draw_inner_lines(puzzle, cell=rng.choice([36, 40, 44]))
    assert read_puzzle(frame).puzzle.to_rows() == canonical(puzzle.to_rows())


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
@pytest.mark.parametrize("seed", range(3))
def test_a_dotted_panel_with_text_above_and_a_side_panel_reads_exactly(seed, light):
    # No grid lines: small grey markers in a panel mark the empty cells. A title above the board and
    # a side panel of text beside it are never rows or columns of it.
    rng = random.Random(seed)
    puzzle = scatter_board(rng, rng.randint(5, 9), rng.randint(5, 9))
    cell = rng.randint(30, 60)
    origin = (60, 120)
    frame = draw_look(puzzle, style="nogrid", light=light, cell=cell, origin=origin, size=(1600, 1000))
    ink = (30, 30, 30) if light else (230, 230, 230)
    cv2.putText(
        frame, "Level 10   5 moves", (origin[0], origin[1] - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.8, ink, 2
    )
    side = origin[0] + cell * puzzle.cols + 30
    cv2.rectangle(frame, (side, origin[1]), (side + 200, origin[1] + cell * puzzle.rows), (0, 140, 255), -1)
    for number, text in enumerate(("LEVEL 1", "SCORE:", "MOVES: 0 / 4")):
        cv2.putText(
            frame,
            text,
            (side + 10, origin[1] + 40 + 40 * number),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.7,
            (0, 0, 0),
            2,
        )
    assert read_puzzle(frame).puzzle.to_rows() == canonical(puzzle.to_rows())


def test_a_board_cut_to_one_piece_is_never_a_strip():
    # Under a dialog only the top row of a board may close; cutting the board to its largest piece
    # must not make that row a 1xN board.
    from flowbot.capture.board import Board, one_piece
    from flowbot.model import Geometry

    geometry = Geometry(tuple(range(0, 300, 50)), tuple(range(0, 300, 50)))
    covered = frozenset((row, col) for row in range(1, 4) for col in range(5)) | {(4, 0), (4, 2), (4, 4)}
    board = Board(geometry, covered)
    assert one_piece(board, frozenset()) == board
    # A toolbar's box two rows below a board is cut off.
    apart = Board(geometry, frozenset((row, col) for row in range(3, 5) for col in range(5)) - {(4, 1)})
    assert one_piece(apart, frozenset()).geometry == Geometry(geometry.xs, geometry.ys[:4])


def draw_dashed_canvas(puzzle: Puzzle, cell: int, origin: tuple[int, int] = (400, 64)) -> np.ndarray:
    """A dark canvas on a white page, a thin frame inside its padding and faint translucent dashed
    lines, 2 px wide, between the cells (brighter where two cross); round dots with a white number (BGR)."""
    frame = np.full((1000, 1600, 3), 255, dtype=np.uint8)
    pad = 16
    left, top = origin
    right, bottom = left + 2 * pad + cell * puzzle.cols, top + 2 * pad + cell * puzzle.rows
    frame[top:bottom, left:right] = (42, 23, 15)
    x0, y0 = left + pad, top + pad
    x1, y1 = x0 + cell * puzzle.cols, y0 + cell * puzzle.rows
    cv2.rectangle(frame, (x0, y0), (x1, y1), (85, 65, 51), 1)
    light = np.zeros(frame.shape[:2], dtype=np.int16)
    dashes = (np.arange(1600) // 3) % 2 == 0
    for index in range(1, puzzle.cols):
        x = x0 + index * cell - 1
        light[y0:y1, x : x + 2] += 8 * dashes[y0:y1, None]
    for index in range(1, puzzle.rows):
        y = y0 + index * cell - 1
        light[y : y + 2, x0:x1] += 8 * dashes[None, x0:x1]
    frame[:] = np.clip(frame.astype(np.int16) + light[..., None], 0, 255).astype(np.uint8)
    colours = look_palette(light=False)
    for number, pair in enumerate(puzzle.endpoints):
        red, green, blue = colours[number % len(colours)]
        for row, col in pair:
            centre = (x0 + col * cell + cell // 2, y0 + row * cell + cell // 2)
            cv2.circle(frame, centre, int(cell * 0.32), (blue, green, red), -1, cv2.LINE_AA)
            cv2.putText(frame, str(number + 1), (centre[0] - 3, centre[1] + 4), cv2.FONT_HERSHEY_PLAIN, 0.7,
                        (255, 255, 255), 1)  # fmt: skip
    return frame


@pytest.mark.parametrize("seed", range(3))
def test_a_canvas_with_faint_dashed_lines_reads_with_its_empty_outer_rows(seed):
    # The faint lines vanish but for their crossings, round specks a few pixels wide; with a row and a
    # column holding no dot there are more crossings than dots, and they are not the dots' lattice.
    rng = random.Random(seed)
    puzzle = scatter_board(rng, 4, 4)
    rows = [row + "." for row in puzzle.to_rows()] + ["....."]
    if seed % 2:
        rows = ["." + row[:-1] for row in rows]
    board = Puzzle.from_rows(rows)
    frame = draw_dashed_canvas(board, cell=rng.choice([120, 153]))
    assert read_puzzle(frame).puzzle.to_rows() == canonical(board.to_rows())


def _band_ending(seed: int) -> tuple[np.ndarray, Puzzle, Geometry]:
    """A dark lined board with a translucent band as wide as a dot, in a dot's hue only darker, that
    ends with a round cap in the middle of an empty cell and runs on from there to the board's edge."""
    rng = random.Random(seed)
    puzzle = scatter_board(rng, rng.randint(5, 8), rng.randint(5, 8))
    cell, origin = rng.randint(50, 90), (20, 60)
    frame = draw_look(puzzle, style="lines", cell=cell, origin=origin, size=(900, 900))
    ends = {end for pair in puzzle.endpoints for end in pair}
    row, col = rng.choice([cell_ for cell_ in puzzle.cells() if cell_ not in ends])
    x, y = origin[0] + col * cell + cell // 2, origin[1] + row * cell + cell // 2
    red, green, blue = look_palette(light=False)[rng.randrange(4)]
    band = np.zeros_like(frame)
    half = int(0.36 * cell)
    away = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
    far = (x + away[0] * 900, y + away[1] * 900)
    cv2.rectangle(band, (min(x, far[0]) - half * abs(away[1]), min(y, far[1]) - half * abs(away[0])),
                  (max(x, far[0]) + half * abs(away[1]), max(y, far[1]) + half * abs(away[0])),
                  (blue, green, red), -1)  # fmt: skip
    cv2.circle(band, (x, y), half, (blue, green, red), -1, cv2.LINE_AA)
    covered = band.any(axis=2) & (frame.max(axis=2) < 60)
    frame[covered] = (0.3 * band[covered]).astype(np.uint8) + frame[covered]
    xs = tuple(float(origin[0] + i * cell) for i in range(puzzle.cols + 1))
    ys = tuple(float(origin[1] + i * cell) for i in range(puzzle.rows + 1))
    return frame, puzzle, Geometry(xs, ys)


@pytest.mark.parametrize("seed", range(8))
def test_a_band_ending_with_a_round_cap_in_a_cell_is_not_a_dot(seed):
    # The cap is round like a dot, but the colour leaves the cell by one side as wide as a dot.
    frame, puzzle, geometry = _band_ending(seed)
    found = {dot.cell for dot in find_dots(frame, geometry, frozenset())}
    assert found == {end for pair in puzzle.endpoints for end in pair}
