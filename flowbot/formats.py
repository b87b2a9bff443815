"""Puzzle files: read every supported format by its content, and write flowbot JSON and text grids.

Formats, by the name kept in `Source.format`:

- ``flowbot-json``: flowbot's own versioned JSON object (what ``captured_puzzles/`` holds).
- ``rows-json``: a JSON list of rows, each a list of cells: ``null`` empty, any other value an endpoint.
- ``grid``: mzucker/flow_solver text, one row per line: ``.`` empty, ``#`` wall, letters and digits endpoints.
- ``numberlink``: thomasahle/numberlink text, several puzzles each under a ``W H`` header line.
- ``tabs``: lacop/FlowSolver text, cells separated by tabs.
- ``flow-header``: ksavill ``.flow`` text, ``# key: value`` lines and then a grid.
- ``graph``: format E, samgoldman/FlowSolver graph text (``STANDARD``, ``BRIDGES``, ``HEX`` or ``WARPS``
  and then cells with the links between them drawn); see `flowbot.graph_text`.

flowbot JSON version 2 adds the sister games (``kind``, ``layout``, ``walls``, ``warps``, ``+`` bridges in
``grid``); a classic square board is still written as version 1.

Where a read puzzle's source points: for every text format and rows-json, ``puzzle.source`` is the
file (the same value as ``Loaded.source``). For flowbot-json, ``Loaded.source`` is the file (with the
stored source copied into ``details["stored_source"]``) while ``puzzle.source`` is the source stored in
the JSON, so a captured puzzle keeps saying where it was captured and saving it again changes nothing;
a JSON file without a stored source gives the file as ``puzzle.source``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import string
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from flowbot.errors import FlowbotError, FormatError, InputFileError, OutputFileError, PuzzleError
from flowbot.graph_text import is_graph_text, parse_graph_text
from flowbot.lattice import link_key
from flowbot.model import BRIDGE, EMPTY, KINDS, PALETTE, WALL, Puzzle, Source
from flowbot.system import is_windows

# pathlib is for writing: reading a text puzzle never needs it, and its import (with urllib.parse
# and ipaddress) is several percent of a small `flowbot solve`'s start-up. `_path` imports it on use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

# Version 2 adds the sister games: "kind", "layout" (hexes), "walls" (between cells), "warps", '+' bridges.
FLOWBOT_SCHEMA_VERSION = 2
_HEX_LAYOUTS = {1: "odd-q", 0: "even-q"}

# Far above any real puzzle file (the largest numberlink stress file is 3 MB); stops us slurping a video.
MAX_FILE_BYTES = 64 * 1024 * 1024

# What a text grid may hold; anything else is more likely a typo or another format than a colour.
_GRID_CELLS = frozenset(string.ascii_letters + string.digits + EMPTY + WALL)

# Labels handed out, in order, when a rows-json board's values cannot serve as labels themselves.
_LABEL_SEQUENCE = string.ascii_uppercase + string.ascii_lowercase + string.digits

# mzucker's colour mnemonics; a grid uses them when it has a letter above 'P' and no letter outside them.
_MNEMONICS = MappingProxyType({
    "R": "red", "B": "blue", "Y": "yellow", "G": "green", "O": "orange", "C": "cyan",
    "M": "magenta", "m": "maroon", "P": "purple", "A": "grey", "W": "white", "g": "lime",
    "T": "tan", "b": "dark blue", "c": "teal", "p": "pink",
})  # fmt: skip

_PALETTE_ALIASES = MappingProxyType({"gray": "grey", "darkblue": "dark blue"})

# A numberlink header: two numbers separated by spaces only, so a tab-separated row "1\t2" is no header.
_HEADER = re.compile(r"(\d+) +(\d+)")
_KEY_VALUE = re.compile(r"#\s*([A-Za-z_][\w-]*)\s*:\s*(.*)")
_SIZE = re.compile(r"(\d+)\s*[xX]\s*(\d+)")
_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]")
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True, slots=True)
class Loaded:
    """One puzzle read from a file, or the error that stopped it."""

    source: Source
    puzzle: Puzzle | None
    error: FlowbotError | None


@dataclass(frozen=True, slots=True)
class _Line:
    """One line of a text file: its number from 1, its text without trailing space, and if it is a comment."""

    number: int
    text: str
    comment: bool


def image_format(data: bytes) -> str | None:
    """'png', 'jpeg' (or another image kind) from a file's first bytes, or None for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data.startswith((b"II*\x00", b"MM\x00*")):
        return "tiff"
    # "BM" alone could start a text grid; the zero reserved bytes after it cannot.
    if data[:2] == b"BM" and data[6:10] == b"\x00\x00\x00\x00":
        return "bmp"
    return None


def is_image_bytes(data: bytes) -> bool:
    """True when the bytes start like a PNG, JPEG, GIF, WebP, BMP or TIFF image."""
    return image_format(data) is not None


def read_entries(
    path: str | os.PathLike[str], read_image: Callable[[bytes, str], Puzzle] | None = None
) -> list[Loaded]:
    """Read every puzzle in a file; file-level problems raise, a bad puzzle among several becomes an entry.

    Screenshots are read by `read_image` (bytes, name) -> puzzle, which a layer above both formats and
    capture passes in (flowbot.loader); without one, an image is refused by name.
    """
    name = os.fsdecode(path)
    data = _read_bytes(path, name)
    if not data:
        raise InputFileError(f"{name}: file is empty")
    if is_image_bytes(data):
        if read_image is None:
            raise InputFileError(f"{name}: an image, not a puzzle file")
        try:
            puzzle = read_image(data, name)
        except FlowbotError as error:
            raise _prefixed(error, name) from error
        return [Loaded(puzzle.source, puzzle, None)]
    text = _decode(data, name)
    if not text.strip():
        raise InputFileError(f"{name}: file holds only whitespace")
    return parse_text(text, name)


