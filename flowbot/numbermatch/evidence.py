"""What a Number Match game's answers say about its rules: pure comparisons of boards before and
after a move (what an add appended and of which kind, how a pair lines up), and the rules as text."""

from __future__ import annotations

from dataclasses import replace

from flowbot.numbermatch.board import Move, _add, apply_move, find_pairs
from flowbot.numbermatch.rules import COPY, GENERATED, UNKNOWN, WRAP_NONE, WRAP_SKIP_LAST, Rules

WIDTH = 9


def adds_allowed(cells: tuple[int, ...], moves: tuple[Move, ...], rules: Rules) -> bool:
    """False when a line adds while a pair is left under `rules` that add only when stuck (a line
    planned without some pair kinds may be stuck where the game is not)."""
    if not rules.add_when_stuck:
        return True
    for move in moves:
        if move.is_add and find_pairs(cells, rules):
            return False
        cells = apply_move(cells, move, rules)
    return True


def trimmed(cells: tuple[int, ...]) -> tuple[int, ...]:
    """A board less its cleared slots at the end (a look may draw them blank, like no slot)."""
    end = len(cells)
    while end and not cells[end - 1]:
        end -= 1
    return tuple(cells[:end])


def appended(before: tuple[int, ...], after: tuple[int, ...]) -> tuple[int, ...] | None:
    """The digits `after` holds past `before`'s remaining ones, in reading order, when `after` keeps
    `before`'s digits first (an add, wherever it starts its row); else None."""
    old = [value for value in before if value]
    new = [value for value in after if value]
    if len(new) <= len(old) or new[: len(old)] != old:
        return None
    return tuple(new[len(old) :])


# Adds a game may make in a row by itself (one that adds until a pair shows, up to a limit).
MOST_ADDS_IN_A_ROW = 3


def add_kind(before: tuple[int, ...], appended: tuple[int, ...]) -> str:
    """Which kind of add appends these digits to `before` (once, or a few times in a row, as a game
    that adds by itself until a pair shows does): a copy, a generated row, or neither."""
    start = bytes(trimmed(before))
    for kind in (COPY, GENERATED):
        board = start
        for _ in range(MOST_ADDS_IN_A_ROW):
            board = _add(board, kind)
            if board[len(start) :] == bytes(appended):
                return kind
            if len(board) - len(start) > len(appended):
                break
    return UNKNOWN


def took(before: tuple[int, ...], move: Move, seen: tuple[int, ...]) -> bool:
    """True when the board `seen` after `move` on `before` shows the game took it, whatever the rules:
    an add kept the digits and appended more; a pair left the other digits in order, with only what
    an add appends past them (a game that adds by itself when no pair is left)."""
    if move.is_add:
        return appended(before, seen) is not None
    kept = tuple(value for index, value in enumerate(before) if value and index not in (move.a, move.b))
    shown = tuple(value for value in seen if value)
    if shown == tuple(value for value in before if value):
        return False  # nothing changed (an add by itself would need the pair gone first)
    if shown == kept:
        return True
    grown = appended(kept, seen)
    return grown is not None and add_kind(kept, grown) != UNKNOWN


def line_kind(move: Move, width: int) -> str:
    """How a pair's two slots line up: 'row', 'column', 'diagonal' or 'wrap' (reading order across rows)."""
    (row_a, col_a), (row_b, col_b) = divmod(move.a, width), divmod(move.b, width)
    if row_a == row_b:
        return "row"
    if col_a == col_b:
        return "column"
    if abs(row_a - row_b) == abs(col_a - col_b):
        return "diagonal"
    return "wrap"


def wrap_refused(cells: tuple[int, ...], move: Move, rules: Rules) -> str:
    """The wrap that explains why the game refused this pair across a row's end on `cells`: of those
    not yet tried, the one that keeps the most of the line (the last column left out, then none)
    under which the pair is not one."""
    for kind in (WRAP_SKIP_LAST, WRAP_NONE):
        if kind == rules.wrap or (kind == WRAP_SKIP_LAST and rules.wrap == WRAP_NONE):
            continue
        if (move.a, move.b) not in find_pairs(cells, replace(rules, wrap=kind)):
            return kind
    return WRAP_NONE


def cells_text(move: Move) -> str:
    """A pair as 'row r, column c and row r, column c' (counted from 1)."""
    (row_a, col_a), (row_b, col_b) = divmod(move.a, WIDTH), divmod(move.b, WIDTH)
    return f"(row {row_a + 1}, column {col_a + 1} and row {row_b + 1}, column {col_b + 1})"


def digits(values: tuple[int, ...]) -> str:
    """Digits as one word, shortened past a row's worth."""
    text = "".join(str(value) for value in values)
    return text if len(text) <= 2 * WIDTH else text[: 2 * WIDTH] + "..."


def value_text(value: object) -> str:
    """A rule's value as the --rules option spells it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return UNKNOWN if value is None else str(value)


def rules_text(rules: Rules) -> str:
    """The rules in --rules spelling."""
    parts = [
        f"diagonals={value_text(rules.diagonals)}",
        f"wrap={value_text(rules.wrap)}",
        f"add={rules.add}",
        f"adds={'limited' if rules.adds_limited else 'unlimited'}",
        f"add-when-stuck={value_text(rules.add_when_stuck)}",
        f"auto-add={value_text(rules.auto_add)}",
        f"clear-rows={value_text(rules.clear_rows)}",
        f"ends-without-pairs={value_text(rules.ends_without_pairs)}",
    ]
    return ",".join(parts)
