"""`flowbot serve` over real HTTP with the other boards and games it answers: Flow's sister games
(Bridges, Hexes, walls) read as their truth files, Shapes boards answered as graphs of cells, and Number
Match screenshots read as their truth files with hints whose replay by the rules clears the board."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from flowbot.numbermatch.board import ADD, Move, apply_move, find_pairs, is_won, make_board
from flowbot.numbermatch.rules import Rules
from tests.serve_helpers import post_image, start_server

SHARED = Path(__file__).resolve().parents[2] / "shared"
VARIANTS = SHARED / "screenshots" / "variants"
NUMBERMATCH = SHARED / "numbermatch" / "screenshots"


def _images(folder: Path) -> list[Path]:
    """The pictures in a folder, in name order (none when the folder is absent)."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.iterdir() if path.suffix.lower() in {".png", ".jpg", ".jpeg"})


def _truth(image: Path) -> Path:
    """The truth file beside a picture."""
    return image.with_name(image.stem + ".truth.txt")


def _truth_rows(image: Path) -> list[str]:
    """The truth board's rows (a hex truth's layout line left out)."""
    lines = _truth(image).read_text().split("\n")
    return [line for line in lines if line and not line.startswith("hex")]


VARIANT_TRUTHS = [path for path in _images(VARIANTS) if _truth(path).exists()]
SHAPES = [path for path in _images(VARIANTS) if not _truth(path).exists()]
NUMBERMATCH_TRUTHS = [path for path in _images(NUMBERMATCH) if _truth(path).exists()]


@pytest.fixture(scope="module")
def server():
    """One real server on a free port for the module; it must still be up at the end."""
    running = start_server()
    yield running
    assert running.process.poll() is None, "the server died during the tests"
    running.stop(signal.SIGTERM)


@pytest.mark.skipif(not VARIANT_TRUTHS, reason="../shared/screenshots/variants is not present")
@pytest.mark.parametrize("image", VARIANT_TRUTHS, ids=lambda path: path.name[:40])
def test_a_sister_game_screenshot_gives_its_truth_board_and_hints_on_its_cells(server, image):
    status, answer = post_image(server, image.read_bytes(), image.name)
    assert status == 200, answer
    assert answer["game"] == "flow"
    assert answer["puzzle"] == _truth_rows(image)
    assert answer["status"] == "solved", answer["error"]
    assert answer["overlay"].startswith("data:image/png;base64,")
    centres = {(row, col): (x, y) for row, col, x, y in answer["centres"]}
    puzzle = answer["puzzle"]
    on_board = {(row, col) for row, line in enumerate(puzzle) for col, char in enumerate(line) if char != "#"}
    assert set(centres) == on_board
    width, height = answer["image"]["width"], answer["image"]["height"]
    assert all(0 <= x < width and 0 <= y < height for x, y in centres.values())
    # One hint per flow, its points the middles of its cells; together they cover the board.
    assert {hint["label"] for hint in answer["hints"]} == set(answer["paths"])
    covered = set()
    for hint in answer["hints"]:
        assert hint["cells"] == answer["paths"][hint["label"]]
        assert [tuple(point) for point in hint["points"]] == [centres[tuple(cell)] for cell in hint["cells"]]
        covered |= {tuple(cell) for cell in hint["cells"]}
    assert covered == on_board
    if answer["kind"] == "hexes":
        assert answer["grid"] is None  # no grid lines: the page draws from the cells' middles
    # The puzzle file is flowbot JSON of the board as read, in its game's schema.
    assert answer["file"]["grid"] == answer["puzzle"]
    file = answer["file"]
    assert file.get("kind", "square") == answer["kind"]
    assert file["schema_version"] == (2 if "kind" in file else 1)


@pytest.mark.skipif(not VARIANT_TRUTHS, reason="../shared/screenshots/variants is not present")
def test_the_sister_games_are_all_answered(server):
    kinds = set()
    for image in VARIANT_TRUTHS:
        _, answer = post_image(server, image.read_bytes(), image.name)
        kinds.add(answer["kind"])
        if "original6" in image.name or "original7" in image.name:
            assert answer["file"]["walls"], "a walled board lost its walls"
    assert {"hexes", "bridges"} <= kinds


@pytest.mark.skipif(not SHAPES, reason="../shared/screenshots/variants is not present")
@pytest.mark.parametrize("image", SHAPES, ids=lambda path: path.name[:40])
def test_a_shapes_board_is_answered_as_a_graph_of_its_cells(server, image):
    status, answer = post_image(server, image.read_bytes(), image.name)
    assert status == 200, answer
    assert answer["kind"] == "shapes" and answer["status"] == "solved"
    graph = answer["graph"]
    assert len(graph["cells"]) == len(answer["centres"])
    covered = sorted(cell for hint in answer["hints"] for _, cell in hint["cells"])
    assert covered == list(range(len(graph["cells"])))  # every cell, once
    for hint in answer["hints"]:  # each hint's points are its cells' middles on the screenshot
        assert hint["points"] == [graph["cells"][cell] for _, cell in hint["cells"]]


