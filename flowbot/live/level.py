"""One level through the engine: solve the board read once (looking again while it reads with no
solution: a misread), fence the pointer and freeze the baseline, then try after try: draw the plan,
let the game's word decide (`Tries.judge`), and draw again on what the game's adapter plans, until
the game took the level or the tries run out (the level is then not counted, and the run stops).

What a game knows stays with it, behind two small ports: its solver (`solve_board`) and its tries
(`Tries`: the strokes, how to judge them, what to draw again). The engine imports neither."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from flowbot.act.guard import BoardGoneError
from flowbot.act.plan import PointerSettings, draw_strokes
from flowbot.live.report import AutoClearError, Evidence, LevelResult, Report, Timing
from flowbot.live.scene import Scene
from flowbot.model import Puzzle

log = logging.getLogger(__name__)

# A board with no solution is looked at this many times before the run stops (it is most likely misread).
MISREAD_LOOKS = 3
SOLUTIONS_KEPT = 8  # boards whose solutions are kept (see solve_once)
SOLVE_SECONDS, CHECK_SECONDS = 10, 2  # a level's solve; the look that asks whether a board is a level


@dataclass
class LevelRun:
    """One level as it is played: the scene drawn on, its solution, the try it is on, and where its
    time went (milliseconds; drawing in seconds)."""

    number: int
    scene: Scene
    solution: Any
    solve_ms: float = 0.0
    plan_ms: float = 0.0
    draw_s: float = 0.0
    verify_ms: float = 0.0
    attempt: int = -1

    @property
    def puzzle(self) -> Puzzle:
        """The level's puzzle as read."""
        return self.scene.reading.puzzle

    def timing(self) -> Timing:
        """What the level cost so far."""
        scene = self.scene
        return Timing(
            scene.capture_ms, scene.read_ms, self.solve_ms, self.plan_ms, self.draw_s, self.verify_ms
        )

    def result(
        self, cleared: bool, won_by: str = "", evidence: Evidence | None = None, why: str = ""
    ) -> LevelResult:
        """The level's line in the report."""
        cells, joins = (evidence.cells, evidence.joins) if evidence is not None else ((), ())
        puzzle = self.puzzle
        return LevelResult(
            self.number, puzzle.size, len(puzzle.colors), cleared, max(self.attempt, 0), self.timing(),
            won_by, cells, joins, why,
        )  # fmt: skip


class Tries(Protocol):
    """A game's plan for one level, try by try (its adapter's part of the engine's level)."""

    strokes: list
    settings: PointerSettings
    tap_first: set[int]

    def more(self, attempt: int) -> bool:
        """True while another try may be drawn after try `attempt` (0 the first)."""

    def keeps_gone(self, attempt: int, error: BoardGoneError) -> bool:
        """True when a board gone under try `attempt` may be the game's answer, to be judged."""

    def judge(self, run: LevelRun, gone: BoardGoneError | None) -> Evidence:
        """What the screen says of the try just drawn: the game's word, or what is still missing."""

    def after_miss(self, run: LevelRun, evidence: Evidence, gone: BoardGoneError | None) -> str | None:
        """After a try the game did not take: plan the next one (a `won_by` when a last look found the
        game's word after all); raise to stop."""

    def won(self, run: LevelRun) -> None:
        """The game took the level (what the adapter keeps of it)."""

    def failed(self, run: LevelRun, evidence: Evidence) -> tuple[str, str]:
        """Why the game did not take the level: (the report's `unconfirmed`, the stop message)."""


