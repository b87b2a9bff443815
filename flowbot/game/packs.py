"""Level lists for the game: the packs shipped in flowbot/data/packs, or any folder of puzzle files."""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from flowbot.errors import FormatError, InputFileError, UsageError
from flowbot.formats import Loaded, parse_text
from flowbot.loader import read_entries
from flowbot.model import Puzzle

DEFAULT_PACK = "demo"
_SIZE_NAME = re.compile(r"(\d+)x(\d+)")


def list_packs() -> list[str]:
    """The names of the shipped packs: demo first, then by board size (5x5 ... 14x14), then the rest."""
    names = [item.name for item in _packs_root().iterdir() if item.is_dir() and not item.name.startswith(".")]
    return sorted(names, key=_pack_order)


def levels_from(pack: str | None = None, folder: str | None = None) -> list[Puzzle]:
    """The levels of a shipped pack by name, or of a folder of puzzle files (name order); demo by default.

    A folder's files may be any format flowbot reads (flowbot JSON, text grids, ...); a file holding
    several puzzles gives them all, in order. A single file is accepted in place of a folder.
    """
    if pack is not None and folder is not None:
        raise UsageError("give a pack or a folder of levels, not both")
    if folder is not None:
        return _folder_levels(folder)
    name = pack or DEFAULT_PACK
    root = _packs_root() / name
    if "/" in name or "\\" in name or name.startswith(".") or not root.is_dir():
        raise UsageError(f"unknown pack {name!r}; the packs are: {', '.join(list_packs())}")
    levels: list[Puzzle] = []
    for item in sorted(_files(root), key=lambda item: item.name):
        label = f"pack {name}/{item.name}"
        levels.extend(_puzzles(parse_text(item.read_text(encoding="utf-8"), label)))
    if not levels:
        raise FormatError(f"pack {name!r} holds no levels")
    return levels


def _packs_root() -> Traversable:
    """Where the shipped packs live inside the installed package."""
    return resources.files("flowbot") / "data" / "packs"


def _pack_order(name: str) -> tuple[int, int, int, str]:
    """Sort key: the default pack, then size packs by rows and columns, then any other name."""
    if name == DEFAULT_PACK:
        return (0, 0, 0, name)
    size = _SIZE_NAME.fullmatch(name)
    if size:
        return (1, int(size[1]), int(size[2]), name)
    return (2, 0, 0, name)


def _files(folder: Traversable) -> list[Traversable]:
    """The visible files directly inside a folder (editors' and writers' temp files start with a dot)."""
    return [item for item in folder.iterdir() if item.is_file() and not item.name.startswith(".")]


def _folder_levels(folder: str) -> list[Puzzle]:
    """Every puzzle of every file in a folder, files in name order; the first bad one raises."""
    path = Path(folder)
    if not path.exists():
        raise InputFileError(f"{folder}: no such folder")
    if not path.is_file() and not path.is_dir():  # a device, a FIFO, a socket: nothing to list or parse
        raise InputFileError(f"{folder}: not a folder or a regular file")
    try:
        files = [path] if path.is_file() else sorted(_files(path), key=lambda item: item.name)
    except OSError as error:
        raise InputFileError(f"{folder}: cannot list the folder: {error.strerror or error}") from None
    levels: list[Puzzle] = []
    for file in files:
        levels.extend(_puzzles(read_entries(str(file))))
    if not levels:
        raise UsageError(f"{folder}: holds no puzzle files")
    return levels


def _puzzles(entries: list[Loaded]) -> list[Puzzle]:
    """The puzzles of a file's entries; a puzzle that could not be read stops the game before it starts."""
    puzzles = []
    for entry in entries:
        if entry.error is not None:
            raise entry.error
        assert entry.puzzle is not None
        puzzles.append(entry.puzzle)
    return puzzles
