"""`flowbot auto-clear`: read the level on screen, solve it, draw it, check it, go to the next one."""

from __future__ import annotations

import contextlib
import logging
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from flowbot.act.guard import BoardGoneError, BoardGuard, Windows
from flowbot.act.plan import PointerSettings, draw_strokes, plan_strokes
from flowbot.act.pointer import Pointer, StopRun, click, stop_signals
from flowbot.capture.buttons import find_next_button
from flowbot.capture.read import Reading, read_puzzle
from flowbot.capture.screen import Frame, Region, Screen, region_around
from flowbot.errors import CaptureError, FlowbotError
from flowbot.model import Cell, Geometry, Puzzle
from flowbot.progress import Progress
from flowbot.solve.sat import solve

log = logging.getLogger(__name__)


class AutoClearError(FlowbotError):
    """A level could not be cleared; the message says which and where the screenshot went."""

    exit_code = 4


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the bot took on a level, in milliseconds (drawing in seconds)."""

    capture_ms: float
    read_ms: float
    solve_ms: float
    plan_ms: float
    draw_s: float

    @property
    def overhead_ms(self) -> float:
        """Everything but drawing: what the bot adds to the time a level takes."""
        return self.capture_ms + self.read_ms + self.solve_ms + self.plan_ms


@dataclass(frozen=True, slots=True)
class LevelResult:
    """One level the bot played."""

    number: int
    size: str
    flows: int
    cleared: bool
    retries: int
    timing: Timing


@dataclass
class Report:
    """What a run did: levels played, why it stopped, and where a failure's screenshot is."""

    levels: list[LevelResult] = field(default_factory=list)
    stopped: str = ""
    failure_image: str | None = None
    halt: FlowbotError | None = None  # what ended the run early (fail-safe, signal, board gone), if anything

    @property
    def cleared(self) -> int:
        """Levels drawn and confirmed on screen."""
        return sum(level.cleared for level in self.levels)

    def overhead_median_ms(self) -> float:
        """Median per level of capture + read + solve + plan."""
        times = [level.timing.overhead_ms for level in self.levels]
        return statistics.median(times) if times else 0.0

    def summary(self) -> str:
        """A few lines a person reads at the end of a run."""
        lines = [f"cleared {self.cleared} of {len(self.levels)} level(s); stopped: {self.stopped}"]
        for level in self.levels:
            t = level.timing
            mark = "ok" if level.cleared else "FAILED"
            lines.append(
                f"  level {level.number}: {level.size}, {level.flows} flows, {mark}"
                f"{f' after {level.retries} retry' if level.retries else ''}; read {t.read_ms:.0f} ms, "
                f"solve {t.solve_ms:.0f} ms, plan {t.plan_ms:.1f} ms, draw {t.draw_s:.2f} s"
            )
        if self.levels:
            lines.append(
                f"bot overhead per level (capture+read+solve+plan): median {self.overhead_median_ms():.0f} ms"
            )
        if self.failure_image:
            lines.append(f"screenshot of the failure: {self.failure_image}")
        return "\n".join(lines)


