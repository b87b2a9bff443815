"""The upload service behind `flowbot serve`, without a server: limits, reading, solving, hints, overlay."""

from __future__ import annotations

import base64
import itertools
import random

import cv2
import numpy as np
import pytest

from flowbot.errors import CaptureError, FlowbotError
from flowbot.model import Puzzle
from flowbot.serve import service
from flowbot.serve.service import RefusedUpload, analyse, check_upload, safe_name
from flowbot.solve.sat import solve
from tests.boards import canonical, snake_board
from tests.images import draw_board, jpeg_bytes, png_bytes
from tests.serve_helpers import png_bomb

BOARD = Puzzle.from_rows(["A...B", "..C..", ".....", "..C..", "A...B"])


def _decode_data_url(url: str) -> np.ndarray:
    """The picture inside a data:image/png;base64 URL."""
    prefix = "data:image/png;base64,"
    assert url.startswith(prefix)
    picture = cv2.imdecode(np.frombuffer(base64.b64decode(url[len(prefix) :]), np.uint8), cv2.IMREAD_COLOR)
    assert picture is not None
    return picture


BOARDS = [BOARD, *(snake_board(random.Random(seed), 5 + seed, 9 - seed, max_walls=0) for seed in range(3))]


@pytest.mark.parametrize("puzzle", BOARDS, ids=["5x5", "snake-5x9", "snake-6x8", "snake-7x7"])
@pytest.mark.parametrize("encode", [png_bytes, jpeg_bytes], ids=["png", "jpeg"])
def test_a_drawn_board_is_read_solved_and_hinted(puzzle, encode):
    frame = draw_board(puzzle)
    answer = analyse(encode(frame), "level.png")
    assert answer["status"] == "solved" and answer["error"] is None
    rows = canonical(puzzle.to_rows())  # a reading labels colours by first appearance
    assert answer["puzzle"] == rows
    expected = solve(Puzzle.from_rows(rows)).solution.to_rows()
    assert answer["solution"] == expected
    # Every key of a `solve --json` line is there, plus the page's.
    for key in ("status", "puzzle", "solution", "paths", "colors", "seconds", "error", "overlay", "hints"):
        assert key in answer
    assert _decode_data_url(answer["overlay"]).shape == frame.shape
    assert answer["image"] == {"width": frame.shape[1], "height": frame.shape[0]}
    # One hint per flow, shortest first, each the flow's path with its pixel centres on the screenshot.
    hints = answer["hints"]
    assert sorted(hint["label"] for hint in hints) == sorted(answer["paths"])
    assert [len(hint["cells"]) for hint in hints] == sorted(len(hint["cells"]) for hint in hints)
    xs, ys = answer["grid"]["xs"], answer["grid"]["ys"]
    for hint in hints:
        assert hint["cells"] == answer["paths"][hint["label"]]
        for (row, col), (x, y) in zip(hint["cells"], hint["points"], strict=True):
            assert xs[col] < x < xs[col + 1] and ys[row] < y < ys[row + 1]
            assert answer["solution"][row][col] == hint["label"]
    # The puzzle file is flowbot JSON naming the upload, with the solution.
    assert answer["file"]["grid"] == rows
    assert answer["file"]["solution"] == expected
    assert answer["file"]["source"]["details"]["image"] == "level.png"


def test_the_overlay_shows_the_pipes_where_the_screenshot_had_empty_cells():
    frame = draw_board(BOARD)
    answer = analyse(png_bytes(frame))
    picture = _decode_data_url(answer["overlay"])
    hint = next(hint for hint in answer["hints"] if hint["label"] == "A")
    x, y = (round(value) for value in hint["points"][1])  # a cell the pipe crosses, empty on the screenshot
    assert frame[y, x].max() < 40
    assert picture[y, x].max() > 100


def test_an_unsolvable_reading_says_so_in_a_sentence():
    frame = draw_board(Puzzle.from_rows(["A.B", "...", "B.A"]))
    answer = analyse(png_bytes(frame))
    assert answer["status"] == "unsolvable"
    assert answer["solution"] is None and answer["hints"] == []
    assert "no solution" in answer["error"]
    assert _decode_data_url(answer["overlay"]).shape == frame.shape


def test_no_board_is_a_capture_error():
    noise = np.random.default_rng(3).integers(0, 255, (300, 300, 3), dtype=np.uint8)
    with pytest.raises(CaptureError):
        analyse(png_bytes(noise))


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [
        (b"", 400, "empty"),
        (b"A.B\n...\nB.A\n", 415, "not an image"),
        (png_bomb(), 413, "refused before decoding"),
    ],
    ids=["empty", "text", "bomb"],
)
def test_refused_uploads(data, status, words):
    with pytest.raises(RefusedUpload) as caught:
        check_upload(data)
    assert caught.value.http_status == status
    assert words in str(caught.value)


def test_too_many_bytes_is_refused_before_reading(monkeypatch):
    data = png_bytes(draw_board(BOARD))
    monkeypatch.setattr(service, "MAX_UPLOAD_BYTES", len(data) - 1)
    with pytest.raises(RefusedUpload) as caught:
        analyse(data)
    assert caught.value.http_status == 413


