"""Reading Flow's sister games from screenshots: boards drawn here, and the real variant screenshots."""

from __future__ import annotations

import random
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from flowbot.capture.image import decode_image
from flowbot.capture.variants import VariantReading, read_variant
from flowbot.capture.variants.overlay import draw_reading
from flowbot.errors import CaptureError
from tests.conftest import SHARED
from tests.images import jpeg_bytes
from tests.variant_images import (
    draw_hexes,
    draw_square,
    first_appearance,
    hex_centre,
    random_hex_lines,
    random_square_lines,
)

VARIANTS = SHARED / "screenshots" / "variants"


def _frame(name: str) -> np.ndarray:
    """A real variant screenshot, or skip when the shared folder is absent."""
    path = VARIANTS / name
    if not path.exists():
        pytest.skip("../shared/screenshots/variants is not present")
    return decode_image(path.read_bytes())


def _truth(name: str) -> list[str]:
    """A truth file's board lines (a hex truth's first line describes the layout)."""
    lines = (VARIANTS / name).read_text().split("\n")
    return [line for line in lines if line and not line.startswith("hex:")]


def _runs(walls) -> list[int]:
    """Lengths of the straight runs the walls make (edges that continue one another on one line)."""
    edges = {tuple(sorted(wall)) for wall in walls}
    seen, lengths = set(), []
    for edge in sorted(edges):
        if edge in seen:
            continue
        (row, col), (row2, col2) = edge
        step = (1, 0) if row == row2 else (0, 1)  # a vertical edge runs down the rows, a level one across
        length = 0
        while edge in edges:
            seen.add(edge)
            length += 1
            (row, col), (row2, col2) = edge
            edge = ((row + step[0], col + step[1]), (row2 + step[0], col2 + step[1]))
        lengths.append(length)
    return lengths


# --- drawn boards --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_random_hex_boards_are_read_in_odd_q(seed):
    rng = random.Random(seed)
    rows, cols = rng.randint(4, 8), rng.randint(4, 9)
    lines = random_hex_lines(rng, rows, cols, rng.randint(3, 6))
    side = rng.randint(24, 48)
    frame = draw_hexes(lines, side=side)
    reading = read_variant(frame)
    assert reading.kind == "hexes"
    # Rows count from the board's first: an all-'#' first row is not part of it (columns all keep cells).
    assert reading.lines == tuple(first_appearance(_trim(lines)))
    assert reading.walls == frozenset() and reading.warps == frozenset()
    assert reading.cell_size == pytest.approx(np.sqrt(3) * side, rel=0.03)
    top = next(r for r, line in enumerate(lines) if line.strip("#"))
    for (row, col), (x, y) in reading.centres.items():
        want = hex_centre(row + top, col, side, (30, 140))
        assert np.hypot(x - want[0], y - want[1]) <= 0.1 * side


def _trim(lines: list[str]) -> list[str]:
    """Drop leading and trailing rows with no cell (columns are kept: their parity matters)."""
    rows = [r for r, line in enumerate(lines) if line.strip("#")]
    return lines[rows[0] : rows[-1] + 1]


@pytest.mark.parametrize("seed", range(3))
def test_large_hex_boards_of_small_cells_survive_jpeg(seed):
    rng = random.Random(seed)
    lines = random_hex_lines(rng, rng.randint(12, 15), rng.randint(12, 15), rng.randint(10, 16))
    frame = decode_image(jpeg_bytes(draw_hexes(lines, side=rng.randint(16, 20)), quality=75))
    assert read_variant(frame).lines == tuple(first_appearance(_trim(lines)))


def test_hex_board_survives_jpeg_and_scaling():
    lines = ["#A#B#", "C...D", "....E", ".A.D.", ".CBE."]
    frame = draw_hexes(lines, side=36)
    again = decode_image(jpeg_bytes(cv2.resize(frame, None, fx=1.3, fy=1.3), quality=60))
    assert read_variant(again).lines == tuple(lines)