@dataclass
class AutoClear:
    """The live loop, with the screen and the pointer passed in (real ones, or fakes in tests)."""

    screen: Screen
    pointer: Pointer
    settings: PointerSettings = field(default_factory=PointerSettings)
    region: Region | None = None
    count: int | None = None
    dry_run: bool = False
    artifacts: Path = Path(".")
    settle_timeout: float = 8.0  # seconds to wait for the next level's board
    verify_timeout: float = 2.0  # seconds for the game to show a drawn level as done
    sleep: Callable[[float], None] = time.sleep
    stop_requested: bool = False
    screen_bounds: Region | None = None
    advance: str = "dialog"  # how the game moves on: dialog, instant (by itself) or arrow
    next_button: tuple[int, int] | None = None  # a profile's "next level", when none is found
    arrow_button: tuple[int, int] | None = None  # a profile's skip arrow
    windows: Windows | None = None  # the display's windows, for the guard's look at the game's window
    _moved_on: bool = False  # the game showed a new level by itself right after the last one

    def run(self, progress: Progress | None = None) -> Report:
        """Clear levels until `count` are done, none comes, one fails, or a stop (Ctrl-C, SIGTERM,
        SIGHUP, the fail-safe, the board gone); `report.halt` holds what stopped it early."""
        report = Report()
        _warm_up()
        with stop_signals(lambda signum: setattr(self, "stop_requested", True)) as signals:
            try:
                self._loop(report, progress)
            except AutoClearError as error:
                report.stopped = str(error)
            except FlowbotError as error:  # the pointer's and the guard's stops, and any other error
                report.stopped, report.halt = str(error), error
        if signals.received is not None and not isinstance(report.halt, StopRun):
            report.halt = signals.error()
            report.stopped = str(report.halt)
        return report

    def _loop(self, report: Report, progress: Progress | None) -> None:
        """Play level after level."""
        number = 0
        previous_rows: list[str] | None = None
        while self.count is None or number < self.count:
            if self.stop_requested:
                report.stopped = "interrupted (Ctrl-C)"
                return
            number += 1
            frame, reading, capture_ms, read_ms = self.wait_for_board(previous_rows, first=number == 1)
            if reading is None:
                report.stopped = "no new level came" if number > 1 else "no board found on screen"
                self._save_failure(report, frame, f"level-{number}-no-board")
                return
            result = self.play_level(number, frame, reading, capture_ms, read_ms, report)
            report.levels.append(result)
            if progress is not None:
                progress.advance(f"level {number} {reading.puzzle.size}")
            if not result.cleared:
                return
            previous_rows = reading.puzzle.to_rows()
            if self.count is not None and number >= self.count:
                break
            self.next_level(reading.geometry.shifted(frame.left, frame.top))
        report.stopped = report.stopped or f"{number} level(s) done"

    def play_level(
        self, number: int, frame: Frame, reading: Reading, capture_ms: float, read_ms: float, report: Report
    ):
        """Solve, draw, verify (retrying once) one level."""
        started = time.perf_counter()
        result = solve(reading.puzzle, timeout=10)
        solve_ms = (time.perf_counter() - started) * 1000
        puzzle = reading.puzzle
        if result.solution is None:
            self._save_failure(report, frame, f"level-{number}-unsolved")
            raise AutoClearError(f"level {number} ({puzzle.size}): the board read has {result.status} status")
        geometry = reading.geometry.shifted(frame.left, frame.top)
        self._fence(geometry, frame, puzzle)
        started = time.perf_counter()
        strokes = plan_strokes(result.solution, geometry, self.settings)
        plan_ms = (time.perf_counter() - started) * 1000
        draw_s = 0.0
        for attempt in range(2):
            started = time.perf_counter()
            if not self.dry_run:
                try:
                    draw_strokes(
                        self.pointer, strokes, self.settings, lambda: self.stop_requested, self.sleep
                    )
                except BoardGoneError:
                    # Before the retry the board may have changed because the game took the level late
                    # (its win dialog now covers the board): look for the win once more before stopping.
                    if attempt == 0 or not self._verified(geometry, puzzle):
                        raise
            draw_s += time.perf_counter() - started
            if self.stop_requested:
                raise AutoClearError("interrupted (Ctrl-C)")
            if self.dry_run or self._verified(geometry, puzzle):
                timing = Timing(capture_ms, read_ms, solve_ms, plan_ms, draw_s)
                return LevelResult(number, puzzle.size, len(puzzle.colors), True, attempt, timing)
            log.info("level %d did not verify; drawing it again", number)
        failure = self.screen.grab(self.region)
        self._save_failure(report, failure, f"level-{number}-not-verified")
        timing = Timing(capture_ms, read_ms, solve_ms, plan_ms, draw_s)
        report.levels.append(LevelResult(number, puzzle.size, len(puzzle.colors), False, 1, timing))
        raise AutoClearError(f"level {number} ({puzzle.size}) was drawn twice but the game did not take it")

    def _fence(self, geometry: Geometry, frame: Frame, puzzle: Puzzle) -> None:
        """Before drawing a board read from `frame` (`geometry` in screen pixels): arm the pointer's
        guard (is the board still there before each press?), and keep the pointer near the board when
        no window region was given: the board and half its size around it (where the game's dialog and
        its buttons are), inside the screen."""
        if hasattr(self.pointer, "guard") and not self.dry_run:
            dots = [cell for pair in puzzle.endpoints for cell in pair]
            self.pointer.guard = BoardGuard.arm(self.screen, frame, geometry, dots, self.windows)
        bounds = getattr(self.pointer, "bounds", None)
        if self.region is not None or bounds is None:
            return
        self.screen_bounds = self.screen_bounds or bounds
        self.pointer.bounds = region_around(geometry.xs, geometry.ys, self.screen_bounds)

    def wait_for_board(
        self, previous: list[str] | None, first: bool
    ) -> tuple[Frame, Reading | None, float, float]:
        """Read the screen until a board that is not the last one reads the same twice in a row."""
        deadline = time.monotonic() + (2.0 if first else self.settle_timeout)
        last_rows = None
        frame = None
        while True:
            started = time.perf_counter()
            frame = self.screen.grab(self.region)
            captured = time.perf_counter()
            try:
                reading = read_puzzle(frame.pixels)
            except CaptureError:
                reading = None
            done = time.perf_counter()
            rows = reading.puzzle.to_rows() if reading is not None else None
            # Settled: the same new board twice (a board still sliding in reads differently).
            if rows is not None and rows != previous and (rows == last_rows or first):
                return frame, reading, (captured - started) * 1000, (done - captured) * 1000
            last_rows = rows
            if time.monotonic() > deadline:
                return frame, None, 0.0, 0.0
            self.sleep(0.1)

    def _verified(self, geometry: Geometry, puzzle: Puzzle) -> bool:
        """After drawing: the completion dialog is up, every cell of the board is filled, or the game
        has already moved on to another level (games with no dialog)."""
        deadline = time.monotonic() + self.verify_timeout
        rows = puzzle.to_rows()
        while True:
            frame = self.screen.grab(self.region)
            on_frame = geometry.shifted(-frame.left, -frame.top)
            if find_next_button(frame.pixels, on_frame) is not None or board_full(
                frame, geometry, puzzle.walls
            ):
                return True
            if self._new_level_showing(frame, rows):
                self._moved_on = True
                return True
            if time.monotonic() > deadline:
                return False
            self.sleep(0.1)

    @staticmethod
    def _new_level_showing(frame: Frame, rows: list[str]) -> bool:
        """True when the screen shows the start of a different level than `rows`."""
        try:
            seen = read_puzzle(frame.pixels).puzzle.to_rows()
        except CaptureError:
            return False
        return seen != rows

    def next_level(self, geometry: Geometry) -> None:
        """Move the game on: click the dialog's "next level" (found on screen, or where the profile
        says), or the skip arrow; games that load the next level by themselves need nothing."""
        if self._moved_on or self.advance == "instant":
            self._moved_on = False
            return
        target = self.arrow_button if self.advance == "arrow" else None
        if target is None:
            frame = self.screen.grab(self.region)
            button = find_next_button(frame.pixels, geometry.shifted(-frame.left, -frame.top))
            if button is not None:
                target = (button.center[0] + frame.left, button.center[1] + frame.top)
            else:
                target = self.next_button
        if target is not None and not self.dry_run:
            click(self.pointer, *target)

    def _save_failure(self, report: Report, frame: Frame | None, name: str) -> None:
        """Keep the screenshot flowbot could not handle, for the person to look at."""
        if frame is None:
            return
        from flowbot.capture.overlay import encode_png
        from flowbot.formats import atomic_write_bytes

        path = self.artifacts / f"flowbot-{name}-{time.strftime('%Y%m%d-%H%M%S')}.png"
        try:
            atomic_write_bytes(path, encode_png(frame.pixels))
            report.failure_image = str(path)
        except FlowbotError as error:
            log.warning("could not save the failure screenshot: %s", error)


