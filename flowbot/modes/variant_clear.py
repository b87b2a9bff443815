"""Auto-clear and scrape on Flow's sister games (Bridges, Hexes, Warps, walls): the live loop of
`auto_clear` with their reader, strokes planned over the cell centres read, and the game's own word
(its dialog, a new level, a win message) as the verdict.

The screenshot reader (`flowbot.capture.variants.read_variant`) gives plain data: the kind of board, its
lines, walls, warps and each cell's centre in pixels; here that becomes a Puzzle and a CentreMap.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import numpy as np

from flowbot.act.plan import PointerSettings, draw_strokes, plan_strokes
from flowbot.act.pointer import Pointer
from flowbot.capture.controls import says_won
from flowbot.capture.ocr import read_words
from flowbot.capture.screen import Region, Screen
from flowbot.cellmap import CentreMap
from flowbot.errors import CaptureError, PuzzleError
from flowbot.model import Puzzle, Solution, Source
from flowbot.modes.auto_clear import (
    MISREAD_LOOKS,
    POLL,
    AutoClear,
    AutoClearError,
    LevelResult,
    Report,
    Sighting,
    Timing,
)
from flowbot.solve.sat import solve

log = logging.getLogger(__name__)

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # the reader's letters, in order
DRAWS = 2  # a level is drawn at most this many times before the run stops


@dataclass(frozen=True, slots=True)
class SisterReading:
    """A sister game's board read from a frame, as the live loop wants a reading: the puzzle, where
    its cells are (frame pixels), and each colour as seen."""

    puzzle: Puzzle
    geometry: CentreMap
    seen_rgb: tuple[tuple[int, int, int], ...]


def reader_available() -> bool:
    """True when the sister games' screenshot reader is installed with flowbot."""
    try:
        from flowbot.capture.variants import read_variant  # noqa: F401
    except ImportError:
        return False
    return True


def read_sister(pixels: np.ndarray) -> SisterReading:
    """Read a board of any kind on a frame and build its puzzle; CaptureError when none reads right."""
    from flowbot.capture.variants import read_variant

    reading = read_variant(pixels)
    names = dict(zip(LABELS, reading.names, strict=False))
    try:
        puzzle = Puzzle.from_lines(
            reading.kind, reading.lines, reading.walls, reading.warps, names, Source("screen")
        )
    except PuzzleError as error:
        raise CaptureError(f"the {reading.kind} board read is no puzzle: {error}") from None
    return SisterReading(puzzle, CentreMap.of(reading.centres, reading.cell_size), tuple(reading.seen_rgb))


def sister_on_screen(screen: Screen, region: Region | None) -> bool:
    """True when the screen shows a sister game's board (bridges, hexes, warps or walls), which the
    classic loop cannot play; False for a classic board, no board, or no reader installed."""
    if not reader_available():
        return False
    try:
        reading = read_sister(screen.grab(region).pixels)
    except CaptureError:
        return False
    return reading.puzzle.is_graph