@pytest.mark.parametrize("side", [28, 44])
@pytest.mark.parametrize("hole", [(2, 2), (2, 3), (3, 2)])
def test_a_missing_cell_inside_a_hex_board_is_no_cell(side, hole):
    # All six sides of a missing cell are the board's outline, drawn thicker than the lines between cells.
    grid = [list(line) for line in ["#A#B#", "C...D", ".....", ".A.D.", ".CBE.", "..E.."]]
    grid[hole[0]][hole[1]] = "#"
    lines = ["".join(line) for line in grid]
    assert read_variant(draw_hexes(lines, side=side)).lines == tuple(lines)


def test_bridges_are_read_on_a_drawn_board():
    rng = random.Random(7)
    for _ in range(3):
        lines = random_square_lines(
            rng, rng.randint(5, 8), rng.randint(5, 8), rng.randint(3, 5), rng.randint(1, 3)
        )
        reading = read_variant(draw_square(lines, cell=rng.randint(40, 70)))
        assert reading.kind == "bridges"
        assert reading.lines == tuple(first_appearance(lines))


def test_bridges_side_by_side():
    lines = ["A.....", "..++..", "..++B.", "......", "A...B."]
    reading = read_variant(draw_square(lines, cell=36))
    assert (reading.kind, reading.lines) == ("bridges", tuple(lines))


def test_no_bridge_without_the_symbol():
    lines = ["A...B", ".....", "..C..", ".....", "A.C.B"]
    reading = read_variant(draw_square(lines))
    assert reading.kind == "square" and "+" not in "".join(reading.lines)


