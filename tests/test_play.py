"""The terminal game without a terminal: session keys, undo, levels, replay, the frame and colour depth."""

from __future__ import annotations

import curses
from itertools import pairwise

import pytest

from flowbot.errors import FlowbotError, InputFileError, UsageError
from flowbot.model import Cell, Puzzle, Solution
from flowbot.play.animation import TOTAL_SECONDS, Animation, pace
from flowbot.play.colors import basic_index, color_depth, color_number, xterm_index
from flowbot.play.keys import escape_key, key_name
from flowbot.play.levels import LevelList, PlayLevel, generated_levels, load_levels
from flowbot.play.session import PlaySession
from flowbot.play.view import ASCII, needed_size, render
from flowbot.render import BASIC, PLAIN, TRUECOLOR, XTERM_256
from flowbot.solve.sat import SolveResult, solve

# Three straight columns: A down the left, B the middle, C the right; one solution.
COLUMNS = ["ABC", "...", "ABC"]
# A five-by-five level of the bundled demo pack.
DEMO = ["A.B.C", "D.E..", ".....", "DA.B.", "E..C."]
STEPS = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}


def session_of(*grids: list[str], solver=None) -> PlaySession:
    """A session over hand-written boards, named 'board 1', 'board 2', ..."""
    levels = LevelList([PlayLevel(Puzzle.from_rows(grid), f"board {n}") for n, grid in enumerate(grids, 1)])
    return PlaySession(levels) if solver is None else PlaySession(levels, solver=solver)


def press(session: PlaySession, *keys: str) -> None:
    """Press keys by name, one after another."""
    for key in keys:
        assert session.press(key)


def walk(start: Cell, end: Cell) -> list[str]:
    """Arrow keys that move the cursor from one cell to another: rows first, then columns."""
    rows = end[0] - start[0]
    cols = end[1] - start[1]
    return ["down" if rows > 0 else "up"] * abs(rows) + ["right" if cols > 0 else "left"] * abs(cols)


def solution_keys(solution: Solution, cursor: Cell = (0, 0)) -> list[str]:
    """The keys that play a solution: walk to each flow's first dot, Enter, then an arrow per cell."""
    keys: list[str] = []
    for path in solution.paths:
        keys += [*walk(cursor, path[0]), "enter"]
        keys += [STEPS[(b[0] - a[0], b[1] - a[1])] for a, b in pairwise(path)]
        cursor = path[-1]  # reaching the second dot drops the colour there
    return keys


# --- cursor and strokes ------------------------------------------------------------------------------


def test_cursor_starts_top_left_and_stays_on_the_board():
    session = session_of(COLUMNS)
    assert session.cursor == (0, 0)
    press(session, "up", "left")
    assert session.cursor == (0, 0)
    press(session, "right", "right", "right", "down", "down", "down")
    assert session.cursor == (2, 2)
    press(session, "left")
    assert session.cursor == (2, 1)


def test_enter_on_a_dot_picks_up_and_moving_draws_until_the_other_dot():
    session = session_of(COLUMNS)
    press(session, "enter")
    assert session.holding == 0
    press(session, "down")
    assert session.board.pipes[0] == [(0, 0), (1, 0)]
    press(session, "down")
    assert session.board.is_connected(0)
    assert session.holding is None  # completing a flow lets go of it
    assert session.board.moves == 1
    assert session.status() == "A connected"


def test_moving_back_over_the_pipe_shortens_it():
    session = session_of(COLUMNS)
    press(session, "enter", "down", "right")
    assert session.board.pipes[0] == [(0, 0), (1, 0), (1, 1)]
    press(session, "left")
    assert session.board.pipes[0] == [(0, 0), (1, 0)]
    assert session.cursor == (1, 0)


def test_crossing_another_pipe_cuts_it():
    session = session_of(COLUMNS)
    press(session, "right", "enter", "down", "enter")  # B from its top dot to the middle
    assert session.board.pipes[1] == [(0, 1), (1, 1)]
    press(session, "left", "up", "enter", "down", "right")  # A's pipe crosses it
    assert session.board.pipes[0] == [(0, 0), (1, 0), (1, 1)]
    assert session.board.pipes[1] == [(0, 1)]
    assert session.status() == "cut B"


def test_another_colours_dot_blocks_the_pipe_and_the_cursor():
    session = session_of(COLUMNS)
    press(session, "enter", "right")
    assert session.cursor == (0, 0)
    assert session.board.pipes[0] == [(0, 0)]
    assert "B dot is in the way" in session.status()


