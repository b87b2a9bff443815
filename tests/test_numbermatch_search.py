"""Number Match search: wins and proofs agree with brute force, every line replays, prunes are sound.

The checker here re-implements the rules in the plainest way (walk each line slot by slot, drop
every empty row), independently of flowbot.numbermatch.board.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowbot.numbermatch import Move, Rules, Scoring, solve, solve_best
from flowbot.numbermatch.board import CLASS_TABLE, find_pairs, make_board
from flowbot.numbermatch.prune import is_dead_end
from flowbot.numbermatch.rules import WRAP_KINDS, WRAP_NEXT_ROW, WRAP_SKIP_LAST
from flowbot.numbermatch.score import line_score
from flowbot.numbermatch.search import NO_WIN, TIMEOUT, WON

# --- the independent checker ---------------------------------------------------------------------


def pairable(x: int, y: int) -> bool:
    """Two digits pair when they are equal or sum to 10."""
    return x == y or x + y == 10


def sees(board: tuple[int, ...], a: int, b: int, rules: Rules) -> bool:
    """Slot a < b sees slot b: reading order with only cleared slots between, or a clear column/diagonal."""
    width = rules.width
    row_a, col_a = divmod(a, width)
    row_b, col_b = divmod(b, width)
    if (rules.wrap == WRAP_NEXT_ROW or row_a == row_b) and not any(board[a + 1 : b]):
        return True
    # The line across rows leaving the last column out: only the slots between in other columns block.
    others = [board[slot] for slot in range(a + 1, b) if slot % width != width - 1]
    if rules.wrap == WRAP_SKIP_LAST and width - 1 not in (col_a, col_b) and not any(others):
        return True
    steps = [(1, 0)] + ([(1, 1), (1, -1)] if rules.diagonals else [])
    for down, right in steps:
        row, col = row_a + down, col_a + right
        while 0 <= col < width and row * width + col < len(board):
            slot = row * width + col
            if slot == b:
                return True
            if board[slot]:
                break
            row, col = row + down, col + right
    return False


def legal_pairs(board: tuple[int, ...], rules: Rules) -> set[tuple[int, int]]:
    """Every removable pair, by trying every two digits."""
    filled = [slot for slot, value in enumerate(board) if value]
    return {
        (a, b)
        for at, a in enumerate(filled)
        for b in filled[at + 1 :]
        if pairable(board[a], board[b]) and sees(board, a, b, rules)
    }


def drop_empty_rows(board: list[int], width: int) -> tuple[int, ...]:
    """The board without its fully cleared rows."""
    rows = [board[start : start + width] for start in range(0, len(board), width)]
    return tuple(value for row in rows if any(row) for value in row)


def play(board: tuple[int, ...], move: Move, rules: Rules) -> tuple[int, ...]:
    """The board after a move, checked: a pair must be legal."""
    if move.is_add:
        return board + tuple(value for value in board if value)
    assert (move.a, move.b) in legal_pairs(board, rules), f"illegal pair {move} on {board}"
    cleared = list(board)
    cleared[move.a] = cleared[move.b] = 0
    return drop_empty_rows(cleared, rules.width)


def stuck_ends(rules: Rules) -> bool:
    """Whether a board a move leaves with no pair (and digits) ends the game, adds or not: unless the
    game is known to go on then, or adds only then, or adds by itself then."""
    return rules.ends_without_pairs is not False and not rules.add_when_stuck and not rules.auto_add


def replay_wins(cells: tuple[int, ...], moves: tuple[Move, ...], rules: Rules) -> bool:
    """True when the moves are legal, use at most the allowed adds, never leave a board with no pair
    where that may end the game, and leave no slot."""
    board = drop_empty_rows(list(cells), rules.width)
    assert sum(move.is_add for move in moves) <= rules.adds
    for move in moves:
        board = play(board, move, rules)
        assert not (board and stuck_ends(rules) and not legal_pairs(board, rules)), f"no pair left on {board}"
    return board == ()


def brute_force_win(cells: tuple[int, ...], rules: Rules) -> bool:
    """Whether any line wins, by trying every move in every position (memoised, no pruning)."""

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
        return adds > 0 and wins(play(board, Move(), rules), adds - 1)

    return wins(drop_empty_rows(list(cells), rules.width), rules.adds, start=True)


def near(a: int, b: int, rules: Rules) -> bool:
    """No slot between a < b: consecutive in reading order, or touching across rows."""
    (row_a, col_a), (row_b, col_b) = divmod(a, rules.width), divmod(b, rules.width)
    skipped = rules.wrap == WRAP_SKIP_LAST and col_a == rules.width - 2 and row_b == row_a + 1 and col_b == 0
    return b - a == 1 or (row_b - row_a == 1 and abs(col_b - col_a) <= 1) or skipped


def brute_force_best(cells: tuple[int, ...], rules: Rules, scoring: Scoring) -> int:
    """The highest score of any complete line, by trying every line."""

    @cache
    def most(board: tuple[int, ...], adds: int, start: bool = False) -> int:
        """The most points still to earn from this position (`start`: the board given)."""
        options = [0]
        pairs = legal_pairs(board, rules)
        for a, b in pairs:
            after = play(board, Move(a, b), rules)
            rows = (len(board) + rules.width - 1) // rules.width - (
                len(after) + rules.width - 1
            ) // rules.width
            gained = scoring.near_pair if near(a, b, rules) else scoring.far_pair
            gained += rows * scoring.row + (scoring.board if not after else 0)
            options.append(gained + most(after, adds))
        if adds and board and (pairs or start or not stuck_ends(rules)):
            options.append(most(play(board, Move(), rules), adds - 1))
        return max(options)

    return most(drop_empty_rows(list(cells), rules.width), rules.adds, start=True)


# --- strategies ----------------------------------------------------------------------------------


@st.composite
def small_games(draw, max_digits: int = 12, max_adds: int = 1) -> tuple[tuple[int, ...], Rules]:
    """A small board (a few cleared slots among 4-12 digits) with rules drawn to vary."""
    adds = draw(st.integers(0, max_adds))
    count = draw(st.integers(4, max_digits if adds == 0 else 8))
    digits = draw(st.lists(st.integers(1, 9), min_size=count, max_size=count))
    gaps = draw(st.lists(st.integers(0, count), max_size=4))
    for gap in sorted(gaps, reverse=True):
        digits.insert(gap, 0)
    rules = Rules(
        width=draw(st.sampled_from([9, 9, 4, 5])),
        adds=adds,
        wrap=draw(st.sampled_from(WRAP_KINDS)),
        diagonals=draw(st.booleans()),
        ends_without_pairs=draw(st.sampled_from([None, False])),
    )
    return tuple(digits), rules


@st.composite
def even_games(draw, max_adds: int = 0) -> tuple[tuple[int, ...], Rules]:
    """A board whose every digit class has an even count (so parity alone never decides)."""
    adds = draw(st.integers(0, max_adds))
    digits = []
    for _ in range(draw(st.integers(2, 7 if adds == 0 else 4))):
        first = draw(st.integers(1, 9))
        digits += [first, draw(st.sampled_from([first, 10 - first]))]
    digits = list(draw(st.permutations(digits)))
    for gap in sorted(draw(st.lists(st.integers(0, len(digits)), max_size=4)), reverse=True):
        digits.insert(gap, 0)
    rules = Rules(
        width=draw(st.sampled_from([9, 9, 3, 4, 5])),
        adds=adds,
        wrap=draw(st.sampled_from(WRAP_KINDS)),
        diagonals=draw(st.booleans()),
        ends_without_pairs=draw(st.sampled_from([None, False])),
    )
    return tuple(digits), rules


# --- the checker itself --------------------------------------------------------------------------


def test_checker_sees_each_kind_of_line():
    rules = Rules()
    board = (3, 0, 0, 0, 4, 0, 0, 0, 7, 7, 0, 0, 0, 0, 0, 0, 0, 3)
    assert sees(board, 0, 9, rules)  # column neighbours
    assert sees(board, 8, 9, rules)  # reading-order wrap
    assert not sees(board, 0, 8, rules)  # the 4 blocks the row
    assert sees(board, 0, 4, rules)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(small_games())
def test_move_generation_matches_the_checker(game):
    cells, rules = game
    board = make_board(cells, rules)
    assert set(find_pairs(board, rules)) == legal_pairs(board, rules)
    assert len(find_pairs(board, rules)) == len(set(find_pairs(board, rules)))


# --- the search against brute force --------------------------------------------------------------


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.one_of(small_games(), even_games(max_adds=1)))
def test_search_wins_exactly_when_brute_force_does(game):
    cells, rules = game
    answer = solve(cells, rules)
    expected = brute_force_win(cells, rules)
    assert answer.status == (WON if expected else NO_WIN)
    if answer.status == WON:
        assert replay_wins(cells, answer.moves, rules)
    else:
        assert answer.moves == ()


def test_search_wins_random_full_boards_and_every_line_replays():
    rng = random.Random(8)
    rules = Rules()
    for _ in range(40):
        cells = tuple(rng.randint(1, 9) for _ in range(27))
        answer = solve(cells, rules, timeout=10)
        assert answer.status == WON
        assert replay_wins(cells, answer.moves, rules)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.one_of(even_games(), small_games(max_digits=14, max_adds=0)))
def test_dead_end_prune_never_rejects_a_clearable_board(game):
    cells, rules = game
    board = make_board(cells, rules)
    if is_dead_end(bytes(board).translate(CLASS_TABLE), rules.width, rules.wrap, rules.diagonals):
        assert not brute_force_win(board, rules)


@pytest.mark.parametrize(
    ("cells", "why"),
    [
        ((1, 2, 9, 8), "reading order A B A B: each pair waits for the other"),
        ((5, 5, 5), "an odd count of 5s"),
        ((1, 1, 9), "an odd count in the 1/9 class"),
    ],
)
def test_dead_ends_are_found_and_proved(cells, why):
    rules = Rules(adds=0)
    assert is_dead_end(bytes(cells).translate(CLASS_TABLE), 9, True, True), why
    answer = solve(cells, rules)
    assert answer.status == NO_WIN
    assert not brute_force_win(cells, rules)


def test_two_digits_that_can_never_meet_without_the_wrap():
    # Different rows, different columns, never on a diagonal: with no wrap they can never pair.
    cells = (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9)
    rules = Rules(width=9, adds=0, wrap=False)
    board = make_board(cells, rules)
    assert is_dead_end(bytes(board).translate(CLASS_TABLE), 9, False, True)
    assert solve(board, rules).status == NO_WIN
    assert solve(board, Rules(adds=0)).status == WON  # the wrap brings them together


def test_an_add_turns_a_lost_board_into_a_win():
    assert solve((1, 2, 9), Rules(adds=0)).status == NO_WIN
    answer = solve((1, 2, 9), Rules(adds=1))
    assert answer.status == WON
    assert any(move.is_add for move in answer.moves)
    assert replay_wins((1, 2, 9), answer.moves, Rules(adds=1))
    # Doubled, "1 2 9 8" is still A B A B A B A B in one row: adds do not always help.
    assert solve((1, 2, 9, 8), Rules(adds=1)).status == NO_WIN
    assert not brute_force_win((1, 2, 9, 8), Rules(adds=1))


def test_a_line_adds_before_it_takes_the_last_pair():
    """Some games end the moment no pair is left, adds or not: unless the rules say the game goes on
    then, a line adds while a pair is still there (but it adds to a board given with none: the game
    is showing it)."""
    cells = (1, 7, 3, 1, 3)  # 7-3, then 1-1 would leave a lone 3
    goes_on = solve(cells, Rules(adds=1, ends_without_pairs=False))
    assert goes_on.moves[:3] == (Move(1, 2), Move(0, 3), Move())
    for rules in (Rules(adds=1), Rules(adds=1, ends_without_pairs=True)):
        answer = solve(cells, rules)
        assert answer.status == WON and answer.moves[:2] == (Move(1, 2), Move())
        assert replay_wins(cells, answer.moves, rules)
    assert solve((1, 2, 9), Rules(adds=1)).status == WON


# 26 digits, every class even, no add: no win, and the proof takes a few thousand positions.
HARD_NO_WIN = (1, 7, 6, 7, 8, 6, 7, 9, 3, 5, 2, 3, 3, 1, 3, 2, 9, 7, 9, 1, 4, 3, 4, 5, 8, 7)


def test_a_long_proof_finishes_and_a_short_time_limit_stops_it():
    rules = Rules(adds=0)
    proved = solve(HARD_NO_WIN, rules)
    assert proved.status == NO_WIN and proved.nodes > 1000
    stopped = solve(HARD_NO_WIN, rules, timeout=0.0)
    assert stopped.status == TIMEOUT and stopped.moves == ()


# --- best score ----------------------------------------------------------------------------------


@settings(max_examples=100, derandomize=True, deadline=None)
@given(small_games(max_digits=8))
def test_best_score_is_the_brute_force_best_and_proved(game):
    cells, rules = game
    scoring = Scoring()
    answer = solve_best(cells, rules, scoring, timeout=30)
    assert answer.optimal
    assert answer.score == brute_force_best(cells, rules, scoring)
    assert line_score(make_board(cells, rules), answer.moves, rules, scoring) == answer.score
    if answer.first_win_score is not None:
        assert answer.score >= answer.first_win_score
    board = drop_empty_rows(list(cells), rules.width)
    for move in answer.moves:
        board = play(board, move, rules)


def test_best_score_on_a_full_board_never_drops_below_the_first_win():
    rng = random.Random(3)
    for _ in range(3):
        cells = tuple(rng.randint(1, 9) for _ in range(27))
        answer = solve_best(cells, Rules(), timeout=0.3)
        assert answer.status == WON
        assert answer.first_win_score is not None
        assert answer.score >= answer.first_win_score
        assert not answer.optimal  # 27 digits and 4 adds cannot be searched through in 0.3 s
        assert line_score(cells, answer.moves, Rules(), Scoring()) == answer.score


def test_a_node_limit_stops_a_search_at_the_same_place_on_any_machine(monkeypatch):
    rules = Rules(adds=0)
    first = solve(HARD_NO_WIN, rules, nodes=500)
    assert first.status == TIMEOUT and first.nodes == 501
    # A machine a thousand times slower (every look at the clock a second later) stops in the same place.
    ticks = iter(range(10**9))
    monkeypatch.setattr("flowbot.numbermatch.search.time.perf_counter", lambda: next(ticks) / 1000)
    again = solve(HARD_NO_WIN, rules, nodes=500, timeout=10**6)
    assert (again.status, again.nodes) == (first.status, first.nodes)
    best = solve_best(HARD_NO_WIN, rules, nodes=800)
    assert not best.optimal and best.nodes <= 802