@pytest.mark.parametrize("seed", range(4))
def test_drawn_walls_are_found_exactly(seed):
    rng = random.Random(seed)
    rows, cols = rng.randint(5, 10), rng.randint(5, 10)
    lines = random_square_lines(rng, rows, cols, rng.randint(3, 6))
    pairs = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    walls = frozenset(frozenset(pair) for pair in rng.sample(pairs, rng.randint(1, len(pairs) // 4)))
    reading = read_variant(draw_square(lines, walls=walls, cell=rng.randint(36, 64)))
    assert reading.lines == tuple(first_appearance(lines))
    assert reading.walls == walls


def test_a_board_without_walls_has_none():
    lines = random_square_lines(random.Random(3), 7, 7, 5)
    assert read_variant(draw_square(lines)).walls == frozenset()


@pytest.mark.parametrize(
    "warps",
    [
        frozenset({("row", 2)}),
        frozenset({("col", 0), ("col", 4)}),
        frozenset({("row", 0), ("row", 5), ("col", 3)}),
    ],
)
def test_warps_are_openings_at_both_ends(warps):
    lines = ["A.....", "..B...", "......", "C..A..", "...B..", "C....."]
    reading = read_variant(draw_square(lines, warps=warps, cell=50))
    assert reading.kind == "warps"
    assert reading.warps == warps
    # The cells at the openings are cells: a dot there is read (A at row 0, col 0; C at row 5).
    assert reading.lines == tuple(lines)


@pytest.mark.parametrize("gap", [0.5, 0.8])
def test_a_narrower_opening_is_a_warp_too(gap):
    lines = ["A....", "..B..", ".....", "..B..", "A...."]
    warps = frozenset({("row", 4), ("col", 2)})
    reading = read_variant(draw_square(lines, warps=warps, cell=56, gap=gap))
    assert (reading.warps, reading.lines) == (warps, tuple(lines))


def test_warps_with_walls_and_bridges_together():
    lines = ["A.....", "......", "..+...", "...B..", "B.....", "A....."]
    walls = frozenset({frozenset({(1, 1), (1, 2)}), frozenset({(3, 4), (4, 4)})})
    warps = frozenset({("row", 5), ("col", 3)})
    reading = read_variant(draw_square(lines, walls=walls, warps=warps, cell=52))
    assert (reading.kind, reading.warps, reading.walls, reading.lines) == (
        "warps",
        warps,
        walls,
        tuple(lines),
    )


def test_a_corner_open_both_ways_is_a_cut_corner_not_two_warps():
    # A board with its corners cut looks, line for line, like one whose corner rows and columns all
    # warp with the corner cells open two ways: the corner is taken as cut (a known limit).
    lines = ["#A..#", "..B..", ".....", "..B..", "#A..#"]
    reading = read_variant(draw_square(lines, cell=50))
    assert (reading.warps, reading.lines) == (frozenset(), tuple(lines))


@pytest.mark.parametrize("gap", [0.5, 0.7])
def test_a_corner_cell_open_both_ways_with_the_outline_corner_drawn_is_two_warps(gap):
    # Narrower openings leave the outline's corner drawn: then it is no cut corner.
    lines = ["A....", "..B..", ".....", "..B..", "A...C", "C...."]
    warps = frozenset({("row", 0), ("col", 0), ("row", 4), ("col", 4)})
    reading = read_variant(draw_square(lines, warps=warps, cell=52, gap=gap))
    assert (reading.warps, reading.lines) == (warps, tuple(lines))


def test_a_square_board_beside_slanted_drawings_is_read():
    # Bright slanted lines above the board outweigh its dim grid in the frame's line directions.
    lines = ["A.....", "..B...", "......", "...A..", "......", "B....."]
    frame = draw_square(lines, cell=50, margin=(40, 260))
    for index in range(4):
        y = 20 + index * 28
        cv2.line(frame, (20, y), (220, y + 115), (200, 200, 200), 2, cv2.LINE_AA)
        cv2.line(frame, (380, y), (180, y + 115), (200, 200, 200), 2, cv2.LINE_AA)
    assert read_variant(frame).lines == tuple(lines)


def test_the_quick_look_for_warps_spares_boards_without_openings():
    from flowbot.capture.board import find_board
    from flowbot.capture.variants.warps import may_warp

    lines = ["A....", "..B..", ".....", "..B..", "A...."]
    cases = [(frozenset(), False), (frozenset({("row", 1)}), True), (frozenset({("col", 3)}), True)]
    for warps, expected in cases:
        frame = draw_square(lines, warps=warps, cell=50)
        assert may_warp(frame, find_board(frame).geometry) is expected


def test_an_opening_at_one_end_only_is_no_warp():
    lines = ["A....", "..B..", ".....", "..B..", "A...."]
    frame = draw_square(lines, cell=50)
    # Open the outline at the left end of row 2 only: that cell is a notch, not a warp.
    frame[120 + 2 * 50 + 3 : 120 + 3 * 50 - 3, 36:45] = 0
    reading = read_variant(frame)
    assert reading.warps == frozenset()
    assert reading.kind == "square"


def test_not_a_frame_is_refused():
    with pytest.raises(CaptureError, match="expected an"):
        read_variant(np.zeros((100, 100), dtype=np.uint8))


@pytest.mark.parametrize(
    ("name", "frame"),
    [
        ("noise", np.random.default_rng(1).integers(0, 256, (400, 300, 3), dtype=np.uint8)),
        ("black", np.zeros((600, 400, 3), dtype=np.uint8)),
        ("white", np.full((600, 400, 3), 255, dtype=np.uint8)),
        ("stripes", np.tile(np.repeat(np.array([0, 255], dtype=np.uint8), 3)[:, None, None], (100, 400, 3))),
        ("hexagons without dots", draw_hexes(["#.#.#", ".....", ".....", ".....", "....."], side=40)),
    ],
)
def test_not_a_board_is_refused(name, frame):
    with pytest.raises(CaptureError):
        read_variant(frame)


def test_reading_is_plain_frozen_data():
    reading = read_variant(draw_hexes(["#A#B#", "C...D", "....E", ".A.D.", ".CBE."], side=40))
    assert isinstance(reading, VariantReading)
    with pytest.raises(AttributeError):
        reading.kind = "square"  # type: ignore[misc]
    assert set(reading.centres) == {
        (r, c) for r, line in enumerate(reading.lines) for c, ch in enumerate(line) if ch != "#"
    }


def test_the_overlay_draws_walls_where_they_were_read():
    lines = ["A....", ".....", "..B..", ".....", "A...B"]
    walls = frozenset({frozenset({(1, 1), (1, 2)})})
    frame = draw_square(lines, walls=walls, cell=50, margin=(40, 120))
    picture = draw_reading(frame, read_variant(frame))
    assert picture.shape == frame.shape
    blue, green, red = (int(v) for v in picture[120 + 75, 40 + 100])  # the wall's middle
    assert (blue, green, red) == (0, 0, 255)
    assert tuple(int(v) for v in picture[120 + 75, 40 + 150]) != (0, 0, 255)  # a grid line, no wall


# --- real screenshots ----------------------------------------------------------------------------

HEXES = [
    "ludovicb1239__FlowShapesSolver__1.PNG",
    "ludovicb1239__FlowShapesSolver__4.jpg",
    "samgoldman__FlowSolver__Classic5x5_1_annotated-28a92bc.jpg",
]


@pytest.mark.parametrize("name", HEXES)
def test_real_hexes_are_read_exactly(name):
    reading = read_variant(_frame(name))
    assert reading.kind == "hexes"
    assert list(reading.lines) == _truth(name.rsplit(".", 1)[0] + ".truth.txt")
    assert len(reading.centres) == sum(len(line) - line.count("#") for line in reading.lines)


def test_real_bridges_board_is_read_exactly():
    name = "saltthehash__FlowSolver__bridges_example.png"
    reading = read_variant(_frame(name))
    assert reading.kind == "bridges"
    assert list(reading.lines) == _truth("saltthehash__FlowSolver__bridges_example.truth.txt")


# Walls seen on the real boards, checked on an overlay of the walls found drawn over the screenshot:
# open rectangles inside one another, in 12 straight runs each. "x=3 rows 1-5" is a wall on the
# grid line left of column 3 (lines counted from 0 at the board's left edge) beside rows 1 to 5;
# "y=2 cols 3-6" one on the line above row 2, over columns 3 to 6.
WALLS = {
    "original6": "y=1 cols 1-1; y=1 cols 3-7; x=1 rows 1-5; y=2 cols 3-6; x=8 rows 1-1; x=2 rows 2-5; "
    "x=7 rows 3-6; x=8 rows 3-7; y=7 cols 2-5; x=1 rows 7-7; y=8 cols 1-5; y=8 cols 7-7",
    "original7": "y=1 cols 2-11; x=1 rows 1-10; y=2 cols 2-4; y=2 cols 6-10; x=2 rows 2-6; x=11 rows 2-4; "
    "x=12 rows 2-11; x=11 rows 6-10; x=2 rows 8-10; y=11 cols 2-6; y=11 cols 8-10; y=12 cols 1-10",
}


def _walls_of(runs: str) -> frozenset:
    """The wall edges that runs written as in WALLS stand for."""
    walls = set()
    for run in runs.split("; "):
        line, _, span = run.split(" ")
        axis, position = line.split("=")
        first, last = (int(value) for value in span.split("-"))
        for index in range(first, last + 1):
            if axis == "x":
                walls.add(frozenset({(index, int(position) - 1), (index, int(position))}))
            else:
                walls.add(frozenset({(int(position) - 1, index), (int(position), index)}))
    return frozenset(walls)


@pytest.mark.parametrize("stem", sorted(WALLS))
def test_real_walls_are_found_on_grid_edges(stem):
    name = f"ludovicb1239__FlowShapesSolver__{stem}"
    reading = read_variant(_frame(name + ".png"))
    assert reading.kind == "square"
    assert list(reading.lines) == _truth(name + ".truth.txt")
    assert len(reading.walls) == {"original6": 40, "original7": 72}[stem]
    for wall in reading.walls:
        first, second = sorted(wall)
        # Every wall lies on a grid edge between two neighbouring cells of the board.
        assert abs(first[0] - second[0]) + abs(first[1] - second[1]) == 1
        assert all(0 <= row < reading.rows and 0 <= col < reading.cols for row, col in wall)
    # The walls make the straight runs seen, not scattered edges (a dot's rim or a glow would).
    assert len(_runs(reading.walls)) == 12
    assert reading.walls == _walls_of(WALLS[stem])


def _other_sizes(frame: np.ndarray):
    """The same screenshot as other devices and apps would give it: recompressed, larger, smaller."""
    yield "jpeg-50", decode_image(jpeg_bytes(frame, quality=50))
    yield "scaled-1.5", cv2.resize(frame, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_LINEAR)
    yield "scaled-0.75", cv2.resize(frame, None, fx=0.75, fy=0.75, interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize(
    "name",
    [*HEXES, "saltthehash__FlowSolver__bridges_example.png", "ludovicb1239__FlowShapesSolver__original7.png"],
)
def test_real_variants_read_alike_at_other_sizes_and_qualities(name):
    frame = _frame(name)
    first = read_variant(frame)
    for how, other in _other_sizes(frame):
        again = read_variant(other)
        assert (again.kind, again.lines, again.walls) == (first.kind, first.lines, first.walls), how


def _manifest_names() -> dict[str, dict[str, str]]:
    """The colour names the variants' MANIFEST.md gives for each truth file's letters."""
    manifest = VARIANTS / "MANIFEST.md"
    if not manifest.exists():
        return {}
    names = {}
    for line in manifest.read_text().splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) > 11 and cells[11].endswith(".truth.txt"):
            names[cells[1]] = dict(re.findall(r"([A-P])=([a-z ]+?)(?=[,)])", cells[9]))
    return names


MANIFEST_NAMES = _manifest_names()


@pytest.mark.parametrize("name", sorted(MANIFEST_NAMES) or ["(no manifest)"])
def test_colour_names_match_the_manifest(name):
    if name not in MANIFEST_NAMES:
        pytest.skip("../shared/screenshots/variants is not present")
    reading = read_variant(_frame(name))
    assert dict(zip("ABCDEFGHIJKLMNOP", reading.names, strict=False)) == MANIFEST_NAMES[name]


SHAPES = {
    "ludovicb1239__FlowShapesSolver__11.jpg": "rings",
    "ludovicb1239__FlowShapesSolver__7.jpg": "cube",
    "ludovicb1239__FlowShapesSolver__8.jpg": "cube",
    "ludovicb1239__FlowShapesSolver__9.jpg": "cube",
    "ludovicb1239__FlowShapesSolver__original3.png": "cube",
    "ludovicb1239__FlowShapesSolver__original4.png": "cube",
    "ludovicb1239__FlowShapesSolver__original5.png": "cube",
    "ludovicb1239__FlowShapesSolver__original8.png": "mixed with hexagons",
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shapes_boards_are_refused_by_name(name):
    with pytest.raises(CaptureError, match=f"Shapes board.*{SHAPES[name]}.*cannot read it yet"):
        read_variant(_frame(name))


def _classic() -> list[tuple[Path, Path]]:
    """The classic screenshots with a truth board beside them."""
    folder = SHARED / "screenshots"
    if not folder.is_dir():
        return []
    pairs = []
    for truth in sorted(folder.glob("*.truth.txt")):
        stem = truth.name.removesuffix(".truth.txt")
        image = next(path for path in folder.glob(stem + ".*") if not path.name.endswith(".txt"))
        pairs.append((image, truth))
    return pairs


CLASSIC = _classic()


@pytest.mark.parametrize(("image", "truth"), CLASSIC, ids=[image.name for image, _ in CLASSIC])
def test_classic_screenshots_read_as_plain_square_boards(image, truth):
    reading = read_variant(decode_image(image.read_bytes()))
    assert (reading.kind, reading.walls, reading.warps) == ("square", frozenset(), frozenset())
    assert list(reading.lines) == truth.read_text().split()


@pytest.mark.parametrize(("image", "truth"), CLASSIC, ids=[image.name for image, _ in CLASSIC])
def test_classic_screenshots_at_half_size_show_no_walls(image, truth):
    # Halving spreads a thin grid line over two pixels at half brightness, or not, by where it fell:
    # two brightnesses of line that must not pass for walls.
    frame = decode_image(image.read_bytes())
    if min(frame.shape[:2]) < 600:
        pytest.skip("halving a small image leaves no board worth reading")
    reading = read_variant(cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
    assert (reading.kind, reading.walls, reading.warps) == ("square", frozenset(), frozenset())
    assert list(reading.lines) == truth.read_text().split()
