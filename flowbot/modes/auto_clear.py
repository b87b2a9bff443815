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
import time
from dataclasses import dataclass, field, replace

import numpy as np

from flowbot.act.guard import STOPPED, BoardAnsweredError, BoardGoneError
from flowbot.act.plan import draw_strokes, plan_strokes
from flowbot.act.tuning import PROBE_TIMEOUT
from flowbot.capture.ocr import read_words
from flowbot.capture.overlay import draw_overlay
from flowbot.capture.read import Reading, read_puzzle
from flowbot.capture.screen import Frame, Region
from flowbot.capture.verdict import (
    JoinLooks,
    bare_start_dots,
    centre_colours,
    inner_cells,
    join_colours,
    missing_cells,
    missing_joins,
    same_level_showing,
    unchanged_cells,
    undrawn_cells,
)
from flowbot.errors import CaptureError, FlowbotError
from flowbot.live.controls import board_pixels
from flowbot.live.counters import done_count
from flowbot.live.game_over import game_over_message
from flowbot.live.loop import MISREAD_LOOKS, POLL, LiveLoop
from flowbot.live.report import (
    AutoClearError,
    Evidence,
    GameOver,
    LevelResult,
    Report,
    Timing,
    not_shown,
    unconfirmed_reason,
)
from flowbot.live.scene import Scene
from flowbot.model import Cell, Geometry, Puzzle, Solution
from flowbot.solve.sat import SolveResult, solve

log = logging.getLogger(__name__)

SOLUTIONS_KEPT = 8  # boards whose solutions are kept (see AutoClear._solve)
# Seconds the game gets to give its word (a dialog, a new level, win words) once every join of the
# level shows: only a game that gives no sign waits it all, and then the level is not counted.
SIGN_WAIT = 1.0


@dataclass(frozen=True, slots=True)
class WonLevel:
    """The level just won, as drawn: where, the solution, the flows' colours, its cells before drawing."""

    geometry: Geometry
    solution: Solution
    flow_rgb: tuple[tuple[int, int, int], ...]
    before: np.ndarray


