"""Closed, broken and full standard streams, and file names that are not UTF-8: every command ends
with one line and a documented status, never a traceback (`flowbot` run as a program)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flowbot.model import Puzzle

GOOD = ".....\n.DC.A\nA.D..\nEB.B.\n.EC..\n"


def flowbot(
    *args, env: dict | None = None, close: tuple[int, ...] = (), **popen
) -> subprocess.CompletedProcess:
    """Run `python -m flowbot ARGS` to its end with the descriptors in `close` closed (as `>&-` does);
    stdout and stderr are captured unless `popen` says otherwise or they are closed."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "stdin": subprocess.DEVNULL}
    for descriptor, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if descriptor in close:
            streams[name] = None  # inherited, then closed in the child before it starts Python
    streams.update(popen)
    environ = {**os.environ, "NO_COLOR": "1", **(env or {})}

    def close_them() -> None:
        for descriptor in close:
            os.close(descriptor)

    return subprocess.run(
        [sys.executable, "-m", "flowbot", *map(os.fsdecode, args)],
        env=environ, preexec_fn=close_them if close else None, timeout=120, check=False, **streams,
    )  # fmt: skip


def puzzle_file(folder: Path, name: str | bytes = "good.txt", text: str = GOOD) -> Path:
    """A solvable puzzle file in `folder` (a bytes name may be one that is not UTF-8)."""
    path = Path(os.fsdecode(os.path.join(os.fsencode(folder), os.fsencode(name))))
    path.write_text(text)
    return path


# One command line per command the issue names; each would run (or fail on its own terms) with stdout open.
CLOSED_STDOUT = {
    "solve": ["solve", "{puzzle}"],
    "rate": ["rate", "{puzzle}"],
    "hint": ["hint", "{puzzle}"],
    "generate": ["generate", "--size", "5x5", "--seed", "1", "--out", "{tmp}/levels"],
    "numbermatch": ["numbermatch", "{tmp}/board.txt"],
    "screens": ["screens"],
    "calibrate": ["calibrate"],
    "auto-clear": ["auto-clear", "--count", "1"],
    "demo": ["demo", "--levels", "1", "--record", "{tmp}/demo.gif"],
    "serve": ["serve", "--port", "0"],
    "convert": ["convert", "{puzzle}", "--out", "{tmp}/converted"],
}


@pytest.mark.parametrize("command", sorted(CLOSED_STDOUT))
def test_a_closed_stdout_is_refused_before_the_command_runs(command, tmp_path):
    puzzle = puzzle_file(tmp_path)
    (tmp_path / "board.txt").write_text("123456789\n111213141\n516171819\n")
    args = [arg.format(puzzle=puzzle, tmp=tmp_path) for arg in CLOSED_STDOUT[command]]
    done = flowbot(*args, close=(1,))
    err = done.stderr.decode()
    assert done.returncode == 74, err
    assert (
        err.startswith("flowbot: stdout is closed: flowbot prints its results there") and err.count("\n") == 1
    )
    # Nothing was done: no file written, no folder made, no recording.
    assert sorted(path.name for path in tmp_path.iterdir()) == ["board.txt", "good.txt"]


def test_the_status_is_the_same_with_stderr_closed_too(tmp_path):
    done = flowbot("solve", puzzle_file(tmp_path), close=(1, 2))
    assert done.returncode == 74


def test_with_stderr_closed_a_missing_input_still_exits_2_and_convert_still_0(tmp_path):
    assert flowbot("solve", tmp_path / "missing.txt", close=(2,)).returncode == 2
    done = flowbot("convert", puzzle_file(tmp_path), "--out", tmp_path / "out", close=(2,))
    assert done.returncode == 0
    assert [path.name for path in (tmp_path / "out").iterdir()] == ["good.json"]


@pytest.mark.parametrize("closed", [(), (2,)])
def test_a_full_stdout_exits_74_with_one_line(closed, tmp_path):
    with open("/dev/full", "wb") as full:
        done = flowbot("solve", "--json", puzzle_file(tmp_path), stdout=full, close=closed)
    assert done.returncode == 74
    if not closed:
        assert done.stderr.decode() == "flowbot: stdout: cannot write: No space left on device\n"