def expand_folders(paths: Sequence[str], prefer: Callable[[str], bool] | None = None) -> list[str]:
    """Replace each folder by the files inside it (sorted, hidden ones skipped), e.g. a captured pack;
    with `prefer`, by the files it accepts when it accepts any (a folder of screenshots and their
    truth files gives the screenshots)."""
    expanded = []
    for path in paths:
        folder = _path(path)
        if not folder.is_dir():
            expanded.append(path)
            continue
        inside = sorted(
            str(child) for child in folder.iterdir() if child.is_file() and not child.name.startswith(".")
        )
        preferred = [name for name in inside if prefer(name)] if prefer is not None else []
        # An empty folder stays in the list so that reading it reports the problem by name.
        expanded.extend(preferred or inside or [path])
    return expanded


def load_puzzles(
    path: str | os.PathLike[str], read_image: Callable[[bytes, str], Puzzle] | None = None
) -> list[Puzzle]:
    """Read every puzzle in a file and raise the first error, if any (images: see read_entries)."""
    puzzles = []
    for entry in read_entries(path, read_image):
        if entry.error is not None:
            raise entry.error
        assert entry.puzzle is not None
        puzzles.append(entry.puzzle)
    return puzzles


def parse_text(text: str, path: str | os.PathLike[str] | None = None) -> list[Loaded]:
    """Read the puzzles in a file's text, choosing the format by content; `path` only names things."""
    label = "<text>" if path is None else os.fsdecode(path)
    name = None if path is None else label
    text = text.removeprefix("\ufeff")
    first = text.lstrip()[:1]
    if not first:
        raise FormatError(f"{label}: no puzzle found (the text is blank)")
    if first in "{[":
        return _parse_json_text(text, label, name)
    return _parse_lines(_split_lines(text), label, name)


def puzzle_to_json(puzzle: Puzzle, solution_rows: Sequence[str] | None = None) -> dict[str, object]:
    """The flowbot JSON object of a puzzle (and optionally its solved grid), keys in their written order."""
    data: dict[str, object] = {
        # A classic square board is still written as version 1, which every flowbot reads.
        "schema_version": FLOWBOT_SCHEMA_VERSION if puzzle.is_graph else 1,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
    }
    if puzzle.is_graph:
        data["kind"] = puzzle.kind
    data["grid"] = puzzle.to_rows()
    data["colors"] = {color.label: color.name for color in puzzle.colors}
    if puzzle.shape_links:  # a Shapes board: cell n is grid[0][n]; its links are all it has
        data["links"] = [[a[1], b[1]] for a, b in sorted(puzzle.shape_links)]
    elif puzzle.is_graph:
        if puzzle.hex_lower is not None:
            data["layout"] = _HEX_LAYOUTS[puzzle.hex_lower]
        data["walls"] = [[list(a), list(b)] for a, b in sorted(puzzle.edge_walls)]
        data["warps"] = [list(warp) for warp in sorted(puzzle.warps)]
    data["source"] = _source_to_json(puzzle.source)
    if solution_rows is not None:
        rows = list(solution_rows)
        if len(rows) != puzzle.rows or any(len(row) != puzzle.cols for row in rows):
            raise PuzzleError(f"solution rows do not match the {puzzle.size} board")
        data["solution"] = rows
    return data


def puzzle_from_json(data: object, path: str | os.PathLike[str] | None = None) -> Puzzle:
    """Build a puzzle from a decoded flowbot JSON object; errors name `path` when given."""
    name = None if path is None else os.fsdecode(path)
    file_source = Source(kind="file", path=name, index=0, format="flowbot-json")
    try:
        return _json_puzzle(data, file_source)
    except FlowbotError as error:
        if name is None:
            raise
        raise _prefixed(error, name) from error


def format_text_grid(puzzle: Puzzle) -> str:
    """The puzzle as a text grid: its rows joined by newlines, with a final newline."""
    return "\n".join(puzzle.to_rows()) + "\n"


def puzzle_json_text(puzzle: Puzzle, solution_rows: Sequence[str] | None = None) -> str:
    """The flowbot JSON file text of a puzzle: indent 2, a trailing newline."""
    import json  # here, not at the top: a text puzzle's `flowbot solve` never needs it

    return json.dumps(puzzle_to_json(puzzle, solution_rows), indent=2, ensure_ascii=False) + "\n"


def text_grid_file_text(puzzle: Puzzle, name: str | os.PathLike[str] = "<grid>") -> str:
    """The text grid file text of a puzzle; FormatError when a label could not be read back."""
    if puzzle.shape_links:
        # Format E draws lattices only: a Shapes board's one way back is flowbot JSON.
        raise FormatError(
            f"{os.fsdecode(name)}: a shapes board (cells of any shape) does not fit a text grid; "
            "save flowbot JSON (convert --to json) instead"
        )
    if puzzle.is_graph:
        raise FormatError(
            f"{os.fsdecode(name)}: a {puzzle.kind} board (bridges, hexes, warps or walls) does not fit a "
            "text grid; save flowbot JSON or format E (convert --to graph) instead"
        )
    for color in puzzle.colors:
        # Refuse rather than write a file that `read_entries` would reject as an unknown character.
        if color.label not in _GRID_CELLS:
            raise FormatError(
                f"{os.fsdecode(name)}: colour label {color.label!r} cannot be read back from a text grid "
                "(letters and digits only); save flowbot JSON instead"
            )
    return format_text_grid(puzzle)


