"""Sound dead-end tests for the last stretch of a game, when no "add numbers" is left.

With no add left the board can only shrink, so a position is lost when some digit can never be
paired. Two tests, both cheap enough to run at every node:

- parity: a pair removes two digits of one class (1/9, 2/8, 3/7, 4/6, 5), so a class with an odd
  count can never be cleared. (An add doubles every count, so this only bites once adds are gone.)
- the last two of a class: when a class has exactly two digits left they must pair with each other,
  and every slot between them on every line they could ever share must be cleared first
  (`must_clear_mask`). If those two can never share a line, or two such classes each wait for the
  other (a cycle, as in reading order "A B A B"), the position is lost.
"""

from __future__ import annotations

from functools import lru_cache

from flowbot.numbermatch.rules import WRAP_NEXT_ROW, WRAP_SKIP_LAST

NEVER = -1


@lru_cache(maxsize=1 << 16)
def must_clear_mask(a: int, b: int, width: int, wrap: str, diagonals: bool) -> int:
    """Bit mask of the slots that must be cleared before slots a < b can ever pair, or NEVER.

    The pair needs one clear line. Slots a and b keep their reading order, row and column when cleared
    rows disappear; only their diagonal can change (rows between them vanish, so a steep line becomes
    45 degrees). Whichever line is used, the slots between on it must be cleared first, so the slots
    that must be cleared in any case are the intersection, over every line still possible, of the
    slots each one needs.
    """
    row_a, col_a = divmod(a, width)
    row_b, col_b = divmod(b, width)
    rows, cols = row_b - row_a, col_b - col_a
    needs = []
    between = ((1 << b) - 1) ^ ((1 << (a + 1)) - 1)
    if wrap == WRAP_NEXT_ROW or rows == 0:
        # Reading order (the row itself when the wrap is off): every slot between them.
        needs.append(between)
    elif wrap == WRAP_SKIP_LAST and width - 1 not in (col_a, col_b):
        # Reading order leaving the last column out: every slot between but those.
        last = sum(1 << index for index in range(a + 1, b) if index % width == width - 1)
        needs.append(between & ~last)
    if rows > 0 and cols == 0:
        needs.append(sum(1 << (a + step * width) for step in range(1, rows)))
    if diagonals and rows > 0 and 1 <= abs(cols) <= rows:
        needs.append(_diagonal_needs(row_a, col_a, rows, cols, width))
    if not needs:
        return NEVER
    mask = needs[0]
    for need in needs[1:]:
        mask &= need
    return mask


def _diagonal_needs(row_a: int, col_a: int, rows: int, cols: int, width: int) -> int:
    """Slots that must be cleared for a diagonal line between two slots, whichever rows vanish first.

    Of the rows - 1 rows between them, `kept` = |cols| - 1 must stay (they hold the line's middle
    slots) and the others must vanish, which means being fully cleared. A row that can be kept only at
    one place in the line must have that one slot cleared; a row that can never be kept must be
    cleared whole; a row that may be kept at two places needs nothing in particular.
    """
    kept = abs(cols) - 1
    sign = 1 if cols > 0 else -1
    mask = 0
    for step in range(1, rows):
        # This row's rank among the kept rows: at least the kept rows that cannot fit after it.
        low = max(0, kept - 1 - (rows - 1 - step))
        high = min(step - 1, kept - 1)
        start = (row_a + step) * width
        if low > high:
            mask |= ((1 << width) - 1) << start
        elif low == high:
            mask |= 1 << (start + col_a + sign * (low + 1))
    return mask


def is_dead_end(classes: bytes, width: int, wrap: str, diagonals: bool) -> bool:
    """True when a board of digit classes, with no add left, provably cannot be cleared."""
    lasts = []
    for value in (1, 2, 3, 4, 5):
        count = classes.count(value)
        if count & 1:
            return True
        if count == 2:
            first = classes.index(value)
            lasts.append((value, first, classes.index(value, first + 1)))
    if not lasts:
        return False
    cells = {value: (1 << first) | (1 << second) for value, first, second in lasts}
    waits: dict[int, list[int]] = {}
    for value, first, second in lasts:
        mask = must_clear_mask(first, second, width, wrap, diagonals)
        if mask == NEVER:
            return True
        waits[value] = [other for other, bits in cells.items() if other != value and mask & bits]
    return _has_cycle(waits)


def _has_cycle(waits: dict[int, list[int]]) -> bool:
    """True when the 'must be paired before' relation between classes loops back on itself."""
    state: dict[int, int] = {}  # 1 = on the current path, 2 = finished

    def visit(node: int) -> bool:
        """Depth-first walk that reports a cycle through `node`."""
        state[node] = 1
        for other in waits[node]:
            seen = state.get(other, 0)
            if seen == 1 or (seen == 0 and visit(other)):
                return True
        state[node] = 2
        return False

    return any(state.get(node, 0) == 0 and visit(node) for node in waits)
