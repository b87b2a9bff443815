"""Boards of any cell shape read as a graph of cells: boards drawn here, and the real Shapes
screenshots against their truth files (tests/data/shapes; skipped without ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from flowbot.capture.image import decode_image
from flowbot.capture.screenshot import read_screenshot
from flowbot.capture.shapes import ShapeReading, read_shapes
from flowbot.capture.shapes.overlay import draw_shapes
from flowbot.capture.shapes.truth import (
    ShapesTruth,
    differences,
    read_truth,
    truth_of,
    truth_path,
    write_truth,
)
from flowbot.errors import CaptureError, FormatError, PuzzleError
from flowbot.model import Puzzle
from flowbot.solve.check import check_paths
from flowbot.solve.sat import solve
from tests.conftest import SHARED
from tests.variant_images import draw_hexes, draw_square

VARIANTS = SHARED / "screenshots" / "variants"
TRUTHS = Path(__file__).resolve().parent / "data" / "shapes"
OUTLINE, LINE = (140, 140, 250), (60, 70, 110)  # BGR: a pink outline, brown thin lines


def draw_rings(sectors: int = 8, dots: dict[int, tuple[int, int, int]] | None = None) -> np.ndarray:
    """A ring board as the game draws one: two rings of `sectors` curved cells round a hole, a thick
    outline outside and round the hole, thin borders; `dots` maps a cell (inner ring first, from the
    right going clockwise in the picture) to a dot's BGR colour."""
    frame = np.zeros((600, 600, 3), dtype=np.uint8)
    centre, radii = (300, 300), (80, 160, 240)
    for step in range(sectors):
        angle = np.radians(360 * step / sectors)
        inner = (centre[0] + radii[0] * np.cos(angle), centre[1] + radii[0] * np.sin(angle))
        outer = (centre[0] + radii[2] * np.cos(angle), centre[1] + radii[2] * np.sin(angle))
        cv2.line(frame, _at(*inner), _at(*outer), LINE, 2, cv2.LINE_AA)
    cv2.circle(frame, centre, radii[1], LINE, 2, cv2.LINE_AA)
    cv2.circle(frame, centre, radii[0], OUTLINE, 7, cv2.LINE_AA)
    cv2.circle(frame, centre, radii[2], OUTLINE, 7, cv2.LINE_AA)
    for cell, colour in (dots or {}).items():
        ring, step = divmod(cell, sectors)
        angle = np.radians(360 * (step + 0.5) / sectors)
        radius = (radii[ring] + radii[ring + 1]) / 2
        spot = _at(centre[0] + radius * np.cos(angle), centre[1] + radius * np.sin(angle))
        cv2.circle(frame, spot, 24 + 4 * ring, colour, -1, cv2.LINE_AA)
    return frame


def _at(x: float, y: float) -> tuple[int, int]:
    """A pixel OpenCV draws at."""
    return round(x), round(y)


RED, BLUE = (0, 0, 255), (255, 60, 20)


def _cell_near(reading: ShapeReading, x: float, y: float) -> int:
    """The read cell whose middle is nearest (x, y)."""
    return int(np.argmin([np.hypot(cx - x, cy - y) for cx, cy in reading.centres]))


# --- boards drawn here -----------------------------------------------------------------------------


def test_a_ring_board_reads_as_its_curved_cells_round_the_hole():
    reading = read_shapes(draw_rings(dots={0: RED, 5: RED, 10: BLUE, 13: BLUE}))
    assert len(reading.cells) == 16  # the hole in the middle is no cell
    degrees = sorted(len(reading.around(index)) for index in range(16))
    assert degrees == [3] * 16  # two round the ring, one across to the other ring
    assert len(reading.neighbours) == 24
    assert sorted(reading.letters.replace(".", "")) == ["A", "A", "B", "B"]


