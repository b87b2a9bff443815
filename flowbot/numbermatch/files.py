"""Number Match board files, read by their content: text or JSON.

Text: one row per line, digits 1-9 and '.' or '0' for a cleared slot (spaces between slots are
ignored); every row holds `Rules.width` slots except the last, which may be shorter. A file may hold
several boards separated by blank lines. '#' starts a comment, on its own line or after a row.

JSON: a board is a list of rows (each a string as in text, or a list of digits with 0 or null for a
cleared slot) or an object {"rows": [...]}; a file holds one board or a list of boards.

A problem with the file itself raises NumberMatchInputError; a bad board among several becomes an
entry with its error, so the other boards are still solved.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flowbot.argtypes import describe_value
from flowbot.errors import FormatError, InputFileError
from flowbot.formats import decode_json, read_text_file
from flowbot.numbermatch.board import Cells, make_board
from flowbot.numbermatch.errors import NumberMatchInputError
from flowbot.numbermatch.rules import DEFAULT_RULES, Rules

_SLOTS = {".": 0, **{str(digit): digit for digit in range(10)}}


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One board of a file (index from 0), or the error that stopped it."""

    source: str
    index: int
    cells: Cells | None
    error: NumberMatchInputError | None


def read_boards(path: str | os.PathLike[str], rules: Rules = DEFAULT_RULES) -> list[BoardEntry]:
    """Every board in a file; a missing, empty or unreadable file raises NumberMatchInputError."""
    name = os.fsdecode(path)
    return parse_boards(_read_text(path, name), name, rules)


def load_boards(path: str | os.PathLike[str], rules: Rules = DEFAULT_RULES) -> list[Cells]:
    """Every board in a file, raising the first error if any board is bad."""
    boards = []
    for entry in read_boards(path, rules):
        if entry.error is not None:
            raise entry.error
        assert entry.cells is not None
        boards.append(entry.cells)
    return boards


def parse_boards(text: str, name: str = "<text>", rules: Rules = DEFAULT_RULES) -> list[BoardEntry]:
    """The boards in a file's text (JSON when it starts with '[' or '{'); `name` only names things."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise NumberMatchInputError(f"{name}: file holds only whitespace")
    if text.lstrip()[0] in "[{":
        return _json_boards(text, name, rules)
    return _text_boards(text, name, rules)


def parse_row(text: str, width: int) -> list[int]:
    """The slots of one text row (0 = cleared); raises with the column of a bad character."""
    slots = []
    for column, char in enumerate(text, 1):
        if char in " \t":
            continue
        if char not in _SLOTS:
            raise NumberMatchInputError(
                f"column {column}: unexpected character {char!r} "
                "(digits 1-9, and '.' or '0' for a cleared slot)"
            )
        slots.append(_SLOTS[char])
    if len(slots) > width:
        raise NumberMatchInputError(f"row has {len(slots)} slots; a row holds at most {width}")
    return slots


# --- files ---------------------------------------------------------------------------------------


def _read_text(path: str | os.PathLike[str], name: str) -> str:
    """A file's text, with missing, empty, binary and non-UTF-8 files reported by name."""
    try:
        return read_text_file(path)
    except InputFileError as error:
        raise NumberMatchInputError(str(error)) from None


def _board_cells(rows: Sequence[list[int]], names: Sequence[str], width: int) -> Cells:
    """Rows of slots joined into a board; every row but the last must be full (`names` say where each is)."""
    for name, row in zip(names[:-1], rows[:-1], strict=True):
        if len(row) != width:
            raise NumberMatchInputError(
                f"{name}: row has {len(row)} slots; only the last row may hold fewer than {width}"
            )
    return make_board([slot for row in rows for slot in row], Rules(width=width))


def _entry(name: str, index: int, count: int, build: Callable[[], Cells]) -> BoardEntry:
    """Build one board; its error, if any, is prefixed with the file and the board (when several)."""
    try:
        return BoardEntry(name, index, build(), None)
    except NumberMatchInputError as error:
        board = f" (board {index + 1})" if count > 1 else ""
        return BoardEntry(name, index, None, NumberMatchInputError(f"{name}{board}: {error}"))


