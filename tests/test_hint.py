"""`flowbot hint`: the next step agrees with the solution, says why, and is drawn on screenshots."""

from __future__ import annotations

import json
import random

import cv2
import pytest

from flowbot.cli import main
from flowbot.formats import load_puzzles
from flowbot.generate.levels import make_level
from flowbot.model import Puzzle
from flowbot.rate.hint import hint_from, next_hint, position
from flowbot.rate.human import Board, apply
from flowbot.rate.truth import Truth
from flowbot.solve.sat import solve
from tests.conftest import SHARED


def screenshots_with_truth():
    """(image, truth rows) for every screenshot in the shared folder that has a truth file."""
    folder = SHARED / "screenshots"
    if not folder.is_dir():
        return []
    pairs = []
    for truth in sorted(folder.glob("*.truth.txt")):
        stem = truth.name.removesuffix(".truth.txt")
        images = [p for p in folder.iterdir() if p.stem == stem and not p.name.endswith(".txt")]
        rows = [line for line in truth.read_text().splitlines() if line.strip()]
        pairs.extend((image, rows) for image in images)
    return pairs


def assert_hint_agrees(puzzle, solution, hint):
    """Every join and colour of the hint is in the solution, and the hint has a reason."""
    board = Board.of(puzzle)
    truth = Truth.of(board, solution)
    assert hint.moves and hint.why
    for move in hint.moves:
        assert truth.agrees(move), (hint.kind, move)
    for a, b, color in hint.joins:
        assert truth.edge[board.edge_index[(board.index[a], board.index[b])]] == 1
        if color >= 0:
            assert truth.color[board.index[a]] == color


def test_first_hint_on_every_real_screenshot_is_right_and_drawn(tmp_path, capsys):
    pairs = screenshots_with_truth()
    if not pairs:
        pytest.skip("../shared/screenshots is not present")
    for image, rows in pairs:
        picture = tmp_path / f"{image.stem}.png"
        assert main(["hint", str(image), "--picture", str(picture), "--json"]) == 0, image.name
        record = json.loads(capsys.readouterr().out)
        assert record["puzzle"] == rows, image.name  # the board was read right
        truth_puzzle = Puzzle.from_rows(rows)
        result = solve(truth_puzzle, allow_touching=False)
        hint = next_hint(truth_puzzle)
        assert_hint_agrees(truth_puzzle, result.solution, hint)
        assert record["hint"]["joins"] or record["hint"]["colored"]
        drawn = cv2.imread(str(picture))
        original = cv2.imread(str(image))
        assert drawn is not None and drawn.shape == original.shape, image.name
        assert (drawn != original).any()


def test_following_hints_finishes_a_real_level_and_each_is_right(corpus):
    puzzle = load_puzzles(corpus / "mzucker__flow_solver" / "puzzles" / "extreme_9x9_30.txt")[0]
    solution = solve(puzzle).solution
    state = position(puzzle)
    kinds = set()
    for _ in range(500):
        hint = hint_from(state)
        if hint.done:
            break
        assert_hint_agrees(puzzle, solution, hint)
        kinds.add(hint.kind)
        apply(state, list(hint.moves))
    assert hint.done
    assert any("contradiction" in kind for kind in kinds)  # the level needs a supposition somewhere


@pytest.mark.parametrize("seed", range(3))
def test_hints_from_a_partly_drawn_generated_level(seed):
    rng = random.Random(40 + seed)
    level = make_level(7, 7, 6, rng)
    rows = level.solution.to_rows()
    start = level.puzzle.to_rows()
    keep = rng.randrange(len(level.solution.paths))
    label = level.puzzle.colors[keep].label
    drawn = [
        "".join(c if c == label else s for c, s in zip(row, base, strict=True))
        for row, base in zip(rows, start, strict=True)
    ]
    hint = next_hint(level.puzzle, drawn, level.solution)
    if not hint.done:
        assert_hint_agrees(level.puzzle, level.solution, hint)


def test_a_wrongly_drawn_cell_is_pointed_out():
    level = make_level(6, 6, 5, random.Random(9))
    rows = [list(row) for row in level.puzzle.to_rows()]
    grid = level.solution.color_grid()
    for row in range(6):
        for col in range(6):
            if rows[row][col] == ".":
                wrong = (grid[row][col] + 1) % len(level.puzzle.colors)
                rows[row][col] = level.puzzle.colors[wrong].label
                hint = next_hint(level.puzzle, ["".join(line) for line in rows], level.solution)
                assert hint.kind == "undo" and (row, col) in hint.wrong
                return


def test_a_solved_position_needs_no_hint():
    level = make_level(5, 5, 4, random.Random(2))
    hint = next_hint(level.puzzle, level.solution.to_rows(), level.solution)
    assert hint.done
    assert "Nothing left" in hint.text(level.puzzle)


def test_hint_cli_on_a_file_with_a_state(tmp_path, capsys):
    level = make_level(6, 6, 5, random.Random(4))
    puzzle_file = tmp_path / "p.txt"
    puzzle_file.write_text("\n".join(level.puzzle.to_rows()) + "\n")
    solved = level.solution.to_rows()
    half = solved[:3] + level.puzzle.to_rows()[3:]  # the top half drawn as solved
    state = tmp_path / "state.txt"
    state.write_text("\n".join(half) + "\n")
    assert main(["hint", str(puzzle_file), "--state", str(state), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["hint"]["kind"] != "undo"
    wrong = [list(row) for row in level.puzzle.to_rows()]
    cell = next((r, c) for r in range(6) for c in range(6) if wrong[r][c] == ".")
    other = next(color.label for color in level.puzzle.colors if color.label != solved[cell[0]][cell[1]])
    wrong[cell[0]][cell[1]] = other
    state.write_text("\n".join("".join(row) for row in wrong) + "\n")
    assert main(["hint", str(puzzle_file), "--state", str(state)]) == 0
    assert "Something drawn does not fit" in capsys.readouterr().out


def test_hint_cli_refuses_bad_states_by_name(tmp_path, capsys):
    puzzle_file = tmp_path / "p.txt"
    puzzle_file.write_text("A.B\n...\nA.B\n")
    state = tmp_path / "state.txt"
    state.write_text("A.B\n...\n")
    assert main(["hint", str(puzzle_file), "--state", str(state)]) == 2
    assert "state.txt" in capsys.readouterr().err
    state.write_text("B.B\n...\nA.B\n")
    assert main(["hint", str(puzzle_file), "--state", str(state)]) == 2
    assert "endpoint" in capsys.readouterr().err
    assert main(["hint", str(puzzle_file), "--picture", str(tmp_path / "x.png")]) == 64


def test_hint_and_rate_reason_on_a_hex_board_too(tmp_path, capsys):
    assert (
        main(["generate", "--variant", "hexes", "--size", "6x6", "--seed", "4", "--out", str(tmp_path)]) == 0
    )
    capsys.readouterr()
    [saved] = tmp_path.glob("*.json")
    # Hexes reason along their own links (bridges alone are refused: see test_hint_graph).
    assert main(["hint", str(saved)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Next step") and "row " in out
    assert main(["rate", str(saved)]) == 0
