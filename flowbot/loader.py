"""Puzzles from any file a user gives: text and JSON through `formats`, screenshots through `capture`.
The one module that knows both, so that `formats` never imports the capture stage (OpenCV loads only
when an image is read)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from flowbot.errors import FlowbotError, InputFileError
from flowbot.formats import Loaded, image_format
from flowbot.formats import load_puzzles as load_file_puzzles
from flowbot.formats import read_entries as read_file_entries
from flowbot.model import Puzzle


def read_entries(path: str | os.PathLike[str]) -> list[Loaded]:
    """Every puzzle in a file, a screenshot included; file-level problems raise, a bad puzzle among
    several becomes an entry."""
    return read_file_entries(path, read_image=read_screenshot_puzzle)


def load_puzzles(path: str | os.PathLike[str]) -> list[Puzzle]:
    """Every puzzle in a file (a screenshot included); the first error raises."""
    return load_file_puzzles(path, read_image=read_screenshot_puzzle)


def read_screenshot_puzzle(data: bytes, name: str) -> Puzzle:
    """The puzzle on a screenshot file's bytes, of any kind flowbot reads."""
    from flowbot.capture.screenshot import read_screenshot_file

    return read_screenshot_file(data, name).puzzle


@dataclass(frozen=True, slots=True)
class Skipped:
    """The files a folder holds that were not read, and why."""

    folder: str
    kind: str  # what they are not: "screenshot" or "puzzle"
    names: tuple[str, ...]

    def summary(self) -> str:
        """How many were skipped and why, naming the first few."""
        shown = ", ".join(self.names[:SHOWN_SKIPPED]) + (", ..." if len(self.names) > SHOWN_SKIPPED else "")
        count = len(self.names)
        what = f"a {self.kind}" if count == 1 else f"{self.kind}s"
        return f"skipped {count} file{'' if count == 1 else 's'}, not {what} ({shown})"

    def note(self) -> str:
        """The summary, naming the folder."""
        return f"{self.folder}: {self.summary()}"


@dataclass(frozen=True, slots=True)
class Inputs:
    """The files to read for the paths a user gave: each file named, and what each folder holds that
    reads as puzzles; the files a folder holds that do not (notes, a MANIFEST.md) are skipped."""

    files: tuple[str, ...]
    skipped: tuple[Skipped, ...]

    def notes(self) -> list[str]:
        """One line per folder that had files skipped."""
        return [skipped.note() for skipped in self.skipped]


SHOWN_SKIPPED = 3
HEAD_BYTES = 16  # enough of a file's start to tell an image by its signature


def puzzle_inputs(paths: Sequence[str], *, images_only: bool = False) -> Inputs:
    """Each file named as it is; each folder as the files in it that hold puzzles, sorted: its
    screenshots when it has any (the text beside them is notes or truths), else the files whose text
    reads as at least one puzzle. With `images_only`, a folder gives only its screenshots.

    A folder with nothing readable stays in the list, so that reading it reports the problem by name.
    """
    files: list[str] = []
    skipped: list[Skipped] = []
    for path in paths:
        if not os.path.isdir(path):
            files.append(str(path))
            continue
        # pathlib only here: a text puzzle named on its own is read without it (a faster start).
        from pathlib import Path

        folder = Path(path)
        inside = sorted(
            str(child) for child in folder.iterdir() if child.is_file() and not child.name.startswith(".")
        )
        images = [name for name in inside if is_image_file(name)]
        kept = images if images or images_only else [name for name in inside if holds_puzzles(name)]
        left_out = tuple(Path(name).name for name in inside if name not in kept)
        if left_out:
            kind = "screenshot" if images or images_only else "puzzle"
            skipped.append(Skipped(str(path), kind, left_out))
        files.extend(kept or [str(path)])
    return Inputs(tuple(files), tuple(skipped))


def is_image_file(path: str) -> bool:
    """True when a regular file starts like an image (PNG, JPEG, ...); False when it cannot be opened."""
    if not os.path.isfile(path):
        return False  # a FIFO or device would block the read
    try:
        with open(path, "rb") as handle:
            return image_format(handle.read(HEAD_BYTES)) is not None
    except OSError:
        return False


def holds_puzzles(path: str) -> bool:
    """True when a text file reads as at least one puzzle in a format flowbot knows."""
    try:
        return any(entry.puzzle is not None for entry in read_file_entries(path))
    except FlowbotError:
        return False


def empty_folder_error(path: str, inputs: Inputs) -> str:
    """What to say about a folder given that gave no file to read."""
    for skipped in inputs.skipped:
        if skipped.folder == path:
            return f"{path}: holds no puzzle file or screenshot; {skipped.summary()}"
    return f"{path}: folder holds no files"


def puzzle_in_folder(folder: str, index: int) -> tuple[str, int]:
    """The file holding a folder's `index`-th puzzle (from 0, in name order; a screenshot holds one)
    and the puzzle's index in that file."""
    inputs = puzzle_inputs([folder])
    seen = 0
    for path in inputs.files:
        if os.path.isdir(path):
            raise InputFileError(empty_folder_error(path, inputs))
        count = 1 if is_image_file(path) else len(read_file_entries(path))
        if index < seen + count:
            return path, index - seen
        seen += count
    raise InputFileError(f"{folder}: holds {seen} puzzle(s); --index {index} is not one of them")