class VariantClear(AutoClear):
    """The live loop for sister games: reads with their reader, draws over the centres read, and takes
    the game's dialog, a new level or a win message as the verdict (cell colours are not compared)."""

    def read(self, pixels: np.ndarray) -> SisterReading:  # type: ignore[override]
        """A board of any kind, read from a frame."""
        return read_sister(pixels)

    def play_level(self, number: int, sighting: Sighting, report: Report) -> LevelResult:
        """Solve, draw and verify one level (drawn once more if the game did not take it)."""
        started = time.perf_counter()
        sighting, solution = self._solved(number, sighting, report)
        solve_ms = (time.perf_counter() - started) * 1000
        puzzle = sighting.reading.puzzle
        geometry = sighting.geometry
        self._fence(geometry, sighting.frame, puzzle)
        settings = self.settings
        started = time.perf_counter()
        strokes = plan_strokes(solution, geometry, settings)
        plan_ms = (time.perf_counter() - started) * 1000
        draw_s = verify_ms = 0.0
        for attempt in range(DRAWS):
            started = time.perf_counter()
            if not self.dry_run:
                draw_strokes(self.pointer, strokes, settings, lambda: self.stop_requested, self.sleep)
            draw_s += time.perf_counter() - started
            if self.stop_requested:
                raise AutoClearError("interrupted (Ctrl-C)")
            timing = Timing(sighting.capture_ms, sighting.read_ms, solve_ms, plan_ms, draw_s, verify_ms)
            if self.dry_run:
                return LevelResult(number, puzzle.size, len(puzzle.colors), True, attempt, timing)
            started = time.perf_counter()
            won_by = self.taken(sighting)
            verify_ms += (time.perf_counter() - started) * 1000
            timing = Timing(sighting.capture_ms, sighting.read_ms, solve_ms, plan_ms, draw_s, verify_ms)
            if won_by is not None:
                return LevelResult(number, puzzle.size, len(puzzle.colors), True, attempt, timing, won_by)
            log.info("level %d (%s): not taken; drawing it again", number, puzzle.kind)
        self._save_failure(report, self.screen.grab(self.region), f"level-{number}-not-verified")
        report.levels.append(LevelResult(number, puzzle.size, len(puzzle.colors), False, DRAWS - 1, timing))
        raise AutoClearError(
            f"level {number} ({puzzle.kind} {puzzle.size}) was drawn {DRAWS} times but the game did not "
            "take it (no win dialog, message or new level)"
        )

    def taken(self, sighting: Sighting) -> str | None:
        """After drawing: what showed the game's win within the verify timeout (`won_by`: a dialog or
        a new level that was not there when the board was read; win words that were not, at the end
        of it), None when nothing did. A dialog or words already showing before drawing are no win."""
        deadline = time.monotonic() + self.verify_timeout
        window = self._window(sighting.geometry)
        self._dialog_seen = False
        while True:
            frame = self.screen.grab(self.region)
            board = sighting.geometry.shifted(-frame.left, -frame.top)
            if self._new_dialog(frame, board, window, sighting):
                self._dialog_seen = True
                return "dialog"
            try:
                seen = self.read(frame.pixels)
            except CaptureError:
                seen = None
            if (
                seen is not None
                and seen.puzzle.to_rows() != sighting.rows
                and solve(seen.puzzle, timeout=2).solution is not None
            ):
                self._moved_on = True  # the game went on by itself
                return "new level"
            if time.monotonic() > deadline:
                break
            self.sleep(POLL)
        if says_won(read_words(self.screen.grab(window).pixels), self._words_before(sighting)):
            self._dialog_seen = True
            return "message"
        return None

    def _solved(self, number: int, sighting: Sighting, report: Report) -> tuple[Sighting, Solution]:
        """Solve the board read, looking again a few times when it has no solution (a misread)."""
        for _ in range(MISREAD_LOOKS + 1):
            result = solve(sighting.reading.puzzle, timeout=10)
            if result.solution is not None:
                return sighting, result.solution
            self.sleep(0.3)
            sighting = self.wait_for_board(None, timeout=1.0) or sighting
        puzzle = sighting.reading.puzzle
        self._save_failure(report, sighting.frame, f"level-{number}-misread")
        raise AutoClearError(
            f"level {number}: the {puzzle.kind} board read as {puzzle.size} with {len(puzzle.colors)} "
            f"colours has {result.status} status, so it was most likely misread"
        )


def live_loop(
    screen: Screen, pointer: Pointer, settings: PointerSettings, region: Region | None, *more, **options
) -> AutoClear:
    """The loop for the game on screen: the sister games' when one of their boards shows, else the
    classic one (AutoClear's arguments)."""
    kind = VariantClear if sister_on_screen(screen, region) else AutoClear
    return kind(screen, pointer, settings, region, *more, **options)
