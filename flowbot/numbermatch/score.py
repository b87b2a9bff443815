"""Points for moves and whole games, after `Scoring` (near pair, far pair, row, board)."""

from __future__ import annotations

from collections.abc import Sequence

from flowbot.numbermatch.board import Move, _add, _near, _remove
from flowbot.numbermatch.rules import Rules, Scoring


def pair_points(a: int, b: int, rows_taken: int, emptied: bool, rules: Rules, scoring: Scoring) -> int:
    """Points for removing slots a < b, which took away `rows_taken` rows and maybe emptied the board."""
    points = scoring.near_pair if _near(a, b, rules.width, rules.wrap) else scoring.far_pair
    points += rows_taken * scoring.row
    return points + (scoring.board if emptied else 0)


def line_score(cells: Sequence[int], moves: Sequence[Move], rules: Rules, scoring: Scoring) -> int:
    """The score of playing `moves` from `cells` (trusted: pairs as `find_pairs` gives them)."""
    board = bytes(cells)
    total = 0
    for move in moves:
        if move.is_add:
            board = _add(board, rules.add)
            continue
        board, taken = _remove(board, move.a, move.b, rules.width, rules.clear_rows)
        total += pair_points(move.a, move.b, taken, not board, rules, scoring)
    return total


def score_bound(filled: int, slots: int, adds_left: int, rules: Rules, scoring: Scoring) -> int:
    """More points than any play from a board with `filled` digits in `slots` slots can still earn.

    Adds double the digits at most, so at most filled * 2**adds_left digits are ever removed, two per
    pair; rows that can vanish are the rows there are now plus those the appended digits fill (each
    add may also start one more, partly filled row, and leave one the previous add started).
    """
    digits = filled << adds_left
    appended = digits - filled
    rows = -(-slots // rules.width) + -(-appended // rules.width) + 2 * adds_left
    best_pair = max(scoring.near_pair, scoring.far_pair)
    return (digits // 2) * best_pair + rows * scoring.row + scoring.board
