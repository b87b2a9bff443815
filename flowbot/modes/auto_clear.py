"""`flowbot auto-clear`: read the level on screen, solve it, draw it, check it, go to the next one."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from flowbot.act.guard import BoardGoneError, BoardGuard, Windows, check_on_a_window
from flowbot.act.plan import PointerSettings, draw_strokes, plan_strokes
from flowbot.act.pointer import Pointer, StopRun, click, stop_signals
from flowbot.act.tuning import PROBE_TIMEOUT, Tuner
from flowbot.artifacts import default_folder, save_failure_picture
from flowbot.capture.buttons import Button, find_next_button
from flowbot.capture.controls import (
    Control,
    is_forbidden,
    label_score,
    names_move_on,
    new_move_on_buttons,
    next_controls,
    says_won,
)
from flowbot.capture.ocr import Word, read_line, read_words, read_words_in_bands, text_bands
from flowbot.capture.overlay import draw_overlay
from flowbot.capture.read import Reading, read_puzzle
from flowbot.capture.screen import Frame, Region, Screen, region_around
from flowbot.capture.verdict import (
    JoinLooks,
    bare_start_dots,
    centre_colours,
    inner_cells,
    join_colours,
    marks_cells,
    missing_cells,
    missing_joins,
    same_level_showing,
    unchanged_cells,
    undrawn_cells,
    unmarked_cells,
)
from flowbot.cellmap import CellMap
from flowbot.errors import CaptureError, FlowbotError
from flowbot.live.report import AutoClearError, Evidence, GameOver, LevelResult, Report, Timing, not_shown
from flowbot.model import Cell, Geometry, Puzzle, Solution
from flowbot.modes.game_over import game_over_message
from flowbot.progress import Progress
from flowbot.solve.sat import solve

log = logging.getLogger(__name__)

# A board with no solution is looked at this many times before the run stops (it is most likely misread).
MISREAD_LOOKS = 3
# Seconds to wait for a new board after pressing a control, before trying the next one.
CONTROL_WAIT = 3.0
# Controls pressed at most after one win before giving up.
MAX_CONTROLS_TRIED = 3
# A control is come to and rested on this long before the press, and held this long: some games learn
# where the pointer is only from motion events and act on a release they saw the press of. The rest is
# short: a win dialog that closes by itself half a second after showing must be pressed before then.
CLICK_APPROACH, CLICK_HOLD = 0.05, 0.15
# Seconds a game without a dialog gets to load the next level by itself before controls are looked for.
SELF_ADVANCE_WAIT = 0.6
# Mean grey difference under which a remembered control still looks the same.
CONTROL_LOOK_DIFFERENCE = 12.0
# A window changed after a press when more than CHANGED_SHARE of its pixels moved by more than
# CHANGED_BY (0-255, any channel): far beyond capture noise, far below a dialog closing.
CHANGED_BY, CHANGED_SHARE = 30, 0.02
# Seconds between looks while waiting for a board or a verdict (a look itself takes a few frames).
POLL = 0.03


@dataclass(frozen=True, slots=True)
class Sighting:
    """A board found on screen: the frame it was read from, the reading, and what finding it cost."""

    frame: Frame
    reading: Reading
    capture_ms: float = 0.0
    read_ms: float = 0.0

    @property
    def geometry(self) -> Geometry:
        """The board's grid in screen pixels."""
        return self.reading.geometry.shifted(self.frame.left, self.frame.top)

    @property
    def rows(self) -> list[str]:
        """The puzzle's rows, to tell one level from another."""
        return self.reading.puzzle.to_rows()


@dataclass(frozen=True, slots=True)
class WonLevel:
    """The level just won, as drawn: where, the solution, the flows' colours, its cells before drawing."""

    geometry: Geometry
    solution: Solution
    flow_rgb: tuple[tuple[int, int, int], ...]
    before: np.ndarray


@dataclass(frozen=True, slots=True)
class RememberedControl:
    """The control that moved the game on last time: where it was on screen and how it looked."""

    left: int
    top: int
    width: int
    height: int
    label: str
    look: np.ndarray  # (height, width) uint8, grey

    @property
    def center(self) -> tuple[float, float]:
        """The screen pixel (x, y) to click."""
        return self.left + self.width / 2, self.top + self.height / 2

    def shows_in(self, frame: Frame) -> bool:
        """True when the frame shows the same control at the same place (a cheap look, no OCR)."""
        left, top = self.left - frame.left, self.top - frame.top
        patch = frame.pixels[top : top + self.height, left : left + self.width]
        if left < 0 or top < 0 or patch.shape[:2] != self.look.shape:
            return False
        grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
        return float(np.mean(cv2.absdiff(grey, self.look))) < CONTROL_LOOK_DIFFERENCE


