"""The bundled game's rules, sessions, input routing, layout and packs: pure, no window."""

from __future__ import annotations

import importlib.util
import json
from importlib import resources
from itertools import pairwise
from pathlib import Path

import pytest

from flowbot.errors import FlowbotError, InputFileError, UsageError
from flowbot.game.board import GameBoard
from flowbot.game.controls import Controls
from flowbot.game.layout import Dialog, compute_layout
from flowbot.game.packs import levels_from, list_packs
from flowbot.game.session import LevelResult, ResultsFile, Session
from flowbot.model import Cell, Puzzle
from flowbot.solve.sat import solve

# For the rules, not for solving: A's dots head the left column, B's the right one, C's sit between.
OPEN = Puzzle.from_rows(
    [
        "A..B",
        "....",
        ".C.C",
        "A..B",
    ]
)
SOLVABLE = Puzzle.from_rows(["A..B", ".C..", "....", "CAB."])
SHAPED = Puzzle.from_rows(["#A..#", "B...#", "C....", "DC.B.", "..D#A"])
REPO = Path(__file__).resolve().parents[1]


def stroke(board: GameBoard, cells: list[Cell]) -> bool:
    """Press the first cell, drag through the rest, release; whether it changed a pipe."""
    board.press(cells[0])
    for cell in cells[1:]:
        board.drag(cell)
    return board.release()


def solution_strokes(puzzle: Puzzle) -> list[list[Cell]]:
    """One stroke per colour, dot to dot, from the SAT solver."""
    result = solve(puzzle)
    assert result.solution is not None
    return [list(path) for path in result.solution.paths]


# --- rules -----------------------------------------------------------------------------------------


def test_dragging_from_a_dot_extends_a_pipe_through_empty_cells():
    board = GameBoard(OPEN)
    assert board.press((0, 0))
    board.drag((1, 0))
    board.drag((1, 1))
    assert board.pipes[0] == [(0, 0), (1, 0), (1, 1)]
    assert board.drawing == 0
    assert board.to_rows() == ["A..B", "AA..", ".C.C", "A..B"]


def test_reaching_the_other_dot_connects_and_the_head_stays_there():
    board = GameBoard(OPEN)
    stroke(board, [(0, 0), (1, 0), (2, 0), (3, 0)])
    assert board.is_connected(0) and board.connected == 1
    board.press((2, 0))  # continue from a pipe cell: cut after it, and now go round
    board.drag((3, 0))
    board.drag((3, 1))  # past the dot: ignored, the flow is connected
    assert board.pipes[0] == [(0, 0), (1, 0), (2, 0), (3, 0)]
    board.drag((2, 0))  # backing out of the dot disconnects
    assert board.pipes[0] == [(0, 0), (1, 0), (2, 0)]
    assert not board.is_connected(0)


def test_moving_back_over_the_pipe_truncates_it():
    board = GameBoard(OPEN)
    board.press((0, 0))
    for cell in [(0, 1), (0, 2), (1, 2), (1, 1)]:
        board.drag(cell)
    board.drag((0, 1))  # a cell of the pipe further back, next to the head
    assert board.pipes[0] == [(0, 0), (0, 1)]
    board.drag((0, 0))
    assert board.pipes[0] == [(0, 0)]


def test_pressing_a_pipe_cell_cuts_after_it_and_continues():
    board = GameBoard(OPEN)
    stroke(board, [(0, 0), (0, 1), (0, 2), (1, 2)])
    assert board.press((0, 1))
    assert board.pipes[0] == [(0, 0), (0, 1)]
    board.drag((1, 1))
    assert board.pipes[0] == [(0, 0), (0, 1), (1, 1)]


def test_pressing_a_dot_starts_its_colour_again_from_that_dot():
    board = GameBoard(OPEN)
    stroke(board, [(0, 0), (1, 0), (2, 0), (3, 0)])
    assert board.press((3, 0))  # the far dot of a connected pipe
    assert board.pipes[0] == [(3, 0)]
    board.drag((3, 1))
    assert board.pipes[0] == [(3, 0), (3, 1)]