def write_puzzle_json(
    puzzle: Puzzle, path: str | os.PathLike[str], solution_rows: Sequence[str] | None = None
) -> None:
    """Save a puzzle as flowbot JSON (indent 2, trailing newline), replacing the file atomically.

    Commands write through `Outputs`, which owns the overwrite rules; this is for tests and tools.
    """
    atomic_write_text(path, puzzle_json_text(puzzle, solution_rows))


def write_text_grid(puzzle: Puzzle, path: str | os.PathLike[str]) -> None:
    """Save a puzzle as a text grid, atomically; names are lost, and labels must be letters or digits."""
    atomic_write_text(path, text_grid_file_text(puzzle, path))


# --- writing files ---------------------------------------------------------------------------------
#
# The rules every output of every command follows, kept here and nowhere else:
# - no output ever replaces an input (the same file, by device and inode, so links count too);
# - an existing output is replaced only when the command was given --force;
# - two outputs of one name in one run are refused before anything is written;
# - an output path is checked (not a folder, not a FIFO or device, its folder creatable and
#   writable) before the work starts, so a long run does not end in "cannot write";
# - every file is written through a temp file in the same folder and renamed into place, so a file is
#   either whole and new or whole and old; temp files are named `.NAME.PID.RANDOM.flowbot-tmp`, and
#   ones left by a killed run (SIGKILL runs no cleanup) are removed by the next write to that folder.

TEMP_SUFFIX = ".flowbot-tmp"

# A temp file older than this is stale even when its process id is alive again (ids are reused);
# a write takes milliseconds, so no live write is anywhere near it.
STALE_TEMP_SECONDS = 600.0

_CLEANED_FOLDERS: set[str] = set()  # folders this process has already cleaned of stale temp files


class Outputs:
    """The output files of one run, checked against the overwrite rules above before work starts."""

    def __init__(self, *, force: bool = False, inputs: Sequence[str | os.PathLike[str]] = ()) -> None:
        self.force = force
        self._inputs = {_identity(path) for path in inputs} - {None}
        self._claimed: dict[Path, str] = {}  # absolute output path -> what it was claimed for

    def claim(self, path: str | os.PathLike[str], what: str = "") -> Path:
        """Check that `path` may be written in this run and reserve it; OutputFileError says why not."""
        target = _path(path)
        key = _path(os.path.abspath(target))
        if key in self._claimed:
            first = self._claimed[key]
            raise OutputFileError(
                f"{target}: two outputs of this run have this name"
                + (f" ({first} and {what})" if first and what else "")
                + "; nothing was written (rename one input, or convert them separately)"
            )
        check_output(target, force=self.force, inputs_identity=self._inputs)
        self._claimed[key] = what
        return target

    def claim_all(self, paths: Sequence[tuple[str | os.PathLike[str], str]]) -> list[Path]:
        """Claim every (path, what) pair; any problem (the first three named) raises before a write."""
        problems = []
        claimed = []
        for path, what in paths:
            try:
                claimed.append(self.claim(path, what))
            except OutputFileError as error:
                problems.append(str(error))
        if problems:
            raise OutputFileError(
                "; ".join(problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3 else "")
            )
        return claimed

    def write_bytes(self, path: str | os.PathLike[str], data: bytes) -> None:
        """Write a claimed output atomically; without --force a file that appeared meanwhile is kept."""
        target = _path(path)
        if _path(os.path.abspath(target)) not in self._claimed:
            self.claim(target)
        make_folder(target.parent)
        atomic_write_bytes(target, data, replace=self.force)

    def write_text(self, path: str | os.PathLike[str], text: str) -> None:
        """Write a claimed output as UTF-8 text: see `write_bytes`."""
        self.write_bytes(path, _utf8(text))


