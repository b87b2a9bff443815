"""Reading boards from images: synthetic boards drawn here, damaged files, and every real screenshot."""

from __future__ import annotations

import random
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from flowbot.capture.board import find_board
from flowbot.capture.image import decode_image
from flowbot.capture.read import read_puzzle
from flowbot.errors import CaptureError, FlowbotError, InputFileError
from flowbot.loader import read_entries
from flowbot.model import PALETTE, Puzzle
from flowbot.palette import PALETTES
from flowbot.solve.sat import solve
from tests.boards import canonical, snake_board
from tests.conftest import SHARED
from tests.images import draw_board, jpeg_bytes, png_bytes

SIXTEEN = Puzzle.from_rows(
    [
        "ABCDEFGH",
        "........",
        "IJKLMNOP",
        "........",
        "ABCDEFGH",
        "IJKLMNOP",
    ]
)
SHAPED = Puzzle.from_rows(["#A..#", "B...#", "C....", "DC.B.", "..D#A"])


def test_grid_size_and_position_come_from_the_image():
    puzzle = snake_board(random.Random(3), 7, 9, max_walls=0)
    frame = draw_board(puzzle, cell=40, margin=(30, 150))
    board = find_board(frame)
    assert (board.rows, board.cols) == (7, 9)
    assert board.holes == frozenset()
    assert board.geometry.xs[0] == pytest.approx(30, abs=2)
    assert board.geometry.ys[-1] == pytest.approx(150 + 7 * 40, abs=2)
    assert board.geometry.center((0, 0)) == pytest.approx((50, 170), abs=2)


@pytest.mark.parametrize(
    "line_rgb", [(70, 110, 70), (120, 90, 40), (160, 70, 120), (90, 90, 90), (50, 60, 140)]
)
@pytest.mark.parametrize("palette", ["current", "legacy", "muted"])
def test_every_colour_is_grouped_and_named(line_rgb, palette):
    frame = draw_board(SIXTEEN, cell=44, line_rgb=line_rgb, palette=palette)
    reading = read_puzzle(frame)
    assert reading.puzzle.to_rows() == SIXTEEN.to_rows()
    assert [color.name for color in reading.puzzle.colors] == list(PALETTE)


def test_holes_of_a_shaped_board():
    reading = read_puzzle(draw_board(SHAPED, cell=50))
    assert reading.puzzle.to_rows() == SHAPED.to_rows()
    assert solve(reading.puzzle).status == "solved"


@pytest.mark.parametrize("seed", range(6))
def test_random_boards_survive_jpeg(seed):
    rng = random.Random(seed)
    puzzle = snake_board(rng, rng.randint(5, 12), rng.randint(5, 12), max_walls=0)
    if len(puzzle.colors) > 16:
        pytest.skip("more colours than the palette has")
    frame = draw_board(puzzle, cell=rng.randint(30, 70))
    again = decode_image(jpeg_bytes(frame, quality=70))
    assert read_puzzle(again).puzzle.to_rows() == canonical(puzzle.to_rows())


def test_board_only_crop_with_outer_lines_cut_off():
    frame = draw_board(SIXTEEN, cell=50, margin=(0, 0), hud=False)
    cropped = frame[3:-3, 3:-3]  # the outer grid lines are gone
    assert read_puzzle(np.ascontiguousarray(cropped)).puzzle.to_rows() == SIXTEEN.to_rows()


def test_missing_partner_is_rejected_with_the_colour_and_place():
    frame = draw_board(SIXTEEN, cell=44)
    board = find_board(frame)
    x, y = board.geometry.center((5, 7))  # one of the two 'P' dots
    frame[int(y) - 20 : int(y) + 20, int(x) - 20 : int(x) + 20] = 0
    with pytest.raises(CaptureError, match=r"colour #[0-9a-f]{6} has 1 endpoint \(row 3, col 8\)"):
        read_puzzle(frame)


def test_third_dot_of_a_colour_is_rejected():
    frame = draw_board(SIXTEEN, cell=44)
    geometry = find_board(frame).geometry
    x, y = geometry.center((1, 0))  # an empty cell gets a third red dot
    red, green, blue = PALETTES["current"][0]
    cv2.circle(frame, (round(x), round(y)), 15, (blue, green, red), -1, cv2.LINE_AA)
    with pytest.raises(CaptureError, match=r"has 3 endpoints \(row 1, col 1; row 2, col 1; row 5, col 1\)"):
        read_puzzle(frame)


@pytest.mark.parametrize(
    ("name", "frame"),
    [
        ("noise", np.random.default_rng(1).integers(0, 256, (600, 400, 3), dtype=np.uint8)),
        ("black", np.zeros((600, 400, 3), dtype=np.uint8)),
        ("white", np.full((600, 400, 3), 255, dtype=np.uint8)),
        ("stripes", np.tile(np.repeat(np.array([0, 255], dtype=np.uint8), 3)[:, None, None], (100, 400, 3))),
    ],
)
def test_not_a_board_is_rejected(name, frame):
    with pytest.raises(CaptureError):
        read_puzzle(frame)


