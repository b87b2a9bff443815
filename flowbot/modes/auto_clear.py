"""Auto-clear on classic Flow: the live loop (flowbot.live.loop) with Flow's reader, solver and
stroke planner. A level counts only when the game confirms it: a new level in its place, or a win
signal that was not there before drawing (a dialog, a move-on button, win words). Every join of every
path shown on the screen (the pipe's colour across the edge between each pair of consecutive cells,
into both dots) is only "drawn": the game may still not have taken it (a release it missed, a cell it
adds one motion late), so the bot waits a moment for the game's sign, then draws again, flow by flow,
on a slower rung, and at last stops and says so. A flow one step short is drawn again, never
counted."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field

import numpy as np

from flowbot.capture.ocr import read_words
from flowbot.capture.overlay import draw_overlay
from flowbot.capture.read import Reading, read_puzzle
from flowbot.capture.screen import Frame, Region
from flowbot.capture.verdict import (
    JoinLooks,
    centre_colours,
    empty_joins,
    inner_cells,
    join_colours,
    missing_cells,
    same_level_showing,
    solution_joins,
    unchanged_cells,
)
from flowbot.errors import FlowbotError
from flowbot.live.game_over import game_over_message
from flowbot.live.last_frame import LastFrame
from flowbot.live.loop import POLL, LiveLoop, no_ocr_note
from flowbot.live.report import AutoClearError, Evidence, GameOver, LevelResult, Report
from flowbot.live.scene import Scene
from flowbot.live.watch import polls
from flowbot.model import Cell, Geometry, Puzzle, Solution
from flowbot.modes.flow_tries import FlowTries
from flowbot.modes.flow_verdict import SIGN_WAIT, Baseline, FlowVerdict
from flowbot.solve.sat import SolveResult, solve

log = logging.getLogger(__name__)

__all__ = ["SIGN_WAIT", "AutoClear", "Evidence", "WonLevel", "parse_region"]


@dataclass(frozen=True, slots=True)
class WonLevel:
    """The level just won, as drawn: where, the solution, the flows' colours, its cells and its joins
    before drawing."""

    geometry: Geometry
    solution: Solution
    flow_rgb: tuple[tuple[int, int, int], ...]
    before: np.ndarray
    joins: JoinLooks


@dataclass
class AutoClear(LiveLoop):
    """The live loop for classic Flow, with the screen and the pointer passed in (real ones, or fakes
    in tests): Flow's reader, solver, tries and verdict plugged into the engine."""

    _won: WonLevel | None = None  # the level just won, to tell it (misread under a dialog) from a new one
    # Where the last board read lay on the frame (every frame is of the same region): the next read
    # looks there first, a few milliseconds a look less, and reads the whole frame when no board is there.
    _near: Geometry | None = None
    # A board read with no solution may be a won level under its dialog: its own button may close it.
    closes_dialog_on_misread = True
    _last: LastFrame[Reading] = field(default_factory=LastFrame)  # a still screen is not read again

    def read(self, pixels: np.ndarray) -> Reading:
        """Read the board on a frame (CaptureError when none reads), around the last board first."""
        near = self._near
        reading = self._last.read(pixels, near, lambda: read_puzzle(pixels, near=near))
        self._near = reading.geometry
        return reading

    def warm_up(self) -> None:
        """Read and solve a tiny drawn board once, so the first level is not charged for library
        start-up."""
        frame = np.zeros((160, 160, 3), dtype=np.uint8)
        for step in range(0, 161, 40):
            frame[min(step, 159), :] = 90
            frame[:, min(step, 159)] = 90
        for x, y in ((20, 20), (140, 20), (20, 140), (140, 140)):
            frame[y - 10 : y + 10, x - 10 : x + 10] = (0, 0, 230) if y == 20 else (230, 0, 0)
        with contextlib.suppress(FlowbotError):
            solve(read_puzzle(frame).puzzle)

    def solve_board(self, puzzle: Puzzle, timeout: float) -> SolveResult:
        """The board solved by flowbot's SAT solver (the engine keeps the answer: solved once)."""
        return solve(puzzle, timeout=timeout)

    def play_level(self, number: int, scene: Scene, report: Report) -> LevelResult:
        """Solve, draw and confirm one level on the game's word (drawing again the flows not shown
        joined, or one flow a try when all show joined and the game said nothing)."""
        run = self.start_level(number, scene, report)
        return self.play_tries(run, FlowTries.start(self, run), report)

    def misread(self, number: int, scene: Scene, result: SolveResult, report: Report) -> AutoClearError:
        """The stop for a board that kept reading with no solution, with the picture of what was read."""
        puzzle = scene.reading.puzzle
        picture = draw_overlay(scene.frame.pixels, scene.reading.geometry, scene.reading.seen_rgb, None)
        self.save_failure(
            report, Frame(picture, scene.frame.left, scene.frame.top), f"level-{number}-misread"
        )
        cause = _likely_cause(scene.frame, puzzle)
        note = no_ocr_note()
        pressed = "nothing is pressed" if note else "nothing but a win dialog's own button is pressed"
        return AutoClearError(
            f"level {number}: the board read as {puzzle.size} with {len(puzzle.colors)} colours has "
            f"{result.status} status{cause}, so it was most likely misread or covered (a level already "
            f"drawn, a popup over it; what was read is drawn on the saved picture); {pressed} to move on, "
            f"as that could skip a level never played{f' ({note})' if note else ''}; try --region around "
            "the game window or `flowbot calibrate --check`"
        )

    def verdict(
        self,
        scene: Scene,
        solution: Solution,
        baseline: Baseline,
        timeout: float | None = None,
        words: bool = True,
        starts: dict[int, Cell] | None = None,
    ) -> Evidence:
        """After drawing: the game's word, looked for until `timeout` seconds (default: verify_timeout):
        a win signal that was not on the frame the board was read from (a dialog, win words, a new
        level in its place). Every join shown is only "drawn": the game gets SIGN_WAIT more for its
        word, and the level is then unconfirmed. Without `words`, no look for a win message (OCR).

        baseline : the level when its drawing began; starts : the cell each flow's last stroke began
        on (a game may leave that dot's cell bare)
        """
        start = self.clock.now()
        deadline = start + (self.verify_timeout if timeout is None else timeout)
        # A game busy catching up with the strokes still changes its picture: judge only once it
        # has stopped changing (or after three times the time asked for).
        latest = start + 3 * (deadline - start)
        watch = FlowVerdict(self, scene, solution, baseline, deadline, latest, starts, not words)
        watch.window = self.window_of(scene.geometry)
        return polls(self.clock, watch.look, POLL)

    def level_gone(self, scene: Scene, baseline: Baseline, probing: bool) -> bool:
        """After a try not taken, with the level not found again: True when its dots no longer show
        and the game's window has win words new since drawing (after a fast try, which read none);
        GameOver when it shows the end screen."""
        if self.dots_in_place(scene, baseline.centres)[0]:
            return False
        shown = self.screen.grab(self.window_of(scene.geometry)).pixels
        words = read_words(shown)
        over = game_over_message(words)
        if over is not None:
            raise GameOver(f"the game is over: {over}")
        return probing and self.says_won(shown, words, scene, scene.geometry)

    def untouched(
        self, scene: Scene, solution: Solution, last_look: tuple[np.ndarray, Geometry]
    ) -> tuple[set[int], tuple[np.ndarray, Geometry]]:
        """The flows every cell of which shows exactly as on `last_look` (the board before the last
        try): the game took nothing of their last drags. With the board as it shows now, the next
        try's `last_look`."""
        frame = self.screen.grab(self.look_region())
        shown = scene.geometry.shifted(-frame.left, -frame.top)
        every = [cell for path in solution.paths for cell in path]
        same = set(unchanged_cells(frame.pixels, shown, *last_look, every))
        untouched = {color for color, path in enumerate(solution.paths) if set(path) <= same}
        return untouched, (frame.pixels, shown)

    def keep_won(self, scene: Scene, solution: Solution, baseline: Baseline) -> None:
        """Keep the level just won, to tell it (misread under a dialog) from the next one."""
        seen = scene.reading.seen_rgb
        self._won = WonLevel(scene.geometry, solution, seen, baseline.centres, baseline.joins)

    def still_won(self, frame: Frame) -> bool:
        """True when the level just won still shows where it was drawn (most of its pipes): what was
        read is that level misread under a dialog or a button, not a new one. Most of its cells show
        their flow or are covered, and most of its pipes still cross the edges between its cells: the
        next level's dots may sit on the won level's cells in its colours (or in colours it has not,
        which look covered), but a new level is empty between them."""
        won = self._won
        if won is None:
            return False
        on_frame = won.geometry.shifted(-frame.left, -frame.top)
        missing = missing_cells(frame.pixels, on_frame, won.solution, won.flow_rgb, won.before)
        if len(missing) > inner_cells(won.solution) // 2:
            return False
        joins = join_colours(frame.pixels, on_frame, won.solution, won.flow_rgb)
        return 2 * empty_joins(joins, won.joins) <= len(solution_joins(won.solution))

    def dots_in_place(self, scene: Scene, before: np.ndarray) -> tuple[bool, Frame]:
        """Whether the level's dots still show where they were before drawing (the level is still
        there), and the frame looked at."""
        frame = self.screen.grab(self.look_region())
        old = scene.geometry.shifted(-frame.left, -frame.top)
        return same_level_showing(centre_colours(frame.pixels, old), before, scene.dots), frame


def _likely_cause(frame: Frame, puzzle: Puzzle) -> str:
    """' (likely cause: ...)' for a board that read whole but has no solution, '' when none is named."""
    from flowbot.capture.explain import explain_misread

    try:
        return f" (likely cause: {explain_misread(frame.pixels, puzzle).cause})"
    except FlowbotError:
        return ""


def parse_region(text: str) -> Region:
    """'LEFT,TOP,WIDTH,HEIGHT' in screen pixels."""
    from flowbot.errors import UsageError

    try:
        left, top, width, height = (int(part) for part in text.split(","))
    except ValueError:
        raise UsageError(f"--region {text!r}: expected LEFT,TOP,WIDTH,HEIGHT in pixels") from None
    if width <= 0 or height <= 0:
        raise UsageError(f"--region {text!r}: width and height must be positive")
    return Region(left, top, width, height)