@dataclass
class AutoClear:
    """The live loop, with the screen and the pointer passed in (real ones, or fakes in tests)."""

    screen: Screen
    pointer: Pointer
    settings: PointerSettings = field(default_factory=PointerSettings)
    region: Region | None = None
    count: int | None = None
    dry_run: bool = False
    artifacts: Path = field(default_factory=default_folder)  # where failure screenshots go
    settle_timeout: float = 8.0  # seconds to wait for the next level's board
    verify_timeout: float = 2.0  # seconds for the game to show a drawn level as done
    sleep: Callable[[float], None] = time.sleep
    stop_requested: bool = False
    screen_bounds: Region | None = None
    advance: str = "dialog"  # how the game moves on: dialog, instant (by itself) or arrow
    next_button: tuple[int, int] | None = None  # a profile's "next level", when none is found
    arrow_button: tuple[int, int] | None = None  # a profile's skip arrow
    control: RememberedControl | None = None  # the control that moved on last time
    last_reason: str = ""  # why the last look found no board, in the reader's words
    windows: Windows | None = None  # the display's windows, for the guard's look at the game's window
    tuner: Tuner | None = None  # self-tuning of the pointer settings (None: always `settings`)
    _moved_on: bool = False  # the game showed a new level by itself right after the last one
    _dialog_seen: bool = False  # the last win showed a control (so the game will not move on alone)
    _before_words: tuple[Frame, list[Word]] | None = None  # see _words_before
    _before_bands: tuple[Frame, list[Word]] | None = None  # the same, read band by band (see _says_won)
    _dialog_before: tuple[Frame, bool] | None = None  # see _new_dialog
    # The level's board before any stroke (pixels, geometry on them): what "never drawn" looks like,
    # kept when a retry follows the board elsewhere (the new sighting shows earlier strokes).
    _undrawn: tuple[np.ndarray, Geometry] | None = None
    _dialog_moves_on: tuple[tuple[int, int, int, int], bool] | None = None  # a dialog button's label says so
    # The button of the win dialog the verdict read, with its look: pressed first to move on, with no
    # second reading (a dialog that closes by itself may not wait for OCR twice).
    _dialog_control: RememberedControl | None = None
    _before_drawing: Frame | None = None  # the screen the level was read from, before any stroke
    _won: WonLevel | None = None  # the level just won, to tell it (misread under a dialog) from a new one

    def run(self, progress: Progress | None = None) -> Report:
        """Clear levels until `count` are done, none comes, one fails, or a stop (Ctrl-C, SIGTERM,
        SIGHUP, the fail-safe, the board gone); `report.halt` holds what stopped it early."""
        report = Report(asked=self.count)
        _warm_up()
        with stop_signals(lambda signum: setattr(self, "stop_requested", True)) as signals:
            try:
                self._loop(report, progress)
            except AutoClearError as error:
                report.stopped = str(error)
            except FlowbotError as error:  # the pointer's and the guard's stops, and any other error
                over = self._game_over(None) if isinstance(error, BoardGoneError) else None
                if over is not None:  # the board went because the game ended (time is up)
                    report.stopped = over
                else:
                    report.stopped, report.halt = str(error), error
                    if isinstance(error, BoardGoneError):  # show the person what took the board's place
                        self._save_failure(report, self.screen.grab(self.region), "board-gone")
        if self.tuner is not None:
            report.pointer = "; ".join([*self.tuner.steps, f"ended on {self.tuner.rung.name!r}"])
        if signals.received is not None and not isinstance(report.halt, StopRun):
            report.halt = signals.error()
            report.stopped = str(report.halt)
        return report

    def _loop(self, report: Report, progress: Progress | None) -> None:
        """Play level after level."""
        sighting = self.first_board()
        if sighting is None:
            cause = self._save_explained(report, self.screen.grab(self.region), "level-1-no-board")
            report.stopped = f"no board found on screen ({self.last_reason}){cause}"
            return
        number = 0
        while True:
            if self.stop_requested:
                report.stopped = "interrupted (Ctrl-C)"
                return
            number += 1
            result = self.play_level(number, sighting, report)
            report.levels.append(result)
            if progress is not None:
                progress.advance(f"level {number} {sighting.reading.puzzle.size}")
            if self.count is not None and number >= self.count:
                break
            started = time.perf_counter()
            following = self.next_level(sighting)
            waited = replace(result.timing, next_ms=(time.perf_counter() - started) * 1000)
            report.levels[-1] = replace(result, timing=waited)
            if following is None:
                report.stopped = self._game_over(sighting.geometry) or self.last_reason
                if report.stopped != self.last_reason:
                    return  # the game ended (a time trial's end screen): nothing went wrong
                frame = self.screen.grab(self.region)
                report.stopped += self._save_explained(report, frame, f"level-{number + 1}-no-board")
                return
            sighting = following
        report.stopped = report.stopped or f"{number} level(s) done"

    def first_board(self) -> Sighting | None:
        """The board on screen at the start. Over a board that cannot be read, only a win dialog's
        own button is pressed, and only when the dialog says in words that its level was won (the
        game's way to close it); nothing else is ever pressed to move on from an unread board (a skip
        arrow or "Next" could skip a level never played): `last_reason` says so."""
        sighting = self.wait_for_board(None, timeout=2.0)
        if sighting is not None or self.dry_run:
            return sighting
        reason = self.last_reason
        following = self._close_win_dialog()
        if following is None:
            self.last_reason = reason + (
                "; flowbot presses nothing to move on from a board it cannot read (that could skip a "
                "level never played), but a win dialog's own button: close what covers the board, or "
                "start on a level"
            )
        return following

    def _close_win_dialog(self) -> Sighting | None:
        """Press the button of a Flow-style dialog that says its level was won ("You completed the
        level"), and return the board that comes; None when there is no such dialog or no board came."""
        frame = self.screen.grab(self.region)
        button = find_next_button(frame.pixels)
        if button is None:
            return None
        label = _label_on(frame.pixels, button)
        if is_forbidden(label) or (label and not label_score(label)):
            return None  # a dialog's button that restarts or goes back, or says nothing of moving on
        if not says_won(read_words(frame.pixels)):
            return None  # no word of a win: perhaps a dialog over a level never played
        log.info("started on a win dialog: pressing its button %r", label or "(no label read)")
        x, y = button.center
        return self._try((x + frame.left, y + frame.top), None, self.region)

    def play_level(self, number: int, sighting: Sighting, report: Report) -> LevelResult:
        """Solve, draw and confirm one level on evidence (drawing again the flows not shown joined)."""
        started = time.perf_counter()
        sighting, solution = self._solved(number, sighting, report)
        solve_ms = (time.perf_counter() - started) * 1000
        puzzle = sighting.reading.puzzle
        geometry = sighting.geometry
        self._fence(geometry, sighting.frame, puzzle)
        settings = self.tuner.settings if self.tuner is not None else self.settings
        started = time.perf_counter()
        strokes = plan_strokes(solution, geometry, settings)
        plan_ms = (time.perf_counter() - started) * 1000
        before = centre_colours(sighting.frame.pixels, sighting.reading.geometry)
        self._undrawn = (sighting.frame.pixels, sighting.reading.geometry)
        self._dialog_control = None  # a dialog read on an earlier level is not this level's
        self._before_drawing = sighting.frame
        flow_rgb = sighting.reading.seen_rgb
        joins_before = join_colours(sighting.frame.pixels, sighting.reading.geometry, solution, flow_rgb)
        draw_s = verify_ms = 0.0
        evidence = Evidence(None)
        level = (number, puzzle.size, len(puzzle.colors))
        # Two tries at the settings in use; with self-tuning, one more per slower rung left; and one
        # more after each try that left no more flows broken than the one before (a game losing some
        # input gets there by redrawing what it lost), at most one per flow.
        attempts = 2 + (self.tuner.steps_left() if self.tuner is not None else 0)
        most = attempts + len(solution.paths)
        was_broken = len(solution.paths) + 1
        attempt = -1
        starts: dict[int, Cell] = {}  # the cell each flow's last stroke began on
        untouched: set[int] = set()  # flows whose last stroke left every cell as it was
        last_look = self._undrawn  # the board before the last try: none yet
        while attempt + 1 < attempts:
            attempt += 1
            started = time.perf_counter()
            gone: BoardGoneError | None = None
            starts.update({stroke.color: stroke.cells[0] for stroke in strokes})
            if not self.dry_run:
                try:
                    # A flow whose last stroke the game showed no sign of is tapped first (see
                    # act/plan.py's _tap): a page left with a selection by earlier drags takes a drag
                    # from inside it as the browser's drag-and-drop, and the game sees nothing.
                    draw_strokes(
                        self.pointer, strokes, settings, lambda: self.stop_requested, self.sleep,
                        tap_first=untouched,
                    )  # fmt: skip
                except BoardGoneError as error:
                    # Before a retry the board may have changed because the game took the level late
                    # (its win dialog now covers the board): look for the win once more before stopping.
                    if attempt == 0:
                        raise
                    gone = error
            draw_s += time.perf_counter() - started
            if self.stop_requested:
                raise AutoClearError("interrupted (Ctrl-C)")
            timing = Timing(sighting.capture_ms, sighting.read_ms, solve_ms, plan_ms, draw_s, verify_ms)
            if self.dry_run:
                return LevelResult(*level, True, attempt, timing)
            started = time.perf_counter()
            probing = self.tuner is not None and self.tuner.probing
            # A fast try gets a short look, and no OCR while its level still shows (see below).
            look = PROBE_TIMEOUT if probing else None
            if gone is not None:  # the board changed under a retry: the game's own word, in full
                probing, look = False, None
            evidence = self.verdict(
                sighting, solution, before, look, words=not probing, joins=joins_before, starts=starts
            )
            verify_ms += (time.perf_counter() - started) * 1000
            timing = replace(timing, verify_ms=verify_ms)
            if evidence.won_by is not None:
                return self._won_level(level, attempt, timing, evidence.won_by, sighting, solution, before)
            if gone is not None:
                raise gone
            missing = {*evidence.cells, *(cell for join in evidence.joins for cell in join)}
            log.info(
                "level %d: %d cell(s), %d join(s) not shown; drawing it again",
                number, len(evidence.cells), len(evidence.joins),
            )  # fmt: skip
            moved = self._found_again(sighting)
            if moved is None and not self._dots_in_place(sighting, before)[0]:
                # The level is gone: the game may be over, or (after a fast try) say it was won.
                shown = self.screen.grab(self._window(geometry)).pixels
                words = read_words(shown)
                over = game_over_message(words)
                if over is not None:
                    raise GameOver(f"the game is over: {over}")
                if probing and self._says_won(shown, words, sighting, geometry):
                    self._dialog_seen = True
                    return self._won_level(level, attempt, timing, "message", sighting, solution, before)
            if self.tuner is not None and self.tuner.dropped():
                # Too fast for this game: one rung slower.
                settings = self.tuner.settings
                log.info("level %d: drawing slower: %s", number, self.tuner.rung.name)
            if moved is not None and moved.geometry != sighting.geometry:
                # The board moved (a banner, a resize): draw where it is now.
                sighting, geometry = moved, moved.geometry
                self._fence(geometry, moved.frame, puzzle)
            # Only the flows with a cell or join not shown: pressing a dot restarts its flow, and a
            # level whose last flow is fixed is won at once (a new level may come before another press).
            broken = {color for color, path in enumerate(solution.paths) if set(path) & missing}
            drawn = {stroke.color for stroke in strokes}
            untouched, last_look = self._untouched(sighting, solution, last_look)
            untouched &= broken & drawn
            if self.tuner is not None and self.tuner.probing:
                # While tuning, a drag the game showed nothing of was too fast (a jump it does not
                # fill): the next try is slower, and a tap would only cost time (a time trial's).
                untouched = set()
            if len(broken) <= was_broken and attempt + 1 == attempts:
                attempts = min(most, attempts + 1)
            was_broken = len(broken)
            # Each flow drawn again from the dot it was not started from: a game may pick a half-drawn
            # pipe up at the dot it was started from, so that a drag from there pulls the pipe back off
            # it, while a press on the other dot starts the flow afresh in every game.
            planned = plan_strokes(
                solution, geometry, settings, avoid={stroke.color: stroke.cells[0] for stroke in strokes}
            )
            if evidence.unconfirmed:
                # Every flow shows joined: the game may have missed the last release, which the flow
                # drawn last, drawn again, gives it once more.
                last = strokes[-1].color
                strokes = [stroke for stroke in planned if stroke.color == last]
            else:
                strokes = [stroke for stroke in planned if stroke.color in broken] or planned
        failure = self.screen.grab(self.region)
        self._save_failure(report, failure, f"level-{number}-not-verified")
        timing = Timing(sighting.capture_ms, sighting.read_ms, solve_ms, plan_ms, draw_s, verify_ms)
        report.levels.append(LevelResult(*level, False, attempt, timing, "", evidence.cells, evidence.joins))
        raise AutoClearError(
            f"level {number} ({puzzle.size}) was drawn {'twice' if attempt == 1 else f'{attempt + 1} times'} "
            f"but the game did not take it: {not_shown(evidence)}"
        )

    def _untouched(
        self, sighting: Sighting, solution: Solution, last_look: tuple[np.ndarray, Geometry]
    ) -> tuple[set[int], tuple[np.ndarray, Geometry]]:
        """The flows every cell of which shows exactly as on `last_look` (the board before the last
        try): the game took nothing of their last drags. With the board as it shows now, the next
        try's `last_look`."""
        frame = self.screen.grab(self.region)
        shown = sighting.geometry.shifted(-frame.left, -frame.top)
        every = [cell for path in solution.paths for cell in path]
        same = set(unchanged_cells(frame.pixels, shown, *last_look, every))
        untouched = {color for color, path in enumerate(solution.paths) if set(path) <= same}
        return untouched, (frame.pixels, shown)

    def _won_level(
        self,
        level: tuple[int, str, int],
        attempt: int,
        timing: Timing,
        won_by: str,
        sighting: Sighting,
        solution: Solution,
        before: np.ndarray,
    ) -> LevelResult:
        """A level won on evidence: the tuner told, the level kept to tell it from the next one."""
        if self.tuner is not None:
            self.tuner.worked()
        self._won = WonLevel(sighting.geometry, solution, sighting.reading.seen_rgb, before)
        return LevelResult(*level, True, attempt, timing, won_by)

    def _solved(self, number: int, sighting: Sighting, report: Report) -> tuple[Sighting, Solution]:
        """Solve the board read; a board with no solution is most likely misread, so look again a few
        times before giving up (pressing on only from a dialog that says its level was won, see
        _close_win_dialog), and save the picture with what was read drawn on it."""
        closed = False
        for look in range(MISREAD_LOOKS + 1):
            result = solve(sighting.reading.puzzle, timeout=10)
            if result.solution is not None:
                return sighting, result.solution
            log.info(
                "level %d read as %s has no solution; looking again", number, sighting.reading.puzzle.size
            )
            if look == MISREAD_LOOKS - 1 and not closed and not self.dry_run:
                # Perhaps a won level's dialog is over the board: only its own button, only when it
                # says the level was won.
                closed = True
                following = self._close_win_dialog()
                if following is not None:
                    sighting = following
                    continue
            self.sleep(0.3)
            again = self.wait_for_board(None, timeout=1.0)
            sighting = again or sighting
        puzzle = sighting.reading.puzzle
        picture = draw_overlay(
            sighting.frame.pixels, sighting.reading.geometry, sighting.reading.seen_rgb, None
        )
        self._save_failure(
            report, Frame(picture, sighting.frame.left, sighting.frame.top), f"level-{number}-misread"
        )
        cause = _likely_cause(sighting.frame, puzzle)
        raise AutoClearError(
            f"level {number}: the board read as {puzzle.size} with {len(puzzle.colors)} colours has "
            f"{result.status} status{cause}, so it was most likely misread or covered (a level already "
            "drawn, a popup over it; what was read is drawn on the saved picture); nothing but a win "
            "dialog's own button is pressed to move on, as that could skip a level never played; try "
            "--region around the game window or `flowbot calibrate --check`"
        )

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
        left, top, right, bottom = geometry.bounds
        self.pointer.bounds = region_around((left, right), (top, bottom), self._limit())

    def _window(self, geometry: Geometry) -> Region | None:
        """Where the game's controls may be: the window region when given, else the board with three
        times its size around it (a dialog centred on a window much bigger than its board)."""
        if self.region is not None:
            return self.region
        limit = self._limit()
        if limit is None:
            return None
        left, top, right, bottom = geometry.bounds
        return region_around((left, right), (top, bottom), limit, margin=3.0)

    def _limit(self) -> Region | None:
        """Where on the screen the game may be: the pointer's first bounds (the monitor, or --region),
        cut to the screen as it is now (it may have been resized since the run began)."""
        limit = self.screen_bounds or getattr(self.pointer, "bounds", None)
        now = getattr(self.screen, "everything", None)  # a real screen's extent, measured afresh
        if limit is None or now is None:
            return limit
        return limit.clipped(now) or limit

    def wait_for_board(
        self, previous: list[str] | None, first: bool = False, timeout: float | None = None
    ) -> Sighting | None:
        """Read the screen until a board that is not the last one reads the same twice in a row
        (a board still sliding in reads differently); None when none came in time."""
        limit = timeout if timeout is not None else (2.0 if first else self.settle_timeout)
        deadline = time.monotonic() + limit
        last_rows = None
        while True:
            started = time.perf_counter()
            frame = self.screen.grab(self.region)
            captured = time.perf_counter()
            try:
                reading = self.read(frame.pixels)
            except CaptureError as error:
                reading = None
                self.last_reason = str(error)
            done = time.perf_counter()
            rows = reading.puzzle.to_rows() if reading is not None else None
            if rows is not None and previous is not None:
                rows = self._next_rows(frame, reading, previous)
            if rows is not None and rows != previous and (rows == last_rows or previous is None):
                return Sighting(frame, reading, (captured - started) * 1000, (done - captured) * 1000)
            last_rows = rows
            if time.monotonic() > deadline:
                return None
            self.sleep(POLL)

    def read(self, pixels: np.ndarray) -> Reading:
        """Read the board on a frame (CaptureError when none reads); the sister games' loop reads theirs."""
        return read_puzzle(pixels)

    def _next_rows(self, frame: Frame, reading: Reading, previous: list[str]) -> list[str] | None:
        """A board read after a level, as rows: `previous` while that level still shows (read right,
        or misread under a dialog), None for a board with no solution (a misread), else its rows."""
        rows = reading.puzzle.to_rows()
        if rows == previous or self._still_won(frame):
            self.last_reason = "the same level is still showing"
            return previous
        if solve(reading.puzzle, timeout=2).solution is None:
            self.last_reason = f"a {reading.puzzle.size} board was read but has no solution"
            return None
        return rows

    def _still_won(self, frame: Frame) -> bool:
        """True when the level just won still shows where it was drawn (most of its pipes): what was
        read is that level misread under a dialog or a button, not a new one (a new level is empty)."""
        won = self._won
        if won is None:
            return False
        on_frame = won.geometry.shifted(-frame.left, -frame.top)
        missing = missing_cells(frame.pixels, on_frame, won.solution, won.flow_rgb, won.before)
        return len(missing) <= inner_cells(won.solution) // 2

    def verdict(
        self,
        sighting: Sighting,
        solution: Solution,
        before: np.ndarray,
        timeout: float | None = None,
        words: bool = True,
        joins: JoinLooks | None = None,
        starts: dict[int, Cell] | None = None,
    ) -> Evidence:
        """After drawing: what shows the level won, looked for until `timeout` seconds (default:
        verify_timeout): every join of the solution on the board, where it was or wherever it is now;
        else a win signal that was not on the frame the board was read from (a dialog, win words, a
        new level in its place). Nothing else counts: a control or text already showing before drawing
        says nothing about this level. Without `words`, no look for a win message (OCR).

        before : centre_colours of the board before drawing; joins : join_colours before drawing;
        starts : the cell each flow's last stroke began on (a game may leave that dot's cell bare)
        """
        start = time.monotonic()
        deadline = start + (self.verify_timeout if timeout is None else timeout)
        # A game busy catching up with the strokes still changes its picture: judge only once it
        # has stopped changing (or after three times the time asked for).
        latest = start + 3 * (deadline - start)
        last_board: np.ndarray | None = None
        rows = sighting.rows
        flow_rgb = sighting.reading.seen_rgb
        if joins is None:
            joins = join_colours(sighting.frame.pixels, sighting.reading.geometry, solution, flow_rgb)
        self._dialog_seen = False
        window = self._window(sighting.geometry)
        looked_for_words = not words
        looked_for_controls = False
        dots = [cell for pair in sighting.reading.puzzle.endpoints for cell in pair]
        undrawn = self._undrawn or (sighting.frame.pixels, sighting.reading.geometry)
        while True:
            frame = self.screen.grab(self.region)
            old = sighting.geometry.shifted(-frame.left, -frame.top)
            # Every join where the board was, on cells the game marks as its flow's; joins on cells
            # left bare wait for the game's own sign (below).
            missing, marked = _joins_shown(frame.pixels, old, undrawn, solution, flow_rgb, joins, starts)
            joined = not missing
            if joined and marked:
                return Evidence("joins")
            # A win signal counts only while the board, where it can be seen, does not say otherwise:
            # a flow none of whose cells shows its colour (all as before drawing, or another flow's)
            # beside a dialog means a game's "halfway" box or a signal about something else.
            unfinished = undrawn_cells(frame.pixels, old, *undrawn, solution)
            if unfinished:
                log.info("%d cell(s) show as before drawing: no win signal is trusted", len(unfinished))
            if not unfinished and self._new_dialog(frame, old, window, sighting):
                self._dialog_seen = True
                return Evidence("dialog")
            try:
                seen = read_puzzle(frame.pixels)
            except CaptureError:
                seen = None
            in_place = same_level_showing(centre_colours(frame.pixels, old), before, dots)
            if seen is not None and seen.puzzle.to_rows() != rows:
                # Another board read: a new level only where the level's dots no longer show (else it
                # is this level misread, half drawn or under something) and it has a solution.
                if not in_place and solve(seen.puzzle, timeout=2).solution is not None:
                    self._moved_on = True
                    return Evidence("new level")
            elif seen is not None and seen.geometry != old:
                # ...or wherever the board is now (a win banner may have pushed it down).
                moved, marked = _joins_shown(
                    frame.pixels, seen.geometry, undrawn, solution, flow_rgb, joins, starts
                )
                if not moved:
                    if marked:
                        return Evidence("joins")
                    joined = True
                missing = moved if len(moved) < len(missing) else missing
            # Most of the board hidden (something over it), or time is up: look for a win message in
            # words ("You won!", "Level complete") that was not there before, once: OCR costs a few
            # hundred milliseconds.
            board = _board_pixels(frame, sighting.geometry)
            settled = last_board is not None and np.array_equal(board, last_board)
            last_board = board
            now = time.monotonic()
            late = (now > deadline and settled) or now > latest
            if not looked_for_controls and not unfinished and (late or not in_place):
                # A button that moves on, new since the board was read, over or beside the board.
                looked_for_controls = True
                if self._new_button(sighting, window):
                    self._dialog_seen = True
                    return Evidence("dialog")
            if not looked_for_words and not unfinished and (late or (seen is None and not in_place)):
                looked_for_words = True
                shown = self.screen.grab(window).pixels
                shown_words = read_words(shown)
                over = game_over_message(shown_words)
                if over is not None:  # "Time's up! 5 levels solved": the end, not this level's win
                    raise GameOver(f"the game is over: {over}")
                if self._says_won(shown, shown_words, sighting):
                    self._dialog_seen = True
                    return Evidence("message")
            if late:
                if joined:
                    return Evidence(None, unconfirmed=True)
                cells = missing_cells(frame.pixels, old, solution, flow_rgb, before)
                return Evidence(None, tuple(cells), tuple(missing))
            self.sleep(POLL)

    def _new_button(self, sighting: Sighting, window: Region | None) -> bool:
        """True when the game's window shows a push button labelled to move on ("Next Level") that
        was not there when the board was read (a look with OCR, taken once per verdict)."""
        frame = self.screen.grab(window)
        before = _cut(sighting.frame, window or Region(frame.left, frame.top, *frame.pixels.shape[1::-1]))
        if before.shape != frame.pixels.shape:
            return False  # the board was read from a part of the screen not holding the window
        board = sighting.geometry.shifted(-frame.left, -frame.top)
        found = new_move_on_buttons(frame.pixels, before, board)
        if found:
            log.info("a new button %r showed after drawing", found[0].label)
        return bool(found)

    def _new_dialog(self, frame: Frame, board: Geometry, window: Region | None, sighting: Sighting) -> bool:
        """True when a Flow-style dialog button shows on the frame (over the board or in the game's
        window), did not on the frame the board was read from (a "Next Level" always showing beside
        the board is no win), and its label says to move on (an outline of grid cells, changed by the
        pipes drawn in it, is no dialog)."""
        button = _dialog_button(frame, board, window)
        if button is None:
            return False
        if self._dialog_before is None or self._dialog_before[0] is not sighting.frame:
            was = sighting.frame
            showed = _dialog_button(was, sighting.reading.geometry, window) is not None
            self._dialog_before = (was, showed)
        if self._dialog_before[1]:
            return False
        box = (button.left, button.top, button.width, button.height)
        if self._dialog_moves_on is None or self._dialog_moves_on[0] != box:
            # The control that moved on last time, showing where it was, needs no reading (OCR, which
            # a dialog that closes by itself may not wait for).
            if self.control is not None and self.control.shows_in(frame):
                moves_on = True
            else:
                label = _label_on(frame.pixels, button)
                moves_on = bool(label_score(label)) and not is_forbidden(label)
                if moves_on:
                    self._dialog_control = _remember(frame, Control(*box, label, "flow-button"))
            self._dialog_moves_on = (box, moves_on)
        return self._dialog_moves_on[1]

    def _says_won(
        self, shown: np.ndarray, words: list[Word], sighting: Sighting, geometry: Geometry | None = None
    ) -> bool:
        """True when the game's window (`shown`, its `words` read whole) has win words it did not have
        before the level was drawn; when the whole read has none, each band of text is read on its
        own and compared with the window before, read the same way (a big stylised "YOU WIN!" reads
        only so)."""
        if says_won(words, self._words_before(sighting, geometry)):
            return True
        if not text_bands(shown):
            return False
        if self._before_bands is None or self._before_bands[0] is not sighting.frame:
            window = self._window(geometry or sighting.geometry)
            self._before_bands = (sighting.frame, read_words_in_bands(_cut(sighting.frame, window)))
        return says_won(read_words_in_bands(shown), self._before_bands[1])

    def _words_before(self, sighting: Sighting, geometry: Geometry | None = None) -> list[Word]:
        """The words in the game's window before the level was drawn (read once per level, and only
        when a win message is looked for): what already showed then (a counter such as "solved 6")
        is not a win."""
        if self._before_words is None or self._before_words[0] is not sighting.frame:
            window = self._window(geometry or sighting.geometry)
            self._before_words = (sighting.frame, read_words(_cut(sighting.frame, window)))
        return self._before_words[1]

    def _dots_in_place(self, sighting: Sighting, before: np.ndarray) -> tuple[bool, Frame]:
        """Whether the level's dots still show where they were before drawing (the level is still
        there), and the frame looked at."""
        frame = self.screen.grab(self.region)
        old = sighting.geometry.shifted(-frame.left, -frame.top)
        dots = [cell for pair in sighting.reading.puzzle.endpoints for cell in pair]
        return same_level_showing(centre_colours(frame.pixels, old), before, dots), frame

    def _game_over(self, geometry: Geometry | None) -> str | None:
        """What the game's end screen says (a time trial's "Time's up!"), when one shows, in words: a
        look (OCR) taken only when a level could not be played on."""
        window = self._window(geometry) if geometry is not None else self.region
        frame = self.screen.grab(window)
        message = game_over_message(read_words(frame.pixels))
        return None if message is None else f"the game is over: {message}"

    def _found_again(self, sighting: Sighting) -> Sighting | None:
        """The same level read again, wherever it is on screen now."""
        found = self.wait_for_board(None, timeout=0.0)
        return found if found is not None and found.rows == sighting.rows else None

    def next_level(self, sighting: Sighting) -> Sighting | None:
        """Move the game on from a won level and return the next level's board (None: none came,
        and `last_reason` says what was tried).

        A game that moves on by itself needs nothing; else the control that worked last time, then
        controls found on screen (Flow-style buttons, push buttons and links labelled next, continue,
        new, play, ...), then the profile's next button; each press is confirmed by a new board.
        """
        previous = sighting.rows
        if self._moved_on or self.advance == "instant":
            self._moved_on = False
            return self._came(previous, self.settle_timeout, "no new level came")
        if self.advance == "arrow" and self.arrow_button is not None:
            self._click(self.arrow_button, self._limit())
            return self._came(
                previous, self.settle_timeout, "no new level came after pressing the skip arrow"
            )
        if not self._dialog_seen:
            # Games without a dialog load the next level by themselves, at once or nearly.
            came = self.wait_for_board(previous, timeout=SELF_ADVANCE_WAIT)
            if came is not None:
                return came
        return self._press_controls(previous, sighting.geometry)

    def _press_controls(
        self, previous: list[str] | None, geometry: Geometry | None, beside: bool = False
    ) -> Sighting | None:
        """Press what moves the game on, best first, until a new board comes. With `beside`, only
        controls off the board (the won level shows there: whatever is found on it is the board)."""
        tried: list[str] = []
        pressed: list[RememberedControl] = []  # controls pressed that did nothing
        window = self._window(geometry) if geometry is not None else self.region
        frame = self.screen.grab(window)
        dialog, self._dialog_control = self._dialog_control, None
        board = geometry.shifted(-frame.left, -frame.top) if geometry is not None else None
        for known in (self.control, dialog):
            if (
                beside
                and known is not None
                and geometry is not None
                and _inside_bounds(known.center, geometry.bounds)
            ):
                continue
            if known is not None and known.shows_in(frame) and not tried:
                came = self._try(known.center, previous, window)
                if came is not None:
                    if known is dialog:
                        self.control = dialog
                    return came
                tried.append(repr(known.label))
                pressed.append(known)
        refused: list[str] = []
        # Words read on a board that still shows the level just won are its pipes misread ('»'), not a
        # link: a click there cuts a pipe. A win screen in the board's place may hold links.
        on_board = board is not None and self._still_won(frame)
        for control in next_controls(frame.pixels, board, refused):
            if len(tried) >= MAX_CONTROLS_TRIED or self._changed_since(frame, window, tried):
                break
            if board is not None and _on_the_board(control, board, on_board):
                log.info("not pressing %r: pipes read on the board, not a control", control.label)
                continue
            if beside and board is not None and _inside_bounds(control.center, board.bounds):
                continue
            found = _remember(frame, control)
            if any(_inside_box(found.center, other) for other in pressed):
                continue  # pressed already (as the control that worked last time): see below
            came = self._try(found.center, previous, window)
            if came is not None:
                self.control = found
                log.info("moved on with %s %r", control.kind, control.label)
                return came
            tried.append(repr(control.label))
            pressed.append(found)
        # A game that loses input may miss a click: the first control pressed is pressed again while
        # the window shows exactly as when it was found (the press did nothing; a press that did
        # something changes the window, and stops every further press). Only a control that came
        # with the win: one always shown ("Next Level" beside the board) could be pressed late on
        # the next level, which a slow game shows after the check.
        before = self._before_drawing
        again = pressed[0] if pressed and not (before is not None and pressed[0].shows_in(before)) else None
        while again is not None and len(tried) < MAX_CONTROLS_TRIED + 1:
            if self._changed_since(frame, window, tried):
                break
            came = self._try(again.center, previous, window)
            if came is not None:
                self.control = again
                log.info("moved on with %r, pressed again", again.label)
                return came
            tried.append(repr(again.label))
        if self.next_button is not None and not self._changed_since(frame, window, tried):
            came = self._try(self.next_button, previous, window)
            if came is not None:
                return came
            tried.append("the profile's next_button")
        if self._changed_since(frame, window, tried):
            if not beside and self._still_won(self.screen.grab(window)):
                # The press closed something (a "Good job!" box) and the won level shows whole: the
                # game moves on by another control, beside the board (its "Next Level"), once a
                # slow game has had time to bring the next level by that press.
                came = self.wait_for_board(previous, timeout=CONTROL_WAIT)
                if came is not None:
                    return came
                if self._still_won(self.screen.grab(window)):
                    log.info("the won level still shows after pressing %s", ", ".join(tried))
                    return self._press_controls(previous, geometry, beside=True)
            came = self.wait_for_board(previous, timeout=self.settle_timeout)
            if came is None:
                self.last_reason = (
                    f"after pressing {', '.join(tried)} the game's window changed but no new level "
                    "could be read; nothing more was pressed (a second control could skip a level "
                    "never played)"
                )
            return came
        came = self.wait_for_board(previous, timeout=self.settle_timeout if not tried else 0.0)
        if came is not None:
            return came
        if tried:
            self.last_reason = f"no new level came after pressing {', '.join(tried)}"
        elif refused:
            labels = ", ".join(repr(label) for label in dict.fromkeys(refused))
            self.last_reason = (
                f"no new level came; the only controls found say {labels}, and flowbot never presses "
                "one that goes back, undoes, restarts, solves, hints, buys or shares"
            )
        else:
            self.last_reason = (
                "no new level came, and no control to move on was found (looked for Flow-style "
                "buttons, push buttons and links labelled next, continue, new or play); "
                "set next_button in a profile (see README: Other Flow games)"
            )
        return None

    def _changed_since(self, frame: Frame, window: Region | None, tried: list[str]) -> bool:
        """True when a control was pressed and the window no longer looks as on `frame`, where the
        controls were found: the press did something (the dialog closed, a level loading), so the
        won level may be gone and another control could skip the level now showing."""
        if not tried or self.dry_run:
            return False
        now = self.screen.grab(window)
        if now.pixels.shape != frame.pixels.shape:
            return True
        differs = np.abs(now.pixels.astype(np.int16) - frame.pixels.astype(np.int16)).max(axis=2) > CHANGED_BY
        return float(np.mean(differs)) > CHANGED_SHARE

    def _try(self, target: tuple[float, float], previous: list[str] | None, window: Region | None):
        """Click a control and wait for a new board."""
        if self.dry_run:
            return None
        self._click(target, window)
        return self.wait_for_board(previous, timeout=CONTROL_WAIT)

    def _click(self, target: tuple[float, float], window: Region | None) -> None:
        """Click at a screen point, once the guard has seen it on a window of the game; the fence
        opened to the window for the click (controls may lie beyond the board's surroundings) and put
        back after."""
        if self.dry_run:
            return
        guard = getattr(self.pointer, "guard", None)
        if guard is not None and hasattr(guard, "check_point"):
            guard.check_point(*target)  # on a window of the game, never the desktop or another program
        else:
            check_on_a_window(self.windows, *target)  # the game's window not known yet: not the desktop
        bounds = getattr(self.pointer, "bounds", None)
        if window is not None and bounds is not None and self.region is None:
            self.pointer.bounds = window
        try:
            click(self.pointer, *target, hold=CLICK_HOLD, approach=CLICK_APPROACH, sleep=self.sleep)
        finally:
            if bounds is not None and self.region is None:
                self.pointer.bounds = bounds

    def _came(self, previous: list[str], timeout: float, reason: str) -> Sighting | None:
        """The next board, or None with `reason` noted."""
        came = self.wait_for_board(previous, timeout=timeout)
        if came is None:
            self.last_reason = reason
        return came

    def _save_explained(self, report: Report, frame: Frame | None, name: str) -> str:
        """Save the frame with what the reader finds drawn over it (the lattice, the dots, stray
        blobs) and return '; likely cause: ...' for the stop message ('' when it cannot say)."""
        if frame is None:
            return ""
        from flowbot.capture.explain import explain_misread

        try:
            misread = explain_misread(frame.pixels)
        except FlowbotError as error:
            log.warning("could not explain the misread: %s", error)
            self._save_failure(report, frame, name)
            return ""
        self._save_failure(report, Frame(misread.picture, frame.left, frame.top), name)
        return f"; likely cause: {misread.cause}"

    def _save_failure(self, report: Report, frame: Frame | None, name: str) -> None:
        """Keep the screenshot flowbot could not handle, for the person to look at."""
        if frame is None:
            return
        from flowbot.capture.overlay import encode_png

        try:
            path = save_failure_picture(self.artifacts, name, encode_png(frame.pixels))
            report.failure_image = str(path)
        except FlowbotError as error:
            log.warning("could not save the failure screenshot: %s", error)