@dataclass
class AutoClear(LiveLoop):
    """The live loop for classic Flow, with the screen and the pointer passed in (real ones, or fakes
    in tests)."""

    # The level's board before any stroke (pixels, geometry on them): what "never drawn" looks like,
    # kept when a retry follows the board elsewhere (the new scene shows earlier strokes).
    _undrawn: tuple[np.ndarray, Geometry] | None = None
    _won: WonLevel | None = None  # the level just won, to tell it (misread under a dialog) from a new one
    # Where the last board read lay on the frame (every frame is of the same region): the next read
    # looks there first, a few milliseconds a look less, and reads the whole frame when no board is there.
    _near: Geometry | None = None
    # The answers for the boards solved last, by their rows: each level is solved once.
    _solutions: dict[tuple[str, ...], SolveResult] = field(default_factory=dict)

    def read(self, pixels: np.ndarray) -> Reading:
        """Read the board on a frame (CaptureError when none reads), around the last board first."""
        reading = read_puzzle(pixels, near=self._near)
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

    def solvable(self, puzzle: Puzzle) -> bool:
        """True when a board read has a solution found within two seconds; the solution is kept, so
        the level the loop found this way is not solved again when it is played."""
        return self._solve(puzzle, timeout=2).solution is not None

    def _solve(self, puzzle: Puzzle, timeout: float) -> SolveResult:
        """The board solved (within `timeout` seconds) once: the answers for the boards solved last
        are kept by their rows (a time-out is not an answer, and is not kept)."""
        key = tuple(puzzle.to_rows())
        result = self._solutions.get(key)
        if result is None:
            result = solve(puzzle, timeout=timeout)
            if result.status != "timeout":
                self._solutions[key] = result
            while len(self._solutions) > SOLUTIONS_KEPT:
                del self._solutions[next(iter(self._solutions))]
        return result

    def play_level(self, number: int, scene: Scene, report: Report) -> LevelResult:
        """Solve, draw and confirm one level on evidence (drawing again the flows not shown joined)."""
        started = time.perf_counter()
        scene, solution = self._solved(number, scene, report)
        solve_ms = (time.perf_counter() - started) * 1000
        puzzle = scene.reading.puzzle
        geometry = scene.geometry
        self.fence(geometry, scene.frame, puzzle)
        settings = self.tuner.settings if self.tuner is not None else self.settings
        started = time.perf_counter()
        strokes = plan_strokes(solution, geometry, settings)
        plan_ms = (time.perf_counter() - started) * 1000
        before = centre_colours(scene.frame.pixels, scene.reading.geometry)
        self._undrawn = (scene.frame.pixels, scene.reading.geometry)
        self.begin_drawing(scene)
        flow_rgb = scene.reading.seen_rgb
        joins_before = join_colours(scene.frame.pixels, scene.reading.geometry, solution, flow_rgb)
        draw_s = verify_ms = 0.0
        evidence = Evidence(None)
        level = (number, puzzle.size, len(puzzle.colors))
        # Two tries at the settings in use; with self-tuning, one more per slower rung left; and one
        # more after each try that left no more flows broken than the one before (a game losing some
        # input gets there by redrawing what it lost), at most one per flow.
        attempts = 2 + (self.tuner.steps_left() if self.tuner is not None else 0)
        first = attempts
        most = first + len(solution.paths)
        was_broken = len(solution.paths) + 1
        attempt = -1
        # After a look found every flow joined but no sign: the flows to draw again, one a try, the
        # last drawn first; and how many flows the game's counter said it held after the last try.
        suspects = [stroke.color for stroke in reversed(strokes)]
        held: int | None = None
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
                        self.pointer, strokes, settings, lambda: self.stop_requested, self.clock.sleep,
                        tap_first=untouched,
                    )  # fmt: skip
                except BoardGoneError as error:
                    # Before a retry the board may have changed because the game took the level late
                    # (its win dialog now covers the board), and a board changed in place in a window
                    # that did not move is the game's answer (a win screen, the next level): look for
                    # the win once more before stopping.
                    if attempt == 0 and not isinstance(error, BoardAnsweredError):
                        raise
                    gone = error
            draw_s += time.perf_counter() - started
            if self.stop_requested:
                raise AutoClearError("interrupted (Ctrl-C)")
            timing = Timing(scene.capture_ms, scene.read_ms, solve_ms, plan_ms, draw_s, verify_ms)
            if self.dry_run:
                return LevelResult(*level, True, attempt, timing)
            started = time.perf_counter()
            probing = self.tuner is not None and self.tuner.probing
            # A fast try gets a short look, and no OCR while its level still shows (see below).
            look = PROBE_TIMEOUT if probing else None
            if gone is not None:  # the board changed under a retry: the game's own word, in full
                probing, look = False, None
            evidence = self.verdict(
                scene, solution, before, look, words=not probing, joins=joins_before, starts=starts
            )
            verify_ms += (time.perf_counter() - started) * 1000
            timing = replace(timing, verify_ms=verify_ms)
            if evidence.won_by is not None:
                return self._won_level(level, attempt, timing, evidence.won_by, scene, solution, before)
            if isinstance(gone, BoardAnsweredError):
                over = self.game_over(geometry)  # the board gave way to the end screen ("Time's up!")
                if over is not None:
                    raise GameOver(over)
                raise AutoClearError(
                    f"level {number} ({puzzle.size}): {gone.args[0].removesuffix('; ' + STOPPED)}, but "
                    "no new level, dialog or win words could be read there; nothing more was pressed"
                )
            if gone is not None:
                raise gone
            missing = {*evidence.cells, *(cell for join in evidence.joins for cell in join)}
            log.info(
                "level %d: %d cell(s), %d join(s) not shown; drawing it again",
                number, len(evidence.cells), len(evidence.joins),
            )  # fmt: skip
            moved = self.found_again(scene)
            if moved is None and not self._dots_in_place(scene, before)[0]:
                # The level is gone: the game may be over, or (after a fast try) say it was won.
                shown = self.screen.grab(self.window_of(geometry)).pixels
                words = read_words(shown)
                over = game_over_message(words)
                if over is not None:
                    raise GameOver(f"the game is over: {over}")
                if probing and self.says_won(shown, words, scene, geometry):
                    return self._won_level(level, attempt, timing, "message", scene, solution, before)
            if self.tuner is not None and self.tuner.dropped():
                # Too fast for this game: one rung slower.
                settings = self.tuner.settings
                log.info("level %d: drawing slower: %s", number, self.tuner.rung.name)
            if moved is not None and moved.geometry != scene.geometry:
                # The board moved (a banner, a resize): draw where it is now.
                scene, geometry = moved, moved.geometry
                self.fence(geometry, moved.frame, puzzle)
            # Only the flows with a cell or join not shown: pressing a dot restarts its flow, and a
            # level whose last flow is fixed is won at once (a new level may come before another press).
            broken = {color for color, path in enumerate(solution.paths) if set(path) & missing}
            drawn = {stroke.color for stroke in strokes}
            untouched, last_look = self._untouched(scene, solution, last_look)
            untouched &= broken & drawn
            if self.tuner is not None and self.tuner.probing:
                # While tuning, a drag the game showed nothing of was too fast (a jump it does not
                # fill): the next try is slower, and a tap would only cost time (a time trial's).
                untouched = set()
            if evidence.against:
                # The game's counters say flows are missing though every one shows joined: it lost
                # releases, and may lose a redraw's too: three times round the flows, one a try.
                most = max(most, first + 3 * len(solution.paths))
            if len(broken) <= was_broken and attempt + 1 == attempts:
                attempts = min(most, attempts + 1)
            # A look that found every flow joined but unconfirmed has one flow drawn again: that try is
            # measured against one flow broken, so that losing the redraw too (a game starved of CPU
            # loses input in bursts) still earns the next try.
            was_broken = 1 if evidence.unconfirmed else len(broken)
            # Each flow drawn again from the dot it was not started from: a game may pick a half-drawn
            # pipe up at the dot it was started from, so that a drag from there pulls the pipe back off
            # it, while a press on the other dot starts the flow afresh in every game.
            planned = plan_strokes(
                solution, geometry, settings, avoid={stroke.color: stroke.cells[0] for stroke in strokes}
            )
            if evidence.unconfirmed:
                # Every flow shows joined, and the game said nothing: it may have missed a release
                # (the picture shows no which). One flow is drawn again a try, the last drawn first,
                # then back through the others: drawing them all again would risk losing as many.
                held = _next_suspect(suspects, strokes, held, done_count(evidence.against))
                strokes = [stroke for stroke in planned if stroke.color == suspects[0]]
            else:
                strokes = [stroke for stroke in planned if stroke.color in broken] or planned
        failure = self.screen.grab(self.region)
        self.save_failure(report, failure, f"level-{number}-not-verified")
        timing = Timing(scene.capture_ms, scene.read_ms, solve_ms, plan_ms, draw_s, verify_ms)
        why = unconfirmed_reason(evidence) if evidence.unconfirmed else ""
        report.levels.append(
            LevelResult(*level, False, attempt, timing, "", evidence.cells, evidence.joins, why)
        )
        raise AutoClearError(
            f"level {number} ({puzzle.size}) was drawn {'twice' if attempt == 1 else f'{attempt + 1} times'} "
            f"but the game did not take it: {not_shown(evidence)}"
        )

    def _untouched(
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

    def _won_level(
        self,
        level: tuple[int, str, int],
        attempt: int,
        timing: Timing,
        won_by: str,
        scene: Scene,
        solution: Solution,
        before: np.ndarray,
    ) -> LevelResult:
        """A level won on evidence: the tuner told, the level kept to tell it from the next one."""
        if self.tuner is not None:
            self.tuner.worked()
        self._won = WonLevel(scene.geometry, solution, scene.reading.seen_rgb, before)
        return LevelResult(*level, True, attempt, timing, won_by)

    def _solved(self, number: int, scene: Scene, report: Report) -> tuple[Scene, Solution]:
        """Solve the board read; a board with no solution is most likely misread, so look again a few
        times before giving up (pressing on only from a dialog that says its level was won, see
        _close_win_dialog), and save the picture with what was read drawn on it."""
        closed = False
        for look in range(MISREAD_LOOKS + 1):
            result = self._solve(scene.reading.puzzle, timeout=10)
            if result.solution is not None:
                return scene, result.solution
            log.info("level %d read as %s has no solution; looking again", number, scene.reading.puzzle.size)
            if look == MISREAD_LOOKS - 1 and not closed and not self.dry_run:
                # Perhaps a won level's dialog is over the board: only its own button, only when it
                # says the level was won.
                closed = True
                following = self.close_win_dialog()
                if following is not None:
                    scene = following
                    continue
            self.clock.sleep(0.3)
            again = self.wait_for_board(None, timeout=1.0)
            scene = again or scene
        puzzle = scene.reading.puzzle
        picture = draw_overlay(scene.frame.pixels, scene.reading.geometry, scene.reading.seen_rgb, None)
        self.save_failure(
            report, Frame(picture, scene.frame.left, scene.frame.top), f"level-{number}-misread"
        )
        cause = _likely_cause(scene.frame, puzzle)
        raise AutoClearError(
            f"level {number}: the board read as {puzzle.size} with {len(puzzle.colors)} colours has "
            f"{result.status} status{cause}, so it was most likely misread or covered (a level already "
            "drawn, a popup over it; what was read is drawn on the saved picture); nothing but a win "
            "dialog's own button is pressed to move on, as that could skip a level never played; try "
            "--region around the game window or `flowbot calibrate --check`"
        )

    def still_won(self, frame: Frame) -> bool:
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
        scene: Scene,
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
        start = self.clock.now()
        deadline = start + (self.verify_timeout if timeout is None else timeout)
        # A game busy catching up with the strokes still changes its picture: judge only once it
        # has stopped changing (or after three times the time asked for).
        latest = start + 3 * (deadline - start)
        last_board: np.ndarray | None = None
        rows = scene.rows
        flow_rgb = scene.reading.seen_rgb
        if joins is None:
            joins = join_colours(scene.frame.pixels, scene.reading.geometry, solution, flow_rgb)
        window = self.window_of(scene.geometry)
        looked_for_words = not words
        looked_for_controls = False
        drawn_at: float | None = None  # when every join first showed (the level drawn, not yet confirmed)
        against: list[str] = []  # the game's counters that say the level is not taken
        dots = scene.dots
        undrawn = self._undrawn or (scene.frame.pixels, scene.reading.geometry)
        while True:
            frame = self.screen.grab(self.look_region())
            old = scene.geometry.shifted(-frame.left, -frame.top)
            # Every join where the board was: the level drawn, the game's word still to come.
            missing = _joins_shown(frame.pixels, old, undrawn, solution, flow_rgb, joins, starts)
            joined = not missing
            # A win signal counts only while the board, where it can be seen, does not say otherwise:
            # a flow none of whose cells shows its colour (all as before drawing, or another flow's)
            # beside a dialog means a game's "halfway" box or a signal about something else.
            unfinished = undrawn_cells(frame.pixels, old, *undrawn, solution)
            if unfinished:
                log.info("%d cell(s) show as before drawing: no win signal is trusted", len(unfinished))
            if not unfinished and self.new_dialog(frame, old, window, scene):
                return Evidence("dialog")
            if not unfinished and self.dialog_says_won(window, scene):
                return Evidence("message")
            try:
                seen = self.read(frame.pixels)
            except CaptureError:
                seen = None
            in_place = same_level_showing(centre_colours(frame.pixels, old), before, dots)
            if seen is not None and seen.puzzle.to_rows() != rows:
                # Another board read: a new level only where the level's dots no longer show (else it
                # is this level misread, half drawn or under something) and it has a solution.
                if not in_place and self.solvable(seen.puzzle):
                    return Evidence("new level")
            elif seen is not None and seen.geometry != old:
                # ...or wherever the board is now (a win banner may have pushed it down).
                moved = _joins_shown(frame.pixels, seen.geometry, undrawn, solution, flow_rgb, joins, starts)
                joined = joined or not moved
                missing = moved if len(moved) < len(missing) else missing
            if joined and drawn_at is None:
                # Drawn: the game's own word (a dialog, a new level, win words) gets SIGN_WAIT from
                # now, however short the look asked for.
                drawn_at = self.clock.now()
            # Most of the board hidden (something over it), or time is up: look for a win message in
            # words ("You won!", "Level complete") that was not there before, once: OCR costs a few
            # hundred milliseconds.
            board = board_pixels(frame, scene.geometry)
            settled = last_board is not None and np.array_equal(board, last_board)
            last_board = board
            now = self.clock.now()
            # Once drawn, the game gets SIGN_WAIT to give its word before the level is judged unconfirmed.
            waited = drawn_at is None or now > drawn_at + SIGN_WAIT
            late = ((now > deadline and settled) or now > latest) and waited
            if joined and late:
                looked_for_words = False  # drawn: win words are read at the end, even on a fast try
            if not looked_for_controls and not unfinished and (late or not in_place):
                # A button that moves on, new since the board was read, over or beside the board.
                looked_for_controls = True
                if self.new_button(scene, window):
                    return Evidence("dialog")
            if not looked_for_words and not unfinished and (late or (seen is None and not in_place)):
                looked_for_words = True
                shown = self.screen.grab(window).pixels
                shown_words = read_words(shown)
                over = game_over_message(shown_words)
                if over is not None:  # "Time's up! 5 levels solved": the end, not this level's win
                    raise GameOver(f"the game is over: {over}")
                if self.says_won(shown, shown_words, scene):
                    return Evidence("message")
                against = self.counters_against(shown, shown_words, scene.geometry)
                if against:
                    log.info("the game's counters say the level is not taken: %s", ", ".join(against))
            if late:
                if joined:
                    return Evidence(None, unconfirmed=True, against=tuple(against))
                cells = missing_cells(frame.pixels, old, solution, flow_rgb, before)
                return Evidence(None, tuple(cells), tuple(missing))
            self.clock.sleep(POLL)

    def _dots_in_place(self, scene: Scene, before: np.ndarray) -> tuple[bool, Frame]:
        """Whether the level's dots still show where they were before drawing (the level is still
        there), and the frame looked at."""
        frame = self.screen.grab(self.look_region())
        old = scene.geometry.shifted(-frame.left, -frame.top)
        dots = scene.dots
        return same_level_showing(centre_colours(frame.pixels, old), before, dots), frame


def _next_suspect(suspects: list[int], drawn: list, held: int | None, now_held: int | None) -> int | None:
    """Reorder `suspects` (the flows to draw again, one a try, first first) after a look found every
    flow joined but the game gave no sign, and return the game's count of flows it holds now.

    A lone flow just drawn again (`drawn`) is judged by the game's counter where it has one: a count
    that rose says the game took it (no suspect any more), one that fell says it lost its release this
    time (drawn again at once); with no count, or none changed, it goes to the back."""
    if len(drawn) == 1 and drawn[0].color in suspects:
        flow = drawn[0].color
        suspects.remove(flow)
        counted = None not in (held, now_held)
        if counted and now_held < held:
            suspects.insert(0, flow)
        elif not (counted and now_held > held) or not suspects:
            suspects.append(flow)
    return now_held


def _likely_cause(frame: Frame, puzzle: Puzzle) -> str:
    """' (likely cause: ...)' for a board that read whole but has no solution, '' when none is named."""
    from flowbot.capture.explain import explain_misread

    try:
        return f" (likely cause: {explain_misread(frame.pixels, puzzle).cause})"
    except FlowbotError:
        return ""


def _joins_shown(
    pixels: np.ndarray,
    geometry: Geometry,
    undrawn: tuple[np.ndarray, Geometry],
    solution: Solution,
    flow_rgb: tuple[tuple[int, int, int], ...],
    joins: JoinLooks,
    starts: dict[int, Cell] | None,
) -> list:
    """The solution's joins not shown with the board at `geometry` on `pixels` (a join into a dot the
    game leaves bare judged outside its cell).

    undrawn : the level's frame before any stroke and the board's geometry on it
    """
    shown = join_colours(pixels, geometry, solution, flow_rgb)
    bare = bare_start_dots(pixels, geometry, *undrawn, solution, starts) if starts else frozenset()
    return missing_joins(shown, joins, solution, flow_rgb, bare)


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