def test_crossing_another_pipe_cuts_it_where_it_is_crossed():
    board = GameBoard(OPEN)
    stroke(board, [(0, 3), (0, 2), (0, 1), (1, 1), (1, 0)])
    stroke(board, [(0, 0), (1, 0)])  # A enters B's last cell
    assert board.pipes[1] == [(0, 3), (0, 2), (0, 1), (1, 1)]
    board.press((1, 0))
    board.drag((1, 1))  # A crosses B in the middle: B keeps the part from its own dot
    assert board.pipes[1] == [(0, 3), (0, 2), (0, 1)]
    assert board.pipes[0] == [(0, 0), (1, 0), (1, 1)]


def test_another_colours_dot_is_a_wall():
    board = GameBoard(OPEN)
    board.press((2, 0))
    assert board.drawing is None  # an empty cell starts nothing
    board.press((0, 3))
    board.drag((0, 2))
    board.drag((0, 1))
    board.drag((0, 0))  # A's dot
    assert board.pipes[1] == [(0, 3), (0, 2), (0, 1)]
    board.drag((1, 1))
    board.drag((2, 1))  # C's dot, from below
    assert board.pipes[1] == [(0, 3), (0, 2), (0, 1), (1, 1)]


def test_jumps_are_ignored_unless_interpolating_straight_lines():
    board = GameBoard(OPEN)
    board.press((0, 0))
    board.drag((3, 0))  # three cells down in one event
    board.drag((1, 1))  # diagonal
    assert board.pipes[0] == [(0, 0)]
    smooth = GameBoard(OPEN, interpolate=True)
    smooth.press((0, 0))
    smooth.drag((3, 0))
    assert smooth.pipes[0] == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert smooth.is_connected(0)
    smooth.press((0, 3))
    smooth.drag((0, 0))  # straight along the top into A's dot: stops before it
    assert smooth.pipes[1] == [(0, 3), (0, 2), (0, 1)]
    smooth.drag((1, 2))  # a diagonal jump is still ignored
    assert smooth.pipes[1] == [(0, 3), (0, 2), (0, 1)]


def test_walls_cannot_be_pressed_or_entered():
    board = GameBoard(SHAPED)
    assert not board.press((0, 0))
    assert not board.press((9, 9))
    assert board.press((0, 1))
    board.drag((0, 0))
    assert board.pipes[0] == [(0, 1)]
    board.drag(None)  # off the grid
    board.drag((0, 2))
    assert board.pipes[0] == [(0, 1), (0, 2)]


def test_moves_count_strokes_that_change_pipes_and_same_colour_twice_is_one():
    board = GameBoard(OPEN)
    assert not stroke(board, [(0, 0)])  # a tap on a dot changes nothing
    assert board.moves == 0
    assert stroke(board, [(0, 0), (1, 0)])
    assert stroke(board, [(1, 0), (2, 0)])  # the same colour again at once
    assert board.moves == 1
    assert stroke(board, [(0, 3), (1, 3)])
    assert board.moves == 2
    assert not stroke(board, [(1, 1), (1, 2)])  # an empty cell starts no stroke
    assert stroke(board, [(0, 0)])  # pressing a drawn colour's dot clears it: a move
    assert board.moves == 3
    board.restart()
    assert board.moves == 0 and all(not pipe for pipe in board.pipes)


def test_pipe_percent_counts_cells_under_pipes():
    board = GameBoard(OPEN)
    assert board.pipe_percent == 0
    board.press((0, 0))
    assert board.pipe_percent == 0  # a lone dot is not a pipe
    board.drag((1, 0))
    assert board.covered == 2 and board.pipe_percent == 12  # 2 of 16 cells
    board.drag((2, 0))
    board.drag((3, 0))
    board.release()
    assert board.pipe_percent == 25