def _replay(answer: dict, truth: list[str]) -> tuple[int, ...]:
    """Play the hints in order on the truth board by the rules; the board left at the end."""
    rules = Rules(adds=answer["adds"])
    board = make_board(
        [int(char) if char.isdigit() else 0 for row in truth for char in row.rstrip("_")], rules
    )
    adds = 0
    for hint in answer["hints"]:
        if hint["type"] == "add":
            adds += 1
            assert adds <= rules.adds, "more adds than the badge allows"
            board = apply_move(board, ADD, rules)
            continue
        a, b = sorted(row * rules.width + col for row, col in hint["cells"])
        assert (a, b) in find_pairs(board, rules), f"move {hint['label']} is not a pair"
        assert sorted(hint["digits"]) == sorted((board[a], board[b]))
        board = apply_move(board, Move(a, b), rules)
    return board


@pytest.mark.skipif(not NUMBERMATCH_TRUTHS, reason="../shared/numbermatch is not present")
@pytest.mark.parametrize("image", NUMBERMATCH_TRUTHS, ids=lambda path: path.name[-40:])
def test_a_number_match_screenshot_gives_its_truth_board_and_hints_that_clear_it(server, image):
    status, answer = post_image(server, image.read_bytes(), image.name)
    assert status == 200, answer
    truth = _truth_rows(image)
    assert answer["game"] == "numbermatch"
    assert answer["puzzle"] == answer["board"] == truth
    assert answer["status"] == "won", answer["error"]
    assert answer["solution"] == answer["moves"] and len(answer["hints"]) == len(answer["moves"])
    assert answer["overlay"].startswith("data:image/png;base64,")
    assert is_won(_replay(answer, truth))
    width, height = answer["image"]["width"], answer["image"]["height"]
    grid = answer["grid"]
    for hint in answer["hints"]:
        if hint["type"] == "add":
            continue
        assert len(hint["points"]) == 2
        for (x, y), digit, shown in zip(hint["points"], hint["digits"], hint["on_screenshot"], strict=True):
            if not shown:
                continue  # added by "+": not on the screenshot
            assert 0 <= x < width and 0 <= y < height
            if grid is None:
                continue  # a photo read straightened: its points are mapped back, no grid in its pixels
            # The point is on the screenshot's cell that shows this digit, wherever the rows have gone.
            col = next(index for index in range(9) if grid["xs"][index] <= x < grid["xs"][index + 1])
            rows = range(len(grid["ys"]) - 1)
            row = next(index for index in rows if grid["ys"][index] <= y < grid["ys"][index + 1])
            assert truth[row][col] == str(digit)


@pytest.mark.skipif(not NUMBERMATCH_TRUTHS, reason="../shared/numbermatch is not present")
@pytest.mark.parametrize("tilt", [20, 50])
def test_a_photo_in_perspective_gets_its_hints_on_its_own_pixels(tilt):
    """A screenshot warped as a photo of a phone is read straightened; each hint's point, taken back
    through the known warp, lands on the screenshot's cell holding that digit."""
    import cv2
    import numpy as np

    from flowbot.capture.image import decode_image
    from flowbot.numbermatch.read import read_board
    from flowbot.serve.service import analyse
    from tests.images import png_bytes

    shot = next(path for path in NUMBERMATCH_TRUTHS if "bulaxrusi" in path.name)
    frame = decode_image(shot.read_bytes())
    grid = read_board(frame).grid
    height, width = frame.shape[:2]
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    bent = np.float32(
        [[60 + tilt, 40], [width + 100, 40 + tilt], [width + 60, height + 100], [40, height + 60 - tilt]]
    )
    warp = cv2.getPerspectiveTransform(corners, bent)
    photo = cv2.warpPerspective(frame, warp, (width + 200, height + 200), borderValue=(200, 190, 180))
    answer = analyse(png_bytes(photo), "photo.png")
    truth = _truth_rows(shot)
    assert answer["puzzle"] == truth and answer["status"] == "won"
    assert answer["grid"] is None  # read straightened: no grid in the photo's pixels
    back = np.linalg.inv(warp)
    checked = 0
    for hint in (hint for hint in answer["hints"] if hint["type"] == "pair"):
        for point, digit, shown in zip(hint["points"], hint["digits"], hint["on_screenshot"], strict=True):
            if not shown:
                continue
            x, y = cv2.perspectiveTransform(np.float32([[point]]), back)[0][0]
            col = next(index for index in range(9) if grid.xs[index] <= x < grid.xs[index + 1])
            row = next(index for index in range(len(grid.ys) - 1) if grid.ys[index] <= y < grid.ys[index + 1])
            assert truth[row][col] == str(digit)
            checked += 1
    assert checked >= 20
