"""Auto-clear and scrape on Flow's sister games (Bridges, Hexes, Warps, walls, Shapes): the live loop
(flowbot.live.loop) with their reader, strokes planned over the cell centres read, and the game's own word
(its dialog, a new level, a win message) as the verdict.

The screenshot reader (`flowbot.capture.variants.read_variant`) gives plain data: the kind of board, its
lines, walls, warps and each cell's centre in pixels; here that becomes a Puzzle and a CentreMap. A Shapes
board (`flowbot.capture.shapes.read_shapes`) becomes a graph puzzle and a BorderMap: its strokes go from
centre to centre through the middle of each shared border.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np

from flowbot.act.borders import BorderMap, plan_through_borders
from flowbot.act.guard import BoardGoneError
from flowbot.act.plan import PointerSettings, plan_strokes
from flowbot.act.pointer import Pointer
from flowbot.capture.screen import Region, Screen
from flowbot.cellmap import CentreMap
from flowbot.errors import CaptureError, PuzzleError
from flowbot.live.last_frame import LastFrame
from flowbot.live.level import LevelRun, timed_plan
from flowbot.live.loop import LiveLoop
from flowbot.live.report import AutoClearError, Evidence, LevelResult, Report
from flowbot.live.scene import Scene
from flowbot.model import Puzzle, Source
from flowbot.solve.sat import SolveResult, solve

log = logging.getLogger(__name__)

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # the reader's letters, in order
DRAWS = 2  # a level is drawn at most this many times before the run stops


@dataclass(frozen=True, slots=True)
class SisterReading:
    """A sister game's board read from a frame, as the live loop wants a reading: the puzzle, where
    its cells are (frame pixels), and each colour as seen."""

    puzzle: Puzzle
    geometry: CentreMap  # a BorderMap for a Shapes board
    seen_rgb: tuple[tuple[int, int, int], ...]


def reader_available() -> bool:
    """True when the sister games' screenshot reader is installed with flowbot."""
    try:
        from flowbot.capture.variants import read_variant  # noqa: F401
    except ImportError:
        return False
    return True


def read_sister(pixels: np.ndarray) -> SisterReading:
    """Read a board of any kind on a frame and build its puzzle; CaptureError when none reads right.
    A board whose lines slant as a Shapes board's goes to the Shapes reader first (the others would
    look long, then refuse it by kind); one that the square and hex readers cannot read goes to it last."""
    from flowbot.capture.variants import read_variant
    from flowbot.capture.variants.shapes import line_directions, shapes_kind

    if shapes_kind(line_directions(pixels)) is not None:
        try:
            return _shapes_reading(pixels, square_too=True)
        except CaptureError:
            pass
    try:
        reading = read_variant(pixels)
    except CaptureError as error:
        try:
            return _shapes_reading(pixels, square_too=False)
        except CaptureError:
            raise error from None
    names = dict(zip(LABELS, reading.names, strict=False))
    try:
        puzzle = Puzzle.from_lines(
            reading.kind, reading.lines, reading.walls, reading.warps, names, Source("screen")
        )
    except PuzzleError as error:
        raise CaptureError(f"the {reading.kind} board read is no puzzle: {error}") from None
    return SisterReading(puzzle, CentreMap.of(reading.centres, reading.cell_size), tuple(reading.seen_rgb))


def _shapes_reading(pixels: np.ndarray, square_too: bool) -> SisterReading:
    """A Shapes board (cell n is (0, n)) with the middle of each border its cells share; CaptureError
    when none reads, or (unless `square_too`) when the board's own lines run level and upright (a square
    board is the square reader's to read or refuse)."""
    from flowbot.capture.shapes import read_shapes
    from flowbot.capture.variants.shapes import line_directions, looks_square

    shapes = read_shapes(pixels)
    corners = np.concatenate([cell.outline for cell in shapes.cells])
    (left, top), (right, bottom) = np.maximum(corners.min(axis=0), 0), corners.max(axis=0)
    if not square_too and looks_square(line_directions(pixels[top : bottom + 1, left : right + 1])):
        raise CaptureError("the board's lines are level and upright: a square board, not a Shapes one")
    names = dict(zip(LABELS, shapes.names, strict=False))
    try:
        puzzle = Puzzle.from_shapes(shapes.letters, shapes.neighbours, names, Source("screen"))
    except PuzzleError as error:
        raise CaptureError(f"the Shapes board read is no puzzle: {error}") from None
    centres = {(0, index): centre for index, centre in enumerate(shapes.centres)}
    middles = {((0, a), (0, b)): middle for (a, b), middle in shapes.borders.items()}
    return SisterReading(puzzle, BorderMap(centres, shapes.cell_size, middles), tuple(shapes.seen_rgb))


