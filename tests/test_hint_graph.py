"""`flowbot hint` and `flowbot rate` off the square grid: Shapes, hexes and warps boards reason along
their own links, name cells a person can find, and draw the step over the real cells."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from pathlib import Path

import cv2
import pytest

from flowbot.capture.shapes.truth import read_truth
from flowbot.cli import main
from flowbot.formats import puzzle_to_json
from flowbot.generate.variants import make_shape_level, make_variant_level
from flowbot.model import Puzzle, Solution
from flowbot.rate.hint import hint_from, next_hint, position
from flowbot.rate.human import ON, Board, State, apply
from flowbot.shapes.kinds import shape_board
from flowbot.solve.sat import solve
from tests.conftest import SHARED

TRUTHS = Path(__file__).parent / "data" / "shapes"
VARIANTS = SHARED / "screenshots" / "variants"


def shapes_screenshots() -> list[Path]:
    """Every Shapes screenshot of the shared variants folder that has a truth file here."""
    if not VARIANTS.is_dir():
        return []
    stems = {truth.name.removesuffix(".shapes.txt") for truth in TRUTHS.glob("*.shapes.txt")}
    return sorted(image for image in VARIANTS.iterdir() if image.stem in stems and image.suffix != ".txt")


def truth_puzzle(stem: str) -> Puzzle:
    """The Shapes puzzle a truth file describes."""
    truth = read_truth((TRUTHS / f"{stem}.shapes.txt").read_text())
    return Puzzle.from_shapes(truth.letters, truth.neighbours)


def shape_level(name: str, seed: int) -> Puzzle:
    """A generated level on one of the game's Shapes boards."""
    board = shape_board(name)
    return make_shape_level(name, board.count, board.links, 6, random.Random(seed)).puzzle


def colour_of(puzzle: Puzzle) -> dict:
    """Each cell's colour in the puzzle's one strict solution."""
    return {cell: color for color, path in enumerate(only_solution(puzzle).paths) for cell in path}


def only_solution(puzzle: Puzzle) -> Solution:
    """The puzzle's one strict solution."""
    result = solve(puzzle, allow_touching=False, unique=True)
    assert result.status == "solved" and result.unique
    return result.solution


def step_through(puzzle: Puzzle) -> int:
    """Take hint after hint from an empty board, checking each against the solution; the steps taken."""
    solution = only_solution(puzzle)
    colour = {cell: color for color, path in enumerate(solution.paths) for cell in path}
    state = position(puzzle)
    steps = 0
    while True:
        hint = hint_from(state)
        if hint.done:
            break
        assert hint.kind != "stuck" and hint.moves and hint.why
        for a, b, color in hint.joins:
            assert colour[a] == colour[b] and color in (-1, colour[a])
            assert b in puzzle.neighbors(a)
        for cell, color in hint.colored:
            assert colour[cell] == color
        apply(state, list(hint.moves))
        steps += 1
    # "Done" leaves only unseen steps (sides ruled out): every colour and every join is on the board.
    board = state.board
    for i, cell in enumerate(board.cells):
        assert state.domain[i] == 1 << colour[cell]
    joined = {frozenset(board.edges[e]) for e, value in enumerate(state.edge) if value == ON}
    path_joins = {
        frozenset(board.index[c] for c in pair) for path in solution.paths for pair in pairwise(path)
    }
    assert joined == path_joins
    return steps


@pytest.mark.parametrize("image", shapes_screenshots(), ids=lambda path: path.stem)
def test_hints_on_a_shapes_screenshot_follow_the_solution_to_the_end(image):
    from flowbot.capture.screenshot import read_screenshot_file

    puzzle = read_screenshot_file(image.read_bytes(), str(image)).puzzle
    assert puzzle.kind == "shapes"
    assert step_through(puzzle) > 0


def test_the_shapes_screenshots_are_there_when_the_shared_folder_is():
    if not VARIANTS.is_dir():
        pytest.skip("../shared/screenshots/variants is not present")
    assert len(shapes_screenshots()) == len(list(TRUTHS.glob("*.shapes.txt")))


@pytest.mark.parametrize(
    "stem", sorted(t.name.removesuffix(".shapes.txt") for t in TRUTHS.glob("*.shapes.txt"))
)
def test_hints_on_each_shapes_truth_board_solve_it(stem):
    assert step_through(truth_puzzle(stem)) > 0


@pytest.mark.parametrize(("name", "seed"), [("cube", 1), ("ring", 2), ("hexhex", 3)])
def test_hints_on_a_generated_shapes_level_solve_it(name, seed):
    assert step_through(shape_level(name, seed)) > 0


