"""Text a person can follow on a phone: the board at each step with the pair to tap highlighted."""

from __future__ import annotations

from collections.abc import Sequence

from flowbot.numbermatch.board import Move, _add, _remove, rows_of
from flowbot.numbermatch.rules import DEFAULT_RULES, Rules, Scoring
from flowbot.numbermatch.score import pair_points

REVERSE, RESET = "\x1b[7m", "\x1b[0m"


def render_board(
    cells: Sequence[int], width: int = 9, highlight: Sequence[int] = (), colors: bool = False
) -> str:
    """The board with row and column numbers from 1; `highlight` slots in reverse video or [brackets]."""
    marked = set(highlight)
    lines = [("     " + "".join(f"{col:^3}" for col in range(1, width + 1))).rstrip()]
    for row, slots in enumerate(rows_of(cells, width)):
        drawn = []
        for col, value in enumerate(slots):
            text = str(value) if value else "."
            if row * width + col not in marked:
                drawn.append(f" {text} ")
            elif colors:
                drawn.append(f"{REVERSE} {text} {RESET}")
            else:
                drawn.append(f"[{text}]")
        lines.append(f"{row + 1:>3}  " + "".join(drawn).rstrip())
    return "\n".join(lines)


def replay_text(
    cells: Sequence[int],
    moves: Sequence[Move],
    rules: Rules = DEFAULT_RULES,
    colors: bool = False,
    scoring: Scoring | None = None,
) -> str:
    """Every step of a line: what to tap (1-based row and column), the board with it marked, adds in capitals.

    With `scoring`, each pair also shows the points it earns.
    """
    board = bytes(cells)
    width = rules.width
    lines = []
    adds_used = 0
    total = len(moves)
    for step, move in enumerate(moves, 1):
        heading = f"Step {step}/{total}:"
        if move.is_add:
            adds_used += 1
            appended = len(board) - board.count(0)
            board = _add(board)
            lines.append(
                f"{heading} >>> ADD NUMBERS <<< (add {adds_used} of {rules.adds}: "
                f"{appended} digits appended after the last slot)"
            )
            lines.append("")
            continue
        (row_a, col_a), (row_b, col_b) = divmod(move.a, width), divmod(move.b, width)
        pair = (
            f"{board[move.a]} at row {row_a + 1}, col {col_a + 1}  +  "
            f"{board[move.b]} at row {row_b + 1}, col {col_b + 1}"
        )
        after, taken = _remove(board, move.a, move.b, width)
        notes = []
        if taken:
            notes.append("clears a row" if taken == 1 else f"clears {taken} rows")
        if scoring is not None:
            points = pair_points(move.a, move.b, taken, not after, rules, scoring)
            notes.append(f"+{points} point{'s' if points != 1 else ''}")
        extra = f"  ({', '.join(notes)})" if notes else ""
        lines.append(f"{heading} {pair}{extra}")
        lines.append(render_board(board, width, (move.a, move.b), colors))
        lines.append("")
        board = after
    if moves and not board:
        lines.append("Board cleared.")
    elif moves:
        lines.append("No move left:")
        lines.append(render_board(board, width))
    return "\n".join(lines)
