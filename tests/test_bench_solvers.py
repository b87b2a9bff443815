"""scripts/bench_solvers.py: the Go anchor's input holds the same puzzles, and a missing anchor is named."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from flowbot.formats import load_puzzles, parse_text

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_solvers.py"


def _bench():
    """The benchmark script as a module."""
    spec = importlib.util.spec_from_file_location("bench_solvers", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_solvers"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_go_input_holds_every_puzzle_of_the_set(corpus):
    bench = _bench()
    files = bench.set_files(corpus, "levels")
    assert len(files) == 29  # 28 real levels and the unsolvable cross
    expected = [puzzle.to_rows() for name in files for puzzle in load_puzzles(name)]
    read_back = [entry.puzzle.to_rows() for entry in parse_text(bench.go_input(files))]
    assert read_back == expected


def test_the_go_anchor_is_named_missing_without_go_or_outside_source(tmp_path, monkeypatch):
    bench = _bench()
    monkeypatch.setenv("PATH", str(tmp_path))  # no `go` here
    assert bench.build_go_anchor(tmp_path, tmp_path) == "no `go` on PATH"
    fake_go = tmp_path / "go"
    fake_go.write_text("#!/bin/sh\nexit 1\n")
    fake_go.chmod(0o755)
    assert "has no src/numberlink" in bench.build_go_anchor(tmp_path, tmp_path)
    (tmp_path / "src" / "numberlink").mkdir(parents=True)
    assert "go build failed" in bench.build_go_anchor(tmp_path, tmp_path)  # the fake go fails the build
    assert "outside this repository" in bench.build_go_anchor(bench.REPOSITORY / "scripts", tmp_path)


def test_startup_times_the_console_script_and_python_m_beside_the_interpreter(corpus, capsys):
    bench = _bench()
    python = Path(sys.executable)
    puzzle = bench.set_files(corpus, "5x5")[0]
    commands = bench.startup_commands(python, puzzle)
    assert commands["flowbot solve"] == [str(python.parent / "flowbot"), "solve", puzzle]
    assert commands["python -m flowbot solve"] == [str(python), "-m", "flowbot", "solve", puzzle]
    bench.startup([python], puzzle, 1)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("  wall")[0].removeprefix("startup ").strip() for line in lines] == list(commands)
    assert all("cpu min" in line and "median" in line for line in lines)