class LevelPlay:
    """The engine's level (a role of LiveLoop: it reads `clock`, `pointer`, `dry_run`, `tuner`,
    `stop_requested`, and keeps `_solutions`)."""

    # Over a board read with no solution, a win dialog's own button may be pressed once (one that
    # says its level was won): a game whose win dialog covers a board read as a level says so.
    closes_dialog_on_misread: ClassVar[bool] = False

    def solve_board(self, puzzle: Puzzle, timeout: float) -> Any:
        """The game's solver: an answer with `solution` (None: none) and `status`."""
        raise NotImplementedError

    def solvable(self, puzzle: Puzzle) -> bool:
        """True when a board read has a solution found within two seconds (kept: not solved again)."""
        return self.solve_once(puzzle, CHECK_SECONDS).solution is not None

    def solve_once(self, puzzle: Puzzle, timeout: float) -> Any:
        """The board solved (within `timeout` seconds) once: the answers for the boards solved last
        are kept by their rows (a time-out is not an answer, and is not kept)."""
        key = tuple(puzzle.to_rows())
        result = self._solutions.get(key)
        if result is None:
            result = self.solve_board(puzzle, timeout)
            if result.status != "timeout":
                self._solutions[key] = result
            while len(self._solutions) > SOLUTIONS_KEPT:
                del self._solutions[next(iter(self._solutions))]
        return result

    def misread(self, number: int, scene: Scene, result: Any, report: Report) -> AutoClearError:
        """The stop for a board that kept reading with no solution (the picture saved)."""
        raise NotImplementedError

    def solved(self, number: int, scene: Scene, report: Report) -> tuple[Scene, Any]:
        """Solve the board read; a board with no solution is most likely misread, so look again a few
        times before giving up (pressing on only from a dialog that says its level was won, where the
        game allows it: see close_win_dialog)."""
        closed = False
        for look in range(MISREAD_LOOKS + 1):
            result = self.solve_once(scene.reading.puzzle, SOLVE_SECONDS)
            if result.solution is not None:
                return scene, result.solution
            log.info("level %d read as %s has no solution; looking again", number, scene.reading.puzzle.size)
            if (
                self.closes_dialog_on_misread
                and look == MISREAD_LOOKS - 1
                and not closed
                and not self.dry_run
            ):
                closed = True
                following = self.close_win_dialog()
                if following is not None:
                    scene = following
                    continue
            self.clock.sleep(0.3)
            scene = self.wait_for_board(None, timeout=1.0) or scene
        raise self.misread(number, scene, result, report)

    def start_level(self, number: int, scene: Scene, report: Report) -> LevelRun:
        """A level's start: solved (timed), the pointer fenced and the guard armed on the board, and
        the baseline frozen (the screen it is drawn from)."""
        started = time.perf_counter()  # the work's own duration, for the report: not a wait
        scene, solution = self.solved(number, scene, report)
        run = LevelRun(number, scene, solution, solve_ms=(time.perf_counter() - started) * 1000)
        self.fence(scene.geometry, scene.frame, scene.reading.puzzle)
        self.begin_drawing(scene)
        return run

    def play_tries(self, run: LevelRun, tries: Tries, report: Report) -> LevelResult:
        """Try after try (see the module's docstring) until the game took the level; else the level
        is kept as not taken, its picture saved, and the run stops (AutoClearError)."""
        evidence = Evidence(None)
        while run.attempt < 0 or tries.more(run.attempt):
            run.attempt += 1
            gone = self.draw_try(run, tries)
            if self.dry_run:
                return run.result(True)
            started = time.perf_counter()
            evidence = tries.judge(run, gone)
            run.verify_ms += (time.perf_counter() - started) * 1000
            won_by = evidence.won_by or tries.after_miss(run, evidence, gone)
            if won_by is not None:
                if self.tuner is not None:
                    self.tuner.worked()
                tries.won(run)
                return run.result(True, won_by)
        self.save_failure(report, self.screen.grab(self.region), f"level-{run.number}-not-verified")
        why, message = tries.failed(run, evidence)
        report.levels.append(run.result(False, evidence=evidence, why=why))
        raise AutoClearError(message)

    def draw_try(self, run: LevelRun, tries: Tries) -> BoardGoneError | None:
        """Draw one try's strokes (none in a dry run); a board gone under it that may be the game's
        answer is returned to be judged, any other stop raised."""
        started = time.perf_counter()
        gone: BoardGoneError | None = None
        if not self.dry_run:
            try:
                # A flow whose last stroke the game showed no sign of is tapped first (see
                # act/plan.py's _tap): a page left with a selection by earlier drags takes a drag
                # from inside it as the browser's drag-and-drop, and the game sees nothing.
                stop = lambda: self.stop_requested  # noqa: E731
                draw_strokes(
                    self.pointer,
                    tries.strokes,
                    tries.settings,
                    stop,
                    self.clock.sleep,
                    tap_first=tries.tap_first,
                )
            except BoardGoneError as error:
                if not tries.keeps_gone(run.attempt, error):
                    raise
                gone = error
        run.draw_s += time.perf_counter() - started
        if self.stop_requested:
            raise AutoClearError("interrupted (Ctrl-C)")
        return gone


def timed_plan(run: LevelRun, plan, *args, **options):
    """A plan of strokes, its cost kept in the level's time."""
    started = time.perf_counter()
    strokes = plan(*args, **options)
    run.plan_ms += (time.perf_counter() - started) * 1000
    return strokes
