"""The command line contract: JSON Lines records, exit codes, and one clear line per bad input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flowbot.cli import main
from flowbot.model import Puzzle
from flowbot.render import BASIC, PLAIN, TRUECOLOR, XTERM_256, render_solution, terminal_colors
from flowbot.solve.check import check_paths
from flowbot.solve.sat import solve
from tests.boards import canonical

GOOD = ".....\n.DC.A\nA.D..\nEB.B.\n.EC..\n"
UNSOLVABLE = "A.B\n.#.\nB.A\n"

BAD_INPUTS = {
    "empty.txt": ("", "empty"),
    "invalid.json": ('{"schema_version": 1, "grid": [', "invalid JSON"),
    "ragged.txt": ("A.B\n..\nA.B\n", "row 2 has 2 cells but row 1 has 3"),
    "one_end.txt": ("A.B\n...\nA..\n", "colour 'B' has 1 endpoint"),
    "three_ends.txt": ("A.A\n...\nA..\n", "colour 'A' has 3 endpoints"),
    "unknown_char.txt": ("A.%\n...\nA..\n", "unknown cell character '%'"),
    "no_colours.txt": ("...\n...\n", "no colours"),
}


def run_cli(args, capsys):
    """Run `flowbot` in-process; return (exit code, stdout, stderr)."""
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path: Path, name: str, text: str) -> Path:
    """Write a puzzle file for a test."""
    path = tmp_path / name
    path.write_text(text)
    return path


def test_json_lines_contract(tmp_path, capsys):
    path = write(tmp_path, "good.txt", GOOD)
    code, out, err = run_cli(["solve", "--json", "--unique", path], capsys)
    assert code == 0, err
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert list(record)[:9] == [
        "source", "index", "status", "puzzle", "solution", "paths", "colors", "seconds", "strict",
    ]  # fmt: skip
    assert record["source"] == str(path)
    assert record["index"] == 0
    assert record["status"] == "solved"
    assert record["puzzle"] == GOOD.split()
    assert record["unique"] is True
    puzzle = Puzzle.from_rows(record["puzzle"])
    paths = [[tuple(cell) for cell in record["paths"][color.label]] for color in puzzle.colors]
    assert check_paths(puzzle, paths) == []
    for row, line in enumerate(record["solution"]):
        for col, label in enumerate(line):
            assert [row, col] in record["paths"][label]


def test_colour_names_are_reported_when_known(tmp_path, capsys):
    path = write(tmp_path, "named.json", json.dumps([["red", None, "red"], ["blue", None, "blue"]]))
    code, out, _ = run_cli(["solve", "--json", path], capsys)
    record = json.loads(out)
    assert code == 0
    assert sorted(record["colors"].values()) == ["blue", "red"]


def test_multi_puzzle_file_gives_one_record_per_puzzle(tmp_path, capsys):
    path = write(tmp_path, "many.txt", "# two puzzles\n3 1\nA.A\n\n2 2\nAB\nAB\n")
    code, out, _ = run_cli(["solve", "--json", path], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [(r["index"], r["status"]) for r in records] == [(0, "solved"), (1, "solved")]


def test_unsolvable_exits_1_and_is_reported(tmp_path, capsys):
    good, bad = write(tmp_path, "good.txt", GOOD), write(tmp_path, "bad.txt", UNSOLVABLE)
    code, out, _ = run_cli(["solve", "--json", good, bad], capsys)
    statuses = [json.loads(line)["status"] for line in out.splitlines()]
    assert (code, statuses) == (1, ["solved", "unsolvable"])


def test_timeout_exits_1(tmp_path, capsys):
    path = write(
        tmp_path, "big.txt", "\n".join(["A" + "." * 38 + "B"] + ["." * 40] * 38 + ["B" + "." * 38 + "A"])
    )
    code, out, _ = run_cli(["solve", "--json", "--timeout", "0.000001", path], capsys)
    assert code == 1
    assert json.loads(out)["status"] == "timeout"


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_names_file_and_problem(tmp_path, capsys, name):
    text, problem = BAD_INPUTS[name]
    bad = write(tmp_path, name, text)
    good = write(tmp_path, "good.txt", GOOD)
    code, out, err = run_cli(["solve", "--json", bad, good], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(bad) in lines[0] and problem in lines[0]
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["status"] for r in records] == ["error", "solved"]  # the batch goes on
    assert problem in records[0]["error"]


def test_missing_file(tmp_path, capsys):
    missing = tmp_path / "nope.txt"
    code, _, err = run_cli(["solve", missing], capsys)
    assert code == 2
    assert str(missing) in err and "no such file" in err.lower()


def test_text_output_without_colour_is_plain(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    path = write(tmp_path, "good.txt", GOOD)
    code, out, _ = run_cli(["solve", "--unique", path], capsys)
    assert code == 0
    assert "\x1b[" not in out
    assert "5x5, 5 flows, solved in" in out and "unique" in out
    assert len([line for line in out.splitlines() if len(line) == 5]) == 5


class Tty:
    """A stream that says it is a terminal."""

    def isatty(self):
        return True


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"TERM": "xterm", "COLORTERM": "truecolor"}, TRUECOLOR),
        ({"TERM": "xterm-256color"}, XTERM_256),
        ({"TERM": "xterm"}, BASIC),
        ({"TERM": "xterm-256color", "NO_COLOR": "1"}, PLAIN),
        ({"TERM": "dumb"}, PLAIN),
    ],
)
def test_colour_depth_follows_the_terminal(environ, expected):
    assert terminal_colors(Tty(), environ) == expected


def test_no_colour_off_a_terminal():
    assert terminal_colors(io.StringIO(), {"COLORTERM": "truecolor"}) == PLAIN


@pytest.mark.parametrize(
    ("colors", "escape"), [(TRUECOLOR, "\x1b[48;2;"), (XTERM_256, "\x1b[48;5;"), (BASIC, "\x1b[4")]
)
def test_colour_output_at_each_depth(colors, escape):
    solution = solve(Puzzle.from_rows(GOOD.split())).solution
    drawn = render_solution(solution, colors)
    assert escape in drawn and len(drawn.splitlines()) == 5
    assert render_solution(solution, PLAIN) == "\n".join(solution.to_rows()) + "\n"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["solve", "--bogus", "x.txt"], "unrecognized arguments: --bogus"),
        (["solve", "--timeout", "-1", "x.txt"], "argument --timeout: must be greater than 0, got -1"),
        (["solve", "--timeout", "0", "x.txt"], "argument --timeout: must be greater than 0, got 0"),
        (["solve", "--timeout", "nan", "x.txt"], "argument --timeout: must be a finite number, got nan"),
        (["solve", "--timeout", "inf", "x.txt"], "argument --timeout: must be a finite number, got inf"),
        (["generate", "--size", "5x5", "--count", "0"], "argument --count: must be 1 to 100000, got 0"),
        (["bogus-command"], "invalid choice: 'bogus-command'"),
        (["numbermatch", "--timeout", "nan", "x.txt"], "argument --timeout: must be a finite number"),
        (["auto-clear", "--moves-per-cell", "1000000000"], "--moves-per-cell: must be 1 to 100"),
        (["auto-clear", "--move-delay", "nan"], "--move-delay: must be 0 to 5 s, got nan"),
        (["scrape", "--flow-pause", "inf"], "--flow-pause: must be 0 to 5 s, got inf"),
        (["calibrate", "--release-pause", "-0.1"], "--release-pause: must be 0 to 5 s, got -0.1"),
        (["demo", "--levels", "x"], "argument --levels: not a whole number: 'x'"),
        (["generate", "--size", "5x5", "--count", "1000000000"], "--count: must be 1 to 100000"),
        (["bench", "--repeat", "1000000"], "--repeat: must be 1 to 1000"),
        (["auto-clear", "--count", "0"], "--count: must be 1 to 100000, got 0"),
        (
            ["auto-clear", "--numbermatch", "--dry-run"],
            "--dry-run, --profile and the pointer settings are for Flow",
        ),
        (["game", "--numbermatch", "--pack", "demo"], "--numbermatch deals its own boards"),
        # The game parses its own arguments: its parser's errors are the same one line and 64.
        (["game", "--size", "10"], "game: argument --size: not a size WxH: '10'"),
        (["game", "--bogus"], "game: unrecognized arguments: --bogus"),
    ],
)
def test_bad_arguments_exit_64_with_one_line(args, named, capsys):
    code, out, err = run_cli(args, capsys)
    assert code == 64 and out == ""
    assert err.count("\n") == 1 and named in err and "Traceback" not in err


def test_help_and_version_still_exit_0(capsys):
    for args in (["--help"], ["solve", "--help"], ["--version"], ["game", "--help"]):
        with pytest.raises(SystemExit) as caught:
            main(args)
        assert caught.value.code == 0
    assert "--timeout S" in capsys.readouterr().out


def test_solve_has_a_default_time_limit():
    from flowbot.cli import DEFAULT_SOLVE_TIMEOUT, build_parser

    args = build_parser().parse_args(["solve", "x.txt"])
    assert args.timeout == DEFAULT_SOLVE_TIMEOUT == 60.0
    assert "default 60" in build_parser()._subparsers._group_actions[0].choices["solve"].format_help()


def test_subprocess_console_script_and_module(tmp_path):
    bad = write(tmp_path, "ragged.txt", "A.B\n..\nA.B\n")
    good = write(tmp_path, "good.txt", GOOD)
    env = {**os.environ, "NO_COLOR": "1"}
    completed = subprocess.run(
        [sys.executable, "-m", "flowbot", "solve", "--json", str(bad), str(good)],
        capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert completed.stderr.count("\n") == 1 and str(bad) in completed.stderr
    assert [json.loads(line)["status"] for line in completed.stdout.splitlines()] == ["error", "solved"]
    script = Path(sys.executable).with_name("flowbot")
    if script.exists():
        shown = subprocess.run([str(script), "solve", str(good)], capture_output=True, text=True, env=env,
                               check=False)  # fmt: skip
        assert shown.returncode == 0 and "solved in" in shown.stdout


def test_no_command_is_a_usage_error(capsys):
    code, _, err = run_cli([], capsys)
    assert code == 64 and "no command" in err


def test_a_folder_is_solved_file_by_file(tmp_path, capsys):
    pack = tmp_path / "pack"
    pack.mkdir()
    write(pack, "2.txt", GOOD)
    write(pack, "1.txt", "A.A\nB.B\n")
    write(pack, ".hidden", "junk")
    code, out, _ = run_cli(["solve", "--json", pack], capsys)
    sources = [json.loads(line)["source"] for line in out.splitlines()]
    assert code == 0
    assert sources == [str(pack / "1.txt"), str(pack / "2.txt")]


def test_an_empty_folder_is_bad_input(tmp_path, capsys):
    code, _, err = run_cli(["solve", tmp_path], capsys)
    assert code == 2 and f"{tmp_path}: folder holds no files" in err


def test_convert_writes_json_and_grids_that_read_back(tmp_path, capsys):
    from flowbot.formats import load_puzzles

    many = write(tmp_path, "many.txt", "2 1\nAA\n\n3 1\nB.B\n")
    single = write(tmp_path, "one.txt", GOOD)
    out = tmp_path / "out"
    code, _, err = run_cli(["convert", many, single, "--out", out], capsys)
    assert code == 0, err
    assert sorted(path.name for path in out.iterdir()) == ["many-001.json", "many-002.json", "one.json"]
    assert load_puzzles(out / "one.json")[0] == Puzzle.from_rows(GOOD.split())
    code, _, err = run_cli(["convert", single, "--out", out, "--to", "grid"], capsys)
    assert code == 0 and (out / "one.txt").read_text() == GOOD


def test_convert_never_overwrites_without_force(tmp_path, capsys):
    single = write(tmp_path, "one.txt", GOOD)
    out = tmp_path / "out"
    out.mkdir()
    (out / "one.json").write_text("keep me\n")
    code, _, err = run_cli(["convert", single, "--out", out], capsys)
    assert code == 73 and "already exists (use --force to replace it)" in err
    assert (out / "one.json").read_text() == "keep me\n"
    code, _, _ = run_cli(["convert", single, "--out", out, "--force"], capsys)
    assert code == 0 and json.loads((out / "one.json").read_text())["grid"] == GOOD.split()


def test_solve_a_screenshot_with_json_and_overlay(tmp_path, capsys):
    from tests.images import draw_board, png_bytes

    puzzle = Puzzle.from_rows(GOOD.split())
    shot = tmp_path / "shot.png"
    shot.write_bytes(png_bytes(draw_board(puzzle, cell=50)))
    overlay = tmp_path / "seen.png"
    code, out, err = run_cli(["solve", "--json", shot, "--overlay", overlay], capsys)
    assert code == 0, err
    record = json.loads(out)
    assert record["status"] == "solved"
    assert record["puzzle"] == canonical(GOOD.split())
    assert set(record["colors"].values()) == {"red", "green", "blue", "yellow", "orange"}
    assert overlay.read_bytes().startswith(b"\x89PNG")
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []


def test_overlay_needs_exactly_one_screenshot(tmp_path, capsys):
    text = write(tmp_path, "good.txt", GOOD)
    code, _, err = run_cli(["solve", text, "--overlay", tmp_path / "x.png"], capsys)
    assert code == 64 and "--overlay needs exactly one screenshot" in err


def test_read_saves_screenshots_as_flowbot_json(tmp_path, capsys):
    from flowbot.formats import load_puzzles
    from tests.images import draw_board, jpeg_bytes

    puzzle = Puzzle.from_rows(GOOD.split())
    shots = tmp_path / "shots"
    shots.mkdir()
    (shots / "level-1.jpg").write_bytes(jpeg_bytes(draw_board(puzzle, cell=50)))
    (shots / "notes.txt").write_text(GOOD)
    out = tmp_path / "out"
    code, _, err = run_cli(["read", shots, "--out", out], capsys)
    # A folder's notes are skipped and counted (a notes file named on the command line is refused).
    assert code == 0 and f"{shots}: skipped 1 file, not a screenshot (notes.txt)" in err
    saved = json.loads((out / "level-1.json").read_text())
    assert saved["schema_version"] == 1
    assert saved["source"]["kind"] == "image" and saved["source"]["format"] == "jpeg"
    assert saved["source"]["details"]["image"] == "level-1.jpg"
    assert (saved["source"]["details"]["width"], saved["source"]["details"]["height"]) == (330, 490)
    assert load_puzzles(out / "level-1.json")[0].to_rows() == canonical(puzzle.to_rows())
    assert sorted(path.name for path in out.iterdir()) == ["level-1.json"]


def test_unreadable_screenshot_exits_2_with_a_message(tmp_path, capsys):
    import numpy as np

    from tests.images import png_bytes

    shot = tmp_path / "black.png"
    shot.write_bytes(png_bytes(np.zeros((400, 300, 3), dtype=np.uint8)))
    code, _, err = run_cli(["solve", shot], capsys)
    assert code == 2
    assert err.strip() == (
        f"flowbot: {shot}: no board found: no evenly spaced grid lines; no evenly spaced tile gaps or dark"
        " lines; no lattice of dots in a panel"
    )


def test_every_command_has_help_and_a_handler(capsys):
    from flowbot.cli import build_parser

    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command").choices
    for name in commands:
        with pytest.raises(SystemExit) as caught:
            main([name, "--help"])
        assert caught.value.code == 0, name
        assert "usage:" in capsys.readouterr().out, name
    from flowbot.commands import MODULES
    from flowbot.commands import commands as registered

    modules = {module.NAME: module for module in registered()}
    assert set(modules) == set(commands)
    for name, module in modules.items():
        assert callable(module.run) and callable(module.add_arguments), name
    # Every command module in the folder is registered: a new one cannot be forgotten.
    folder = Path(__file__).resolve().parents[1] / "flowbot" / "commands"
    shared = {"__init__", "pointer_options"}
    assert {path.stem for path in folder.glob("*.py")} - shared == set(MODULES)


def test_the_game_s_parser_errors_are_ours_only_while_it_runs(capsys):
    import argparse

    original = argparse.ArgumentParser.error
    assert run_cli(["game", "--bogus"], capsys)[0] == 64
    assert argparse.ArgumentParser.error is original