def sister_on_screen(screen: Screen, region: Region | None) -> bool:
    """True when the screen shows a sister game's board (bridges, hexes, warps, walls or Shapes), which the
    classic loop cannot play; False for a classic board, no board, or no reader installed."""
    if not reader_available():
        return False
    try:
        reading = read_sister(screen.grab(region).pixels)
    except CaptureError:
        return False
    return reading.puzzle.is_graph


@dataclass
class VariantClear(LiveLoop):
    """The live loop for sister games: reads with their reader, draws over the centres read, and takes
    the game's dialog, a new level or a win message as the verdict (cell colours are not compared)."""

    _last: LastFrame[SisterReading] = field(default_factory=LastFrame)  # a still screen is not read again

    def read(self, pixels: np.ndarray) -> SisterReading:  # type: ignore[override]
        """A board of any kind, read from a frame (the same pixels as last time: the same reading)."""
        return self._last.read(pixels, None, lambda: read_sister(pixels))

    def solve_board(self, puzzle: Puzzle, timeout: float) -> SolveResult:
        """The board solved by flowbot's SAT solver."""
        return solve(puzzle, timeout=timeout)

    def play_level(self, number: int, scene: Scene, report: Report) -> LevelResult:
        """Solve, draw and verify one level (drawn once more if the game did not take it)."""
        run = self.start_level(number, scene, report)
        # A Shapes board's strokes go through the middle of each border (its cells may bend or curve).
        plan = plan_through_borders if isinstance(run.scene.geometry, BorderMap) else plan_strokes
        strokes = timed_plan(run, plan, run.solution, run.scene.geometry, self.settings)
        return self.play_tries(run, SisterTries(self, strokes, self.settings), report)

    def misread(self, number: int, scene: Scene, result: SolveResult, report: Report) -> AutoClearError:
        """The stop for a board that kept reading with no solution."""
        puzzle = scene.reading.puzzle
        self.save_failure(report, scene.frame, f"level-{number}-misread")
        return AutoClearError(
            f"level {number}: the {puzzle.kind} board read as {puzzle.size} with {len(puzzle.colors)} "
            f"colours has {result.status} status, so it was most likely misread"
        )


@dataclass
class SisterTries:
    """A sister game's tries at one level: the same strokes again, judged by the game's word alone."""

    loop: VariantClear
    strokes: list
    settings: PointerSettings
    tap_first: set[int] = field(default_factory=set)

    def more(self, attempt: int) -> bool:
        """At most DRAWS tries."""
        return attempt + 1 < DRAWS

    def keeps_gone(self, attempt: int, error: BoardGoneError) -> bool:
        """A board gone under a stroke stops the run."""
        return False

    def judge(self, run: LevelRun, gone: BoardGoneError | None) -> Evidence:
        """The game's word, new since drawing began (a dialog, a new level, win words)."""
        return Evidence(self.loop.game_word(run.scene))

    def after_miss(self, run: LevelRun, evidence: Evidence, gone: BoardGoneError | None) -> str | None:
        """The same strokes again."""
        log.info("level %d (%s): not taken; drawing it again", run.number, run.puzzle.kind)
        return None

    def won(self, run: LevelRun) -> None:
        """Nothing to keep."""

    def failed(self, run: LevelRun, evidence: Evidence) -> tuple[str, str]:
        """The stop: drawn DRAWS times, no word from the game."""
        puzzle = run.puzzle
        return "", (
            f"level {run.number} ({puzzle.kind} {puzzle.size}) was drawn {DRAWS} times but the game did not "
            "take it (no win dialog, message or new level)"
        )


def live_loop(
    screen: Screen, pointer: Pointer, settings: PointerSettings, region: Region | None, *more, **options
) -> LiveLoop:
    """The loop for the game on screen: the sister games' when one of their boards shows, else the
    classic one (AutoClear's arguments)."""
    from flowbot.modes.auto_clear import AutoClear

    kind = VariantClear if sister_on_screen(screen, region) else AutoClear
    return kind(screen, pointer, settings, region, *more, **options)