def check_output(
    path: str | os.PathLike[str],
    *,
    force: bool = False,
    inputs: Sequence[str | os.PathLike[str]] = (),
    inputs_identity: set[tuple[int, int]] | None = None,
) -> Path:
    """Refuse, before any work, an output path that must not or cannot be written; returns it."""
    target = _path(path)
    name = os.fsdecode(path)
    identities = inputs_identity if inputs_identity is not None else {_identity(p) for p in inputs} - {None}
    try:
        info = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        info = None  # the folder check below says what is in the way
    except OSError as error:
        raise OutputFileError(f"{name}: cannot write: {error.strerror or error}") from None
    if info is not None:
        if (info.st_dev, info.st_ino) in identities:
            raise OutputFileError(f"{name}: is an input of this run; refusing to write over it")
        if stat.S_ISDIR(info.st_mode):
            raise OutputFileError(f"{name}: is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise OutputFileError(f"{name}: is not a regular file ({_file_kind(info.st_mode)})")
        if not force:
            raise OutputFileError(f"{name}: already exists (use --force to replace it)")
    _check_folder_writable(target.parent, name)
    return target


def check_output_folder(path: str | os.PathLike[str]) -> Path:
    """Refuse, before any work, a folder to write into that is a file or cannot be created or written."""
    folder = _path(path)
    if folder.exists() and not folder.is_dir():
        raise OutputFileError(f"{os.fsdecode(path)}: is not a folder")
    _check_folder_writable(folder, os.fsdecode(path))
    return folder


def _check_folder_writable(folder: Path, name: str) -> None:
    """The nearest existing folder above an output must be a folder we may write into."""
    existing = folder if str(folder) else _path(".")
    while not existing.exists():
        if existing.is_symlink() or existing.parent == existing:
            break
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        raise OutputFileError(f"{name}: cannot write: {existing} is not a folder")
    if existing.exists() and not os.access(existing, os.W_OK | os.X_OK):
        raise OutputFileError(f"{name}: cannot write: folder {existing} is not writable")


def _identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """(device, inode) of an existing file, None when it cannot be looked at."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def make_folder(path: str | os.PathLike[str]) -> Path:
    """Create a folder to write into (and its parents) if needed; OutputFileError names it when that fails."""
    folder = _path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFileError(
            f"{os.fsdecode(path)}: cannot create folder: {error.strerror or error}"
        ) from error
    return folder


def atomic_write_text(path: str | os.PathLike[str], text: str, *, replace: bool = True) -> None:
    """Write UTF-8 text (newlines as LF) atomically: see `atomic_write_bytes`."""
    atomic_write_bytes(path, _utf8(text), replace=replace)


def _utf8(text: str) -> bytes:
    """`text` as UTF-8; a file name's bytes that are not UTF-8 (kept by Python as lone surrogates) are
    written as `\\udcXX`, which is also how JSON writes them, so a JSON file stays valid UTF-8 and
    reads back to the same name."""
    return text.encode("utf-8", "backslashreplace")


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *, replace: bool = True) -> None:
    """Write bytes through a synced temp file in the same folder and rename it over `path`.

    With `replace=False` an existing `path` is never touched (OutputFileError instead), even one that
    appeared after the run checked it: the temp file is hard-linked into place, which fails if the
    name exists. Stale temp files of killed runs in the folder are removed first.
    """
    target = _path(path)
    name = os.fsdecode(path)
    folder = target.parent if str(target.parent) else _path(".")
    key = os.path.abspath(folder)
    if key not in _CLEANED_FOLDERS:
        # Once per folder per process: a convert of thousands of files should not rescan it each time.
        clean_stale_temps(folder)
        _CLEANED_FOLDERS.add(key)
    # secrets loads OpenSSL's hashes: imported on the first write, not by every command that reads.
    import secrets

    temp = folder / f".{target.name[:80]}.{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}"
    # One try from the open on: a stop signal (SIGTERM raises, see cli) that comes just after the
    # open returned must remove the temp file too. Only the open's own failure made no file of ours.
    opened = False
    try:
        descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_CLOEXEC, 0o644)
        opened = True
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if replace:
            if target.exists():
                os.chmod(temp, stat.S_IMODE(target.stat().st_mode))
            os.replace(temp, target)
        else:
            _link_new(temp, target, name)
    except BaseException as error:
        if opened or not isinstance(error, OSError):
            with contextlib.suppress(OSError):
                os.unlink(temp)
        if isinstance(error, OSError):
            raise OutputFileError(f"{name}: cannot write: {error.strerror or error}") from error
        raise
    else:
        with contextlib.suppress(OSError):
            os.unlink(temp)  # after a hard link the temp name is still there


def _link_new(temp: Path, target: Path, name: str) -> None:
    """Put `temp` at `target` only if nothing is there yet."""
    if is_windows():  # Windows' rename never replaces a file: the no-clobber move itself, on any file system
        try:
            os.rename(temp, target)
        except FileExistsError:
            raise OutputFileError(f"{name}: already exists (use --force to replace it)") from None
        return
    try:
        os.link(temp, target)
    except FileExistsError:
        raise OutputFileError(f"{name}: already exists (use --force to replace it)") from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
            raise
        # A file system without hard links: check, then rename (a file that appears in between is lost).
        if os.path.lexists(target):
            raise OutputFileError(f"{name}: already exists (use --force to replace it)") from None
        os.replace(temp, target)


def clean_stale_temps(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove temp files of flowbot runs that died (SIGKILL, power loss) from `folder`; returns them."""
    removed = []
    try:
        candidates = [entry for entry in os.scandir(folder) if entry.name.endswith(TEMP_SUFFIX)]
    except OSError:
        return removed
    now = time.time()
    for entry in candidates:
        parts = entry.name[: -len(TEMP_SUFFIX)].rsplit(".", 2)
        if len(parts) != 3 or not parts[1].isdigit():
            continue
        try:
            old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS
        except OSError:
            continue
        if old or not _process_alive(int(parts[1])):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed.append(_path(entry.path))
    return removed


def _process_alive(pid: int) -> bool:
    """True when a process with this id exists (it may belong to someone else); on Windows always
    True, as there os.kill(pid, 0) would end the process: stale temps there go by age alone."""
    if pid == os.getpid() or is_windows():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0
    return True


def _file_kind(mode: int) -> str:
    """What kind of file a mode describes, in words."""
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((word for test, word in kinds if test(mode)), "not a regular file")


# --- reading files ---------------------------------------------------------------------------------


def read_text_file(path: str | os.PathLike[str]) -> str:
    """A text file's content; missing, empty, binary and non-UTF-8 files raise InputFileError by name."""
    name = os.fsdecode(path)
    data = _read_bytes(path, name)
    if not data:
        raise InputFileError(f"{name}: file is empty")
    return _decode(data, name)


def read_input_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of an input file: the one gate every file flowbot reads goes through.

    Only a regular file is read: a folder, a FIFO, a device or a socket is refused before it is opened
    (a FIFO would block forever, a device never end), and the file is opened non-blocking and looked
    at again in case it was swapped meanwhile. A file over `limit` bytes is refused without reading it.
    InputFileError names the file and the reason.
    """
    name = os.fsdecode(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputFileError(f"{name}: no such file") from None
    except (OSError, ValueError) as error:
        raise InputFileError(f"{name}: cannot read: {getattr(error, 'strerror', None) or error}") from None
    _check_regular(info, name, limit)
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _O_CLOEXEC)
    except FileNotFoundError:
        raise InputFileError(f"{name}: no such file") from None
    except OSError as error:
        raise InputFileError(f"{name}: cannot read: {error.strerror or error}") from None
    try:
        _check_regular(os.fstat(descriptor), name, limit)
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise InputFileError(f"{name}: cannot read: {error.strerror or error}") from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise InputFileError(f"{name}: larger than {_size_text(limit)}, not a file flowbot reads")
    return data


def _check_regular(info: os.stat_result, name: str, limit: int) -> None:
    """Refuse what is not a regular file, or is too big, from its stat."""
    if stat.S_ISDIR(info.st_mode):
        raise InputFileError(f"{name}: is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise InputFileError(f"{name}: is {_file_kind(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise InputFileError(f"{name}: larger than {_size_text(limit)}, not a file flowbot reads")


def _size_text(limit: int) -> str:
    """A byte count as a person reads it."""
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit} bytes"


def _read_bytes(path: str | os.PathLike[str], name: str) -> bytes:
    """The bytes of a puzzle file, through `read_input_bytes`."""
    return read_input_bytes(path)


def _decode(data: bytes, name: str) -> str:
    """UTF-8 text without its BOM, or InputFileError for binary data and other encodings."""
    control = _CONTROL_BYTES.search(data)
    if control is not None:
        offset = control.start()
        raise InputFileError(
            f"{name}: not a text file (control byte 0x{data[offset]:02x} at offset {offset})"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputFileError(
            f"{name}: not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None


def _prefixed(error: FlowbotError, prefix: str) -> FlowbotError:
    """The same kind of error with a prefix naming where it happened."""
    wrapped = type(error)(f"{prefix}: {error}")
    wrapped.__cause__ = error
    return wrapped


def _single(label: str, source: Source, build: Callable[[], Puzzle]) -> list[Loaded]:
    """The one entry of a single-puzzle file; its error is raised with the file name in front."""
    try:
        puzzle = build()
    except FlowbotError as error:
        raise _prefixed(error, label) from error
    return [Loaded(source, puzzle, None)]


def _kind(value: object) -> str:
    """A JSON value's type as a person reads it in a message."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number" if isinstance(value, int | float) else type(value).__name__)


# --- JSON formats ----------------------------------------------------------------------------------


def decode_json(text: str, label: str) -> object:
    """Parse JSON text; FormatError names `label` and where the text stops being JSON."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(
            f"{label}: invalid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise FormatError(f"{label}: invalid JSON: nested too deeply") from None


def _parse_json_text(text: str, label: str, name: str | None) -> list[Loaded]:
    """Decode a JSON file and read it as flowbot JSON (an object) or rows-json (a list)."""
    data = decode_json(text, label)
    if isinstance(data, dict):
        source = Source(kind="file", path=name, index=0, format="flowbot-json")
        entries = _single(label, source, lambda: _json_puzzle(data, source))
        stored = data.get("source")
        if isinstance(stored, dict):
            entries = [replace(entries[0], source=replace(source, details={"stored_source": stored}))]
        return entries
    source = Source(kind="file", path=name, index=0, format="rows-json")
    [entry] = _single(label, source, lambda: _rows_json_puzzle(data, source))
    assert entry.puzzle is not None
    # The puzzle's source carries the original values in its details; the entry should say the same.
    return [replace(entry, source=entry.puzzle.source)]


def _json_puzzle(data: object, file_source: Source) -> Puzzle:
    """Validate a flowbot JSON object and build its puzzle, with its stored source when it has one."""
    if not isinstance(data, dict):
        raise FormatError(f"flowbot JSON must be an object, got {_kind(data)}")
    _check_schema_version(data)
    grid = _string_list(data, "grid")
    if grid is None:
        raise FormatError("missing key 'grid'")
    for key, expected in (("rows", len(grid)), ("cols", len(grid[0]) if grid else 0)):
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise FormatError(f"'{key}' must be an integer, got {_kind(value)}")
        if value != expected:
            raise FormatError(f"'{key}' is {value} but the grid has {expected}")
    names = _color_names(data.get("colors", {}))
    stored = _stored_source(data.get("source"))
    puzzle = _json_board(data, grid, names, stored or file_source)
    labels = puzzle.label_index()
    for label in names:
        if label not in labels:
            raise FormatError(f"'colors' names {label!r}, which is not a label in the grid")
    solution = _string_list(data, "solution")
    if solution is not None and (
        len(solution) != puzzle.rows or any(len(row) != puzzle.cols for row in solution)
    ):
        raise FormatError(f"'solution' must be {puzzle.rows} rows of {puzzle.cols} characters")
    return _in_color_order(puzzle, list(names))


def _json_board(data: Mapping[str, object], grid: list[str], names: dict, source: Source) -> Puzzle:
    """The board of a flowbot JSON object: a square grid, or (version 2) any kind with its features."""
    kind = data.get("kind")
    if data["schema_version"] < 2 or kind is None:
        for key in ("layout", "walls", "warps"):
            if key in data:
                raise FormatError(f"'{key}' needs 'kind' (schema_version 2)")
        return Puzzle.from_rows(grid, names, source)
    if kind == "shapes":
        return _json_shapes(data, grid, names, source)
    if "links" in data:
        raise FormatError("'links' are for shapes boards only")
    if kind not in KINDS:
        raise FormatError(f"'kind' must be one of {', '.join(KINDS)} or shapes, got {kind!r}")
    layout = data.get("layout", "odd-q" if kind == "hexes" else None)
    lowers = {name: lower for lower, name in _HEX_LAYOUTS.items()}
    if kind == "hexes" and layout not in lowers:
        raise FormatError(f"'layout' must be 'odd-q' or 'even-q', got {layout!r}")
    if kind != "hexes" and layout is not None:
        raise FormatError("'layout' is for hexes boards only")
    walls = [(_json_cell(pair, "walls", 0), _json_cell(pair, "walls", 1)) for pair in _list(data, "walls")]
    warps = [_json_warp(warp) for warp in _list(data, "warps")]
    bridges = {(r, c) for r, text in enumerate(grid) for c, char in enumerate(text) if char == BRIDGE}
    if bridges and kind != "bridges":
        raise FormatError(f"'+' (a bridge) in the grid of a {kind} board")
    plain = [text.replace(BRIDGE, EMPTY) for text in grid] if kind == "bridges" else grid
    board = Puzzle.from_rows(plain, names, source)
    return board.rebuilt(
        bridges=frozenset(bridges),
        hex_lower=lowers[layout] if kind == "hexes" else None,
        warps=frozenset(warps),
        edge_walls=frozenset(link_key(a, b) for a, b in walls),
    )


def _json_shapes(data: Mapping[str, object], grid: list[str], names: dict, source: Source) -> Puzzle:
    """A Shapes board of a flowbot JSON object: one grid row, a character per cell, and its links
    ([a, b] cell numbers), nothing else."""
    for key in ("layout", "walls", "warps"):
        if data.get(key):
            raise FormatError(f"'{key}' is not for shapes boards (their links say all)")
    if len(grid) != 1:
        raise FormatError(f"a shapes board's 'grid' is one row (a character per cell), not {len(grid)}")
    links = []
    for pair in _list(data, "links"):
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(v) is int for v in pair)):
            raise FormatError(f"each of 'links' must be [cell, cell] (whole numbers), got {pair!r}")
        links.append((pair[0], pair[1]))
    try:
        return Puzzle.from_shapes(grid[0], links, names, source)
    except PuzzleError as error:
        raise FormatError(str(error)) from None


def _list(data: Mapping[str, object], key: str) -> list:
    """The list under `key` ([] when absent)."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise FormatError(f"'{key}' must be a list, got {_kind(value)}")
    return value


def _json_cell(pair: object, key: str, at: int) -> tuple[int, int]:
    """One [row, col] of a wall: a pair of cells, each a pair of whole numbers."""
    if isinstance(pair, list) and len(pair) == 2:
        cell = pair[at]
        if isinstance(cell, list) and len(cell) == 2 and all(type(v) is int for v in cell):
            return cell[0], cell[1]
    raise FormatError(f"each of '{key}' must be [[row, col], [row, col]], got {pair!r}")


def _json_warp(warp: object) -> tuple[str, int]:
    """One warp: ["row", r] or ["col", c]."""
    if isinstance(warp, list) and len(warp) == 2 and warp[0] in ("row", "col") and type(warp[1]) is int:
        return warp[0], warp[1]
    raise FormatError(f'each of \'warps\' must be ["row", ROW] or ["col", COL], got {warp!r}')


def _check_schema_version(data: Mapping[str, object]) -> None:
    """Raise unless the object carries a schema_version this flowbot can read."""
    if "schema_version" not in data:
        raise FormatError("missing key 'schema_version'")
    version = data["schema_version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise FormatError(f"'schema_version' must be an integer, got {_kind(version)}")
    if version > FLOWBOT_SCHEMA_VERSION:
        raise FormatError(
            f"schema_version {version} is newer than this flowbot reads "
            f"(up to {FLOWBOT_SCHEMA_VERSION}); upgrade flowbot"
        )
    if version < 1:
        raise FormatError(f"schema_version {version} is not valid (versions start at 1)")


def _string_list(data: Mapping[str, object], key: str) -> list[str] | None:
    """The value under `key` as a list of strings, None when absent, FormatError for other types."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list):
        raise FormatError(f"'{key}' must be a list of strings, got {_kind(value)}")
    for number, item in enumerate(value):
        if not isinstance(item, str):
            raise FormatError(f"'{key}'[{number}] must be a string, got {_kind(item)}")
    return value


def _color_names(value: object) -> dict[str, str | None]:
    """The 'colors' object checked to map labels to a name or null."""
    if not isinstance(value, dict):
        raise FormatError(f"'colors' must be an object, got {_kind(value)}")
    for label, name in value.items():
        if name is not None and not isinstance(name, str):
            raise FormatError(f"'colors'[{label!r}] must be a string or null, got {_kind(name)}")
    return value


def _stored_source(value: object) -> Source | None:
    """The 'source' object as a Source, None when absent or null."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise FormatError(f"'source' must be an object or null, got {_kind(value)}")
    checks = (
        ("kind", str, False, "a string"),
        ("path", str, True, "a string or null"),
        ("format", str, True, "a string or null"),
        ("details", dict, True, "an object or null"),
    )
    for key, kind, optional, expected in checks:
        item = value.get(key)
        if not (isinstance(item, kind) or (optional and item is None)):
            raise FormatError(f"'source.{key}' must be {expected}, got {_kind(item)}")
    index = value.get("index", 0)
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise FormatError(f"'source.index' must be a whole number, got {index!r}")
    return Source(
        kind=value["kind"],
        path=value.get("path"),
        index=index,
        format=value.get("format"),
        details=value.get("details") or {},
    )


def _in_color_order(puzzle: Puzzle, order: Sequence[str]) -> Puzzle:
    """The puzzle with its colours put in the order of `order` (the rest after, as they were)."""
    index = puzzle.label_index()
    first = [index[label] for label in order if label in index]
    ranks = first + [rank for rank in range(len(puzzle.colors)) if rank not in first]
    if ranks == sorted(ranks):
        return puzzle
    return puzzle.rebuilt(
        colors=tuple(puzzle.colors[rank] for rank in ranks),
        endpoints=tuple(puzzle.endpoints[rank] for rank in ranks),
    )


def _source_to_json(source: Source | None) -> dict[str, object] | None:
    """A Source as the JSON object stored under 'source'."""
    if source is None:
        return None
    return {
        "kind": source.kind,
        "path": source.path,
        "index": source.index,
        "format": source.format,
        "details": dict(source.details),
    }


def _rows_json_puzzle(data: object, source: Source) -> Puzzle:
    """Build a puzzle from a rows-json board: a list of rows, each a list of null or a colour value."""
    import json

    if not isinstance(data, list) or not data:
        raise FormatError("a rows-json board must be a non-empty list of rows")
    values: dict[str, object] = {}  # JSON text of each value -> the value, in order of first appearance
    board: list[list[str | None]] = []
    for row_number, row in enumerate(data, 1):
        if not isinstance(row, list):
            raise FormatError(f"row {row_number} is {_kind(row)}, expected a list of cells")
        cells: list[str | None] = []
        for col_number, value in enumerate(row, 1):
            where = f"row {row_number}, col {col_number}"
            if isinstance(value, list | dict):
                raise FormatError(
                    f"cell at {where} is {_kind(value)}; a rows-json file holds one board, "
                    "a list of rows each a list of null or a colour value"
                )
            if isinstance(value, bool) or value == "":
                raise FormatError(f"cell at {where} is {value!r}; use null for an empty cell")
            key = None if value is None else json.dumps(value)
            if key is not None:
                values.setdefault(key, value)
            cells.append(key)
        board.append(cells)
    labels = _rows_json_labels(list(values.values()))
    label_of = dict(zip(values, labels, strict=True))
    rows = ["".join(EMPTY if key is None else label_of[key] for key in cells) for cells in board]
    names = {label_of[key]: _palette_name(value) for key, value in values.items()}
    details = {"values": {label_of[key]: value for key, value in values.items()}}
    return Puzzle.from_rows(rows, names, replace(source, details=details))


def _rows_json_labels(values: Sequence[object]) -> list[str]:
    """Labels for rows-json values: the values themselves when all are usable characters, else A, B, C..."""
    usable = all(
        isinstance(value, str)
        and len(value) == 1
        and value not in (EMPTY, WALL)
        and value.isprintable()
        and not value.isspace()
        for value in values
    )
    if usable:
        return [str(value) for value in values]
    if len(values) > len(_LABEL_SEQUENCE):
        raise FormatError(f"{len(values)} colours, more than the {len(_LABEL_SEQUENCE)} flowbot can label")
    return list(_LABEL_SEQUENCE[: len(values)])


def _palette_name(value: object) -> str | None:
    """The palette name a colour value spells (any case, 'gray', 'dark_blue'...), or None."""
    if not isinstance(value, str):
        return None
    name = " ".join(value.strip().lower().replace("_", " ").replace("-", " ").split())
    name = _PALETTE_ALIASES.get(name, name)
    return name if name in PALETTE else None


# --- text formats ----------------------------------------------------------------------------------


def _split_lines(text: str) -> list[_Line]:
    """Number the lines of a text (CRLF and CR tolerated) and mark the comments."""
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    # A comment is '#' then whitespace: '#..A' (a wall in the first column) and a lone '#' (a one-column
    # row that is a wall) stay grid rows, and no grid row can hold whitespace after its '#'.
    return [
        _Line(number, raw.rstrip(), raw[:1] == "#" and raw[1:2].isspace())
        for number, raw in enumerate(raw_lines, 1)
    ]


def _parse_lines(lines: list[_Line], label: str, name: str | None) -> list[Loaded]:
    """Pick the text format and read it.

    Rule, after skipping the leading comments and blank lines: a first line "W H" (two numbers, spaces
    only) means numberlink; otherwise a leading comment "# key: value" means flow-header; otherwise a
    tab anywhere in the board means tabs; otherwise grid. numberlink goes first because its comments
    can look like keys ("# Author: Mike Spivey"). A grid file with such a comment reads as flow-header,
    which gives the same board.
    """
    start = next((at for at, line in enumerate(lines) if line.text and not line.comment), None)
    if start is None:
        raise FormatError(f"{label}: no puzzle found (only comments and blank lines)")
    if _HEADER.fullmatch(lines[start].text):
        return _numberlink(lines, label, name)
    if is_graph_text(lines[start].text):
        source = Source(kind="file", path=name, index=0, format="graph")
        texts = [line.text for line in _board(lines[start:])]
        return _single(label, source, lambda: parse_graph_text(texts, source))
    header = _header_keys(lines[:start])
    if header:
        source = Source(kind="file", path=name, index=0, format="flow-header", details=header)
        return _single(label, source, lambda: _flow_header_puzzle(lines[start:], header, source))
    if any("\t" in line.text for line in lines[start:]):
        source = Source(kind="file", path=name, index=0, format="tabs")
        return _single(
            label, source, lambda: Puzzle.from_rows(_tab_rows(_board(lines[start:])), None, source)
        )
    source = Source(kind="file", path=name, index=0, format="grid")
    return _single(label, source, lambda: _grid_puzzle(lines[start:], source))


def _board(lines: Sequence[_Line]) -> list[_Line]:
    """The lines of a single board: trailing blank lines dropped, nothing else allowed between its rows."""
    end = len(lines)
    while end > 0 and not lines[end - 1].text:
        end -= 1
    for line in lines[:end]:
        if not line.text:
            raise FormatError(
                f"line {line.number}: blank line inside the board (this format holds one puzzle)"
            )
        if line.comment:
            raise FormatError(f"line {line.number}: comment inside the board; comments go before it")
    return list(lines[:end])


def _grid_rows(lines: Sequence[_Line]) -> list[str]:
    """The rows of a text grid, after checking every character is '.', '#', a letter or a digit."""
    for row, line in enumerate(lines, 1):
        for col, char in enumerate(line.text, 1):
            if char not in _GRID_CELLS:
                raise PuzzleError(f"unknown cell character {char!r} at row {row}, col {col}")
    return [line.text for line in lines]


def _grid_puzzle(lines: Sequence[_Line], source: Source) -> Puzzle:
    """Build a puzzle from mzucker grid lines, naming colours when the letters are his mnemonics."""
    rows = _grid_rows(_board(lines))
    labels = {char for row in rows for char in row if char not in (EMPTY, WALL)}
    # mzucker's own rule: the alternate format (A..P, no names) unless some letter is above 'P'.
    mnemonic = all(label in _MNEMONICS for label in labels) and any(label > "P" for label in labels)
    names = dict(_MNEMONICS) if mnemonic else None
    return Puzzle.from_rows(rows, names, source)


def _tab_rows(lines: Sequence[_Line]) -> list[str]:
    """The rows of a tab-separated board, one character per cell."""
    rows = []
    for row, line in enumerate(lines, 1):
        cells = [cell.strip() for cell in line.text.split("\t")]
        for col, cell in enumerate(cells, 1):
            if len(cell) != 1 or cell not in _GRID_CELLS:
                raise PuzzleError(f"unknown cell {cell!r} at row {row}, col {col}")
        rows.append("".join(cells))
    return rows


def _header_keys(lines: Sequence[_Line]) -> dict[str, str]:
    """The '# key: value' pairs among leading comment lines."""
    keys = {}
    for line in lines:
        match = _KEY_VALUE.fullmatch(line.text) if line.comment else None
        if match is not None:
            keys[match[1]] = match[2]
    return keys


def _flow_header_puzzle(lines: Sequence[_Line], header: Mapping[str, str], source: Source) -> Puzzle:
    """Build a puzzle from a ksavill .flow board, checking its type and size keys."""
    kind = header.get("type")
    if kind is not None and kind.strip().lower() != "square":
        raise FormatError(f"board type {kind!r} is not supported (only square-cell boards)")
    rows = _grid_rows(_board(lines))
    size = header.get("size")
    if size is not None:
        match = _SIZE.fullmatch(size.strip())
        if match is None:
            raise FormatError(f"size {size!r} is not WIDTHxHEIGHT")
        width, height = int(match[1]), int(match[2])
        if (width, height) != (len(rows[0]), len(rows)):
            raise FormatError(
                f"header says size {width}x{height} but the grid is {len(rows[0])} wide and {len(rows)} high"
            )
    return Puzzle.from_rows(rows, None, source)


def _numberlink(lines: list[_Line], label: str, name: str | None) -> list[Loaded]:
    """Read every puzzle of a numberlink file; a broken puzzle becomes an error entry and reading resyncs."""
    entries: list[Loaded] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        if not line.text or line.comment:
            at += 1
            continue
        source = Source(
            kind="file", path=name, index=len(entries), format="numberlink", details={"line": line.number}
        )
        header = _HEADER.fullmatch(line.text)
        if header is None:
            # Stray text between puzzles: most likely a puzzle whose header is broken, so report it as one.
            error = FormatError(f"expected a 'WIDTH HEIGHT' header, found {line.text[:40]!r}")
            entries.append(_failed(source, label, line.number, error))
            at = _next_header(lines, at + 1)
            continue
        width, height = int(header[1]), int(header[2])
        if width == height == 0:
            break  # thomasahle's end-of-file marker; anything after it is not read
        at, entry = _numberlink_puzzle(lines, at, width, height, source, label)
        entries.append(entry)
    if not entries:
        raise FormatError(f"{label}: no puzzle found (only headers of size 0 0, comments and blank lines)")
    return entries


def _numberlink_puzzle(
    lines: list[_Line], at: int, width: int, height: int, source: Source, label: str
) -> tuple[int, Loaded]:
    """Read the puzzle whose header is lines[at]; return where reading goes on and its entry."""
    header_line = lines[at].number
    rows: list[str] = []
    problem: tuple[int, str] | None = None
    at += 1
    # The next `height` lines are rows whatever they look like (a row may start with '#'), unless one is
    # blank or a header, which means the rows ran out.
    while len(rows) < height:
        if at >= len(lines) or not lines[at].text or _HEADER.fullmatch(lines[at].text):
            problem = problem or (header_line, f"header says {height} rows but only {len(rows)} follow")
            break
        text = lines[at].text
        if len(text) != width and problem is None:
            problem = (lines[at].number, f"row {len(rows) + 1} has {len(text)} cells, header says {width}")
        rows.append(text)
        at += 1
    extra = at
    while extra < len(lines) and lines[extra].text and not lines[extra].comment:
        if _HEADER.fullmatch(lines[extra].text):
            break
        extra += 1
    if extra > at and problem is None:
        problem = (lines[at].number, f"more rows than the header's {height}")
    if width < 1 or height < 1:
        problem = (header_line, f"board size {width}x{height} has no cells")
    if problem is not None:
        return extra, _failed(source, label, problem[0], FormatError(problem[1]))
    try:
        puzzle = Puzzle.from_rows(rows, None, source)
    except PuzzleError as error:
        return extra, _failed(source, label, header_line, error)
    return extra, Loaded(source, puzzle, None)


def _next_header(lines: Sequence[_Line], at: int) -> int:
    """The position of the next 'W H' header line at or after `at` (or the end)."""
    while at < len(lines) and not _HEADER.fullmatch(lines[at].text):
        at += 1
    return at


def _failed(source: Source, label: str, line: int, error: FlowbotError) -> Loaded:
    """An error entry of a multi-puzzle file, its message naming the file, the puzzle and the line."""
    return Loaded(source, None, _prefixed(error, f"{label} (puzzle {source.index + 1}, line {line})"))


def _path(value: str | os.PathLike[str]) -> Path:
    """`value` as a pathlib.Path, pathlib imported on the first use."""
    from pathlib import Path

    return Path(value)