def test_cells_that_meet_at_a_corner_are_not_neighbours():
    reading = read_shapes(draw_rings(dots={0: RED, 5: RED, 10: BLUE, 13: BLUE}))
    # Inner sector 0 (from 0 to 45 degrees) and outer sector 1 (45 to 90) touch at one point only.
    inner = _cell_near(reading, 300 + 120 * np.cos(np.radians(22.5)), 300 + 120 * np.sin(np.radians(22.5)))
    outer = _cell_near(reading, 300 + 200 * np.cos(np.radians(67.5)), 300 + 200 * np.sin(np.radians(67.5)))
    assert outer not in reading.around(inner)
    # ...while the sectors either side of a radial line are.
    across = _cell_near(reading, 300 + 120 * np.cos(np.radians(67.5)), 300 + 120 * np.sin(np.radians(67.5)))
    assert across in reading.around(inner)


def test_cells_across_the_hole_are_not_neighbours():
    reading = read_shapes(draw_rings(dots={0: RED, 5: RED, 10: BLUE, 13: BLUE}))
    right = _cell_near(reading, 420, 300 - 20)
    left = _cell_near(reading, 180, 300 + 20)
    assert left not in reading.around(right)


def test_each_cell_keeps_its_outline_round_its_middle():
    reading = read_shapes(draw_rings(dots={0: RED, 5: RED, 10: BLUE, 13: BLUE}))
    for cell in reading.cells:
        contour = cell.outline.astype(np.float32).reshape(-1, 1, 2)
        assert cv2.pointPolygonTest(contour, cell.centre, False) >= 0
        assert cv2.contourArea(contour) > 0.5 * reading.cell_size**2


def test_a_ring_board_solves_through_its_links():
    reading = read_shapes(draw_rings(dots={0: RED, 2: RED, 8: BLUE, 12: BLUE}))
    puzzle = Puzzle.from_shapes(reading.letters, reading.neighbours)
    assert puzzle.kind == "shapes" and puzzle.is_graph
    result = solve(puzzle)
    assert result.status == "solved"
    assert check_paths(puzzle, result.solution.paths) == []


def test_dots_that_do_not_pair_are_refused():
    with pytest.raises(CaptureError, match=r"has 1 endpoint \(cell \d+\)"):
        read_shapes(draw_rings(dots={0: RED, 5: RED, 10: BLUE}))


@pytest.mark.parametrize(
    ("name", "frame"),
    [
        ("noise", np.random.default_rng(1).integers(0, 256, (400, 300, 3), dtype=np.uint8)),
        ("black", np.zeros((600, 400, 3), dtype=np.uint8)),
        ("white", np.full((600, 400, 3), 255, dtype=np.uint8)),
        ("rings without dots", draw_rings()),
    ],
)
def test_what_is_no_board_is_refused(name, frame):
    with pytest.raises(CaptureError):
        read_shapes(frame)


def test_not_a_frame_is_refused():
    with pytest.raises(CaptureError, match="expected an"):
        read_shapes(np.zeros((100, 100), dtype=np.uint8))


