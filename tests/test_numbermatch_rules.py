"""The rule options other games play by: a generated add, adds only when stuck, emptied rows that stay.

Each is checked against the tests' own referee (`legal_pairs` from the search tests, a move
played here by hand), and the solver's verdict against a brute force over every line.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from flowbot.numbermatch import ADD, Move, Rules, apply_move, solve
from flowbot.numbermatch.errors import NumberMatchInputError
from flowbot.numbermatch.rules import GENERATED
from flowbot.numbermatch.search import NO_WIN, WON
from tests.test_numbermatch_search import legal_pairs, stuck_ends


def added(board: tuple[int, ...], rules: Rules) -> tuple[int, ...]:
    """The digits an add appends, as the game's rule says, written out plainly."""
    remaining = [value for value in board if value]
    if rules.add != GENERATED:
        return tuple(remaining)
    changed = [
        value if index % 2 == 0 else (5 if value == 5 else 10 - value)
        for index, value in enumerate(remaining)
    ]
    return tuple(reversed(changed))


def drop_rows(board: list[int], rules: Rules) -> tuple[int, ...]:
    """The board less its emptied rows (all of them, or with `clear_rows` off those at the bottom)."""
    rows = [board[start : start + rules.width] for start in range(0, len(board), rules.width)]
    if rules.clear_rows:
        rows = [row for row in rows if any(row)]
    else:
        while rows and not any(rows[-1]):
            rows.pop()
    return tuple(value for row in rows for value in row)


def play(board: tuple[int, ...], move: Move, rules: Rules) -> tuple[int, ...]:
    """The board after a move, checked: a pair must be legal, an add allowed."""
    pairs = legal_pairs(board, rules)
    if move.is_add:
        assert not (rules.add_when_stuck and pairs), f"an add while a pair is left on {board}"
        return board + added(board, rules)
    assert (move.a, move.b) in pairs, f"illegal pair {move} on {board}"
    cleared = list(board)
    cleared[move.a] = cleared[move.b] = 0
    return drop_rows(cleared, rules)


def brute_force_win(cells: tuple[int, ...], rules: Rules) -> bool:
    """Whether any line wins under the rules, by trying every move in every position."""

    @cache
    def wins(board: tuple[int, ...], adds: int, start: bool = False) -> bool:
        """Win from this position (`start`: the board given, which the game is showing)?"""
        if not board:
            return True
        pairs = legal_pairs(board, rules)
        if any(wins(play(board, Move(a, b), rules), adds) for a, b in pairs):
            return True
        if not pairs and not start and stuck_ends(rules):
            return False  # the game ended here
        return adds > 0 and not (rules.add_when_stuck and pairs) and wins(play(board, ADD, rules), adds - 1)

    return wins(drop_rows(list(cells), rules), rules.adds, start=True)


def test_a_generated_add_appends_the_remaining_digits_every_second_complemented_reversed() -> None:
    assert apply_move((1, 2, 0, 3, 5), ADD, Rules(add=GENERATED)) == (1, 2, 0, 3, 5, 5, 3, 8, 1)
    assert apply_move((1, 2, 0, 3, 5), ADD, Rules()) == (1, 2, 0, 3, 5, 1, 2, 3, 5)


def test_an_emptied_middle_row_stays_when_rows_do_not_clear() -> None:
    """With `clear_rows` off the emptied row keeps its place (diagonals across it stay as drawn)."""
    cells = (1, 2, 3, 4, 9, 9, 9, 9, 5, 6)
    assert apply_move(cells, Move(4, 5), Rules(width=4, clear_rows=False)) == (1, 2, 3, 4, 0, 0, 9, 9, 5, 6)
    row = (1, 2, 3, 4, 6, 6, 0, 0, 5, 6, 7, 8)
    assert apply_move(row, Move(4, 5), Rules(width=4, clear_rows=False)) == (
        1,
        2,
        3,
        4,
        0,
        0,
        0,
        0,
        5,
        6,
        7,
        8,
    )
    assert apply_move(row, Move(4, 5), Rules(width=4)) == (1, 2, 3, 4, 5, 6, 7, 8)
    assert apply_move((1, 2, 3, 4, 6, 6), Move(4, 5), Rules(width=4, clear_rows=False)) == (1, 2, 3, 4)


def test_an_unknown_kind_of_add_is_refused_by_name() -> None:
    with pytest.raises(NumberMatchInputError, match="add must be one of copy, generated, unknown"):
        Rules(add="shuffle")


@pytest.mark.parametrize(
    "rules",
    [
        Rules(width=4, adds=1, add=GENERATED),
        Rules(width=4, adds=2, add_when_stuck=True),
        Rules(width=4, adds=1, clear_rows=False),
        Rules(width=4, adds=1, diagonals=False, add=GENERATED, add_when_stuck=True, clear_rows=False),
        Rules(width=4, adds=1, ends_without_pairs=False),
        Rules(width=4, adds=1, ends_without_pairs=True),
    ],
    ids=["generated", "add-when-stuck", "rows-stay", "all-at-once", "goes-on-stuck", "ends-stuck"],
)
def test_the_solver_agrees_with_a_brute_force_and_its_lines_replay(rules: Rules) -> None:
    """On small random boards the verdict is the brute force's, and every win replays legally."""
    generator = random.Random(5)
    wins = losses = 0
    for _ in range(60):
        cells = tuple(generator.randint(1, 9) for _ in range(generator.randint(4, 9)))
        answer = solve(cells, rules, timeout=10)
        assert answer.status == (WON if brute_force_win(cells, rules) else NO_WIN), cells
        if answer.status == WON:
            wins += 1
            board = drop_rows(list(cells), rules)
            for move in answer.moves:
                board = play(board, move, rules)
                assert board == () or legal_pairs(board, rules) or not stuck_ends(rules), "left no pair"
            assert board == ()
        else:
            losses += 1
    # Both verdicts were tried (a generated add wins every small board: its row mirrors the board's classes).
    assert wins and (losses or rules.add == GENERATED)


