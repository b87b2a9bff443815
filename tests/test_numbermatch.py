"""Number Match: the board and its moves, board files and their errors, the replay, the batch command."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from flowbot.errors import FlowbotError
from flowbot.numbermatch import (
    ADD,
    Move,
    NumberMatchInputError,
    Rules,
    apply_move,
    find_pairs,
    is_won,
    load_boards,
    make_board,
    read_boards,
    run_numbermatch,
)
from flowbot.numbermatch.board import is_near, rows_cleared_by
from flowbot.numbermatch.replay import REVERSE, render_board, replay_text
from flowbot.numbermatch.rules import WRAP_KINDS
from tests.test_numbermatch_search import legal_pairs, replay_wins

W = 9
EMPTY_ROW = (0,) * W


def board_with(*placed: tuple[int, int, int], rows: int = 3) -> tuple[int, ...]:
    """A board of `rows` rows of cleared slots with digits placed at (row, col, digit)."""
    cells = [0] * (rows * W)
    for row, col, digit in placed:
        cells[row * W + col] = digit
    return tuple(cells)


def at(row: int, col: int) -> int:
    """The flat index of (row, col) on a 9-wide board."""
    return row * W + col


def write(tmp_path: Path, name: str, text: str) -> Path:
    """Write a board file for a test."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- pairs: each kind of line ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("down", "right"), [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
)
def test_neighbours_in_all_eight_directions_pair(down, right):
    # A 3 in the middle of the middle row, a 7 (3 + 7 = 10) next to it; a 4 in a corner pairs with nothing.
    cells = board_with(
        (1, 4, 3), (1 + down, 4 + right, 7), (2, 0, 4) if (down, right) != (1, -1) else (0, 0, 4)
    )
    pair = tuple(sorted((at(1, 4), at(1 + down, 4 + right))))
    assert find_pairs(cells) == [pair]
    assert is_near(*pair)


def test_digits_that_are_neither_equal_nor_sum_to_ten_do_not_pair():
    assert find_pairs(board_with((0, 0, 3), (0, 1, 4), (1, 0, 6), (1, 1, 5))) == [(at(0, 1), at(1, 0))]


def test_same_row_across_cleared_slots_and_blocked_by_a_digit():
    cells = board_with((0, 0, 2), (0, 6, 8), (1, 3, 5))
    assert find_pairs(cells) == [(at(0, 0), at(0, 6))]
    assert not is_near(at(0, 0), at(0, 6))
    blocked = board_with((0, 0, 2), (0, 3, 5), (0, 6, 8), (1, 7, 4))
    assert find_pairs(blocked) == []


def test_same_column_across_cleared_slots():
    # The 6 in row 2 blocks the reading order between the two 1s, not their column.
    cells = board_with((0, 2, 1), (1, 6, 6), (2, 2, 9))
    assert find_pairs(cells) == [(at(0, 2), at(2, 2))]
    assert find_pairs(board_with((0, 2, 1), (1, 2, 6), (2, 2, 9))) == []


def test_both_diagonals_across_cleared_slots_and_the_option_that_turns_them_off():
    down_right = board_with((0, 1, 5), (1, 6, 3), (2, 3, 5))
    down_left = board_with((0, 7, 4), (1, 2, 8), (2, 5, 6))
    assert find_pairs(down_right) == [(at(0, 1), at(2, 3))]
    assert find_pairs(down_left) == [(at(0, 7), at(2, 5))]
    no_diagonals = Rules(diagonals=False)
    assert find_pairs(down_right, no_diagonals) == []
    # Touching diagonals go too (the 4 stops the reading order from joining them another way).
    touching = board_with((0, 4, 3), (0, 7, 4), (1, 5, 7))
    assert find_pairs(touching) == [(at(0, 4), at(1, 5))]
    assert find_pairs(touching, no_diagonals) == []
    blocked = board_with((0, 1, 5), (1, 2, 4), (2, 3, 5), (1, 6, 3))
    assert find_pairs(blocked) == []


def test_reading_order_wraps_from_the_end_of_a_row_to_the_start_of_the_next():
    # 8 at the end of row 1 (two cleared slots after it), 2 at the start of row 2.
    cells = board_with((0, 0, 1), (0, 6, 8), (1, 0, 2), (1, 4, 3))
    assert find_pairs(cells) == [(at(0, 6), at(1, 0))]
    assert not is_near(at(0, 6), at(1, 0))
    assert find_pairs(cells, Rules(wrap=False)) == []
    touching = board_with((0, 8, 4), (1, 0, 6))
    assert find_pairs(touching) == [(at(0, 8), at(1, 0))]
    assert is_near(at(0, 8), at(1, 0))


