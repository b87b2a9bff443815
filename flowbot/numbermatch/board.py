"""The Number Match board: a row-major tuple of digits (0 = cleared), and the moves that change it.

A board is a flat sequence read in rows of `Rules.width` slots; only the last row may be shorter. Every
function here is pure. The `_`-prefixed twins work on `bytes` (one byte per slot), which is what the
search hashes and copies fastest; the public functions take and return tuples.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from flowbot.numbermatch.errors import NumberMatchInputError
from flowbot.numbermatch.rules import (
    DEFAULT_RULES,
    DIGIT_CLASS,
    GENERATED,
    WRAP_NEXT_ROW,
    WRAP_SKIP_LAST,
    Rules,
)

Cells = tuple[int, ...]
Pair = tuple[int, int]

# bytes.translate table: a digit to its class (1/9 -> 1, 2/8 -> 2, 3/7 -> 3, 4/6 -> 4, 5 -> 5).
CLASS_TABLE = bytes(DIGIT_CLASS) + bytes(256 - len(DIGIT_CLASS))


@dataclass(frozen=True, slots=True)
class Move:
    """One move on the board as it stands: a pair of slots (flat indices, a < b), or adding the numbers."""

    a: int = -1
    b: int = -1

    @property
    def is_add(self) -> bool:
        """True for "add numbers"."""
        return self.a < 0


ADD = Move()


def make_board(cells: Sequence[int], rules: Rules = DEFAULT_RULES) -> Cells:
    """A checked board: digits 0-9, with the rows that are already fully cleared taken away."""
    for index, value in enumerate(cells):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
            raise NumberMatchInputError(f"slot {index} holds {value!r}, expected a digit 0-9")
    return tuple(normalize(bytes(cells), rules.width, rules.clear_rows))


def rows_of(cells: Sequence[int], width: int) -> list[Sequence[int]]:
    """The board cut into its rows (the last one may be shorter)."""
    return [cells[start : start + width] for start in range(0, len(cells), width)]


def is_won(cells: Sequence[int]) -> bool:
    """True when every slot is cleared (after row removal that means no slot is left at all)."""
    return not any(cells)


def find_pairs(cells: Sequence[int], rules: Rules = DEFAULT_RULES) -> list[Pair]:
    """Every pair that may be removed now, as (a, b) flat indices with a < b, each pair once."""
    return _pairs(bytes(cells).translate(CLASS_TABLE), rules.width, rules.wrap, rules.diagonals)


def apply_move(cells: Sequence[int], move: Move, rules: Rules = DEFAULT_RULES) -> Cells:
    """The board after a move (trusted: a pair must come from `find_pairs`), cleared rows taken away."""
    if move.is_add:
        return tuple(_add(bytes(cells), rules.add))
    after, _ = _remove(bytes(cells), move.a, move.b, rules.width, rules.clear_rows)
    return tuple(after)


def rows_cleared_by(cells: Sequence[int], move: Move, rules: Rules = DEFAULT_RULES) -> int:
    """How many rows disappear when this move is played (0 or 1 for most pairs, 2 at most)."""
    if move.is_add:
        return 0
    return _remove(bytes(cells), move.a, move.b, rules.width, rules.clear_rows)[1]


def is_near(a: int, b: int, rules: Rules = DEFAULT_RULES) -> bool:
    """True when slots a < b have no slot between them: touching, or consecutive in reading order."""
    return _near(a, b, rules.width, rules.wrap)


def normalize(cells: bytes, width: int, clear_rows: bool = True) -> bytes:
    """The board with every fully cleared row taken away (the last, shorter row too); with
    `clear_rows` off, only the cleared rows at the bottom."""
    if all(cells):
        return cells
    kept = [cells[start : start + width] for start in range(0, len(cells), width)]
    if not clear_rows:
        while kept and not any(kept[-1]):
            kept.pop()
        return b"".join(kept)
    return b"".join(row for row in kept if any(row))


# --- the fast core on bytes -------------------------------------------------------------------------


def _near(a: int, b: int, width: int, wrap: str) -> bool:
    """`is_near` on flat indices with a < b."""
    step = b - a
    col = a % width
    if step == 1:
        return wrap == WRAP_NEXT_ROW or col + 1 < width
    if step == 2 and wrap == WRAP_SKIP_LAST and col == width - 2:
        return True  # the last-but-one slot and the next row's first: the line leaves out the slot between
    if step == width:
        return True
    if step == width + 1:
        return col + 1 < width
    return step == width - 1 and col > 0


def _remove(cells: bytes, a: int, b: int, width: int, clear_rows: bool = True) -> tuple[bytes, int]:
    """Clear slots a < b; take away their rows if that left them empty (with `clear_rows` off,
    only emptied rows at the bottom). Returns (board, rows taken)."""
    board = bytearray(cells)
    board[a] = 0
    board[b] = 0
    if not clear_rows:
        before = len(board)
        after = normalize(bytes(board), width, clear_rows=False)
        return after, -(-before // width) - -(-len(after) // width)
    taken = 0
    # b's row first, so that taking it away does not move a's (a < b, so a's row is never after it).
    last = b - b % width
    if not any(board[last : last + width]):
        del board[last : last + width]
        taken = 1
    first = a - a % width
    if first != last and not any(board[first : first + width]):
        del board[first : first + width]
        taken += 1
    return bytes(board), taken


def _add(cells: bytes, kind: str = "copy", digits: bool = True) -> bytes:
    """Append the added digits after the last slot: every remaining digit in reading order (a copy),
    or for a GENERATED add, those with every second one replaced by its 10-complement, reversed.

    On a board of digit classes (`digits` off) a complement is its own class, so the generated row
    is the remaining classes reversed.
    """
    remaining = cells.replace(b"\x00", b"")
    if kind == GENERATED:
        if digits:
            remaining = bytes(
                value if index % 2 == 0 else 10 - value for index, value in enumerate(remaining)
            )
        remaining = remaining[::-1]
    return cells + remaining


def _pairs(classes: bytes, width: int, wrap: str, diagonals: bool) -> list[Pair]:
    """Every removable pair of a board given as digit classes (see `CLASS_TABLE`), each pair once.

    Pairs along the reading line come first, then, by their first slot, those down a column, down to
    the right and down to the left (in that order for one slot): each slot pairs with the first slot
    not cleared after it on each line, when that slot holds the same class. `wrap` is a kind of
    `Rules.wrap`. The search calls this at every position, so it walks the filled slots once.
    """
    size = len(classes)
    filled = list(itertools.compress(range(size), classes))
    if wrap == WRAP_NEXT_ROW:
        found = [(a, b) for a, b in itertools.pairwise(filled) if classes[a] == classes[b]]
    else:
        found = [
            (a, b)
            for a, b in itertools.pairwise(filled)
            if classes[a] == classes[b] and a // width == b // width
        ]
    wrapped = {}  # a -> b across a row's end on a line that leaves the last column out
    if wrap == WRAP_SKIP_LAST:
        line = [index for index in filled if index % width != width - 1]
        for a, b in itertools.pairwise(line):
            if a // width != b // width and classes[a] == classes[b]:
                wrapped[a] = b
                found.append((a, b))
    # Walking the filled slots in reading order, the last one seen on a slot's column (or diagonal) is
    # the first filled one above it there. A diagonal is named by row - col (down to the right, a
    # negative one indexing from the list's end) or row + col (down to the left).
    lines: list[tuple[int, int, int]] = []  # (a, 0 column / 1 right / 2 left, b)
    column = [-1] * width
    if diagonals:
        rows = size // width + 1
        right = [-1] * (width + rows)
        left = [-1] * (width + rows)
        for b in filled:
            value = classes[b]
            row, col = divmod(b, width)
            a = column[col]
            column[col] = b
            if a >= 0 and classes[a] == value:
                lines.append((a, 0, b))
            a = right[row - col]
            right[row - col] = b
            if a >= 0 and classes[a] == value:
                lines.append((a, 1, b))
            a = left[row + col]
            left[row + col] = b
            if a >= 0 and classes[a] == value:
                lines.append((a, 2, b))
    else:
        for b in filled:
            col = b % width
            a = column[col]
            column[col] = b
            if a >= 0 and classes[a] == classes[b]:
                lines.append((a, 0, b))
    if not lines:
        return found
    lines.sort()
    if wrap == WRAP_NEXT_ROW:
        # Found already when nothing filled lies between: the reading line runs through both slots.
        found.extend((a, b) for a, _, b in lines if classes.count(0, a + 1, b) != b - a - 1)
    else:
        found.extend((a, b) for a, _, b in lines if wrapped.get(a) != b)
    return found