def test_enter_drops_the_colour_and_does_nothing_on_an_empty_cell():
    session = session_of(COLUMNS)
    press(session, "enter", "down", "enter")
    assert session.holding is None
    assert session.board.pipes[0] == [(0, 0), (1, 0)]
    press(session, "right")
    press(session, "enter")
    assert session.holding is None
    assert "nothing here" in session.status()


def test_enter_on_a_pipe_picks_it_up_there_and_cuts_off_the_rest():
    session = session_of(["A..", "...", "..A"])
    press(session, "enter", "right", "right", "down", "enter")
    press(session, "up", "left", "enter")
    assert session.holding == 0
    assert session.board.pipes[0] == [(0, 0), (0, 1)]


# --- undo and restart ----------------------------------------------------------------------------------


def test_undo_takes_back_the_last_stroke():
    session = session_of(COLUMNS)
    press(session, "enter", "down", "down")
    press(session, "right", "up", "up", "enter", "down", "enter")
    assert session.board.pipes[1] == [(0, 1), (1, 1)]
    press(session, "u")
    assert session.board.pipes[1] == []
    assert session.board.is_connected(0)
    press(session, "u")
    assert session.board.pipes[0] == []
    press(session, "u")
    assert session.status() == "nothing to undo"


def test_undo_while_drawing_cancels_the_stroke():
    session = session_of(COLUMNS)
    press(session, "enter", "down", "u")
    assert session.holding is None
    assert session.board.pipes[0] == []


def test_a_stroke_that_changes_nothing_leaves_nothing_to_undo():
    session = session_of(COLUMNS)
    press(session, "enter", "down", "down")  # A done: one undo step
    press(session, "right", "enter", "enter")  # B picked up and dropped where it was
    press(session, "u")
    assert session.board.pipes[0] == []


def test_restart_clears_the_board_and_undo_brings_it_back():
    session = session_of(COLUMNS)
    press(session, "enter", "down", "down", "r")
    assert session.board.pipes == [[], [], []]
    assert session.board.moves == 0
    press(session, "u")
    assert session.board.is_connected(0)
    assert session.board.moves == 1


# --- levels --------------------------------------------------------------------------------------------


def test_next_and_previous_level_keep_each_boards_progress():
    session = session_of(COLUMNS, DEMO)
    press(session, "enter", "down", "p")
    assert session.index == 0
    assert session.status() == "this is the first level"
    press(session, "n")
    assert session.index == 1
    assert session.board.puzzle.rows == 5
    assert session.cursor == (0, 0)
    press(session, "n")
    assert session.status() == "this is the last level (p goes back)"
    press(session, "p")
    assert session.board.pipes[0] == [(0, 0), (1, 0)]  # the stroke left when changing level
    assert session.holding is None


def test_generated_levels_never_run_out():
    levels = generated_levels("5x5", seed=7)
    session = PlaySession(levels)
    press(session, "n", "n")
    assert session.index == 2
    assert len(levels) == 3
    assert levels[2].puzzle.rows == 5
    # The same seed gives the same levels.
    assert generated_levels("5x5", seed=7)[0].puzzle.to_rows() == levels[0].puzzle.to_rows()


def test_load_levels_reads_files_and_folders(tmp_path):
    (tmp_path / "a.txt").write_text("\n".join(COLUMNS) + "\n")
    (tmp_path / "b.txt").write_text("\n".join(DEMO) + "\n")
    (tmp_path / "c.txt").write_text("not a puzzle\n")
    folder = load_levels(str(tmp_path))
    assert [level.name for level in folder.levels] == ["a.txt", "b.txt"]
    assert folder.note == "skipped 1 file, not a puzzle (c.txt)"  # a folder's non-puzzle files are left out
    assert PlaySession(folder).status() == folder.note  # told once, at the start
    single = load_levels(str(tmp_path / "b.txt"))
    assert len(single) == 1
    assert single.note == ""


@pytest.mark.parametrize(
    ("path", "options", "error"),
    [
        ("missing.txt", {}, InputFileError),
        ("bad.txt", {}, FlowbotError),
        ("empty", {}, InputFileError),
        ("bad.txt", {"seed": 3}, UsageError),
        (None, {"size": "3x3"}, UsageError),
        (None, {"size": "big"}, UsageError),
    ],
)
def test_unplayable_input_raises_a_flowbot_error(tmp_path, path, options, error):
    (tmp_path / "bad.txt").write_text("A.\n..\n")
    (tmp_path / "empty").mkdir()
    with pytest.raises(error):
        load_levels(None if path is None else str(tmp_path / path), **options)