def test_the_pixel_limit_is_judged_from_the_header(monkeypatch):
    frame = draw_board(BOARD)
    monkeypatch.setattr(service, "MAX_UPLOAD_PIXELS", frame.shape[0] * frame.shape[1] - 1)
    # Were it decoded, the OpenCV call would fail the test: the header alone must refuse it.
    monkeypatch.setattr(cv2, "imdecode", lambda *args: pytest.fail("decoded a refused image"))
    with pytest.raises(RefusedUpload, match="megapixel"):
        analyse(png_bytes(frame))


def test_a_truncated_file_is_a_capture_error():
    data = png_bytes(draw_board(BOARD))
    with pytest.raises(CaptureError, match="truncated"):
        analyse(data[: len(data) // 2])


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (None, "upload"),
        ("", "upload"),
        ("../../etc/passwd", "passwd"),
        ("C:\\Users\\me\\shot.png", "shot.png"),
        ("a\x00b\nc.png", "abc.png"),
        ("x" * 300, "x" * 100),
        ("/", "upload"),
    ],
)
def test_the_upload_name_is_only_a_label(name, expected):
    assert safe_name(name) == expected


def test_a_screenshot_no_flow_board_reads_goes_to_the_next_game_reader(monkeypatch):
    seen = []

    def other_game(frame, data, name, timeout):
        seen.append(frame.shape)
        return {"game": "numbermatch", "hints": []}

    monkeypatch.setattr(
        service, "game_readers", lambda: (("flow", service.analyse_flow), ("numbermatch", other_game))
    )
    blank = np.full((400, 300, 3), 30, np.uint8)  # dark, as Flow's boards: Flow's reader is tried first
    assert analyse(png_bytes(blank))["game"] == "numbermatch"
    assert seen == [(400, 300, 3)]
    # A Flow board never reaches the next reader.
    assert analyse(png_bytes(draw_board(BOARD)))["game"] == "flow" and len(seen) == 1


def test_when_no_reader_reads_the_trouble_of_the_game_it_looks_like_is_told(monkeypatch):
    def other_game(frame, data, name, timeout):
        raise CaptureError("no Number Match grid")

    monkeypatch.setattr(
        service, "game_readers", lambda: (("flow", service.analyse_flow), ("numbermatch", other_game))
    )
    # Dark, as Flow's boards are: Flow's reader goes first and its trouble is told.
    with pytest.raises(CaptureError, match="no board found"):
        analyse(png_bytes(np.full((400, 300, 3), 30, np.uint8)))
    # Light, as Number Match's grid is: its reader goes first (and Flow's still after it).
    with pytest.raises(CaptureError, match="no Number Match grid"):
        analyse(png_bytes(np.full((400, 300, 3), 255, np.uint8)))


def test_a_light_picture_tries_number_match_first_and_a_dark_one_flow_first():
    readers = service.game_readers()
    assert [game for game, _ in readers] == ["flow", "numbermatch"]
    light = np.full((200, 100, 3), 240, np.uint8)
    dark = draw_board(BOARD)
    assert [game for game, _ in service.likely_first(light, readers)] == ["numbermatch", "flow"]
    assert [game for game, _ in service.likely_first(dark, readers)] == ["flow", "numbermatch"]


def test_a_drawn_warps_board_is_answered_from_its_cells():
    from flowbot.generate.variants import make_variant_level
    from tests.variant_images import draw_square

    level = make_variant_level("warps", 6, 6, 4, random.Random(3))
    lines = level.puzzle.to_rows()
    frame = draw_square(lines, warps=frozenset(level.puzzle.warps), cell=50)
    answer = analyse(png_bytes(frame), "warps.png")
    assert (answer["game"], answer["kind"], answer["status"]) == ("flow", "warps", "solved")
    assert answer["puzzle"] == lines and answer["grid"] is None
    centres = {(row, col): [x, y] for row, col, x, y in answer["centres"]}
    assert len(centres) == 36
    for hint in answer["hints"]:
        assert hint["points"] == [centres[tuple(cell)] for cell in hint["cells"]]
    assert {tuple(cell) for hint in answer["hints"] for cell in hint["cells"]} == set(centres)
    # The only solution goes through a warp: a step between cells on opposite edges.
    steps = [step for hint in answer["hints"] for step in itertools.pairwise(hint["cells"])]
    assert any(abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1 for a, b in steps)
    file = answer["file"]
    assert (file["schema_version"], file["kind"]) == (2, "warps")
    assert sorted(map(tuple, file["warps"])) == sorted(level.puzzle.warps)
    assert _decode_data_url(answer["overlay"]).shape == frame.shape


def test_a_number_match_grid_misread_is_refused_without_trying_flow(monkeypatch):
    from tests.test_serve_games import NUMBERMATCH_TRUTHS

    shot = next((path for path in NUMBERMATCH_TRUTHS if "bulaxrusi" in path.name), None)
    if shot is None:
        pytest.skip("../shared/numbermatch is not present")
    from flowbot.numbermatch.read import read_board

    frame = cv2.imread(str(shot))
    grid = read_board(frame).grid
    x, y = grid.center(0, 0)
    half = grid.cell * 0.35
    cv2.rectangle(frame, (int(x - half), int(y - half)), (int(x + half), int(y + half)), (255, 255, 255), -1)
    monkeypatch.setattr(service, "analyse_flow", lambda *args: pytest.fail("Flow's reader was tried"))
    with pytest.raises(FlowbotError, match="row 1, column 1 reads as an empty slot") as caught:
        analyse(png_bytes(frame), "gap.png")
    assert not isinstance(caught.value, CaptureError)  # the answer is this reader's: 422, no next reader