def test_the_overlay_outlines_the_cells_read():
    frame = draw_rings(dots={0: RED, 5: RED, 10: BLUE, 13: BLUE})
    picture = draw_shapes(frame, read_shapes(frame))
    assert picture.shape == frame.shape
    assert (picture != frame // 2).any()


# --- the truth format ------------------------------------------------------------------------------


def test_a_truth_written_from_a_reading_reads_back_and_matches_it():
    reading = read_shapes(draw_rings(dots={0: RED, 5: RED, 10: BLUE, 13: BLUE}))
    truth = read_truth(write_truth(truth_of(reading)))
    assert truth == truth_of(reading)
    assert differences(truth, reading) == []


def test_a_truth_tells_each_difference_from_a_reading():
    reading = read_shapes(draw_rings(dots={0: RED, 5: RED, 10: BLUE, 13: BLUE}))
    truth = truth_of(reading)
    a, b = sorted(truth.neighbours)[0]
    fewer = truth.__class__(truth.centres, truth.letters, truth.neighbours - {(a, b)})
    assert differences(fewer, reading) == [f"cells {a} and {b} are read as neighbours, but are not"]
    moved = truth.__class__(((0.0, 0.0), *truth.centres[1:]), truth.letters, truth.neighbours)
    assert "has no read cell near it" in differences(moved, reading)[0]
    swapped = truth.letters.replace("A", "x").replace("B", "A").replace("x", "B")
    assert differences(truth.__class__(truth.centres, swapped, truth.neighbours), reading) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0 1 2 .\n", "starts with"),
        ("shapes: 2 cells\n0 1 2 A 1\n1 3 4 .\n", "not the other way"),
        ("shapes: 2 cells\n0 1 2 A 1\n1 3 4 . 0\n", "marks 1 cells"),
        ("shapes: 1 cells\n0 x 2 .\n", "line 2"),
        ("shapes: 2 cells\n1 1 2 .\n", "cell 0"),
    ],
)
def test_a_wrong_truth_is_refused_naming_the_trouble(text, message):
    with pytest.raises(FormatError, match=message):
        read_truth(text)


def test_a_shapes_board_links_only_its_own_pairs():
    puzzle = Puzzle.from_shapes("A.A", [(0, 1), (1, 2)])
    assert puzzle.neighbors((0, 1)) == [(0, 0), (0, 2)]
    assert not puzzle.linked((0, 0), (0, 2))
    with pytest.raises(PuzzleError, match="does not join"):
        Puzzle.from_shapes("A.A", [(0, 3)])


# --- the real Shapes screenshots -------------------------------------------------------------------

TRUTH_FILES = sorted(TRUTHS.glob("*.shapes.txt"))


def _image_of(truth: Path) -> Path:
    """The screenshot a truth file is the truth of, or skip when ../shared is absent."""
    stem = truth.name.removesuffix(".shapes.txt")
    images = [path for path in VARIANTS.glob(stem + ".*") if path.suffix.lower() in (".png", ".jpg", ".jpeg")]
    if not images:
        pytest.skip("../shared/screenshots/variants is not present")
    return images[0]


def test_every_shapes_screenshot_has_a_truth():
    if not VARIANTS.is_dir():
        pytest.skip("../shared/screenshots/variants is not present")
    images = [path for path in VARIANTS.iterdir() if path.suffix.lower() in (".png", ".jpg", ".jpeg")]
    shapes = [path for path in images if not path.with_name(path.stem + ".truth.txt").exists()]
    assert len(shapes) >= 8
    assert [path.name for path in shapes if not truth_path(TRUTHS, path).exists()] == []


@pytest.mark.parametrize("truth", TRUTH_FILES, ids=lambda path: path.name.split("__")[-1])
def test_a_shapes_screenshot_reads_as_its_truth_and_solves(truth):
    frame = decode_image(_image_of(truth).read_bytes())
    reading = read_screenshot(frame)
    assert reading.shapes is not None and reading.puzzle.kind == "shapes"
    assert differences(read_truth(truth.read_text()), reading.shapes) == []
    result = solve(reading.puzzle)
    assert result.status == "solved"
    assert check_paths(reading.puzzle, result.solution.paths) == []


def test_a_solved_shapes_board_prints_each_path_by_its_cells_numbers():
    from flowbot.render import PLAIN, render_puzzle, render_solution

    puzzle = Puzzle.from_shapes("A.AB.B", [(0, 1), (1, 2), (3, 4), (4, 5), (2, 3)])
    assert render_puzzle(puzzle, PLAIN) == "A: 0 ... 2\nB: 3 ... 5"
    assert render_solution(solve(puzzle).solution, PLAIN) == "A: 0 - 1 - 2\nB: 3 - 4 - 5"


