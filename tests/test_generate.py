"""Generated levels: one strict solution, no 2x2 block, flows of three cells or more, reproducible."""

from __future__ import annotations

import json
import random

import pytest

from flowbot.cli import main
from flowbot.errors import UsageError
from flowbot.formats import load_puzzles
from flowbot.generate.levels import make_level
from flowbot.generate.lines import MIN_FLOW, check_size, color_range, grow
from flowbot.model import Puzzle
from flowbot.solve.check import check_paths, touches_itself
from flowbot.solve.sat import solve
from tests.boards import count_solutions


def blocks_of_one_colour(rows: list[str]) -> list[tuple[int, int]]:
    """Top-left corners of every 2x2 block whose four cells share a colour."""
    return [
        (r, c)
        for r in range(len(rows) - 1)
        for c in range(len(rows[0]) - 1)
        if rows[r][c] == rows[r][c + 1] == rows[r + 1][c] == rows[r + 1][c + 1] != "#"
    ]


@pytest.mark.parametrize("seed", range(12))
def test_small_levels_have_exactly_one_solution_by_brute_force(seed):
    rng = random.Random(seed)
    size = rng.choice((4, 5))
    low, high = color_range(size, size)
    level = make_level(size, size, rng.randint(max(low, 3), high), rng)
    strict, _ = count_solutions(level.puzzle, limit=2)
    assert strict == 1
    assert check_paths(level.puzzle, level.solution.paths) == []


@pytest.mark.parametrize(("rows", "cols"), [(6, 6), (8, 8), (7, 10), (12, 12), (14, 14)])
def test_levels_are_unique_and_well_formed(rows, cols):
    rng = random.Random(rows * 100 + cols)
    low, high = color_range(rows, cols)
    colors = rng.randint(low, high)
    level = make_level(rows, cols, colors, rng)
    puzzle, solution = level.puzzle, level.solution
    assert (puzzle.rows, puzzle.cols, len(puzzle.colors)) == (rows, cols, colors)
    assert check_paths(puzzle, solution.paths) == []
    assert blocks_of_one_colour(solution.to_rows()) == []
    assert min(len(path) for path in solution.paths) >= MIN_FLOW
    assert not any(touches_itself(path) for path in solution.paths)
    result = solve(Puzzle.from_rows(puzzle.to_rows()), unique=True, allow_touching=False)
    assert result.status == "solved" and result.unique is True
    assert result.solution.to_rows() == solution.to_rows()


def test_grown_flows_keep_their_invariants():
    for seed in range(30):
        rng = random.Random(seed)
        rows, cols = rng.randint(4, 12), rng.randint(4, 12)
        low, high = color_range(rows, cols)
        paths = grow(rows, cols, rng.randint(low, high), rng)
        cells = [cell for path in paths for cell in path]
        assert sorted(cells) == [(r, c) for r in range(rows) for c in range(cols)]
        assert all(len(path) >= MIN_FLOW and not touches_itself(path) for path in paths)


def test_the_same_seed_gives_the_same_levels(capsys):
    args = ["generate", "--size", "7x7", "--count", "2", "--seed", "42", "--json"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out.split("seconds")[0] == first.split("seconds")[0]
    records = [json.loads(line) for line in first.splitlines()]
    assert records[0]["puzzle"] != records[1]["puzzle"]
    assert {"puzzle", "solution", "difficulty", "band", "colors"} <= set(records[0])


def test_out_writes_flowbot_json_with_the_solution(tmp_path, capsys):
    out = tmp_path / "pack"
    assert main(["generate", "--size", "6x6", "--count", "3", "--seed", "5", "--out", str(out)]) == 0
    files = sorted(out.iterdir())
    assert [path.name for path in files] == ["6x6-5-001.json", "6x6-5-002.json", "6x6-5-003.json"]
    saved = json.loads(files[0].read_text())
    puzzle = load_puzzles(files[0])[0]
    assert saved["solution"] and puzzle.source.details["seed"] == 5
    assert main(["generate", "--size", "6x6", "--seed", "5", "--out", str(out)]) == 73
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("size", "colors", "message"),
    [
        (3, 3, "outside 4x4"),
        (8, 1, "the game's packs use"),
        (8, 17, "the game's packs use"),
        (25, 10, "outside"),
    ],
)
def test_sizes_and_colour_counts_outside_the_game_are_refused(size, colors, message):
    with pytest.raises(UsageError, match=message):
        check_size(size, size, colors)


def test_bad_size_text_is_a_usage_error(capsys):
    assert main(["generate", "--size", "big"]) == 64
    assert "expected ROWSxCOLS" in capsys.readouterr().err


@pytest.mark.parametrize("band", ["easy", "medium", "hard"])
def test_difficulty_steers_into_the_band(band):
    level = make_level(7, 7, 6, random.Random(3), difficulty=band, budget=20)
    assert level.rating.band == band