def test_a_solution_drawn_stroke_by_stroke_completes_the_level():
    for puzzle in (SOLVABLE, SHAPED):
        board = GameBoard(puzzle)
        strokes = solution_strokes(puzzle)
        for number, cells in enumerate(strokes):
            assert not board.complete
            assert stroke(board, cells)
            assert board.connected == number + 1
        assert board.complete and board.perfect
        assert board.pipe_percent == 100
        assert board.moves == len(puzzle.colors)


def test_a_detour_that_leaves_cells_empty_connects_all_but_is_not_complete():
    puzzle = Puzzle.from_rows(["A.B", "...", "A.B"])
    board = GameBoard(puzzle)
    stroke(board, [(0, 0), (1, 0), (2, 0)])
    stroke(board, [(0, 2), (1, 2), (2, 2)])
    assert board.connected == 2
    assert not board.complete  # the middle column is empty
    assert board.pipe_percent == 66


# --- sessions --------------------------------------------------------------------------------------


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        """The time now, in seconds."""
        return self.now


def test_session_reports_each_level_when_it_is_left():
    reported: list[LevelResult] = []
    clock = FakeClock()
    session = Session([OPEN, SHAPED], report=reported.append, clock=clock)
    assert session.level == 1 and session.dialog() is None
    stroke(session.board, [(0, 0), (1, 0)])
    clock.now += 2.5
    session.next()
    assert session.level == 2
    assert reported == [LevelResult(1, tuple(OPEN.to_rows()), False, 1, 2.5)]
    clock.now += 1.0
    session.restart_clock()  # e.g. once the window is open
    clock.now += 0.5
    assert session.leave() == LevelResult(2, tuple(SHAPED.to_rows()), False, 0, 0.5)
    session.previous()
    session.previous()  # nothing before the first level
    assert session.level == 1 and session.board.moves == 0  # a fresh visit
    assert [result.level for result in reported] == [1, 2]  # level 2 once, though left twice
    assert session.leave() is not None
    assert session.leave() is None  # once per visit


def test_session_dialogs_and_the_end_of_the_pack():
    reported: list[LevelResult] = []
    session = Session([SOLVABLE, SHAPED], report=reported.append)
    for cells in solution_strokes(SOLVABLE):
        stroke(session.board, cells)
    dialog = session.dialog()
    assert dialog == Dialog("Perfect!", ("You completed the level", "in 3 moves."), "next level")
    session.next()
    strokes = solution_strokes(SHAPED)
    stroke(session.board, strokes[0][:2])
    stroke(session.board, strokes[1][:2])
    for cells in strokes:
        stroke(session.board, cells)
    last = session.dialog()
    assert last is not None and last.title == "Level complete" and last.button == "back to level 1"
    assert "pack complete" in last.lines
    session.next()  # after the last level comes the first again
    assert session.level == 1 and not session.board.complete
    assert [(result.level, result.solved) for result in reported] == [(1, True), (2, True)]
    # A, B, then A again: not the same colour twice in a row, so every stroke was a move.
    assert reported[1].moves == len(SHAPED.colors) + 2


def test_skipping_the_last_level_loops_back_to_the_first():
    reported: list[LevelResult] = []
    session = Session([OPEN], report=reported.append)
    stroke(session.board, [(0, 0), (1, 0)])
    session.next()
    assert session.level == 1 and session.board.moves == 0
    assert [(result.level, result.moves) for result in reported] == [(1, 1)]
    with pytest.raises(UsageError):
        Session([])