def test_rules_given_on_the_command_line_are_read_and_bad_ones_named() -> None:
    from flowbot.numbermatch.rules import parse_rules

    assert parse_rules("diagonals=no, add=generated,adds=unlimited,auto-add=yes") == {
        "diagonals": False,
        "add": GENERATED,
        "adds_limited": False,
        "auto_add": True,
    }
    assert parse_rules("") == {}
    with pytest.raises(NumberMatchInputError, match="unknown rule 'diagonal'"):
        parse_rules("diagonal=no")
    assert parse_rules("ends-without-pairs=yes") == {"ends_without_pairs": True}
    assert parse_rules("ends-without-pairs=unknown") == {"ends_without_pairs": None}
    with pytest.raises(NumberMatchInputError, match="expected yes, no or unknown"):
        parse_rules("ends-without-pairs=maybe")
    assert parse_rules("wrap=skip-last-column") == {"wrap": "skip-last-column"}
    assert parse_rules("wrap=no") == {"wrap": False}  # taken for none by Rules
    with pytest.raises(NumberMatchInputError, match="wrap='maybe': expected one of none, next-row"):
        parse_rules("wrap=maybe")


def test_what_an_add_appended_names_its_kind_and_a_pair_its_line() -> None:
    """The evidence the live bot learns from: an add's digits past the board's, of which kind, and
    whether a refused pair was a diagonal or a wrap across a row's end."""
    from flowbot.numbermatch import evidence
    from flowbot.numbermatch.rules import COPY, UNKNOWN

    before = (1, 2, 0, 3, 4)
    assert evidence.appended(before, (1, 2, 0, 3, 4, 0, 0, 0, 0, 6, 3, 8, 1)) == (6, 3, 8, 1)
    assert evidence.add_kind(before, (6, 3, 8, 1)) == GENERATED
    assert evidence.add_kind(before, (1, 2, 3, 4)) == COPY
    assert evidence.add_kind(before, (5, 5)) == UNKNOWN
    assert evidence.add_kind((1, 2), (1, 2, 1, 2, 1, 2)) == COPY  # a game that added twice by itself
    assert evidence.appended(before, (1, 2, 0, 0, 4)) is None  # a pair taken, nothing added
    assert evidence.line_kind(Move(0, 20), 9) == "diagonal"
    assert evidence.line_kind(Move(8, 9), 9) == "wrap"
    assert evidence.line_kind(Move(1, 19), 9) == "column"


def test_a_refused_wrap_teaches_the_wrap_that_explains_it() -> None:
    """A pair across a row's end the game refused: from the last column, the wrap that leaves that
    column out explains it; a pair that wrap allows too, or one refused under it, only no wrap."""
    from flowbot.numbermatch import evidence
    from flowbot.numbermatch.rules import WRAP_NONE, WRAP_SKIP_LAST

    from_last = (0,) * 8 + (4, 6)
    assert evidence.wrap_refused(from_last, Move(8, 9), Rules()) == WRAP_SKIP_LAST
    from_middle = (0,) * 7 + (3, 0, 7)
    assert evidence.wrap_refused(from_middle, Move(7, 9), Rules()) == WRAP_NONE
    past_last = (0,) * 7 + (3, 5, 7)
    assert evidence.wrap_refused(past_last, Move(7, 9), Rules(wrap=WRAP_SKIP_LAST)) == WRAP_NONE


def test_a_board_left_with_no_pair_may_end_the_game_unless_the_rules_say_it_goes_on() -> None:
    """Not known (the default) is played as a game that ends; a game that adds only when no pair is
    left, or adds by itself then, goes on by its nature."""
    from flowbot.numbermatch import evidence

    assert Rules().stuck_may_end and Rules(ends_without_pairs=True).stuck_may_end
    assert not Rules(ends_without_pairs=False).stuck_may_end
    assert not Rules(add_when_stuck=True).stuck_may_end and not Rules(auto_add=True).stuck_may_end
    assert evidence.rules_text(Rules()).endswith("ends-without-pairs=unknown")
    assert Rules(ends_without_pairs=True).describe()["ends_without_pairs"] is True


def test_a_move_counts_as_taken_only_when_the_board_shows_it() -> None:
    """The live report's evidence: an add that appended digits, a pair whose two digits went (rows
    emptied or kept, digits the game then added by itself); never a board that did not change."""
    from flowbot.numbermatch import evidence

    before = (1, 2, 0, 3, 7)
    assert evidence.took(before, ADD, (*before, 1, 2, 3, 7))
    assert not evidence.took(before, ADD, before)
    assert evidence.took(before, Move(3, 4), (1, 2))
    assert evidence.took(before, Move(3, 4), (1, 2, 0, 0, 0))  # a game whose emptied cells stay
    assert evidence.took((1, 9, 4), Move(0, 1), (4, 4))  # then added by itself: no pair was left
    assert not evidence.took(before, Move(3, 4), before)
    assert not evidence.took((1, 2, 1, 2), Move(2, 3), (1, 2, 1, 2))  # unchanged, though it looks added
    assert not evidence.took(before, Move(3, 4), (1, 2, 3))  # another change: not this pair