def test_a_board_of_curved_cells_the_other_readers_cannot_read_goes_to_the_shapes_reader():
    frame = draw_rings(dots={0: RED, 5: RED, 10: BLUE, 13: BLUE})
    reading = read_screenshot(frame)
    assert reading.puzzle.kind == "shapes" and reading.puzzle.cell_count == 16


def test_a_picture_that_is_no_board_still_says_so():
    frame = np.zeros((600, 400, 3), dtype=np.uint8)
    with pytest.raises(CaptureError, match="no board"):
        read_screenshot(frame)


def test_a_picture_busy_all_over_is_never_called_a_shapes_board():
    from flowbot.capture.variants import read_variant
    from flowbot.capture.variants.shapes import CROWDED, line_cover, line_directions, unreadable_kind

    # Noise (as a photo's leaves or bricks) passes for lines in every direction, slanted ones too.
    frame = np.random.default_rng(1).integers(0, 256, (600, 400, 3), dtype=np.uint8)
    assert line_cover(frame) > CROWDED
    assert unreadable_kind(line_directions(frame), line_cover(frame)) is None
    with pytest.raises(CaptureError) as refused:
        read_variant(frame)  # the reader that names the kinds `read_screenshot` refuses by name
    assert "Shapes board" not in str(refused.value)
    # A real Shapes board's lines leave most of the page plain: still named by its kind.
    if not VARIANTS.is_dir():
        pytest.skip("../shared/screenshots/variants is not present")
    cube = decode_image((VARIANTS / "ludovicb1239__FlowShapesSolver__7.jpg").read_bytes())
    assert line_cover(cube) < CROWDED / 2
    assert "isometric cube" in unreadable_kind(line_directions(cube), line_cover(cube))


@pytest.mark.parametrize("truth", TRUTH_FILES, ids=lambda path: path.name.split("__")[-1])
@pytest.mark.parametrize("scale", [0.7, 1.4])
def test_a_shapes_screenshot_rescaled_and_recompressed_reads_the_same(truth, scale):
    frame = decode_image(_image_of(truth).read_bytes())
    shrink = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=shrink)
    frame = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 75])[1], cv2.IMREAD_COLOR)
    known = read_truth(truth.read_text())
    moved = tuple(((x + 0.5) * scale - 0.5, (y + 0.5) * scale - 0.5) for x, y in known.centres)
    assert differences(ShapesTruth(moved, known.letters, known.neighbours), read_shapes(frame)) == []


# --- Shapes boards as puzzle files ---------------------------------------------------------------


def test_a_shapes_board_saved_as_flowbot_json_reads_back_the_same():
    from flowbot.formats import puzzle_from_json, puzzle_to_json

    puzzle = Puzzle.from_shapes("A.AB.B", [(0, 1), (1, 2), (3, 4), (4, 5), (2, 3)], {"A": "red", "B": None})
    data = json.loads(json.dumps(puzzle_to_json(puzzle)))
    assert data["kind"] == "shapes" and data["links"] == [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]]
    again = puzzle_from_json(data)
    assert again == puzzle and again.links() == puzzle.links()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"links": [[0, 9]]}, "does not join"),
        ({"links": [[0, "1"]]}, "whole numbers"),
        ({"grid": ["A.", "A."], "rows": 2, "cols": 2}, "one row"),
        ({"warps": [["row", 0]]}, "not for shapes"),
    ],
)
def test_a_wrong_shapes_board_file_is_refused(change, message):
    from flowbot.formats import puzzle_from_json, puzzle_to_json

    data = puzzle_to_json(Puzzle.from_shapes("A.A", [(0, 1), (1, 2)])) | change
    with pytest.raises(FormatError, match=message):
        puzzle_from_json(data)


