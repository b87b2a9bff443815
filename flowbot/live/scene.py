"""What the live loop sees of a level: a board found on a frame of the screen, with what finding it
cost. Every game's reader gives a reading of the same shape (a puzzle, where its cells are on the
frame, each colour as seen), so the loop observes and compares scenes without knowing the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from flowbot.capture.screen import Frame
from flowbot.cellmap import CellMap
from flowbot.model import Puzzle


class BoardReading(Protocol):
    """A board read from a frame, by any game's reader."""

    @property
    def puzzle(self) -> Puzzle:
        """The puzzle read."""

    @property
    def geometry(self) -> CellMap:
        """Where its cells are, in the frame's pixels."""

    @property
    def seen_rgb(self) -> tuple[tuple[int, int, int], ...]:
        """Each colour as the frame shows it."""


@dataclass(frozen=True, slots=True)
class Scene:
    """A board found on screen: the frame it was read from, the reading, and what finding it cost."""

    frame: Frame
    reading: BoardReading
    capture_ms: float = 0.0
    read_ms: float = 0.0
    at: float | None = None  # when the frame was grabbed (at the latest), on the loop's clock

    @property
    def geometry(self) -> CellMap:
        """The board's cells in screen pixels."""
        return self.reading.geometry.shifted(self.frame.left, self.frame.top)

    @property
    def rows(self) -> list[str]:
        """The puzzle's rows, to tell one level from another."""
        return self.reading.puzzle.to_rows()

    @property
    def dots(self) -> list:
        """Every dot of the level, as cells."""
        return [cell for pair in self.reading.puzzle.endpoints for cell in pair]