def _warm_up() -> None:
    """Read and solve a tiny drawn board once, so the first level is not charged for library start-up."""
    frame = np.zeros((160, 160, 3), dtype=np.uint8)
    for step in range(0, 161, 40):
        frame[min(step, 159), :] = 90
        frame[:, min(step, 159)] = 90
    for x, y in ((20, 20), (140, 20), (20, 140), (140, 140)):
        frame[y - 10 : y + 10, x - 10 : x + 10] = (0, 0, 230) if y == 20 else (230, 0, 0)
    with contextlib.suppress(FlowbotError):
        solve(read_puzzle(frame).puzzle)


def board_full(frame: Frame, geometry: Geometry, walls: frozenset[Cell] = frozenset()) -> bool:
    """True when every cell's centre shows colour (a pipe or a dot) rather than the dark background."""
    pixels = frame.pixels
    height, width = pixels.shape[:2]
    for row in range(geometry.rows):
        for col in range(geometry.cols):
            if (row, col) in walls:
                continue
            x, y = geometry.center((row, col))
            x, y = round(x - frame.left), round(y - frame.top)
            if not (0 <= x < width and 0 <= y < height):
                return False
            patch = pixels[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2].reshape(-1, 3)
            if int(np.max(patch.mean(axis=0))) < 90:
                return False
    return True


def run_auto_clear(
    *,
    count: int | None,
    region: Region | None,
    dry_run: bool,
    settings: PointerSettings,
    artifacts: str,
    as_json: bool,
    out,
    err,
    profile=None,
) -> int:
    """Play the game on the real screen with the real mouse, print the summary, and return the exit code."""
    import json

    from flowbot.act.pointer import PyAutoGuiPointer, RecordingPointer
    from flowbot.capture.screen import MssScreen, X11Windows

    screen = MssScreen()
    windows = None
    try:
        region = region or (profile.region if profile else None)
        screen.check_region(region)
        bounds = region or screen.bounds
        pointer = RecordingPointer() if dry_run else PyAutoGuiPointer(bounds)
        windows = None if dry_run else X11Windows.open()
        loop = AutoClear(screen, pointer, settings, region, count, dry_run, Path(artifacts), windows=windows)
        if profile is not None:
            loop.advance, loop.next_button, loop.arrow_button = (
                profile.advance,
                profile.next_button,
                profile.arrow_button,
            )
        progress = Progress(count or 0, "auto-clear", err)
        report = loop.run(progress)
        progress.close()
    finally:
        screen.close()
        if windows is not None:
            windows.close()
    if as_json:
        record = {
            "levels": len(report.levels),
            "cleared": report.cleared,
            "bot_overhead_ms_median": round(report.overhead_median_ms(), 1),
            "stopped": report.stopped,
            "failure_image": report.failure_image,
        }
        out.write(json.dumps(record) + "\n")
    else:
        out.write(report.summary() + "\n")
    if report.halt is not None:
        raise report.halt  # after the summary: the CLI adds its one line and the stop's own exit status
    short = count is not None and report.cleared < count
    failed = any(not level.cleared for level in report.levels) or not report.levels or short
    return AutoClearError.exit_code if failed else 0


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