def test_convert_saves_a_shapes_board_as_json_and_points_only_there(tmp_path, capsys):
    from flowbot.cli import main
    from flowbot.formats import puzzle_json_text
    from flowbot.loader import load_puzzles

    puzzle = Puzzle.from_shapes("A.AB.B", [(0, 1), (1, 2), (3, 4), (4, 5), (2, 3)], {"A": "red", "B": None})
    saved = tmp_path / "ring.json"
    saved.write_text(puzzle_json_text(puzzle))
    assert main(["convert", str(saved), "--to", "json", "--out", str(tmp_path / "again")]) == 0
    [again] = load_puzzles(tmp_path / "again" / "ring.json")
    assert again == puzzle and again.links() == puzzle.links()
    capsys.readouterr()
    # A text grid cannot hold it, and neither can format E: the refusal names the one format that can.
    assert main(["convert", str(saved), "--to", "grid", "--out", str(tmp_path / "grid")]) == 2
    error = capsys.readouterr().err
    assert "shapes board" in error and "convert --to json" in error
    assert "convert --to graph" not in error


def test_format_e_refuses_a_shapes_board_it_cannot_draw():
    from flowbot.graph_text import graph_text

    with pytest.raises(FormatError, match="format E draws only lattices"):
        graph_text(Puzzle.from_shapes("A.A", [(0, 1), (1, 2)]))


# --- one result type for every board ---------------------------------------------------------------


def _graph_is_whole(graph: ShapeReading, puzzle: Puzzle) -> None:
    """Every cell of the puzzle once, with a polygon round its middle; the links, the letters."""
    assert sorted(graph.key(index) for index in range(len(graph.cells))) == sorted(puzzle.cells())
    for cell in graph.cells:
        polygon = cell.outline.astype(np.float32).reshape(-1, 1, 2)
        assert cv2.pointPolygonTest(polygon, cell.centre, False) > 0
    number = {graph.key(index): index for index in range(len(graph.cells))}
    links = {tuple(sorted((number[a], number[b]))) for a, b in puzzle.links()}
    assert graph.neighbours == links
    rows = puzzle.to_rows()
    assert graph.letters == "".join(rows[row][col] for row, col in map(graph.key, range(len(graph.cells))))


@pytest.mark.parametrize(
    "frame",
    [
        pytest.param(lambda: draw_square(["A...B", ".....", "..C..", ".....", "A.C.B"]), id="square"),
        pytest.param(lambda: draw_hexes(["#A#B#", "C...D", "....E", ".A.D.", ".CBE."], side=40), id="hexes"),
        pytest.param(lambda: draw_rings(dots={0: RED, 5: RED, 10: BLUE, 13: BLUE}), id="shapes"),
    ],
)
def test_every_board_reads_as_one_type_a_graph_of_cells_with_outlines(frame):
    from flowbot.capture.screenshot import graph_of

    reading = read_screenshot(frame())
    _graph_is_whole(graph_of(reading), reading.puzzle)


def test_a_bent_cell_has_its_middle_inside_it():
    from flowbot.capture.shapes.lines import BoardLines
    from flowbot.capture.shapes.regions import cell_regions

    # A C-shaped cell round a square one, and a bar beside them cut in two.
    lines = np.zeros((500, 500), dtype=np.uint8)
    for (x0, y0), (x1, y1) in [((100, 100), (300, 400)), ((150, 200), (300, 300)), ((300, 250), (400, 250))]:
        cv2.rectangle(lines, (x0, y0), (x1, y1), 1, 2)
    outline = np.zeros_like(lines)
    cv2.rectangle(outline, (100, 100), (400, 400), 1, 7)
    inside = np.zeros_like(lines)
    cv2.rectangle(inside, (97, 97), (403, 403), 1, -1)
    regions = cell_regions(
        BoardLines((lines | outline).astype(bool), outline.astype(bool), inside.astype(bool))
    )
    assert regions.count == 4
    for index, (x, y) in enumerate(regions.centres):
        assert regions.labels[round(y), round(x)] == index + 1
    # The C's centroid lies in the square it goes round: its middle is in one of its arms instead.
    bent = int(np.argmax(regions.areas))
    assert not (150 <= regions.centres[bent][0] <= 300 and 200 <= regions.centres[bent][1] <= 300)
