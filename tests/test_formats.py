"""Reading every puzzle format by content, writing JSON and text grids, and the errors for bad files."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowbot.errors import CaptureError, FormatError, InputFileError, OutputFileError, PuzzleError
from flowbot.formats import (
    FLOWBOT_SCHEMA_VERSION,
    Loaded,
    atomic_write_text,
    format_text_grid,
    is_image_bytes,
    load_puzzles,
    parse_text,
    puzzle_from_json,
    puzzle_to_json,
    read_entries,
    write_puzzle_json,
    write_text_grid,
)
from flowbot.model import PALETTE, Color, Puzzle, Source


def write(tmp_path: Path, text: str | bytes, name: str = "puzzle.txt") -> Path:
    """Write a test file (text as UTF-8, bytes as they are) and return its path."""
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return path


def only(path: Path) -> Puzzle:
    """The single puzzle of a file, checked to have loaded without error."""
    entries = read_entries(path)
    assert len(entries) == 1
    assert entries[0].error is None
    assert entries[0].puzzle is not None
    return entries[0].puzzle


def labels(puzzle: Puzzle) -> str:
    """The colour labels of a puzzle in its colour order."""
    return "".join(color.label for color in puzzle.colors)


def names(puzzle: Puzzle) -> dict[str, str | None]:
    """Each colour label mapped to its name."""
    return {color.label: color.name for color in puzzle.colors}


# --- each format, from small inline files -----------------------------------------------------------


def test_grid_with_mzucker_mnemonics_names_the_colours(tmp_path):
    path = write(tmp_path, "R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n", "anything.json")
    puzzle = only(path)
    assert puzzle.to_rows() == ["R.G.Y", "..B.O", ".....", ".G.Y.", ".RBO."]
    assert names(puzzle) == {"R": "red", "G": "green", "Y": "yellow", "B": "blue", "O": "orange"}
    assert puzzle.source == Source(kind="file", path=str(path), index=0, format="grid")


def test_grid_with_letters_up_to_p_has_no_names_and_keeps_walls(tmp_path):
    puzzle = only(write(tmp_path, "#..A\nB#..\nA..B\n"))
    assert labels(puzzle) == "AB"
    assert names(puzzle) == {"A": None, "B": None}
    assert puzzle.walls == frozenset({(0, 0), (1, 1)})
    assert puzzle.source.format == "grid"


def test_grid_tolerates_bom_crlf_trailing_blanks_and_leading_comments(tmp_path):
    path = write(tmp_path, "\ufeff# my board\r\n\r\nA.B\r\nA.B\r\n\r\n\r\n")
    puzzle = only(path)
    assert puzzle.to_rows() == ["A.B", "A.B"]
    assert puzzle.source.format == "grid"


def test_grid_one_column_whose_first_row_is_a_wall(tmp_path):
    puzzle = only(write(tmp_path, "#\nA\nA\n"))
    assert (puzzle.rows, puzzle.cols, puzzle.walls) == (3, 1, frozenset({(0, 0)}))


def test_numberlink_reads_every_puzzle_with_any_label_character(tmp_path):
    text = "# Author: someone\n\n3 2\na.b\na.b\n\n# Tests a weird label\n2 2\n^.\n^.\n\n0 0\nnot read\n"
    path = write(tmp_path, text)
    entries = read_entries(path)
    assert [entry.error for entry in entries] == [None, None]
    first, second = (entry.puzzle for entry in entries)
    assert first.to_rows() == ["a.b", "a.b"]
    assert labels(second) == "^"
    assert [entry.source.index for entry in entries] == [0, 1]
    assert {entry.source.format for entry in entries} == {"numberlink"}
    assert entries[1].source.details == {"line": 8}
    assert entries[1].puzzle.source == entries[1].source


def test_numberlink_without_comments_and_rectangular(tmp_path):
    entries = read_entries(write(tmp_path, "5 1\naab.b\n"))
    assert entries[0].puzzle.size == "1x5"


def test_tabs_without_trailing_newline(tmp_path):
    puzzle = only(write(tmp_path, "1\t.\t2\n.\t.\t.\n1\t.\t2"))
    assert puzzle.to_rows() == ["1.2", "...", "1.2"]
    assert labels(puzzle) == "12"
    assert names(puzzle) == {"1": None, "2": None}
    assert puzzle.source.format == "tabs"


def test_flow_header_keeps_the_keys_in_details(tmp_path):
    text = "# type: square\n# fill: true\n# size: 3x2\nA.B\nA.B\n"
    puzzle = only(write(tmp_path, text, "level.flow"))
    assert puzzle.to_rows() == ["A.B", "A.B"]
    assert names(puzzle) == {"A": None, "B": None}
    assert puzzle.source.format == "flow-header"
    assert puzzle.source.details == {"type": "square", "fill": "true", "size": "3x2"}


def test_flow_header_size_that_disagrees_with_the_grid(tmp_path):
    path = write(tmp_path, "# type: square\n# size: 5x5\nA.B\nA.B\n")
    with pytest.raises(FormatError, match=r"size 5x5 but the grid is 3 wide and 2 high") as caught:
        read_entries(path)
    assert str(caught.value).startswith(f"{path}: ")


def test_flow_header_other_board_types_are_refused(tmp_path):
    with pytest.raises(FormatError, match="type 'hex'"):
        read_entries(write(tmp_path, "# type: hex\nA.A\n"))


def test_rows_json_with_colour_names(tmp_path):
    data = [
        ["blue", None, "Gray"],
        [None, None, None],
        ["blue", None, "gray"],
        ["dark_blue", None, "DarkBlue"],
    ]
    path = write(tmp_path, json.dumps(data))
    with pytest.raises(PuzzleError, match="'B' has 1 endpoint"):
        read_entries(path)
    data[2][2] = "Gray"
    data[3][2] = "dark_blue"
    data.append(["DarkBlue", "PURPLE", "DarkBlue"])
    data.append(["PURPLE", None, "navy"])
    data.append(["navy", None, None])
    puzzle = only(write(tmp_path, json.dumps(data)))
    assert puzzle.to_rows() == ["A.B", "...", "A.B", "C.C", "DED", "E.F", "F.."]
    assert names(puzzle) == {
        "A": "blue",
        "B": "grey",
        "C": "dark blue",
        "D": "dark blue",
        "E": "purple",
        "F": None,
    }
    assert puzzle.source.format == "rows-json"
    assert puzzle.source.details["values"] == {
        "A": "blue", "B": "Gray", "C": "dark_blue", "D": "DarkBlue", "E": "PURPLE", "F": "navy",
    }  # fmt: skip
    assert read_entries(path)[0].source == puzzle.source


def test_rows_json_with_numbers_and_with_one_character_values(tmp_path):
    numbers = only(write(tmp_path, "[[7, null, 3], [7, null, 3]]"))
    assert numbers.to_rows() == ["A.B", "A.B"]
    assert names(numbers) == {"A": None, "B": None}
    characters = only(write(tmp_path, '[["x", null, "y"], ["x", null, "y"]]'))
    assert characters.to_rows() == ["x.y", "x.y"]


def test_rows_json_labels_go_on_to_lowercase_after_26_colours(tmp_path):
    row = list(range(30))
    puzzle = only(write(tmp_path, json.dumps([row, row])))
    assert labels(puzzle) == "ABCDEFGHIJKLMNOPQRSTUVWXYZabcd"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('["A.B", "A.B"]', "row 1 is a string, expected a list of cells"),
        ("[[1, null], [1]]", "row 2 has 1 cells but row 1 has 2"),
        ("[[[1, null], [1, null]]]", "holds one board"),
        ("[[true, true]]", "use null for an empty cell"),
        ("[]", "non-empty list of rows"),
    ],
    ids=["string-rows", "ragged", "list-of-boards", "boolean", "empty"],
)
def test_rows_json_errors(tmp_path, text, fragment):
    path = write(tmp_path, text)
    with pytest.raises((FormatError, PuzzleError), match=fragment) as caught:
        read_entries(path)
    assert str(caught.value).startswith(f"{path}: ")


def test_rows_json_ragged_rows_are_a_puzzle_error(tmp_path):
    with pytest.raises(PuzzleError, match="row 2 has 1 cells"):
        read_entries(write(tmp_path, "[[1, null], [1]]"))


def test_flowbot_json_keeps_names_order_and_stored_source(tmp_path):
    data = {
        "schema_version": 1,
        "rows": 2,
        "cols": 3,
        "grid": ["A.B", "A.B"],
        "colors": {"B": "red", "A": None},
        "source": {"kind": "screen", "path": None, "index": 4, "format": None, "details": {"dpi": 2}},
    }
    path = write(tmp_path, json.dumps(data), "capture.txt")
    entry = read_entries(path)[0]
    assert labels(entry.puzzle) == "BA"
    assert names(entry.puzzle) == {"B": "red", "A": None}
    assert entry.puzzle.source == Source(kind="screen", index=4, details={"dpi": 2})
    assert entry.source.kind == "file"
    assert entry.source.path == str(path)
    assert entry.source.format == "flowbot-json"
    assert entry.source.details == {"stored_source": data["source"]}


def test_flowbot_json_without_a_source_is_sourced_from_the_file(tmp_path):
    path = write(tmp_path, '{"schema_version": 1, "grid": ["A.A"]}')
    assert only(path).source == Source(kind="file", path=str(path), index=0, format="flowbot-json")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"schema_version": 3}, "schema_version 3 is newer"),
        ({"schema_version": "1"}, "'schema_version' must be an integer"),
        ({"grid": "A.A"}, "'grid' must be a list of strings"),
        ({"grid": ["A.A", 5]}, r"'grid'\[1\] must be a string"),
        ({"rows": 3}, "'rows' is 3 but the grid has 1"),
        ({"cols": "3"}, "'cols' must be an integer"),
        ({"colors": {"Z": "red"}}, "'colors' names 'Z'"),
        ({"colors": {"A": 3}}, r"'colors'\['A'\] must be a string or null"),
        ({"colors": ["A"]}, "'colors' must be an object"),
        ({"source": {"kind": "file", "index": "0"}}, "'source.index'"),
        ({"source": {"path": "x"}}, "'source.kind' must be a string"),
        ({"solution": ["AAA", "AAA"]}, "'solution' must be 1 rows of 3"),
    ],
)
def test_flowbot_json_errors_name_the_key(tmp_path, change, fragment):
    data = {"schema_version": 1, "rows": 1, "cols": 3, "grid": ["A.A"], "colors": {"A": None}} | change
    path = write(tmp_path, json.dumps(data))
    with pytest.raises(FormatError, match=fragment) as caught:
        read_entries(path)
    assert str(caught.value).startswith(f"{path}: ")


def test_flowbot_json_missing_schema_version(tmp_path):
    with pytest.raises(FormatError, match="missing key 'schema_version'"):
        read_entries(write(tmp_path, '{"grid": ["A.A"]}'))


def test_puzzle_from_json_names_the_path_only_when_given():
    with pytest.raises(FormatError, match=r"^missing key 'grid'$"):
        puzzle_from_json({"schema_version": 1})
    with pytest.raises(FormatError, match=r"^a\.json: missing key 'grid'$"):
        puzzle_from_json({"schema_version": 1}, "a.json")
    with pytest.raises(FormatError, match="must be an object, got a list"):
        puzzle_from_json([])


def test_parse_text_is_pure_and_names_unnamed_text():
    entries = parse_text("A.A\n")
    assert entries[0].source.path is None
    with pytest.raises(PuzzleError, match=r"^<text>: colour 'A' has 1 endpoint"):
        parse_text("A..\n")


# --- writing and round trips ------------------------------------------------------------------------


def test_written_json_layout(tmp_path):
    puzzle = Puzzle.from_rows(["R.G", "R.G"], {"R": "red"}, Source(kind="generator", details={"seed": 1}))
    path = tmp_path / "out.json"
    write_puzzle_json(puzzle, path, ["RRG", "RRG"])
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    assert text.startswith('{\n  "schema_version": 1,\n  "rows": 2,')
    data = json.loads(text)
    assert list(data) == ["schema_version", "rows", "cols", "grid", "colors", "source", "solution"]
    assert data["colors"] == {"R": "red", "G": None}
    assert data["source"] == {
        "kind": "generator",
        "path": None,
        "index": 0,
        "format": None,
        "details": {"seed": 1},
    }
    assert data["schema_version"] == 1  # a square board keeps the version every flowbot reads
    assert FLOWBOT_SCHEMA_VERSION == 2


def test_json_round_trip_keeps_puzzle_names_and_source(tmp_path):
    puzzle = Puzzle.from_rows(["#A.B", "A..B", "C.C."], {"A": "red", "B": None, "C": "dark blue"})
    puzzle = puzzle.with_source(Source(kind="screen", details={"frame": "x.png"}))
    path = tmp_path / "p.json"
    write_puzzle_json(puzzle, path)
    again = load_puzzles(path)[0]
    assert again == puzzle
    assert names(again) == names(puzzle)
    assert again.source == puzzle.source
    write_puzzle_json(again, tmp_path / "q.json")
    assert (tmp_path / "q.json").read_text() == path.read_text()


def test_text_grid_round_trip(tmp_path):
    mnemonics = {"R": "red", "G": "green", "Y": "yellow", "B": "blue", "O": "orange"}
    puzzle = Puzzle.from_rows(["R.G.Y", "..B.O", "#####", ".G.Y.", ".RBO."], mnemonics)
    path = tmp_path / "grid.txt"
    write_text_grid(puzzle, path)
    assert path.read_text() == format_text_grid(puzzle) == "R.G.Y\n..B.O\n#####\n.G.Y.\n.RBO.\n"
    assert load_puzzles(path) == [puzzle]


def test_text_grid_refuses_labels_it_cannot_read_back(tmp_path):
    puzzle = Puzzle.from_rows(["^.^"])
    with pytest.raises(FormatError, match=r"label '\^' cannot be read back"):
        write_text_grid(puzzle, tmp_path / "grid.txt")
    assert not (tmp_path / "grid.txt").exists()


def test_solution_rows_must_fit_the_board():
    with pytest.raises(PuzzleError, match="solution rows"):
        puzzle_to_json(Puzzle.from_rows(["A.A"]), ["AAA", "AAA"])


@st.composite
def boards(draw, alphabet: str) -> Puzzle:
    """A random valid board up to 8x8 with walls and 1..8 colours whose labels come from `alphabet`."""
    rows = draw(st.integers(1, 8))
    cols = draw(st.integers(2 if rows == 1 else 1, 8))
    cells = draw(st.permutations([(row, col) for row in range(rows) for col in range(cols)]))
    count = draw(st.integers(1, min(8, len(cells) // 2)))
    chosen = draw(st.lists(st.sampled_from(alphabet), min_size=count, max_size=count, unique=True))
    grid = [["."] * cols for _ in range(rows)]
    for number, label in enumerate(chosen):
        for row, col in cells[2 * number : 2 * number + 2]:
            grid[row][col] = label
    for row, col in cells[2 * count :]:
        if draw(st.booleans()):
            grid[row][col] = "#"
    return Puzzle.from_rows(["".join(line) for line in grid])


@settings(derandomize=True, deadline=None, max_examples=100)
@given(data=st.data())
def test_round_trips_hold_for_random_boards(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("round")
    # Text grids keep labels only; labels A..P and digits never look like mzucker mnemonics.
    plain = data.draw(boards("ABCDEFGHIJKLMNOP0123456789"), label="plain")
    write_text_grid(plain, folder / "grid.txt")
    assert load_puzzles(folder / "grid.txt") == [plain]
    # JSON keeps any label, the names and the colour order.
    board = data.draw(boards("ABCXYZabxyz0189^[]_\\`%&é"), label="board")
    order = data.draw(st.permutations(range(len(board.colors))), label="order")
    colors = tuple(
        Color(board.colors[rank].label, data.draw(st.sampled_from((None, *PALETTE)), label="name"))
        for rank in order
    )
    named = Puzzle(
        board.rows, board.cols, colors, tuple(board.endpoints[rank] for rank in order), board.walls
    )
    write_puzzle_json(named, folder / "board.json")
    again = load_puzzles(folder / "board.json")[0]
    assert again == named
    assert [color.name for color in again.colors] == [color.name for color in named.colors]


# --- atomic writes ----------------------------------------------------------------------------------


def folder_files(folder: Path) -> dict[str, str]:
    """Every file in a folder with its content."""
    return {path.name: path.read_text() for path in folder.iterdir()}


def test_failed_replace_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "p.json"
    path.write_text("old\n")

    def broken_replace(source, target):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OutputFileError, match=r"p\.json: cannot write: disk full"):
        write_puzzle_json(Puzzle.from_rows(["A.A"]), path)
    assert folder_files(tmp_path) == {"p.json": "old\n"}


def test_missing_folder_is_an_output_error(tmp_path):
    with pytest.raises(OutputFileError, match="nowhere"):
        atomic_write_text(tmp_path / "nowhere" / "p.txt", "A.A\n")


def test_interrupt_mid_write_leaves_no_temp_and_propagates(tmp_path, monkeypatch):
    def interrupted(descriptor):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_text(tmp_path / "new.txt", "A.A\n")
    assert folder_files(tmp_path) == {}


def test_failed_sync_mid_write_leaves_no_partial_file(tmp_path, monkeypatch):
    def broken_fsync(descriptor):
        raise OSError("io error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OutputFileError, match="io error"):
        atomic_write_text(tmp_path / "new.txt", "A.A\n")
    assert folder_files(tmp_path) == {}


def test_failed_serialisation_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "p.json"
    path.write_text("old\n")

    def broken_dumps(*args, **kwargs):
        raise ValueError("cannot serialise")

    monkeypatch.setattr("json.dumps", broken_dumps)  # formats imports json where it writes
    with pytest.raises(ValueError, match="cannot serialise"):
        write_puzzle_json(Puzzle.from_rows(["A.A"]), path)
    assert folder_files(tmp_path) == {"p.json": "old\n"}


def test_atomic_write_replaces_and_keeps_the_mode(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("old\n")
    path.chmod(0o640)
    atomic_write_text(path, "new\n")
    assert folder_files(tmp_path) == {"p.txt": "new\n"}
    assert path.stat().st_mode & 0o777 == 0o640


# --- bad input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "error", "fragment"),
    [
        (b"", InputFileError, "file is empty"),
        (b"  \n\t\n", InputFileError, "only whitespace"),
        (b"\x00\x01\x02junk\xff", InputFileError, "not a text file"),
        (b"A.A\n\xff\xfe", InputFileError, "not UTF-8"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", CaptureError, "the PNG file is truncated"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", CaptureError, "the JPEG file is truncated"),
        (b'{"schema_version": 1,', FormatError, r"invalid JSON: .* \(line 1, column 22\)"),
        (b"[[1, null]\n[1]]", FormatError, r"invalid JSON: .* \(line 2, column 1\)"),
        (b"# only a comment\n\n", FormatError, "no puzzle found"),
        (b"A.B.\nA.B\n", PuzzleError, "row 2 has 3 cells but row 1 has 4"),
        (b"A.B\n..B\n", PuzzleError, "colour 'A' has 1 endpoint"),
        (b"A.A\n.A.\n", PuzzleError, "colour 'A' has 3 endpoints"),
        (b"A.A\n.%.\n", PuzzleError, "unknown cell character '%' at row 2, col 2"),
        (b"...\n.#.\n", PuzzleError, "board has no colours"),
        (b"A.A\n\nB.B\n", FormatError, "line 2: blank line inside the board"),
        (b'{"schema_version": 7, "grid": ["A.A"]}', FormatError, "schema_version 7 is newer"),
        (b"1\t.\t1\n2\tx2\t2", PuzzleError, "unknown cell 'x2' at row 2, col 2"),
        (b"# size: 2x1\nA.A\n", FormatError, "header says size 2x1"),
    ],
    ids=[
        "empty", "whitespace", "binary", "latin1", "png", "jpeg", "json-truncated", "json-rows-comma",
        "comments-only", "ragged-rows", "one-endpoint", "three-endpoints", "unknown-character", "no-colours",
        "blank-inside", "newer-schema", "tabs-bad-cell", "flow-size",
    ],
)  # fmt: skip
def test_bad_files_raise_naming_the_file_and_the_problem(tmp_path, content, error, fragment):
    from flowbot.loader import read_entries as read_any

    path = write(tmp_path, content, "bad.txt")
    with pytest.raises(error, match=fragment) as caught:
        read_any(path)  # what users meet: text through formats, images through capture
    assert type(caught.value) is error
    assert str(caught.value).startswith(f"{path}: ")


def test_formats_alone_refuse_an_image_by_name_without_reading_it(tmp_path):
    path = write(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "shot.png")
    with pytest.raises(InputFileError, match=r"shot\.png: an image, not a puzzle file"):
        read_entries(path)


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.txt"
    with pytest.raises(InputFileError, match=r"nowhere\.txt: no such file"):
        read_entries(path)


def test_directory(tmp_path):
    with pytest.raises(InputFileError, match="is a directory") as caught:
        read_entries(tmp_path)
    assert str(caught.value).startswith(f"{tmp_path}: ")


def test_is_image_bytes():
    assert is_image_bytes(b"\x89PNG\r\n\x1a\n....")
    assert is_image_bytes(b"\xff\xd8\xff\xdb")
    assert not is_image_bytes(b"BM..\nBM..\n")
    assert not is_image_bytes(b"R.G\n")


def test_one_bad_puzzle_among_good_ones_does_not_stop_the_others(tmp_path):
    text = (
        "# three puzzles\n"  # line 1
        "3 1\nA.A\n\n"  # lines 2-4: good
        "3 2\nA.A\nB..\n\n"  # lines 5-8: colour B has one endpoint
        "3 2\nA.A\nB.B\n\n"  # lines 9-12: good
        "4 2\nA..A\nB.B\n\n"  # lines 13-16: a short row
        "2 3\nAA\n\n"  # lines 17-19: too few rows
        "junk here\n\n"  # lines 20-21: no header
        "2 1\nCC\n"  # lines 22-23: good after the resync
    )
    path = write(tmp_path, text)
    entries = read_entries(path)
    assert [entry.source.index for entry in entries] == list(range(7))
    good = [entry.puzzle.to_rows() for entry in entries if entry.error is None]
    assert good == [["A.A"], ["A.A", "B.B"], ["CC"]]
    errors = {entry.source.index: entry.error for entry in entries if entry.error is not None}
    assert isinstance(errors[1], PuzzleError)
    assert str(errors[1]).startswith(f"{path} (puzzle 2, line 5): colour 'B' has 1 endpoint")
    assert isinstance(errors[3], FormatError)
    assert str(errors[3]) == f"{path} (puzzle 4, line 15): row 2 has 3 cells, header says 4"
    assert str(errors[4]) == f"{path} (puzzle 5, line 17): header says 3 rows but only 1 follow"
    assert str(errors[5]).startswith(f"{path} (puzzle 6, line 20): expected a 'WIDTH HEIGHT' header")
    assert all(entry.puzzle is None for entry in entries if entry.error is not None)
    with pytest.raises(PuzzleError, match=r"\(puzzle 2, line 5\)"):
        load_puzzles(path)


def test_numberlink_extra_rows_spoil_their_puzzle_only(tmp_path):
    entries = read_entries(write(tmp_path, "3 1\nA.A\nB.B\n\n1 2\nC\nC\n"))
    assert "line 3): more rows than the header's 1" in str(entries[0].error)
    assert entries[1].error is None


# --- the shared corpus ------------------------------------------------------------------------------


def load_folder(folder: Path, pattern: str) -> dict[str, list[Loaded]]:
    """Every file under a folder matching a glob, read by content, by path relative to the folder."""
    files = sorted(path for path in folder.glob(pattern) if path.is_file())
    return {path.relative_to(folder).as_posix(): read_entries(path) for path in files}


def puzzles_of(loaded: dict[str, list[Loaded]]) -> list[Puzzle]:
    """All puzzles of the loaded files, each checked to have loaded without error."""
    entries = [entry for file_entries in loaded.values() for entry in file_entries]
    assert [entry.error for entry in entries if entry.error is not None] == []
    return [entry.puzzle for entry in entries]


def canonical(puzzle: Puzzle) -> tuple[str, ...]:
    """The board with its labels renamed a, b, c... in reading order, to compare boards across sources."""
    rename = {color.label: chr(ord("a") + rank) for rank, color in enumerate(puzzle.colors)}
    return tuple("".join(rename.get(char, char) for char in row) for row in puzzle.to_rows())


# The `corpus` fixture (conftest.py) is ../shared/corpus beside the repository, or a skip when absent.


def test_corpus_mzucker(corpus):
    loaded = load_folder(corpus / "mzucker__flow_solver", "puzzles/*.txt")
    assert len(loaded) == 29
    assert all(len(entries) == 1 for entries in loaded.values())
    assert {entry.source.format for entries in loaded.values() for entry in entries} == {"grid"}
    puzzles = puzzles_of(loaded)
    assert all(puzzle.rows == puzzle.cols for puzzle in puzzles)
    assert Counter(puzzle.rows for puzzle in puzzles) == {
        5: 2, 6: 1, 7: 1, 8: 2, 9: 3, 10: 3, 11: 5, 12: 6, 13: 1, 14: 5,
    }  # fmt: skip
    # Every mzucker file uses his colour mnemonics, so every colour gets a palette name.
    assert all(color.name in PALETTE for puzzle in puzzles for color in puzzle.colors)


def test_corpus_mzucker_hints_are_partial_solutions_not_puzzles(corpus):
    hints = sorted((corpus / "mzucker__flow_solver" / "hints").glob("*.txt"))
    assert len(hints) == 2
    for path in hints:
        with pytest.raises(PuzzleError, match="endpoints"):
            read_entries(path)


def test_corpus_thomasahle(corpus):
    loaded = load_folder(corpus / "thomasahle__numberlink", "puzzles/*")
    counts = {name: len(entries) for name, entries in loaded.items()}
    assert counts == {
        "puzzles/inputs1": 10, "puzzles/inputs10": 11, "puzzles/inputs2": 3, "puzzles/inputs3": 20,
        "puzzles/inputs4": 11, "puzzles/inputs5": 20, "puzzles/inputs7": 1, "puzzles/inputs8": 1,
        "puzzles/inputs9": 101, "puzzles/janko": 270,
    }  # fmt: skip
    assert {entry.source.format for entries in loaded.values() for entry in entries} == {"numberlink"}
    assert len(puzzles_of(loaded)) == 448
    janko = puzzles_of({"janko": loaded["puzzles/janko"]})
    assert Counter(f"{puzzle.cols}x{puzzle.rows}" for puzzle in janko) == {
        "8x8": 18, "9x9": 16, "10x10": 58, "11x11": 16, "12x12": 55, "14x14": 44, "17x17": 26,
        "24x14": 20, "25x25": 4, "36x20": 13,
    }  # fmt: skip
    assert [entry.source.index for entry in loaded["puzzles/janko"]] == list(range(270))


def test_corpus_lacop_matches_mzucker(corpus):
    loaded = load_folder(corpus / "lacop__FlowSolver", "levels/*.txt")
    assert {entry.source.format for entries in loaded.values() for entry in entries} == {"tabs"}
    puzzles = puzzles_of(loaded)
    assert Counter(puzzle.size for puzzle in puzzles) == {"8x8": 1, "14x14": 3}
    mzucker = corpus / "mzucker__flow_solver" / "puzzles"
    for number in ("01", "02", "30"):
        lacop = only(corpus / "lacop__FlowSolver" / "levels" / f"flow_free_14_14_{int(number)}.txt")
        assert canonical(lacop) == canonical(only(mzucker / f"jumbo_14x14_{number}.txt"))


def test_corpus_ksavill(corpus):
    loaded = load_folder(corpus / "ksavill__flow-free-solver-v2", "puzzles/**/*.flow")
    assert len(loaded) == 22
    entries = [entry for file_entries in loaded.values() for entry in file_entries]
    assert {entry.source.format for entry in entries} == {"flow-header"}
    assert all(entry.source.details["type"] == "square" for entry in entries)
    puzzles = puzzles_of(loaded)
    assert Counter(puzzle.size for puzzle in puzzles) == {
        "5x5": 13, "7x7": 3, "8x8": 2, "9x9": 2, "10x10": 1, "15x15": 1,
    }  # fmt: skip


def test_a_folder_that_cannot_be_made_is_an_output_error(tmp_path):
    from flowbot.formats import make_folder

    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OutputFileError, match=r"file/sub: cannot create folder"):
        make_folder(blocker / "sub")
    assert make_folder(tmp_path / "a" / "b").is_dir()