# --- text ----------------------------------------------------------------------------------------


def _text_boards(text: str, name: str, rules: Rules) -> list[BoardEntry]:
    """Boards separated by blank lines; comment lines neither count as rows nor separate boards."""
    blocks: list[list[tuple[int, str]]] = [[]]
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            if blocks[-1]:
                blocks.append([])
            continue
        content = raw.split("#", 1)[0].rstrip()
        if content.strip():
            blocks[-1].append((number, content))
    blocks = [block for block in blocks if block]
    if not blocks:
        raise NumberMatchInputError(f"{name}: no board found (only comments and blank lines)")
    return [_text_entry(block, name, index, len(blocks), rules.width) for index, block in enumerate(blocks)]


def _text_entry(block: list[tuple[int, str]], name: str, index: int, count: int, width: int) -> BoardEntry:
    """One text board, its error naming the line where the problem is."""

    def build() -> Cells:
        """Parse the rows, each error naming its line."""
        rows = []
        for number, content in block:
            try:
                rows.append(parse_row(content, width))
            except NumberMatchInputError as error:
                raise NumberMatchInputError(f"line {number}: {error}") from None
        return _board_cells(rows, [f"line {number}" for number, _ in block], width)

    return _entry(name, index, count, build)


# --- JSON ----------------------------------------------------------------------------------------


def _json_boards(text: str, name: str, rules: Rules) -> list[BoardEntry]:
    """One board or a list of boards, each a list of rows or {"rows": [...]}."""
    try:
        data = decode_json(text, name)
    except FormatError as error:
        raise NumberMatchInputError(str(error)) from None
    if not isinstance(data, list | dict):
        raise NumberMatchInputError(f"{name}: expected a JSON list or object, got {describe_value(data)}")
    if isinstance(data, list) and not data:
        raise NumberMatchInputError(f"{name}: the JSON list is empty (no board)")
    if isinstance(data, dict) or all(_is_row(item) for item in data):
        boards = [data]
    elif all(isinstance(item, dict) or (isinstance(item, list) and not _is_row(item)) for item in data):
        boards = data
    else:
        raise NumberMatchInputError(
            f'{name}: expected a board (a list of rows, or {{"rows": [...]}}) or a list of boards'
        )
    return [
        _entry(name, index, len(boards), lambda board=board: _json_board(board, rules.width))
        for index, board in enumerate(boards)
    ]


def _is_row(item: object) -> bool:
    """True for what can only be one row: a string, or a list of numbers, booleans and nulls.

    A slot that is no digit (1.5, true) still makes a row, so the message names that slot; a list of
    strings is a board (string rows).
    """
    if isinstance(item, str):
        return True
    return isinstance(item, list) and not any(isinstance(slot, list | dict | str) for slot in item)


def _json_board(board: object, width: int) -> Cells:
    """Check and build one JSON board."""
    rows = board.get("rows") if isinstance(board, dict) else board
    if not isinstance(rows, list) or not rows:
        raise NumberMatchInputError('a board needs a non-empty list of rows (or {"rows": [...]})')
    slots: list[list[int]] = []
    for number, row in enumerate(rows, 1):
        try:
            slots.append(_json_row(row, width))
        except NumberMatchInputError as error:
            raise NumberMatchInputError(f"row {number}: {error}") from None
    return _board_cells(slots, [f"row {number}" for number in range(1, len(rows) + 1)], width)


def _json_row(row: object, width: int) -> list[int]:
    """One JSON row: a string of slots, or a list of digits 0-9 and nulls."""
    if isinstance(row, str):
        return parse_row(row, width)
    if not isinstance(row, list):
        raise NumberMatchInputError(f"expected a string or a list of digits, got {describe_value(row)}")
    slots = []
    for column, slot in enumerate(row, 1):
        if slot is None:
            slot = 0
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot <= 9:
            raise NumberMatchInputError(
                f"column {column}: {describe_value(slot)} is not a digit 0-9 (0 or null: cleared)"
            )
        slots.append(slot)
    if len(slots) > width:
        raise NumberMatchInputError(f"row has {len(slots)} slots; a row holds at most {width}")
    return slots