def test_a_wrap_that_skips_the_last_column_runs_past_it_and_never_from_it():
    """skip-last-column: a row's last-but-one slot runs on to the next row's first past a digit in the
    last column, and the last column's digit pairs across no row's end (the phone game's wrap: the
    other way round)."""
    skip = Rules(wrap="skip-last-column")
    cells = board_with((0, 7, 3), (0, 8, 5), (1, 0, 7), (1, 1, 5))
    assert find_pairs(cells, skip) == [(at(0, 7), at(1, 0))]
    assert is_near(at(0, 7), at(1, 0), skip) and not is_near(at(0, 8), at(1, 0), skip)
    assert find_pairs(cells) == [] and find_pairs(cells, Rules(wrap="none")) == []
    from_last = board_with((0, 8, 4), (1, 0, 6))
    assert find_pairs(from_last, skip) == [] and find_pairs(from_last) == [(at(0, 8), at(1, 0))]
    assert Rules(wrap=True).wrap == "next-row" and Rules(wrap=False).wrap == "none"


def test_a_hand_checked_board():
    cells = make_board((1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 0, 0, 0, 5, 0, 0, 0, 1, 3, 4, 5, 3, 9, 2, 1, 4, 6))
    # 1 2 3 4 5 6 7 8 9
    # 2 . . . 5 . . . 1
    # 3 4 5 3 9 2 1 4 6
    expected = {
        (at(2, 7), at(2, 8)),  # 4 6: neighbours in the row
        (at(0, 4), at(1, 4)),  # 5 5: neighbours in the column
        (at(0, 8), at(1, 8)),  # 9 1: neighbours in the column
        (at(0, 1), at(1, 0)),  # 2 2: diagonal neighbours
        (at(0, 5), at(2, 7)),  # 6 4: down-right across a cleared slot
        (at(0, 2), at(2, 0)),  # 3 3: down-left across a cleared slot
        (at(0, 3), at(2, 1)),  # 4 4: down-left
        (at(0, 4), at(2, 2)),  # 5 5: down-left
        (at(0, 7), at(2, 5)),  # 8 2: down-left
        (at(0, 8), at(2, 6)),  # 9 1: down-left
    }
    assert set(find_pairs(cells)) == expected
    assert legal_pairs(cells, Rules()) == expected  # the test's own checker agrees


@pytest.mark.parametrize("wrap", WRAP_KINDS)
@pytest.mark.parametrize("diagonals", [True, False], ids=["diagonals", "no-diagonals"])
def test_pairs_are_every_pair_the_referee_allows_each_once_on_random_boards(wrap, diagonals):
    # Sparse and full boards of every width the games use and some they do not, the last row short.
    rng = random.Random(f"{wrap}-{diagonals}")
    for _ in range(400):
        rules = Rules(width=rng.choice([1, 2, 3, 5, 7, 9, 10]), wrap=wrap, diagonals=diagonals)
        emptied = rng.random()
        cells = tuple(0 if rng.random() < emptied else rng.randint(1, 9) for _ in range(rng.randint(0, 50)))
        pairs = find_pairs(cells, rules)
        assert len(pairs) == len(set(pairs)), (cells, rules)
        assert set(pairs) == legal_pairs(cells, rules), (cells, rules)
        assert pairs == find_pairs(cells, rules)  # the same order every time: a seed deals alike


# --- rows, adds, the win ----------------------------------------------------------------------------


def test_a_row_whose_last_digits_pair_disappears_and_the_rows_below_move_up():
    cells = (4, 0, 0, 0, 0, 0, 0, 0, 6, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 5)
    after = apply_move(cells, Move(0, 8))
    assert after == (1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 5)
    assert rows_cleared_by(cells, Move(0, 8)) == 1
    # The last, shorter row goes too when its last digits pair.
    assert apply_move(after, Move(9, 10)) == (1, 2, 3, 4, 5, 6, 7, 8, 9)


def test_one_pair_can_clear_two_rows():
    cells = (0,) * 8 + (3,) + (7,) + (0,) * 8 + (1, 1)
    assert apply_move(cells, Move(8, 9)) == (1, 1)
    assert rows_cleared_by(cells, Move(8, 9)) == 2