# --- the solver's replay -------------------------------------------------------------------------------


def test_a_replays_the_solution_and_ends_solved():
    session = session_of(DEMO)
    press(session, "enter", "right")  # a stroke in hand is dropped first
    press(session, "a")
    assert session.animating
    assert not session.solved
    ticks = 0
    while session.animating:
        session.tick()
        ticks += 1
    assert ticks * session.board.puzzle.cell_count > 0
    assert session.solved
    assert session.status().startswith("Solved in 5 moves")
    press(session, "u")
    assert session.board.pipes[0] == [(0, 0), (0, 1)]


def test_any_key_during_the_replay_skips_to_its_end():
    session = session_of(DEMO)
    press(session, "a")
    session.tick()
    press(session, "down")
    assert not session.animating
    assert session.solved


def test_a_on_a_board_without_solution_says_so():
    session = session_of(["AB", "BA"])
    press(session, "a")
    assert not session.animating
    assert session.status() == "the solver finds no solution for this board"


def test_a_on_a_board_the_solver_gives_up_on_says_so():
    session = session_of(COLUMNS, solver=lambda puzzle: SolveResult("timeout"))
    press(session, "a")
    assert session.status() == "the solver ran out of time on this board"


@pytest.mark.parametrize("cells", [9, 25, 49, 196, 400])
def test_the_replay_takes_a_few_seconds_at_most_whatever_the_size(cells):
    step = pace(cells)
    ticks = -(-cells // step.cells_per_tick)
    assert ticks * step.seconds_per_tick <= TOTAL_SECONDS + 1e-9
    assert step.seconds_per_tick >= 0.02  # a terminal can show every tick


def test_animation_draws_each_flow_as_one_stroke():
    puzzle = Puzzle.from_rows(DEMO)
    result = solve(puzzle)
    assert result.solution is not None
    session = session_of(DEMO)
    animation = Animation(result.solution)
    animation.advance(session.board, -1)
    assert session.board.complete
    assert session.board.moves == len(puzzle.colors)


# --- solving by keys -----------------------------------------------------------------------------------


def test_playing_the_solution_by_keys_solves_the_level():
    session = session_of(DEMO, COLUMNS)
    solution = solve(session.board.puzzle).solution
    assert solution is not None
    keys = solution_keys(solution)
    press(session, *keys[:-1])
    assert not session.solved
    press(session, keys[-1])
    assert session.solved
    assert session.board.perfect
    assert session.status() == "Solved in 5 moves (perfect) - n: next level"
    press(session, "n")
    assert session.index == 1


def test_the_last_level_solved_says_there_is_no_next():
    session = session_of(COLUMNS)
    press(session, "enter", "down", "down", "right", "up", "up", "enter", "down", "down")
    press(session, "right", "up", "up", "enter", "down", "down")
    assert session.status().endswith("that was the last level (p goes back, q quits)")


def test_q_quits():
    assert session_of(COLUMNS).press("q") is False


# --- the frame -----------------------------------------------------------------------------------------


def test_frame_shows_the_hud_the_board_and_the_cursor():
    session = session_of(COLUMNS, DEMO)
    press(session, "enter", "down")
    frame = render(session, 60, 20, PLAIN)
    lines = frame.text(60, 20)
    text = "\n".join(lines)
    assert "level 1/2  board 1" in text
    assert "flows: 0/3   moves: 0   pipe: 22%" in text
    assert "drawing A: arrows draw, Enter drops" in text
    board_top = next(number for number, line in enumerate(lines) if "┌──────" in line)
    left = lines[board_top].index("┌")
    assert lines[board_top + 1][left : left + 8] == "│A B C │"
    assert lines[board_top + 2][left : left + 8] == "│A · · │"
    assert frame.cursor == (board_top + 2, left + 1)
    # With no colour the cursor cell is reverse video.
    cursor_spans = [span for span in frame.spans if (span.row, span.col) == frame.cursor]
    assert cursor_spans[0].style.reverse


def test_lettered_pipes_link_their_cells():
    session = session_of(["A..", "...", "..A"])
    press(session, "enter", "right", "right")
    lines = render(session, 40, 12, PLAIN, ASCII).text(40, 12)
    assert any("|A-A-A |" in line for line in lines)


def test_block_cells_carry_the_games_colours():
    session = session_of(COLUMNS)
    press(session, "enter", "down")
    frame = render(session, 60, 20, XTERM_256)
    dot = next(span for span in frame.spans if span.text.startswith("A"))
    pipe = next(span for span in frame.spans if span.row == dot.row + 1 and span.col == dot.col)
    assert dot.style.bg == pipe.style.bg == (234, 51, 35)  # red, the first colour
    assert pipe.text == "[]"  # the cursor, on the pipe's head, in its colour


def test_a_board_too_big_for_the_terminal_shows_what_it_needs():
    session = session_of(DEMO)
    assert needed_size(session.board.puzzle) == (36, 10)
    frame = render(session, 30, 8, XTERM_256)
    text = " ".join(line.strip() for line in frame.text(30, 8) if line.strip())
    assert text == "terminal is 30x8; this 5x5 board needs 36x10 - enlarge the window or press q"
    assert frame.cursor is None


def test_help_lines_show_only_where_there_is_room():
    session = session_of(COLUMNS)
    roomy = "\n".join(render(session, 100, 30, PLAIN).text(100, 30))
    assert "a solve  u undo  r restart  n/p level  q quit" in roomy
    narrow = "\n".join(render(session, 40, 30, PLAIN).text(40, 30))
    assert "n/p next/previous level  q quit" in narrow
    tight = "\n".join(render(session, 40, 8, PLAIN).text(40, 8))
    assert "q quit" not in tight
    assert "flows: 0/3" in tight


# --- colours and keys ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "has_colors", "colors", "depth"),
    [
        ({"TERM": "xterm-256color"}, True, 256, XTERM_256),
        ({"TERM": "xterm-direct"}, True, 1 << 24, TRUECOLOR),
        ({"TERM": "xterm"}, True, 8, BASIC),
        ({"TERM": "xterm-256color", "NO_COLOR": "1"}, True, 256, PLAIN),
        ({"TERM": "vt100"}, False, 0, PLAIN),
        ({"TERM": "xterm-256color", "NO_COLOR": ""}, True, 256, XTERM_256),
    ],
)
def test_color_depth(environ, has_colors, colors, depth):
    assert color_depth(environ, has_colors=has_colors, colors=colors) == depth