def test_results_file_appends_one_flushed_json_line_per_result(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_text('{"earlier": true}\n')
    sink = ResultsFile(str(path))
    sink.write(LevelResult(3, ("A.A",), False, 2, 1.23456))
    # Flushed: readable before the file is closed.
    lines = path.read_text().splitlines()
    expected = {"level": 3, "puzzle": ["A.A"], "solved": False, "moves": 2, "seconds": 1.235}
    assert json.loads(lines[1]) == expected
    sink.close()
    sink.write(LevelResult(4, ("A.A",), True, 1, 1.0))  # after close: dropped
    assert len(path.read_text().splitlines()) == 2
    with pytest.raises(FlowbotError, match="cannot write results"):
        ResultsFile(str(tmp_path / "missing" / "results.jsonl"))


# --- layout and input ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(540, 960), (1080, 1920), (800, 600), (300, 1200)])
@pytest.mark.parametrize("shape", [(5, 5), (14, 14), (10, 8), (8, 12)])
def test_layout_centres_square_cells_as_large_as_fit(size, shape):
    width, height = size
    rows, cols = shape
    layout = compute_layout(width, height, rows, cols, Dialog("Perfect!", ("a", "b"), "next level"))
    xs, ys = layout.geometry.xs, layout.geometry.ys
    cell = xs[1] - xs[0]
    assert all(b - a == cell for a, b in pairwise(xs))
    assert all(b - a == cell for a, b in pairwise(ys))
    assert abs(xs[0] - (width - xs[-1])) <= 1  # centred
    assert xs[0] >= 0.03 * width - 1 and xs[-1] <= 0.97 * width + 1
    assert layout.hud.y + layout.hud.height <= ys[0] + 1 and layout.title_y < layout.hud.y
    assert ys[-1] < min(button.y - button.radius for button in layout.buttons)
    # One pixel more per cell would not fit across or down.
    fits_across = (cell + 1) * cols <= 0.94 * width
    fits_down = ys[0] - layout.hud.height <= layout.hud.y and (cell + 1) * rows <= ys[-1] - ys[0]
    assert not (fits_across and fits_down)
    placed = layout.dialog
    assert placed is not None and placed.button is not None
    assert placed.box.x >= 0 and placed.box.x + placed.box.width <= width
    assert placed.box.height >= 0.5 * placed.box.width  # the dialog never looks like a wide button
    assert 3.5 <= placed.button.width / placed.button.height <= 4.5
    inner = placed.button
    assert placed.box.contains(inner.x, inner.y) and placed.box.contains(*inner.center)


def test_layout_scales_with_the_window():
    small = compute_layout(540, 960, 8, 8)
    large = compute_layout(1080, 1920, 8, 8)
    assert large.cell == pytest.approx(2 * small.cell, abs=1)
    assert large.buttons[0].radius == 2 * small.buttons[0].radius
    assert large.px(10) == 2 * small.px(10)


def test_pointer_input_goes_through_the_layout_geometry():
    session = Session([SOLVABLE, SHAPED])
    controls = Controls(session)
    layout = compute_layout(540, 960, SOLVABLE.rows, SOLVABLE.cols)
    for cells in solution_strokes(SOLVABLE):
        controls.pointer_down(*layout.geometry.center(cells[0]), layout)
        for cell in cells[1:]:
            x, y = layout.geometry.center(cell)
            controls.pointer_move(x + 0.3 * layout.cell, y, layout)  # anywhere inside the cell
        controls.pointer_up()
    assert session.board.complete
    dialog = session.dialog()
    shown = compute_layout(540, 960, SOLVABLE.rows, SOLVABLE.cols, dialog)
    controls.pointer_down(*layout.geometry.center((3, 3)), shown)  # under the dialog: nothing
    assert session.level == 1
    assert shown.dialog is not None and shown.dialog.button is not None
    controls.pointer_down(*shown.dialog.button.center, shown)
    assert session.level == 2


def test_bottom_buttons_keys_and_a_release_outside_the_window():
    session = Session([OPEN, SHAPED])
    controls = Controls(session)
    layout = compute_layout(540, 960, OPEN.rows, OPEN.cols)
    buttons = {button.name: button for button in layout.buttons}
    controls.pointer_down(*layout.geometry.center((0, 0)), layout)
    controls.pointer_move(*layout.geometry.center((1, 0)), layout)
    controls.pointer_move(*layout.geometry.center((2, 0)), layout, held=False)  # released elsewhere
    assert session.board.drawing is None and session.board.moves == 1
    controls.pointer_down(buttons["restart"].x, buttons["restart"].y, layout)
    assert session.board.moves == 0
    controls.pointer_down(buttons["next"].x, buttons["next"].y, layout)
    assert session.level == 2
    controls.pointer_down(buttons["previous"].x, buttons["previous"].y, layout)
    assert session.level == 1
    assert controls.key("right") and session.level == 2
    assert controls.key("left") and session.level == 1
    assert controls.key("space")  # unknown keys do nothing
    assert not controls.key("escape")


# --- packs -----------------------------------------------------------------------------------------


def test_shipped_packs_are_listed_demo_first_then_by_size():
    assert list_packs() == ["demo"] + [f"{side}x{side}" for side in range(5, 15)]


def test_the_demo_pack_grows_from_5x5_to_14x14():
    levels = levels_from("demo", None)
    assert [level.size for level in levels] == [f"{side}x{side}" for side in range(5, 15)]
    assert levels_from(None, None) == levels  # the default


def test_every_shipped_level_is_completed_by_its_stored_solution():
    root = resources.files("flowbot") / "data" / "packs"
    count = 0
    for pack in list_packs():
        files = sorted((item for item in (root / pack).iterdir()), key=lambda item: item.name)
        levels = levels_from(pack, None)
        assert len(files) == len(levels) == 10
        for file, puzzle in zip(files, levels, strict=True):
            data = json.loads(file.read_text())
            assert data["grid"] == puzzle.to_rows()
            if pack != "demo":
                assert puzzle.size == pack and file.name == f"{count % 10 + 1:03d}.json"
            board = GameBoard(puzzle)
            for cells in paths_in(data["solution"], puzzle):
                stroke(board, cells)
            assert board.complete, (pack, file.name)
            count += 1
    assert count == 110


def paths_in(rows: list[str], puzzle: Puzzle) -> list[list[Cell]]:
    """Each colour's path through a solved grid, walked from its first dot (strict: one way on)."""
    paths = []
    for color, (start, _) in zip(puzzle.colors, puzzle.endpoints, strict=True):
        path = [start]
        while True:
            step = [
                cell
                for cell in puzzle.neighbors(path[-1])
                if rows[cell[0]][cell[1]] == color.label and cell not in path
            ]
            if not step:
                break
            path.append(step[0])
        paths.append(path)
    return paths


def test_make_packs_writes_the_shipped_files_again(tmp_path):
    spec = importlib.util.spec_from_file_location("make_packs", REPO / "scripts" / "make_packs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = module.write_pack(tmp_path, "demo", [5, 6])
    shipped = resources.files("flowbot") / "data" / "packs" / "demo"
    for path in written:
        assert path.read_bytes() == (shipped / path.name).read_bytes()


def test_a_folder_plays_its_files_in_name_order(tmp_path):
    (tmp_path / "b.txt").write_text("A.B\n...\nA.B\n")
    (tmp_path / "a.txt").write_text("A.A\n...\nB.B\n")
    (tmp_path / ".hidden.txt").write_text("not a puzzle")
    (tmp_path / "sub").mkdir()
    levels = levels_from(None, str(tmp_path))
    assert [level.to_rows() for level in levels] == [["A.A", "...", "B.B"], ["A.B", "...", "A.B"]]
    assert levels_from(None, str(tmp_path / "a.txt"))[0].to_rows() == ["A.A", "...", "B.B"]


def test_level_source_errors_name_the_problem(tmp_path):
    with pytest.raises(UsageError, match="unknown pack 'nope'; the packs are: demo, 5x5"):
        levels_from("nope", None)
    with pytest.raises(UsageError, match="unknown pack"):
        levels_from("../packs", None)
    with pytest.raises(UsageError, match="not both"):
        levels_from("demo", str(tmp_path))
    with pytest.raises(InputFileError, match="no such folder"):
        levels_from(None, str(tmp_path / "missing"))
    with pytest.raises(UsageError, match="holds no puzzle files"):
        levels_from(None, str(tmp_path))
    (tmp_path / "bad.txt").write_text("A.B\n...\n")
    with pytest.raises(FlowbotError, match=r"bad\.txt"):
        levels_from(None, str(tmp_path))