def test_a_row_with_a_digit_left_stays():
    cells = (4, 6, 1) + (0,) * 6 + (2, 2)
    assert apply_move(cells, Move(0, 1)) == (0, 0, 1) + (0,) * 6 + (2, 2)


def test_boards_are_read_with_their_cleared_rows_taken_away():
    assert make_board((*EMPTY_ROW, 1, 2, 3)) == (1, 2, 3)
    assert make_board((*(1,) * 9, *EMPTY_ROW, 2, 0)) == (*(1,) * 9, 2, 0)
    with pytest.raises(NumberMatchInputError, match="expected a digit"):
        make_board((1, 10))


def test_add_appends_the_remaining_digits_after_the_last_slot():
    cells = (1, 0, 2, 0, 0, 0, 0, 0, 3, 4, 0)
    assert apply_move(cells, ADD) == (*cells, 1, 2, 3, 4)
    assert apply_move((5,), ADD) == (5, 5)


def test_the_board_is_won_when_no_digit_is_left():
    assert is_won(())
    assert is_won(apply_move((5, 5), Move(0, 1)))
    assert not is_won((0, 0, 1))


# --- files and their errors -------------------------------------------------------------------------


def test_text_file_with_several_boards_comments_and_both_cleared_marks(tmp_path):
    path = write(
        tmp_path,
        "boards.txt",
        "# two boards\n123456789\n1.3 0 5 6 7 8 9  # a comment after a row\n12\n\n\n# the second\n55\n",
    )
    first, second = load_boards(path)
    assert first == (1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 0, 3, 0, 5, 6, 7, 8, 9, 1, 2)
    assert second == (5, 5)


@pytest.mark.parametrize(
    "text",
    [
        '["123456789", "12"]',
        '{"rows": ["123456789", "12"]}',
        "[[1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2]]",
        '[{"rows": [[1, 2, 3, 4, 5, 6, 7, 8, 9], "12"]}]',
    ],
)
def test_json_boards(tmp_path, text):
    assert load_boards(write(tmp_path, "board.json", text)) == [(1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2)]


def test_json_list_of_boards_with_cleared_slots_as_zero_or_null(tmp_path):
    path = write(tmp_path, "boards.json", '[["5.5"], [[1, null, 0, 9]], {"rows": ["46"]}]')
    assert load_boards(path) == [(5, 0, 5), (1, 0, 0, 9), (4, 6)]