@pytest.mark.parametrize("variant", ["hexes", "warps"])
def test_hints_on_hexes_and_warps_levels_solve_them(variant):
    puzzle = make_variant_level(variant, 6, 6, 5, random.Random(7)).puzzle
    assert step_through(puzzle) > 0


def test_a_shapes_board_has_no_square_edges_and_its_turns_are_four_cell_cycles():
    # Cells 0-1-2-3 in a ring with a tail 3-4: the only cycle of four is the ring.
    puzzle = Puzzle.from_shapes("A...A", [(0, 1), (1, 2), (2, 3), (3, 0), (3, 4)])
    board = Board.of(puzzle)
    assert sorted(tuple(sorted(edge)) for edge in board.edges) == [(0, 1), (0, 3), (1, 2), (2, 3), (3, 4)]
    assert {square for squares in board.squares for square in squares} == {(0, 1, 2, 3)}
    # Cells 0 and 4 are (0, 0) and (0, 4): far apart on a row, but their flood follows the links.
    state = State(board)
    hint = hint_from(state)
    assert hint.text(puzzle).count("cell ") >= 1 and "row" not in hint.text(puzzle)


def test_shapes_hint_names_cells_by_number():
    puzzle = truth_puzzle("ludovicb1239__FlowShapesSolver__original4")
    hint = next_hint(puzzle)
    text = hint.text(puzzle)
    assert "cell " in text and "row " not in text and "col " not in text
    assert hint.line(puzzle).startswith(("join cell ", "cell "))


def shapes_file(tmp_path: Path, puzzle: Puzzle) -> Path:
    """The puzzle saved as a flowbot JSON Shapes file."""
    path = tmp_path / "shapes.json"
    path.write_text(json.dumps(puzzle_to_json(puzzle)))
    return path


def test_hint_command_on_a_shapes_file_and_a_drawn_line(tmp_path, capsys):
    puzzle = truth_puzzle("ludovicb1239__FlowShapesSolver__8")
    path = shapes_file(tmp_path, puzzle)
    assert main(["hint", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["hint"]["kind"] != "stuck" and "cell " in record["text"]
    colour = colour_of(puzzle)
    for join in record["hint"]["joins"]:
        a, b = (tuple(cell) for cell in join["cells"])
        assert colour[a] == colour[b]
    # A drawn position is one line, a character per cell; a wrong one is pointed out by cell number.
    labels = [color.label for color in puzzle.colors]
    wrong = next(cell for cell in puzzle.cells() if puzzle.endpoint_color(cell) is None)
    line = list(puzzle.to_rows()[0])
    line[wrong[1]] = next(label for k, label in enumerate(labels) if k != colour[wrong])
    state = tmp_path / "state.txt"
    state.write_text("".join(line) + "\n")
    assert main(["hint", str(path), "--state", str(state)]) == 0
    assert f"cell {wrong[1]}" in capsys.readouterr().out
    state.write_text(puzzle.to_rows()[0] + "\n" + puzzle.to_rows()[0] + "\n")
    assert main(["hint", str(path), "--state", str(state)]) == 2
    assert "one line of" in capsys.readouterr().err


def test_rate_command_rates_a_shapes_file(tmp_path, capsys):
    path = shapes_file(tmp_path, truth_puzzle("ludovicb1239__FlowShapesSolver__original4"))
    assert main(["rate", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert record["deduction_solves"] is True and record["band"] in ("easy", "medium", "hard")


def test_hint_draws_the_step_over_a_shapes_screenshot(tmp_path, capsys):
    images = shapes_screenshots()
    if not images:
        pytest.skip("../shared/screenshots/variants is not present")
    image = images[0]
    picture = tmp_path / "hint.png"
    assert main(["hint", str(image), "--picture", str(picture)]) == 0
    out = capsys.readouterr().out
    assert "cell " in out and str(picture) in out
    drawn, shot = cv2.imread(str(picture)), cv2.imread(str(image))
    assert drawn.shape == shot.shape and (drawn != shot).any()


def test_hint_and_rate_refuse_a_bridges_board_by_name(tmp_path, capsys):
    assert (
        main(["generate", "--variant", "bridges", "--size", "6x6", "--seed", "4", "--out", str(tmp_path)])
        == 0
    )
    capsys.readouterr()
    [saved] = tmp_path.glob("*.json")
    assert main(["hint", str(saved)]) == 2
    err = capsys.readouterr().err
    assert saved.name in err and "bridge" in err
    assert main(["rate", str(saved)]) == 2
    err = capsys.readouterr().err
    assert saved.name in err and "bridge" in err