def _likely_cause(frame: Frame, puzzle: Puzzle) -> str:
    """' (likely cause: ...)' for a board that read whole but has no solution, '' when none is named."""
    from flowbot.capture.explain import explain_misread

    try:
        return f" (likely cause: {explain_misread(frame.pixels, puzzle).cause})"
    except FlowbotError:
        return ""


def _dialog_button(frame: Frame, board: CellMap, window: Region | None) -> Button | None:
    """A Flow-style dialog button on a frame, over the board (`board` in the frame's pixels) or
    anywhere in the game's window (a dialog wider than a small board), in the frame's pixels."""
    button = find_next_button(frame.pixels, board)
    if button is not None or window is None:
        return button
    part = _cut(frame, window)
    found = find_next_button(part) if part.size else None
    if found is None:
        return None
    dx, dy = max(0, window.left - frame.left), max(0, window.top - frame.top)
    return Button(found.left + dx, found.top + dy, found.width, found.height)


def _label_on(pixels: np.ndarray, button: Button) -> str:
    """The label read (OCR) inside a button's outline."""
    inset = max(2, min(button.width, button.height) // 8)
    return read_line(
        pixels[
            button.top + inset : button.top + button.height - inset,
            button.left + inset : button.left + button.width - inset,
        ]
    )


def _joins_shown(
    pixels: np.ndarray,
    geometry: Geometry,
    undrawn: tuple[np.ndarray, Geometry],
    solution: Solution,
    flow_rgb: tuple[tuple[int, int, int], ...],
    joins: JoinLooks,
    starts: dict[int, Cell] | None,
) -> tuple[list, bool]:
    """The solution's joins not shown with the board at `geometry` on `pixels` (a join into a dot the
    game leaves bare judged outside its cell), and whether the game marks the cells it holds.

    undrawn : the level's frame before any stroke and the board's geometry on it
    """
    shown = join_colours(pixels, geometry, solution, flow_rgb)
    bare = bare_start_dots(pixels, geometry, *undrawn, solution, starts) if starts else frozenset()
    missing = missing_joins(shown, joins, solution, flow_rgb, bare)
    marked = not missing and marks_cells(unmarked_cells(pixels, geometry, *undrawn, solution), solution)
    return missing, marked


def _on_the_board(control: Control, board: CellMap, still_won: bool) -> bool:
    """True for a control found over the board that is the board itself misread: over a board,
    whatever says no word of moving on ("next", "continue") is pipes and dots read as an arrow
    (qtflowfree's '_».', '» 4'; a click on a won board's dot clears that flow), save a dialog button
    over a board that no longer shows the won level; and while the won level shows, words are never
    a link."""
    if not _inside_bounds(control.center, board.bounds):
        return False
    if control.kind == "text" and still_won:
        return True
    return not names_move_on(control.label) and (still_won or control.kind != "flow-button")


def _inside_box(point: tuple[float, float], control: RememberedControl) -> bool:
    """True when screen pixel (x, y) lies on a remembered control."""
    return _inside_bounds(
        point, (control.left, control.top, control.left + control.width, control.top + control.height)
    )


def _inside_bounds(point: tuple[float, float], bounds: tuple[float, float, float, float]) -> bool:
    """True when pixel (x, y) lies within (left, top, right, bottom)."""
    left, top, right, bottom = bounds
    return left <= point[0] <= right and top <= point[1] <= bottom


def _cut(frame: Frame, window: Region | None) -> np.ndarray:
    """The part of a frame inside a window given in screen pixels (all of it for no window)."""
    if window is None:
        return frame.pixels
    left, top = max(0, window.left - frame.left), max(0, window.top - frame.top)
    part = frame.pixels[
        top : max(0, window.top - frame.top + window.height),
        left : max(0, window.left - frame.left + window.width),
    ]
    return np.ascontiguousarray(part)


def _board_pixels(frame: Frame, geometry: Geometry) -> np.ndarray:
    """The part of a frame where the board (in screen pixels) was: to tell when the picture settles."""
    edges = geometry.bounds
    left, top = round(edges[0]) - frame.left, round(edges[1]) - frame.top
    right, bottom = round(edges[2]) - frame.left, round(edges[3]) - frame.top
    return frame.pixels[max(0, top) : max(0, bottom), max(0, left) : max(0, right)].copy()


def _remember(frame: Frame, control: Control) -> RememberedControl:
    """Note a control that worked, in screen pixels, with its look for a cheap check next time."""
    patch = frame.pixels[
        control.top : control.top + control.height, control.left : control.left + control.width
    ]
    look = cv2.cvtColor(np.ascontiguousarray(patch), cv2.COLOR_BGR2GRAY)
    return RememberedControl(
        control.left + frame.left, control.top + frame.top, control.width, control.height, control.label, look
    )


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
