"""Folders mean puzzles: a folder given to solve, read, rate, hint or bench takes the files it can read
(its screenshots when it has any, else the files that read as puzzles) and skips the rest, the notes
and a MANIFEST.md beside them, saying how many it skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowbot.cli import main
from flowbot.loader import puzzle_inputs
from flowbot.model import Puzzle
from tests.images import draw_board, png_bytes

FIRST = Puzzle.from_rows(["ABC", "...", "ABC"])
SECOND = Puzzle.from_rows(["A.A", "B.B", "C.C"])
NOTES = "Levels from a friend; the second is harder.\n"
MANIFEST = "# Levels\n\n| file | size |\n|---|---|\n| 1.txt | 3x3 |\n"


def run_cli(args, capsys) -> tuple[int, str, str]:
    """Run `flowbot` in-process: (exit code, stdout, stderr)."""
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def puzzles(tmp_path) -> Path:
    """A folder of two puzzle files, with notes and a MANIFEST.md beside them."""
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "1.txt").write_text("\n".join(FIRST.to_rows()) + "\n")
    (folder / "2.txt").write_text("\n".join(SECOND.to_rows()) + "\n")
    (folder / "notes.txt").write_text(NOTES)
    (folder / "MANIFEST.md").write_text(MANIFEST)
    return folder


@pytest.fixture
def screenshots(tmp_path) -> Path:
    """A folder of two screenshots, each with its truth file, and a MANIFEST.md."""
    folder = tmp_path / "shots"
    folder.mkdir()
    for name, puzzle in (("a", FIRST), ("b", SECOND)):
        (folder / f"{name}.png").write_bytes(png_bytes(draw_board(puzzle, cell=60)))
        (folder / f"{name}.truth.txt").write_text("\n".join(puzzle.to_rows()) + "\n")
    (folder / "MANIFEST.md").write_text(MANIFEST)
    return folder


def test_solve_takes_the_puzzles_of_a_folder_and_names_what_it_skipped(puzzles, capsys):
    code, out, err = run_cli(["solve", "--json", puzzles], capsys)
    assert code == 0, err
    sources = [json.loads(line)["source"] for line in out.splitlines()]
    assert sources == [str(puzzles / "1.txt"), str(puzzles / "2.txt")]
    assert f"{puzzles}: skipped 2 files, not puzzles (MANIFEST.md, notes.txt)" in err


def test_a_folder_of_screenshots_gives_its_screenshots_not_their_truths(screenshots):
    inputs = puzzle_inputs([str(screenshots)])
    assert [Path(name).name for name in inputs.files] == ["a.png", "b.png"]
    (skipped,) = inputs.skipped
    assert skipped.names == ("MANIFEST.md", "a.truth.txt", "b.truth.txt")
    assert "skipped 3 files, not screenshots" in skipped.note()


def test_read_saves_each_screenshot_of_a_folder(screenshots, tmp_path, capsys):
    out_dir = tmp_path / "read"
    code, _, err = run_cli(["read", screenshots, "--out", out_dir], capsys)
    assert code == 0, err
    assert sorted(path.name for path in out_dir.iterdir()) == ["a.json", "b.json"]
    assert "skipped 3 files, not screenshots" in err


def test_rate_takes_the_puzzles_of_a_folder(puzzles, capsys):
    code, out, err = run_cli(["rate", "--json", puzzles], capsys)
    assert code == 0, err
    assert len(out.splitlines()) == 2
    assert "skipped 2 files" in err


def test_hint_picks_a_folders_puzzle_by_index(puzzles, capsys):
    code, out, err = run_cli(["hint", "--json", "--index", "1", puzzles], capsys)
    assert code == 0, err
    record = json.loads(out)
    assert record["source"] == str(puzzles / "2.txt")
    assert record["puzzle"] == SECOND.to_rows()
    code, _, err = run_cli(["hint", "--index", "2", puzzles], capsys)
    assert code == 2 and "holds 2 puzzle(s); --index 2 is not one of them" in err


def test_bench_times_the_puzzles_of_a_folder(puzzles, capsys):
    code, out, err = run_cli(["bench", "--repeat", "1", puzzles], capsys)
    assert code == 0, err
    assert "2 puzzles: 2 solved" in out
    assert "skipped 2 files, not puzzles" in err
    assert "unreadable" not in err


def test_a_folder_of_notes_only_is_bad_input_named(tmp_path, capsys):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "MANIFEST.md").write_text(MANIFEST)
    code, _, err = run_cli(["solve", folder], capsys)
    assert code == 2
    assert f"{folder}: holds no puzzle file or screenshot; skipped 1 file, not a puzzle (MANIFEST.md)" in err


def test_a_file_named_is_read_even_when_it_is_not_a_puzzle(puzzles, capsys):
    """Only a folder's files are sorted out: a file the user names is read, and its problem said."""
    code, _, err = run_cli(["solve", puzzles / "MANIFEST.md"], capsys)
    assert code == 2 and "MANIFEST.md" in err
