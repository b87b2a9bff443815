"""The levels to play: every puzzle of a file or folder, or levels generated one after another."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from flowbot.errors import FlowbotError, FormatError, InputFileError, UsageError
from flowbot.formats import Loaded
from flowbot.generate.levels import make_level
from flowbot.generate.lines import check_size, default_colors
from flowbot.loader import puzzle_inputs, read_entries
from flowbot.model import Puzzle, Solution, Source
from flowbot.modes.generate import level_rng, parse_size
from flowbot.modes.solve_files import Outcome, load_all

DEFAULT_SIZE = "7x7"


@dataclass(frozen=True, slots=True)
class PlayLevel:
    """One level: the puzzle, a short name for the screen, and its solution when it is known already."""

    puzzle: Puzzle
    name: str
    solution: Solution | None = None


class LevelList:
    """The levels in play order; a generated list makes another level whenever asked for one more."""

    def __init__(
        self,
        levels: list[PlayLevel],
        *,
        make: Callable[[int], PlayLevel] | None = None,
        note: str = "",
    ) -> None:
        if not levels:
            raise UsageError("no levels to play")
        self.levels = levels
        self.make = make
        # Said once when play starts, e.g. which files of a folder could not be read.
        self.note = note

    def __len__(self) -> int:
        """How many levels there are so far."""
        return len(self.levels)

    def __getitem__(self, index: int) -> PlayLevel:
        """The level at a position, from 0."""
        return self.levels[index]

    @property
    def endless(self) -> bool:
        """True when more levels can be made after the last."""
        return self.make is not None

    def grow(self) -> PlayLevel:
        """Make one more level at the end (generated lists only)."""
        if self.make is None:
            raise UsageError("these levels come from files; no more can be made")
        level = self.make(len(self.levels))
        self.levels.append(level)
        return level


def load_levels(path: str | None, *, size: str | None = None, seed: int | None = None) -> LevelList:
    """The levels for `flowbot play`: from a puzzle file, screenshot or folder, or generated when no path."""
    if path is None:
        return generated_levels(size or DEFAULT_SIZE, seed)
    if size is not None or seed is not None:
        raise UsageError("--size and --seed are for generated levels; leave out PATH to use them")
    target = Path(path)
    if not target.exists():
        raise InputFileError(f"{path}: no such file or folder")
    if target.is_dir():
        return _folder_levels(path)
    return _file_levels(path)


def generated_levels(size: str, seed: int | None) -> LevelList:
    """An endless list of generated levels; the first is made now, so a bad size fails before play."""
    rows, cols = parse_size(size)
    check_size(rows, cols, None)
    # The same seed gives the same levels as `flowbot generate --size RxC --seed S`.
    seed = seed if seed is not None else random.SystemRandom().randrange(10**9)

    def make(index: int) -> PlayLevel:
        """Generate level `index` (from 0) of this seed."""
        rng = level_rng(seed, index)
        level = make_level(rows, cols, default_colors(rows, cols, rng), rng)
        source = Source(kind="generated", details={"seed": seed, "index": index, "size": f"{rows}x{cols}"})
        name = f"generated {rows}x{cols}, seed {seed}"
        return PlayLevel(level.puzzle.with_source(source), name, level.solution)

    return LevelList([make(0)], make=make)


def _file_levels(path: str) -> LevelList:
    """Every puzzle in one file (or the one board of a screenshot); bad boards among good ones are skipped."""
    entries = [_classic_only(entry) for entry in read_entries(path)]
    good = [entry for entry in entries if entry.puzzle is not None]
    errors = [entry.error for entry in entries if entry.error is not None]
    if not good:
        raise errors[0] if errors else InputFileError(f"{path}: holds no puzzles")
    name = Path(path).name
    levels = [
        PlayLevel(entry.puzzle, name if len(entries) == 1 else f"{name} #{entry.source.index + 1}")
        for entry in good
        if entry.puzzle is not None
    ]
    return LevelList(levels, note=_skipped_note(len(errors), errors[0] if errors else None))


def _folder_levels(path: str) -> LevelList:
    """Every puzzle of every file in a folder, files in name order, e.g. a pack of captured puzzles."""
    outcomes = [_classic_outcome(outcome) for outcome in load_all([path])]
    per_file = Counter(outcome.source for outcome in outcomes)
    levels = []
    for outcome in outcomes:
        if outcome.puzzle is not None:
            number = f" #{outcome.index + 1}" if per_file[outcome.source] > 1 else ""
            levels.append(PlayLevel(outcome.puzzle, Path(outcome.source).name + number))
    errors = [outcome.error for outcome in outcomes if outcome.error is not None]
    if not levels:
        first = errors[0] if errors else f"{path}: holds no puzzles"
        raise InputFileError(f"{path}: no puzzle to play ({first})")
    # Files that hold no puzzle (notes, a manifest) were left out of the folder: said once, too.
    notes = [_skipped_note(len(errors), errors[0] if errors else None)]
    notes += [skipped.summary() for skipped in puzzle_inputs([path]).skipped]
    return LevelList(levels, note="; ".join(note for note in notes if note))


_CLASSIC_ONLY = "the terminal game plays classic boards only (flowbot solve solves it)"


def _classic_only(entry: Loaded) -> Loaded:
    """The entry, or an error entry for a board with bridges, hexes, warps or walls."""
    if entry.puzzle is None or not entry.puzzle.is_graph:
        return entry
    name = entry.source.path or "<text>"
    return Loaded(entry.source, None, FormatError(f"{name}: a {entry.puzzle.kind} board: {_CLASSIC_ONLY}"))


def _classic_outcome(outcome: Outcome) -> Outcome:
    """The outcome, or an error outcome for a board with bridges, hexes, warps or walls."""
    if outcome.puzzle is None or not outcome.puzzle.is_graph:
        return outcome
    error = f"{outcome.source}: a {outcome.puzzle.kind} board: {_CLASSIC_ONLY}"
    return replace(outcome, puzzle=None, error=error)


def _skipped_note(count: int, first: FlowbotError | str | None) -> str:
    """What to tell the player about puzzles that could not be read, or '' when all could."""
    if count == 0:
        return ""
    plural = "" if count == 1 else "s"
    return f"skipped {count} unreadable puzzle{plural}: {first}"
