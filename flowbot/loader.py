"""Puzzles from any file a user gives: text and JSON through `formats`, screenshots through `capture`.
The one module that knows both, so that `formats` never imports the capture stage (OpenCV loads only
when an image is read)."""

from __future__ import annotations

import os

from flowbot.formats import Loaded
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