BAD_INPUTS = {
    "long.txt": ("1234567890\n", "long.txt: line 1: row has 10 slots; a row holds at most 9"),
    "letters.txt": ("123\n12a\n", "letters.txt: line 2: column 3: unexpected character 'a'"),
    "empty.txt": ("", "empty.txt: file is empty"),
    "blank.txt": ("  \n\n", "blank.txt: file holds only whitespace"),
    "comments.txt": ("# nothing\n", "comments.txt: no board found"),
    "short.txt": (
        "1234\n123456789\n",
        "short.txt: line 1: row has 4 slots; only the last row may hold fewer",
    ),
    "invalid.json": ('["123", ', "invalid.json: invalid JSON"),
    "json_long.json": ('["1234567890"]', "json_long.json: row 1: row has 10 slots"),
    "json_digit.json": ("[[1, 12]]", "json_digit.json: row 1: column 2: 12 is not a digit"),
    "json_kind.json": ("[1, 2]", "json_kind.json: expected a board"),
    "json_empty.json": ("[]", "json_empty.json: the JSON list is empty"),
    "json_rows.json": ('{"cells": []}', "json_rows.json: a board needs a non-empty list of rows"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_names_the_file_and_the_problem(tmp_path, name):
    text, message = BAD_INPUTS[name]
    path = write(tmp_path, name, text)
    with pytest.raises(NumberMatchInputError) as raised:
        load_boards(path)
    assert isinstance(raised.value, FlowbotError) and raised.value.exit_code == 2
    assert str(raised.value).startswith(str(tmp_path))
    assert message in str(raised.value)


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(NumberMatchInputError, match="no such file"):
        read_boards(tmp_path / "absent.txt")
    binary = tmp_path / "board.bin"
    binary.write_bytes(b"\x00\x01123")
    with pytest.raises(NumberMatchInputError, match="not a text file"):
        read_boards(binary)


def test_a_bad_board_among_several_names_its_board_and_spares_the_others(tmp_path):
    path = write(tmp_path, "mixed.txt", "55\n\n12x\n\n19\n")
    entries = read_boards(path)
    assert [entry.cells for entry in entries] == [(5, 5), None, (1, 9)]
    assert f"{path} (board 2): line 3: column 3" in str(entries[1].error)


# --- the replay -------------------------------------------------------------------------------------


def test_replay_marks_each_pair_numbers_rows_and_cols_from_one_and_shouts_adds():
    cells = (1, 2, 9)
    rules = Rules(adds=1)
    moves = (ADD, Move(2, 3), Move(1, 4), Move(0, 5))
    assert replay_wins(cells, moves, rules)
    text = replay_text(cells, moves, rules)
    assert "Step 1/4: >>> ADD NUMBERS <<< (add 1 of 1: 3 digits appended" in text
    assert "Step 2/4: 9 at row 1, col 3  +  1 at row 1, col 4" in text
    assert "  1   1  2 [9][1] 2  9" in text
    assert "(clears a row)" in text
    assert text.rstrip().endswith("Board cleared.")


def test_replay_in_colour_uses_reverse_video():
    drawn = render_board((5, 0, 5), highlight=(0, 2), colors=True)
    assert drawn.count(REVERSE) == 2 and "[5]" not in drawn
    assert render_board((5, 0, 5), highlight=(0, 2)).splitlines()[1] == "  1  [5] . [5]"


# --- the batch command ------------------------------------------------------------------------------


def run(paths, **options) -> tuple[int, str, str]:
    """Run run_numbermatch into strings; returns (exit code, out, err)."""
    out, err = io.StringIO(), io.StringIO()
    settings = {"adds": 4, "as_json": True, "best": False, "timeout": 10.0, "colors": False}
    settings.update(options)
    code = run_numbermatch([str(path) for path in paths], out=out, err=err, **settings)
    return code, out.getvalue(), err.getvalue()


def test_json_lines_one_record_per_board_and_every_line_replays(tmp_path):
    boards = "123456789\n987654321\n112233445\n\n# lost without adds, won with one\n129\n"
    path = write(tmp_path, "boards.txt", boards)
    code, out, err = run([path])
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [record["index"] for record in records] == [0, 1]
    for record, cells in zip(records, load_boards(path), strict=True):
        assert list(record)[:6] == ["source", "index", "status", "moves", "nodes", "seconds"]
        assert record["source"] == str(path)
        assert record["status"] == "won"
        moves = tuple(
            ADD
            if move["type"] == "add"
            else Move(move["a"][0] * W + move["a"][1], move["b"][0] * W + move["b"][1])
            for move in record["moves"]
        )
        assert replay_wins(cells, moves, Rules(adds=4))
        assert record["nodes"] >= 1 and record["seconds"] >= 0


def test_no_win_is_proved_and_exits_zero(tmp_path):
    code, out, _ = run([write(tmp_path, "lost.txt", "1298\n")], adds=1)
    record = json.loads(out)
    assert code == 0
    assert record["status"] == "no-win" and record["moves"] == []


def test_timeout_exits_one(tmp_path):
    hard = "176786793\n523313297\n91434587\n"  # no win without adds, and a few thousand positions to prove
    code, out, _ = run([write(tmp_path, "hard.txt", hard)], adds=0, timeout=0.0)
    assert code == 1
    assert json.loads(out)["status"] == "timeout"


def test_a_bad_file_never_stops_the_batch_and_exits_two(tmp_path):
    good = write(tmp_path, "good.txt", "55\n")
    bad = write(tmp_path, "bad.txt", "1234567890\n")
    code, out, err = run([bad, tmp_path / "absent.txt", good])
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [record["status"] for record in records] == ["error", "error", "won"]
    assert "row has 10 slots" in records[0]["error"]
    assert f"flowbot: {bad}: line 1: row has 10 slots" in err
    assert "absent.txt: no such file" in err


def test_best_mode_reports_score_and_proof(tmp_path):
    code, out, _ = run([write(tmp_path, "small.txt", "129\n")], adds=1, best=True)
    record = json.loads(out)
    assert code == 0
    assert record["optimal"] is True
    assert record["score"] >= record["first_win_score"] > 0


def test_text_mode_prints_the_replay(tmp_path):
    code, out, _ = run([write(tmp_path, "b.txt", "129\n")], adds=1, as_json=False)
    assert code == 0
    assert "b.txt: won in 4 moves (1 of 1 add used)" in out
    assert "ADD NUMBERS" in out and "Board cleared." in out
    code, out, _ = run([write(tmp_path, "lost.txt", "1298\n")], adds=1, as_json=False)
    assert "no win is possible with 1 add" in out
