"""Where `flowbot numbermatch` gets boards: board files (text, JSON) or screenshots, told apart by content.

This loader sits above both readers: `files` (formats only) and `read` (images, OpenCV), so neither
needs the other. A folder gives its images in name order (truth files and notes beside them are
left alone), or its files when it holds no image.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from flowbot.errors import FlowbotError
from flowbot.formats import expand_folders, image_format
from flowbot.numbermatch.board import Cells, make_board
from flowbot.numbermatch.errors import NumberMatchInputError
from flowbot.numbermatch.files import read_boards
from flowbot.numbermatch.rules import Rules

HEAD_BYTES = 16  # enough of a file's start to tell an image by its signature


@dataclass(frozen=True, slots=True)
class Loaded:
    """One board from a source: its place, the board or the error, and for a screenshot the rows as
    read (digits, '.', '_') and the adds left from the "+" badge (None when no badge was read)."""

    source: str
    index: int
    count: int
    cells: Cells | None
    error: str | None = None
    rows: tuple[str, ...] | None = None
    adds_left: int | None = None


def expand(paths: list[str]) -> list[str]:
    """Each folder replaced by its images (name order), or by its files when it holds no image."""
    return expand_folders(paths, prefer=is_image)


def is_image(path: str) -> bool:
    """True when a regular file starts like an image (PNG, JPEG, ...); False too when it cannot be opened."""
    if not os.path.isfile(path):
        return False  # a FIFO or device would block the read; the board-file reader refuses those
    try:
        with open(path, "rb") as handle:
            return image_format(handle.read(HEAD_BYTES)) is not None
    except OSError:
        return False


def load(path: str, rules: Rules) -> list[Loaded]:
    """Every board of one source; an unreadable source or board becomes an entry with its error."""
    if Path(path).is_dir():
        return [Loaded(path, 0, 1, None, f"{path}: folder holds no files")]
    if is_image(path):
        return [_screenshot(path, rules)]
    try:
        entries = read_boards(path, rules)
    except NumberMatchInputError as error:
        return [Loaded(path, 0, 1, None, str(error))]
    return [
        Loaded(
            path, entry.index, len(entries), entry.cells, None if entry.error is None else str(entry.error)
        )
        for entry in entries
    ]


def _screenshot(path: str, rules: Rules) -> Loaded:
    """The board read from a screenshot file."""
    from flowbot.capture.image import decode_image
    from flowbot.numbermatch.read import read_board

    name = os.fsdecode(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        frame = decode_image(data)
        reading = read_board(frame, name)
        if not reading.whole:
            raise NumberMatchInputError(
                f"{name}: only part of the board shows (scrolled: its first row or its end is off the "
                f"screenshot); rows read: {' '.join(reading.rows)}"
            )
        cells = make_board([_slot(char) for row in reading.rows for char in row.rstrip("_")], rules)
    except OSError as error:
        return Loaded(name, 0, 1, None, f"{name}: cannot read the file: {error.strerror or error}")
    except FlowbotError as error:
        message = str(error)
        return Loaded(name, 0, 1, None, message if message.startswith(name) else f"{name}: {message}")
    return Loaded(name, 0, 1, cells, None, reading.rows, reading.adds_left)


def _slot(char: str) -> int:
    """A read cell as a board slot: its digit, or 0 for a cleared one."""
    return int(char) if char.isdigit() else 0