def test_a_reader_that_goes_away_gives_141_and_no_message(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for number in range(1500):  # far more JSON than a pipe holds
        puzzle_file(folder, f"p{number:04d}.txt", "AB\nAB\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "solve", "--json", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert json.loads(process.stdout.readline())["status"] == "solved"
    process.stdout.close()  # as `| head -1` does
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141
    assert err == ""


NOT_UTF8 = b"g\xff\xfe.txt"


@pytest.mark.parametrize(
    "environ",
    [{"LC_ALL": "C.UTF-8"}, {"LC_ALL": "C"}, {"PYTHONIOENCODING": "latin-1"}, {"PYTHONIOENCODING": "utf-8"}],
    ids=["utf8-locale", "c-locale", "latin1-stdout", "strict-utf8-stdout"],
)
def test_solve_json_is_valid_utf8_for_a_name_that_is_not(environ, tmp_path):
    path = puzzle_file(tmp_path, NOT_UTF8)
    (tmp_path / "café.txt").write_text(GOOD)
    done = flowbot("solve", "--json", path, tmp_path / "café.txt", env=environ)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode("utf-8").splitlines()  # raises on bytes that are not UTF-8
    sources = [json.loads(line)["source"] for line in lines]
    assert sources == [str(path), str(tmp_path / "café.txt")]  # the very names, read back from the escapes
    text = flowbot("solve", path, env=environ)
    assert text.returncode == 0 and b"Traceback" not in text.stderr


def test_read_writes_a_screenshot_with_such_a_name_as_valid_json(tmp_path):
    from tests.images import draw_board, jpeg_bytes

    shot = Path(os.fsdecode(os.path.join(os.fsencode(tmp_path), b"shot\xe9.jpg")))
    shot.write_bytes(jpeg_bytes(draw_board(Puzzle.from_rows(GOOD.split()), cell=50)))
    done = flowbot("read", shot, "--out", tmp_path / "out", env={"PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    (saved,) = (tmp_path / "out").iterdir()
    record = json.loads(saved.read_bytes().decode("utf-8"))
    assert record["source"]["path"] == str(shot)


def test_bench_takes_a_file_whose_name_is_not_utf8(tmp_path):
    done = flowbot("bench", "--repeat", "1", puzzle_file(tmp_path, NOT_UTF8), env={"LC_ALL": "C.UTF-8"})
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr


def test_a_full_stderr_changes_no_status(tmp_path):
    with open("/dev/full", "wb") as full:
        assert flowbot("solve", tmp_path / "missing.txt", stderr=full).returncode == 2
        assert flowbot("-v", "solve", puzzle_file(tmp_path), stderr=full).returncode == 0


def test_numbermatch_json_is_valid_utf8_for_a_name_that_is_not(tmp_path):
    board = puzzle_file(tmp_path, b"board\xff.txt", "123456789\n111213141\n516171819\n")
    done = flowbot("numbermatch", "--json", "--timeout", "5", board, env={"PYTHONIOENCODING": "latin-1"})
    assert b"Traceback" not in done.stderr
    (line,) = done.stdout.decode("utf-8").splitlines()
    assert json.loads(line)["source"] == str(board)


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_a_name_that_is_not_utf8_is_its_bytes_in_results_and_escaped_in_messages(locale, tmp_path):
    good = puzzle_file(tmp_path, NOT_UTF8)
    bad = puzzle_file(tmp_path, b"h\xff.txt", "A.\n..\n")  # cannot be read: a message names it
    done = flowbot("solve", good, bad, env={"LC_ALL": locale})
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert os.fsencode(good) + b": 5x5" in done.stdout  # the name's own bytes
    assert b"h\\udcff.txt" in done.stderr and b"h\xff" not in done.stderr
    page = (Path(__file__).resolve().parents[1] / "docs" / "guarantees.md").read_text(encoding="utf-8")
    said = " ".join(page.split())  # what the guarantees page says, as it says it
    assert "bytes as they are in a UTF-8 or the C locale" in said
    assert "messages on stderr always escape them" in said
