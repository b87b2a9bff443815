"""Auto-clear and scrape on Flow's sister games (Bridges, Hexes, Warps, walls): the live loop
(flowbot.live.loop) with their reader, strokes planned over the cell centres read, and the game's own word
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
from flowbot.live.loop import MISREAD_LOOKS, POLL, LiveLoop
from flowbot.live.report import AutoClearError, LevelResult, Report, Timing
from flowbot.live.scene import Scene
from flowbot.model import Puzzle, Solution, Source
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


class VariantClear(LiveLoop):
    """The live loop for sister games: reads with their reader, draws over the centres read, and takes
    the game's dialog, a new level or a win message as the verdict (cell colours are not compared)."""

    def read(self, pixels: np.ndarray) -> SisterReading:  # type: ignore[override]
        """A board of any kind, read from a frame."""
        return read_sister(pixels)

    def solvable(self, puzzle: Puzzle) -> bool:  # type: ignore[override]
        """True when a board read has a solution found within two seconds."""
        return solve(puzzle, timeout=2).solution is not None

    def play_level(self, number: int, scene: Scene, report: Report) -> LevelResult:
        """Solve, draw and verify one level (drawn once more if the game did not take it)."""
        started = time.perf_counter()
        scene, solution = self._solved(number, scene, report)
        solve_ms = (time.perf_counter() - started) * 1000
        puzzle = scene.reading.puzzle
        geometry = scene.geometry
        self.fence(geometry, scene.frame, puzzle)
        self.begin_drawing(scene)
        settings = self.settings
        started = time.perf_counter()
        strokes = plan_strokes(solution, geometry, settings)
        plan_ms = (time.perf_counter() - started) * 1000
        draw_s = verify_ms = 0.0
        for attempt in range(DRAWS):
            started = time.perf_counter()
            if not self.dry_run:
                draw_strokes(self.pointer, strokes, settings, lambda: self.stop_requested, self.clock.sleep)
            draw_s += time.perf_counter() - started
            if self.stop_requested:
                raise AutoClearError("interrupted (Ctrl-C)")
            timing = Timing(scene.capture_ms, scene.read_ms, solve_ms, plan_ms, draw_s, verify_ms)
            if self.dry_run:
                return LevelResult(number, puzzle.size, len(puzzle.colors), True, attempt, timing)
            started = time.perf_counter()
            won_by = self.taken(scene)
            verify_ms += (time.perf_counter() - started) * 1000
            timing = Timing(scene.capture_ms, scene.read_ms, solve_ms, plan_ms, draw_s, verify_ms)
            if won_by is not None:
                return LevelResult(number, puzzle.size, len(puzzle.colors), True, attempt, timing, won_by)
            log.info("level %d (%s): not taken; drawing it again", number, puzzle.kind)
        self.save_failure(report, self.screen.grab(self.region), f"level-{number}-not-verified")
        report.levels.append(LevelResult(number, puzzle.size, len(puzzle.colors), False, DRAWS - 1, timing))
        raise AutoClearError(
            f"level {number} ({puzzle.kind} {puzzle.size}) was drawn {DRAWS} times but the game did not "
            "take it (no win dialog, message or new level)"
        )

    def taken(self, scene: Scene) -> str | None:
        """After drawing: what showed the game's win within the verify timeout (`won_by`: a dialog or
        a new level that was not there when the board was read; win words that were not, at the end
        of it), None when nothing did. A dialog or words already showing before drawing are no win."""
        deadline = self.clock.now() + self.verify_timeout
        window = self.window_of(scene.geometry)
        while True:
            frame = self.screen.grab(self.look_region())
            board = scene.geometry.shifted(-frame.left, -frame.top)
            if self.new_dialog(frame, board, window, scene):
                return "dialog"
            try:
                seen = self.read(frame.pixels)
            except CaptureError:
                seen = None
            if seen is not None and seen.puzzle.to_rows() != scene.rows and self.solvable(seen.puzzle):
                return "new level"  # the game went on by itself
            if self.clock.now() > deadline:
                break
            self.clock.sleep(POLL)
        if says_won(read_words(self.screen.grab(window).pixels), self.words_before(scene)):
            return "message"
        return None

    def _solved(self, number: int, scene: Scene, report: Report) -> tuple[Scene, Solution]:
        """Solve the board read, looking again a few times when it has no solution (a misread)."""
        for _ in range(MISREAD_LOOKS + 1):
            result = solve(scene.reading.puzzle, timeout=10)
            if result.solution is not None:
                return scene, result.solution
            self.clock.sleep(0.3)
            scene = self.wait_for_board(None, timeout=1.0) or scene
        puzzle = scene.reading.puzzle
        self.save_failure(report, scene.frame, f"level-{number}-misread")
        raise AutoClearError(
            f"level {number}: the {puzzle.kind} board read as {puzzle.size} with {len(puzzle.colors)} "
            f"colours has {result.status} status, so it was most likely misread"
        )


def live_loop(
    screen: Screen, pointer: Pointer, settings: PointerSettings, region: Region | None, *more, **options
) -> LiveLoop:
    """The loop for the game on screen: the sister games' when one of their boards shows, else the
    classic one (AutoClear's arguments)."""
    from flowbot.modes.auto_clear import AutoClear

    kind = VariantClear if sister_on_screen(screen, region) else AutoClear
    return kind(screen, pointer, settings, region, *more, **options)