def test_rgb_maps_to_the_nearest_terminal_colour():
    assert xterm_index((255, 0, 0)) == 196
    assert xterm_index((255, 255, 255)) == 231
    assert xterm_index((128, 128, 128)) == 244  # the grey ramp beats the cube's (135, 135, 135)
    assert basic_index((234, 51, 35)) == curses.COLOR_RED
    assert color_number((1, 2, 3), TRUECOLOR) == 0x010203


def test_key_names():
    assert key_name(curses.KEY_UP) == "up"
    assert key_name(10) == key_name(13) == key_name(curses.KEY_ENTER) == "enter"
    assert key_name(ord("Q")) == "q"
    assert key_name(ord("x")) is None
    assert escape_key("[D") == escape_key("OD") == "left"
    assert escape_key("[5~") is None


# --- hints -------------------------------------------------------------------------------------------


def test_h_shows_the_next_step_and_marks_its_cells():
    session = session_of(DEMO)
    press(session, "h")
    assert session.message.startswith("hint: ")
    assert session.hint_cells
    frame = "\n".join(render(session, 100, 30, PLAIN).text(100, 30))
    assert "<>" in frame or session.hint_cells & {session.cursor}
    press(session, "right")
    assert not session.hint_cells  # the marks go with the next key


def test_h_points_at_a_pipe_that_leaves_the_solution():
    puzzle = Puzzle.from_rows(DEMO)
    solution = solve(puzzle).solution
    session = session_of(DEMO)
    session._solutions[session.index] = solution
    grid = solution.color_grid()
    # Step off a dot onto an empty neighbour that belongs to another colour.
    for color, path in enumerate(solution.paths):
        start = path[0]
        for step, (d_row, d_col) in ((k, v) for v, k in STEPS.items()):
            cell = (start[0] + d_row, start[1] + d_col)
            inside = 0 <= cell[0] < 5 and 0 <= cell[1] < 5
            if inside and puzzle.endpoint_color(cell) is None and grid[cell[0]][cell[1]] != color:
                press(session, *walk(session.cursor, start), "enter", step, "enter", "h")
                assert "take the pipe off" in session.message
                assert cell in session.hint_cells
                return
    raise AssertionError("no wrong step found")


def test_following_hints_in_play_never_goes_wrong():
    session = session_of(DEMO)
    solution = solve(Puzzle.from_rows(DEMO)).solution
    press(session, "h")
    assert "take the pipe off" not in session.message
    cells = session.hint_cells
    grid = solution.color_grid()
    assert cells and all(grid[row][col] >= 0 for row, col in cells)