def test_damaged_files_are_rejected(tmp_path):
    frame = draw_board(SIXTEEN)
    cases = {
        "cut.png": (png_bytes(frame)[:5000], "truncated"),
        "cut.jpg": (jpeg_bytes(frame)[:3000], "truncated"),
        "tiny.png": (png_bytes(frame[:40, :40]), "too small"),
        "junk.png": (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4 + b"IEND", "cannot be decoded"),
        "random.png": (bytes(random.Random(2).randrange(256) for _ in range(4000)), "not a text file"),
    }
    for name, (data, problem) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(FlowbotError) as caught:
            read_entries(path)
        assert str(path) in str(caught.value) and problem in str(caught.value), name
    assert isinstance(caught.value, InputFileError)


def test_read_entries_records_the_image_as_source(tmp_path):
    path = tmp_path / "shot.png"
    path.write_bytes(png_bytes(draw_board(SHAPED, cell=50)))
    (entry,) = read_entries(path)
    source = entry.puzzle.source
    assert (source.kind, source.format) == ("image", "png")
    assert source.details["image"] == "shot.png"
    assert (source.details["width"], source.details["height"]) == (330, 490)
    assert len(source.details["grid"]["xs"]) == 6


def _screenshots() -> list[tuple[Path, Path]]:
    """Every real screenshot that has a truth board beside it."""
    folder = SHARED / "screenshots"
    pairs = []
    for truth in sorted(folder.glob("*.truth.txt")):
        stem = truth.name.removesuffix(".truth.txt")
        image = next(path for path in folder.glob(stem + ".*") if not path.name.endswith(".txt"))
        pairs.append((image, truth))
    return pairs


SCREENSHOTS = _screenshots() if (SHARED / "screenshots").is_dir() else []


@pytest.mark.parametrize(("image", "truth"), SCREENSHOTS, ids=[image.name for image, _ in SCREENSHOTS])
def test_real_screenshot_is_read_exactly_and_solved(image, truth):
    (entry,) = read_entries(image)
    assert entry.puzzle.to_rows() == truth.read_text().split()
    result = solve(entry.puzzle)
    assert result.status == "solved" and result.strict


def test_screenshot_corpus_is_present_or_skipped():
    if not SCREENSHOTS:
        pytest.skip("../shared/screenshots is not present")
    assert len(SCREENSHOTS) == 52


def _variants(frame: np.ndarray):
    """The same screenshot as other devices and apps would give it: recompressed, larger, smaller."""
    yield (
        "jpeg-50",
        cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 50])[1], cv2.IMREAD_COLOR),
    )
    yield "scaled-1.5", cv2.resize(frame, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_LINEAR)
    if min(frame.shape[:2]) >= 600:  # halving a small image leaves no board worth reading
        yield "scaled-0.5", cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize(("image", "truth"), SCREENSHOTS, ids=[image.name for image, _ in SCREENSHOTS])
def test_real_screenshot_read_at_other_sizes_and_qualities(image, truth):
    frame = decode_image(image.read_bytes())
    for name, variant in _variants(frame):
        assert read_puzzle(variant).puzzle.to_rows() == truth.read_text().split(), name


def _manifest_names() -> dict[str, dict[str, str]]:
    """The colour names MANIFEST.md gives for each screenshot's truth letters."""
    manifest = SHARED / "screenshots" / "MANIFEST.md"
    if not manifest.exists():
        return {}
    names = {}
    for line in manifest.read_text().splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) > 11 and cells[11].endswith(".truth.txt"):
            names[cells[1]] = dict(re.findall(r"([A-P])=([a-z ]+?)(?=[,)])", cells[9]))
    return names


MANIFEST_NAMES = _manifest_names()


@pytest.mark.parametrize("image", sorted(MANIFEST_NAMES) or ["(no manifest)"])
def test_colour_names_match_the_manifest(image):
    if image not in MANIFEST_NAMES:
        pytest.skip("../shared/screenshots is not present")
    (entry,) = read_entries(SHARED / "screenshots" / image)
    assert {color.label: color.name for color in entry.puzzle.colors} == MANIFEST_NAMES[image]


def test_a_toolbar_near_the_frame_edge_is_not_a_board_row():
    # A small frame: the board starts 36 px down, above it a toolbar whose separators sit on the
    # grid's columns; the frame edge lies 8 px above the toolbar's bottom line.
    puzzle = snake_board(random.Random(5), 8, 8, max_walls=0)
    frame = draw_board(puzzle, cell=28, margin=(20, 36), hud=False)
    for col in range(puzzle.cols + 1):
        frame[12:34, 20 + col * 28 - 1 : 20 + col * 28 + 1] = (70, 110, 70)
    frame[12, 20 : 20 + 28 * puzzle.cols] = (70, 110, 70)
    reading = read_puzzle(frame)
    assert reading.puzzle.to_rows() == canonical(puzzle.to_rows())
