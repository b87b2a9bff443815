"""A session of play through a list of levels: which level is shown, its dialog, and one result per visit."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TextIO

from flowbot.errors import OutputFileError, UsageError
from flowbot.game.board import GameBoard
from flowbot.game.layout import Dialog
from flowbot.model import Puzzle

NEXT_LEVEL = "next level"
RESTART_PACK = "back to level 1"


@dataclass(frozen=True, slots=True)
class LevelResult:
    """How a visit to a level ended: its number (from 1), its rows, the game's verdict, moves and time."""

    level: int
    puzzle: tuple[str, ...]
    solved: bool
    moves: int
    seconds: float
    kind: str = "square"  # a sister game's board: 'bridges', 'hexes' or 'warps'
    left_by: str | None = None  # 'skip arrow >' or 'skip arrow <' when a skip arrow left the level
    shape: str | None = None  # a Shapes level's kind of board ('cube', 'ring', ...)
    links: tuple[tuple[int, int], ...] = ()  # a Shapes level's pairs of cells that share a border

    def to_json(self) -> str:
        """One line of the results file (a sister game's level also names its kind)."""
        record: dict[str, object] = {
            "level": self.level,
            "puzzle": list(self.puzzle),
            "solved": self.solved,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
        }
        if self.kind != "square":
            record["kind"] = self.kind
        if self.left_by is not None:
            record["left_by"] = self.left_by
        if self.shape is not None:  # its one row of letters says nothing of which cells are neighbours
            record["shape"] = self.shape
            record["links"] = [list(pair) for pair in self.links]
        return json.dumps(record)


def _shape_of(puzzle: Puzzle) -> tuple[str | None, tuple[tuple[int, int], ...]]:
    """A Shapes level's kind of board and its links as pairs of cell numbers; (None, ()) for a grid."""
    if puzzle.kind != "shapes":
        return None, ()
    details = puzzle.source.details if puzzle.source is not None else {}
    links = tuple(sorted((a[1], b[1]) for a, b in puzzle.shape_links))
    return str(details.get("shape", "")) or None, links


class JsonLine(Protocol):
    """A result that writes itself as one JSON line (a Flow level's, a Number Match board's)."""

    def to_json(self) -> str:
        """The line, without its newline."""
        ...


class ResultsFile:
    """A JSON Lines file the session appends one result to per level left, flushed line by line."""

    def __init__(self, path: str) -> None:
        try:
            self._handle: TextIO | None = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()
        except OSError as error:
            raise OutputFileError(f"{path}: cannot write results: {error.strerror or error}") from None
        self.path = path

    def write(self, result: JsonLine) -> None:
        """Append one line and flush it, so a reader sees it even if the game is killed next."""
        if self._handle is None:
            return
        try:
            self._handle.write(result.to_json() + "\n")
            self._handle.flush()
        except OSError as error:  # a full disk, /dev/full: the game stops, naming the file
            self._drop()
            raise self._cannot(error) from None

    def close(self) -> None:
        """Close the file; later writes are dropped."""
        if self._handle is not None:
            handle, self._handle = self._handle, None
            try:
                handle.close()
            except OSError as error:
                raise self._cannot(error) from None

    def _cannot(self, error: OSError) -> OutputFileError:
        """The error that names the results file and why it could not be written."""
        return OutputFileError(f"{self.path}: cannot write results: {error.strerror or error}")

    def _drop(self) -> None:
        """Close the file after a failed write, dropping what it could not take."""
        handle, self._handle = self._handle, None
        with contextlib.suppress(OSError):
            handle.close()  # its flush fails again; the descriptor is closed all the same


class Session:
    """Plays levels in order. Leaving a level (next, previous, skip, quit) reports one result for it.

    The list loops: after the last level comes the first again. The last level's dialog says
    "pack complete" and its button goes back to level 1; a bot that verifies a level by finding
    the dialog's button finds it on every level, and one that stops after the last never clicks it.
    """

    def __init__(
        self,
        levels: Sequence[Puzzle],
        *,
        report: Callable[[LevelResult], None] | None = None,
        interpolate: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not levels:
            raise UsageError("no levels to play")
        self.levels = list(levels)
        self.report = report
        self.interpolate = interpolate
        self.clock = clock
        self.index = 0
        self.board = GameBoard(self.levels[0], interpolate=interpolate)
        self._started = clock()
        self._reported = False
        self._left_by: str | None = None

    @property
    def level(self) -> int:
        """The shown level's number, from 1."""
        return self.index + 1

    @property
    def is_last(self) -> bool:
        """True on the last level of the list."""
        return self.index == len(self.levels) - 1

    def dialog(self) -> Dialog | None:
        """The dialog over a completed board: its verdict, and a button to the next level (or level 1)."""
        board = self.board
        if not board.complete:
            return None
        title = "Perfect!" if board.perfect else "Level complete"
        plural = "" if board.moves == 1 else "s"
        lines = ("You completed the level", f"in {board.moves} move{plural}.")
        if self.is_last:
            return Dialog(title, (*lines, "pack complete"), RESTART_PACK)
        return Dialog(title, lines, NEXT_LEVEL)

    def next(self) -> None:
        """Leave the level for the next one (the first after the last)."""
        self.leave()
        self._show((self.index + 1) % len(self.levels))

    def previous(self) -> None:
        """Leave the level for the one before (nothing on the first)."""
        if self.index == 0:
            return
        self.leave()
        self._show(self.index - 1)

    def skip(self, *, forward: bool) -> None:
        """A skip arrow: leave the level, solved or not, for the next one (or the one before); the
        result says the arrow left it."""
        self._left_by = f"skip arrow {'>' if forward else '<'}"
        if forward:
            self.next()
        else:
            self.previous()
        self._left_by = None  # nothing left (the first level has none before it)

    def open(self, index: int) -> None:
        """Leave the level for the one at `index` (from 0), as a level list does."""
        self.leave()
        self._show(index % len(self.levels))

    def restart(self) -> None:
        """Clear the board of the shown level."""
        self.board.restart()

    @property
    def can_go_back(self) -> bool:
        """True when 'previous' leads somewhere (its button is greyed out otherwise)."""
        return self.index > 0

    @property
    def closed(self) -> bool:
        """True when the game takes no more input (a time trial that ran out); never for a plain session."""
        return False

    def touch(self) -> None:
        """A press landed on the board (a time trial starts its clock); nothing here."""

    def tick(self) -> None:
        """Once a frame, for sessions that change by themselves (a time trial); nothing here."""

    def status(self) -> str | None:
        """A line the game shows at the top right (a time trial's clock); none here."""
        return None

    def restart_clock(self) -> None:
        """Time the shown level from now (the window takes a moment to open)."""
        self._started = self.clock()

    def leave(self) -> LevelResult | None:
        """Report the shown level once, as it stands now; None if it was reported already."""
        if self._reported:
            return None
        self._reported = True
        board = self.board
        if board.drawing is not None:
            board.release()
        result = LevelResult(
            self.level,
            tuple(board.puzzle.to_rows()),
            board.complete,
            board.moves,
            self.clock() - self._started,
            board.puzzle.kind,
            self._left_by,
            *_shape_of(board.puzzle),
        )
        if self.report is not None:
            self.report(result)
        return result

    def _show(self, index: int) -> None:
        """Start a fresh visit to a level."""
        self.index = index
        self.board = GameBoard(self.levels[index], interpolate=self.interpolate)
        self._started = self.clock()
        self._reported = False
