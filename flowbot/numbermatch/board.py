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
    """Clear slots a and b; take away their rows if that left them empty (with `clear_rows` off,
    only emptied rows at the bottom). Returns (board, rows taken)."""
    board = bytearray(cells)
    board[a] = 0
    board[b] = 0
    if not clear_rows:
        before = len(board)
        after = normalize(bytes(board), width, clear_rows=False)
        return after, -(-before // width) - -(-len(after) // width)
    taken = 0
    first, last = sorted((a // width, b // width))
    # The later row first, so that taking it away does not move the earlier one.
    for row in (last, first) if first != last else (last,):
        start = row * width
        end = min(start + width, len(board))
        if board.count(0, start, end) == end - start:
            del board[start:end]
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

    Each slot looks forward only (reading order, down the column, down both diagonals) to the first
    slot that is not cleared; a pair is found when that slot holds the same class. `wrap` is a kind
    of `Rules.wrap`.
    """
    size = len(classes)
    filled = list(itertools.compress(range(size), classes))
    if wrap == WRAP_NEXT_ROW:
        # In any line, the next filled slot is found here already: a slot -> the slot it pairs with
        # across a row's end.
        wrapped = dict(itertools.pairwise(filled))
        found = [(a, b) for a, b in wrapped.items() if classes[a] == classes[b]]
    else:
        wrapped = {}
        found = [
            (a, b)
            for a, b in itertools.pairwise(filled)
            if classes[a] == classes[b] and a // width == b // width
        ]
    if wrap == WRAP_SKIP_LAST:
        # The line across rows leaves the last column out: the next filled slot but those.
        line = [index for index in filled if index % width != width - 1]
        for a, b in itertools.pairwise(line):
            if a // width != b // width and classes[a] == classes[b]:
                wrapped[a] = b
                found.append((a, b))
    skip_of = wrapped.get
    for a in filled:
        value = classes[a]
        skip = skip_of(a, -1)  # found already: a column or diagonal may be the same two slots
        b = a + width
        while b < size and not classes[b]:
            b += width
        if b < size and classes[b] == value and b != skip:
            found.append((a, b))
        if not diagonals:
            continue
        col = a % width
        for step, room in ((width + 1, width - 1 - col), (width - 1, col)):
            b = a
            for _ in range(room):
                b += step
                if b >= size:
                    break
                if classes[b]:
                    if classes[b] == value and b != skip:
                        found.append((a, b))
                    break
    return found
