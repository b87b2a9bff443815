"""The live loop every Flow game plays through: observe (find the board, read it twice alike), let
the game decide and act (solve, draw, and judge on evidence: `play_level`), confirm, and move on
(the game by itself, else its win dialog's button, the control that worked last time, or controls
found on screen, each press confirmed by a new board). It knows no game: a game plugs in its reader
(`read`), whether a board read has a solution (`solvable`), how a level is played and what "taken"
means for it (`play_level`), and whether the level just won still shows (`still_won`).

The win signals any game gives (a new dialog, a new move-on button, new win words, a new level,
the end screen) are looked for here, always against the screen the level was read from: a control
or text that showed before drawing is no evidence.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from flowbot.act.guard import BoardGoneError, BoardGuard, Windows, check_on_a_window, window_under
from flowbot.act.plan import PointerSettings
from flowbot.act.pointer import Pointer, StopRun, click, stop_signals
from flowbot.act.tuning import Tuner
from flowbot.artifacts import default_folder, save_failure_picture
from flowbot.capture.buttons import find_next_button
from flowbot.capture.controls import (
    Control,
    is_forbidden,
    label_score,
    new_move_on_buttons,
    next_controls,
    says_won,
)
from flowbot.capture.ocr import Word, read_words, read_words_in_bands, text_bands
from flowbot.capture.screen import Frame, Region, Screen, region_around
from flowbot.cellmap import CellMap
from flowbot.errors import CaptureError, FlowbotError
from flowbot.live.clock import Clock, SystemClock
from flowbot.live.controls import (
    RememberedControl,
    cut,
    dialog_button,
    inside_bounds,
    inside_box,
    label_on,
    on_the_board,
    remember,
    window_changed,
)
from flowbot.live.counters import counters_against
from flowbot.live.game_over import game_over_message
from flowbot.live.report import AutoClearError, LevelResult, Report
from flowbot.live.rounds import play_rounds
from flowbot.live.scene import BoardReading, Scene
from flowbot.model import Puzzle
from flowbot.progress import Progress

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
# Seconds between looks while waiting for a board or a verdict (a look itself takes a few frames).
POLL = 0.03
# Seconds between looks while the level just played still shows, unchanged: such a look is a capture
# (a few milliseconds, no read), so the next level is seen about a frame after it shows, not a poll.
STILL_POLL = 0.01
# What a level's `won_by` says of how the game goes on: by itself (a new level showed), or only by a
# press (it showed a dialog or a message).
MOVED_ON, SHOWED_A_CONTROL = frozenset({"new level"}), frozenset({"dialog", "message"})


@dataclass
class LiveLoop:
    """The live loop with the screen and the pointer passed in (real ones, or fakes in tests); a game
    subclasses it with its reader and its `play_level`."""

    screen: Screen
    pointer: Pointer
    settings: PointerSettings = field(default_factory=PointerSettings)
    region: Region | None = None
    count: int | None = None
    dry_run: bool = False
    artifacts: Path = field(default_factory=default_folder)  # where failure screenshots go
    settle_timeout: float = 8.0  # seconds to wait for the next level's board
    verify_timeout: float = 2.0  # seconds for the game to show a drawn level as done
    clock: Clock = field(default_factory=SystemClock)  # every wait and deadline (a fake one in tests)
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
    _before_words: tuple[Frame, list[Word]] | None = None  # see words_before
    _before_bands: tuple[Frame, list[Word]] | None = None  # the same, read band by band (see says_won)
    _dialog_before: tuple[Frame, bool] | None = None  # see new_dialog
    _dialog_moves_on: tuple[tuple[int, int, int, int], bool] | None = None  # a dialog button's label says so
    # The button of the win dialog the verdict read, with its look: pressed first to move on, with no
    # second reading (a dialog that closes by itself may not wait for OCR twice).
    _dialog_control: RememberedControl | None = None
    _before_drawing: Frame | None = None  # the screen the level was read from, before any stroke
    # The frame on which a dialog new since drawing showed with a button that does not say to move on
    # (a pack's last level: "restart pack"), and whether its words were read: see dialog_says_won.
    _other_dialog: tuple[Frame, bool] | None = None
    _focus: Region | None = None  # the game's part of the screen, around the last board found (look_region)
    _game_window: Region | None = None  # the game's window there, where the display tells it (window_of)

    # --- what a game plugs in --------------------------------------------------------------------------

    def read(self, pixels: np.ndarray) -> BoardReading:
        """Read the board on a frame (CaptureError when none reads)."""
        raise NotImplementedError

    def solvable(self, puzzle: Puzzle) -> bool:
        """True when a board read has a solution (one without is a misread, not a level), by the
        game's own solver: the loop imports none."""
        raise NotImplementedError

    def play_level(self, number: int, scene: Scene, report: Report) -> LevelResult:
        """Solve, draw and confirm one level on evidence; AutoClearError when the game did not take it."""
        raise NotImplementedError

    def still_won(self, frame: Frame) -> bool:
        """True when the level just won still shows on the frame (what reads there is that level, not
        a new one); a game that cannot tell says False."""
        return False

    def warm_up(self) -> None:
        """Load what the first level needs, so that it is not charged for library start-up."""

    # --- the run ---------------------------------------------------------------------------------------

    def run(self, progress: Progress | None = None) -> Report:
        """Clear levels until `count` are done, none comes, one fails, or a stop (Ctrl-C, SIGTERM,
        SIGHUP, the fail-safe, the board gone); `report.halt` holds what stopped it early."""
        report = Report(asked=self.count)
        self.warm_up()
        with stop_signals(lambda signum: setattr(self, "stop_requested", True)) as signals:
            try:
                self._levels(report, progress)
            except AutoClearError as error:
                report.stopped = str(error)
            except FlowbotError as error:  # the pointer's and the guard's stops, and any other error
                over = self.game_over(None) if isinstance(error, BoardGoneError) else None
                if over is not None:  # the board went because the game ended (time is up)
                    report.stopped = over
                else:
                    report.stopped, report.halt = str(error), error
                    if isinstance(error, BoardGoneError):  # show the person what took the board's place
                        self.save_failure(report, self.screen.grab(self.region), "board-gone")
        if self.tuner is not None:
            report.pointer = "; ".join([*self.tuner.steps, f"ended on {self.tuner.rung.name!r}"])
        if signals.received is not None and not isinstance(report.halt, StopRun):
            report.halt = signals.error()
            report.stopped = str(report.halt)
        return report

    def _levels(self, report: Report, progress: Progress | None) -> None:
        """Play level after level, through the one driver every live game runs on."""
        played = play_rounds(_Levels(self, report, progress), self.count)
        report.stopped = report.stopped or f"{played} level(s) done"

    def play(self, number: int, scene: Scene, report: Report) -> LevelResult:
        """Play one level (the game's `play_level`) and note how the game will go on from it: by
        itself after a new level showed, only by a press after a dialog or a message."""
        result = self.play_level(number, scene, report)
        self._moved_on = result.won_by in MOVED_ON
        self._dialog_seen = result.won_by in SHOWED_A_CONTROL
        return result

    def begin_drawing(self, scene: Scene) -> None:
        """Note the screen a level is drawn from: the win signals are looked for against it, and a
        dialog read on an earlier level is not this level's."""
        self._before_drawing = scene.frame
        self._dialog_control = None
        self._other_dialog = None

    def first_board(self) -> Scene | None:
        """The board on screen at the start. Over a board that cannot be read, only a win dialog's
        own button is pressed, and only when the dialog says in words that its level was won (the
        game's way to close it); nothing else is ever pressed to move on from an unread board (a skip
        arrow or "Next" could skip a level never played): `last_reason` says so."""
        scene = self.wait_for_board(None, timeout=2.0)
        if scene is not None or self.dry_run:
            return scene
        reason = self.last_reason
        following = self.close_win_dialog()
        if following is None:
            self.last_reason = reason + (
                "; flowbot presses nothing to move on from a board it cannot read (that could skip a "
                "level never played), but a win dialog's own button: close what covers the board, or "
                "start on a level"
            )
        return following

    def close_win_dialog(self) -> Scene | None:
        """Press the button of a Flow-style dialog that says its level was won ("You completed the
        level"), and return the board that comes; None when there is no such dialog or no board came."""
        frame = self.screen.grab(self.region)
        button = find_next_button(frame.pixels)
        if button is None:
            return None
        label = label_on(frame.pixels, button)
        if is_forbidden(label) or (label and not label_score(label)):
            return None  # a dialog's button that restarts or goes back, or says nothing of moving on
        if not says_won(read_words(frame.pixels)):
            return None  # no word of a win: perhaps a dialog over a level never played
        log.info("started on a win dialog: pressing its button %r", label or "(no label read)")
        x, y = button.center
        return self._try((x + frame.left, y + frame.top), None, self.region)

    # --- observing -------------------------------------------------------------------------------------

    def wait_for_board(
        self, previous: list[str] | None, first: bool = False, timeout: float | None = None
    ) -> Scene | None:
        """Read the screen until a board that is not the last one reads the same twice in a row
        (a board still sliding in reads differently); None when none came in time. The looks go where
        the game was (look_region); one that finds no board there is followed at once by a look at
        the whole area (the board moved, grew or went), kept to while a board reads there."""
        limit = timeout if timeout is not None else (2.0 if first else self.settle_timeout)
        deadline = self.clock.now() + limit
        last_rows = None
        # The last look at each part of the screen looked at (where the game was, the whole area).
        looks: dict[Region | None, _Look] = {}
        wide = self._focus is None  # the look is of the whole area (`region`), not where the game was
        while True:
            where = self.region if wide else self.look_region()
            look = self._look(where, previous, looks.get(where))
            looks[where] = look
            rows = look.rows
            if rows is not None and rows != previous and (rows == last_rows or previous is None):
                scene = Scene(look.frame, look.reading, look.capture_ms, look.read_ms)
                self._focus_on(scene, wide)
                return scene
            last_rows = rows
            if rows is None and not wide:
                wide = True  # no board where the game was: the whole area is looked at before anything
                continue
            wide = self._focus is None or (wide and rows is not None)
            if self.clock.now() > deadline:
                return None
            self.clock.sleep(STILL_POLL if previous is not None and rows == previous else POLL)

    def _look(self, where: Region | None, previous: list[str] | None, last: _Look | None) -> _Look:
        """One look for a board at `where` (the whole area, or where the game was). A look that shows
        nothing changed around what the `last` look there read is not read again: the look that
        follows a read costs a capture, not a second read."""
        started = time.perf_counter()  # the work's own duration, for the report: not a wait
        frame = self.screen.grab(where)
        captured = time.perf_counter()
        capture_ms = (captured - started) * 1000
        if last is not None and _unchanged(last.frame, frame, last.reading):
            return _Look(frame, last.reading, last.rows, capture_ms, last.read_ms)
        try:
            reading = self.read(frame.pixels)
        except CaptureError as error:
            reading = None
            self.last_reason = str(error)
        if reading is not None and where != self.region and not self._holds(frame, reading):
            # Near the edge of where the game was: perhaps a board cut by it (one that moved or grew).
            reading = None
            self.last_reason = "the board read lies at the edge of the part of the screen looked at"
        read_ms = (time.perf_counter() - captured) * 1000
        rows = reading.puzzle.to_rows() if reading is not None else None
        if rows is not None and previous is not None:
            rows = self._next_rows(frame, reading, previous)
        return _Look(frame, reading, rows, capture_ms, read_ms)

    def _next_rows(self, frame: Frame, reading: BoardReading, previous: list[str]) -> list[str] | None:
        """A board read after a level, as rows: `previous` while that level still shows (read right,
        or misread under a dialog), None for a board with no solution (a misread), else its rows."""
        rows = reading.puzzle.to_rows()
        if rows == previous or self.still_won(frame):
            self.last_reason = "the same level is still showing"
            return previous
        if not self.solvable(reading.puzzle):
            self.last_reason = f"a {reading.puzzle.size} board was read but has no solution"
            return None
        return rows

    def found_again(self, scene: Scene) -> Scene | None:
        """The same level read again, wherever it is on screen now."""
        found = self.wait_for_board(None, timeout=0.0)
        return found if found is not None and found.rows == scene.rows else None

    # --- where the game is -----------------------------------------------------------------------------

    def look_region(self) -> Region | None:
        """The part of the screen the loop's looks grab: once a board was found, the game's part of it
        (where its controls may be around the board, see room_of), else `region` (None: the whole
        screen). A capture costs as its area: a 4K screen grabbed whole costs several times that."""
        return self._focus or self.region

    def _focus_on(self, scene: Scene, wide: bool) -> None:
        """Look at the game's part of the screen around `scene`'s board from now on: what a look must
        hold for the board (room_of) and the game's window, where the display tells it (a board that
        grows or moves in it is found there); else a cell more around (a board that shifts a little
        from one level to the next). After a look at the whole area the game's window is looked up
        again: the board may be in another window now."""
        if self.region is not None:
            return  # the person's region is the game's part already
        board = scene.geometry
        if wide and self.windows is not None:
            left, top, right, bottom = board.bounds
            window = window_under(self.windows, (left + right) / 2, (top + bottom) / 2)
            self._game_window = window.box if window is not None else None
        room, game, limit = self.room_of(board), self._game_window_of(board), self.limit()
        if room is None or limit is None:
            self._focus = None
            return
        if game is None:
            cell = math.ceil(board.cell_size)
            room = Region(room.left - cell, room.top - cell, room.width + 2 * cell, room.height + 2 * cell)
        self._focus = _bounding(room, game or room).clipped(limit) or room

    def room_of(self, board: CellMap) -> Region | None:
        """What a look must hold for a board (screen pixels) to be judged on it: where the game's
        controls may be (window_of) and a cell around the board (a board cut by the look's edge would
        read as a smaller one), inside the screen; None where the screen's extent is not known."""
        window, limit = self.window_of(board), self.limit()
        if window is None or limit is None:
            return None
        left, top, right, bottom = board.bounds
        cell = board.cell_size
        x0, y0 = math.floor(left - cell), math.floor(top - cell)
        around = Region(x0, y0, math.ceil(right + cell) - x0, math.ceil(bottom + cell) - y0)
        return _bounding(window, around).clipped(limit)

    def _game_window_of(self, board: CellMap) -> Region | None:
        """The game's window, as the display told it when the board was last found on the whole
        area, when it holds the board's centre (None: not known, or the board is elsewhere now)."""
        left, top, right, bottom = board.bounds
        game = self._game_window
        return game if game is not None and game.contains((left + right) / 2, (top + bottom) / 2) else None

    def _holds(self, frame: Frame, reading: BoardReading) -> bool:
        """True when a frame holds all that a board read on it needs to be judged there (room_of)."""
        room = self.room_of(reading.geometry.shifted(frame.left, frame.top))
        return room is not None and frame.region.covers(room)

    def fence(self, board: CellMap, frame: Frame, puzzle: Puzzle) -> None:
        """Before drawing a board read from `frame` (`board` in screen pixels): arm the pointer's
        guard (is the board still there before each press?), and keep the pointer near the board when
        no window region was given: the board and half its size around it (where the game's dialog and
        its buttons are), inside the screen."""
        if hasattr(self.pointer, "guard") and not self.dry_run:
            dots = [cell for pair in puzzle.endpoints for cell in pair]
            self.pointer.guard = BoardGuard.arm(self.screen, frame, board, dots, self.windows)
            self.pointer.guard.sleep = self.clock.sleep
        bounds = getattr(self.pointer, "bounds", None)
        if self.region is not None or bounds is None:
            return
        self.screen_bounds = self.screen_bounds or bounds
        left, top, right, bottom = board.bounds
        self.pointer.bounds = region_around((left, right), (top, bottom), self.limit())

    def window_of(self, board: CellMap) -> Region | None:
        """Where the game's controls may be: the window region when given, else the board with three
        times its size around it (a dialog centred on a window much bigger than its board), within
        the game's window where the display tells it (its controls are on it)."""
        if self.region is not None:
            return self.region
        limit = self.limit()
        if limit is None:
            return None
        left, top, right, bottom = board.bounds
        around = region_around((left, right), (top, bottom), limit, margin=3.0)
        game = self._game_window_of(board)
        return (around.clipped(game) or around) if game is not None else around

    def limit(self) -> Region | None:
        """Where on the screen the game may be: the pointer's first bounds (the monitor, or --region),
        cut to the screen as it is now (it may have been resized since the run began)."""
        limit = self.screen_bounds or getattr(self.pointer, "bounds", None)
        now = getattr(self.screen, "everything", None)  # a real screen's extent, measured afresh
        if limit is None or now is None:
            return limit
        return limit.clipped(now) or limit

    # --- the game's win signals, new since the board was read -------------------------------------------

    def new_dialog(self, frame: Frame, board: CellMap, window: Region | None, scene: Scene) -> bool:
        """True when a Flow-style dialog button shows on the frame (over the board or in the game's
        window), did not on the frame the board was read from (a "Next Level" always showing beside
        the board is no win), and its label says to move on (an outline of grid cells, changed by the
        pipes drawn in it, is no dialog)."""
        button = dialog_button(frame, board, window)
        if button is None:
            return False
        if self._dialog_before is None or self._dialog_before[0] is not scene.frame:
            was = scene.frame
            showed = dialog_button(was, scene.reading.geometry, window) is not None
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
                label = label_on(frame.pixels, button)
                moves_on = bool(label_score(label)) and not is_forbidden(label)
                if moves_on:
                    self._dialog_control = remember(frame, Control(*box, label, "flow-button"))
            self._dialog_moves_on = (box, moves_on)
        if not self._dialog_moves_on[1] and self._other_dialog is None:
            self._other_dialog = (frame, False)
        return self._dialog_moves_on[1]

    def dialog_says_won(self, window: Region | None, scene: Scene) -> bool:
        """True when a dialog new since drawing, whose button does not say to move on (a pack's last
        level offers "restart pack"), has win words ("Level complete") that were not there before: read
        once, on the very frame it showed on, as a dialog may close by itself before a later look."""
        if self._other_dialog is None or self._other_dialog[1]:
            return False
        frame = self._other_dialog[0]
        self._other_dialog = (frame, True)
        shown = cut(frame, window or Region(frame.left, frame.top, *frame.pixels.shape[1::-1]))
        return self.says_won(shown, read_words(shown), scene)

    def new_button(self, scene: Scene, window: Region | None) -> bool:
        """True when the game's window shows a push button labelled to move on ("Next Level") that
        was not there when the board was read (a look with OCR, taken once per verdict)."""
        frame = self.screen.grab(window)
        before = cut(scene.frame, window or Region(frame.left, frame.top, *frame.pixels.shape[1::-1]))
        if before.shape != frame.pixels.shape:
            return False  # the board was read from a part of the screen not holding the window
        board = scene.geometry.shifted(-frame.left, -frame.top)
        found = new_move_on_buttons(frame.pixels, before, board)
        if found:
            log.info("a new button %r showed after drawing", found[0].label)
        return bool(found)

    def says_won(
        self, shown: np.ndarray, words: list[Word], scene: Scene, board: CellMap | None = None
    ) -> bool:
        """True when the game's window (`shown`, its `words` read whole) has win words it did not have
        before the level was drawn; when the whole read has none, each band of text is read on its
        own and compared with the window before, read the same way (a big stylised "YOU WIN!" reads
        only so)."""
        if says_won(words, self.words_before(scene, board)):
            return True
        if not text_bands(shown):
            return False
        if self._before_bands is None or self._before_bands[0] is not scene.frame:
            window = self.window_of(board or scene.geometry)
            self._before_bands = (scene.frame, read_words_in_bands(cut(scene.frame, window)))
        return says_won(read_words_in_bands(shown), self._before_bands[1])

    def counters_against(self, shown: np.ndarray, words: list[Word], board: CellMap) -> list[str]:
        """The game's counters that say the level just drawn is not taken ("flows 4/5", "pipe 95%"),
        in the game's window (`shown`, its `words` read whole) read whole and band by band (a small
        counter line beside a bright board reads only so), against the same reads of the window
        before the level's first stroke. Reads repeat no OCR of a picture read lately."""
        before = self._before_drawing
        if before is None:
            return []
        was = cut(before, self.window_of(board))
        earlier = [*read_words(was), *read_words_in_bands(was)]
        return counters_against(earlier, [*words, *read_words_in_bands(shown)])

    def words_before(self, scene: Scene, board: CellMap | None = None) -> list[Word]:
        """The words in the game's window before the level was drawn (read once per level, and only
        when a win message is looked for): what already showed then (a counter such as "solved 6")
        is not a win."""
        if self._before_words is None or self._before_words[0] is not scene.frame:
            window = self.window_of(board or scene.geometry)
            self._before_words = (scene.frame, read_words(cut(scene.frame, window)))
        return self._before_words[1]

    def game_over(self, board: CellMap | None) -> str | None:
        """What the game's end screen says (a time trial's "Time's up!"), when one shows, in words: a
        look (OCR) taken only when a level could not be played on."""
        window = self.window_of(board) if board is not None else self.region
        frame = self.screen.grab(window)
        message = game_over_message(read_words(frame.pixels))
        return None if message is None else f"the game is over: {message}"

    # --- moving on -------------------------------------------------------------------------------------

    def next_level(self, scene: Scene) -> Scene | None:
        """Move the game on from a won level and return the next level's board (None: none came,
        and `last_reason` says what was tried).

        A game that moves on by itself needs nothing; else the control that worked last time, then
        controls found on screen (Flow-style buttons, push buttons and links labelled next, continue,
        new, play, ...), then the profile's next button; each press is confirmed by a new board.
        """
        previous = scene.rows
        if self._moved_on or self.advance == "instant":
            self._moved_on = False
            return self._came(previous, self.settle_timeout, "no new level came")
        if self.advance == "arrow" and self.arrow_button is not None:
            self.click(self.arrow_button, self.limit())
            return self._came(
                previous, self.settle_timeout, "no new level came after pressing the skip arrow"
            )
        if not self._dialog_seen:
            # Games without a dialog load the next level by themselves, at once or nearly.
            came = self.wait_for_board(previous, timeout=SELF_ADVANCE_WAIT)
            if came is not None:
                return came
        return self._press_controls(previous, scene.geometry)

    def _press_controls(
        self, previous: list[str] | None, board: CellMap | None, beside: bool = False
    ) -> Scene | None:
        """Press what moves the game on, best first, until a new board comes. With `beside`, only
        controls off the board (the won level shows there: whatever is found on it is the board)."""
        presses = _Presses(self.window_of(board) if board is not None else self.region)
        presses.frame = self.screen.grab(presses.window)
        came = self._press_known(presses, previous, board, beside)
        if came is None:
            came = self._press_found(presses, previous, board, beside)
        if came is None:
            came = self._press_again(presses, previous)
        if came is None and self.next_button is not None and not self._changed_since(presses):
            came = presses.attempt(self, self.next_button, previous, "the profile's next_button")
        if came is not None:
            return came
        if self._changed_since(presses):
            return self._after_a_change(presses, previous, board, beside)
        came = self.wait_for_board(previous, timeout=self.settle_timeout if not presses.tried else 0.0)
        if came is None:
            self.last_reason = _nothing_came(presses)
        return came

    def _press_known(
        self, presses: _Presses, previous: list[str] | None, board: CellMap | None, beside: bool
    ) -> Scene | None:
        """Press the control that moved on last time, else the win dialog's button the verdict read,
        when it shows where it was (no reading needed)."""
        dialog, self._dialog_control = self._dialog_control, None
        for known in (self.control, dialog):
            if known is None or presses.tried or not known.shows_in(presses.frame):
                continue
            if beside and board is not None and inside_bounds(known.center, board.bounds):
                continue
            came = presses.attempt(self, known.center, previous, repr(known.label), known)
            if came is not None:
                self.control = known
                return came
        return None

    def _press_found(
        self, presses: _Presses, previous: list[str] | None, board: CellMap | None, beside: bool
    ) -> Scene | None:
        """Press the controls found on screen, best first, until a new board comes or a press changed
        the window. Words read on a board that still shows the level just won are its pipes misread
        ('»'), not a link: a click there cuts a pipe. A win screen in the board's place may hold links."""
        frame = presses.frame
        shown = board.shifted(-frame.left, -frame.top) if board is not None else None
        won_shows = shown is not None and self.still_won(frame)
        for control in next_controls(frame.pixels, shown, presses.refused):
            if len(presses.tried) >= MAX_CONTROLS_TRIED or self._changed_since(presses):
                break
            if shown is not None and on_the_board(control, shown, won_shows):
                log.info("not pressing %r: pipes read on the board, not a control", control.label)
                continue
            if beside and shown is not None and inside_bounds(control.center, shown.bounds):
                continue
            found = remember(frame, control)
            if any(inside_box(found.center, other) for other in presses.pressed):
                continue  # pressed already (as the control that worked last time): see _press_again
            came = presses.attempt(self, found.center, previous, repr(control.label), found)
            if came is not None:
                self.control = found
                log.info("moved on with %s %r", control.kind, control.label)
                return came
        return None

    def _press_again(self, presses: _Presses, previous: list[str] | None) -> Scene | None:
        """A game that loses input may miss a click: the first control pressed is pressed again while
        the window shows exactly as when it was found (the press did nothing; a press that did
        something changes the window, and stops every further press). Only a control that came with
        the win: one always shown ("Next Level" beside the board) could be pressed late on the next
        level, which a slow game shows after the check."""
        before = self._before_drawing
        if not presses.pressed or (before is not None and presses.pressed[0].shows_in(before)):
            return None
        again = presses.pressed[0]
        while len(presses.tried) < MAX_CONTROLS_TRIED + 1 and not self._changed_since(presses):
            came = presses.attempt(self, again.center, previous, repr(again.label))
            if came is not None:
                self.control = again
                log.info("moved on with %r, pressed again", again.label)
                return came
        return None

    def _after_a_change(
        self, presses: _Presses, previous: list[str] | None, board: CellMap | None, beside: bool
    ) -> Scene | None:
        """After a press changed the window: wait for the new level. When the press closed something
        (a "Good job!" box) and the won level shows whole, the game moves on by another control,
        beside the board (its "Next Level"), once a slow game has had time to bring the next level by
        that press. Nothing else is pressed: a second control could skip a level never played."""
        if not beside and self.still_won(self.screen.grab(presses.window)):
            came = self.wait_for_board(previous, timeout=CONTROL_WAIT)
            if came is not None:
                return came
            if self.still_won(self.screen.grab(presses.window)):
                log.info("the won level still shows after pressing %s", ", ".join(presses.tried))
                return self._press_controls(previous, board, beside=True)
        came = self.wait_for_board(previous, timeout=self.settle_timeout)
        if came is None:
            self.last_reason = (
                f"after pressing {', '.join(presses.tried)} the game's window changed but no new level "
                "could be read; nothing more was pressed (a second control could skip a level "
                "never played)"
            )
        return came

    def _changed_since(self, presses: _Presses) -> bool:
        """True when a control was pressed and the window no longer looks as when the controls were
        found: the press did something (the dialog closed, a level loading), so the won level may be
        gone and another control could skip the level now showing."""
        if not presses.tried or self.dry_run:
            return False
        return window_changed(presses.frame, self.screen.grab(presses.window))

    def _try(self, target: tuple[float, float], previous: list[str] | None, window: Region | None):
        """Click a control and wait for a new board."""
        if self.dry_run:
            return None
        self.click(target, window)
        return self.wait_for_board(previous, timeout=CONTROL_WAIT)

    def click(self, target: tuple[float, float], window: Region | None) -> None:
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
            click(self.pointer, *target, hold=CLICK_HOLD, approach=CLICK_APPROACH, sleep=self.clock.sleep)
        finally:
            if bounds is not None and self.region is None:
                self.pointer.bounds = bounds

    def _came(self, previous: list[str], timeout: float, reason: str) -> Scene | None:
        """The next board, or None with `reason` noted."""
        came = self.wait_for_board(previous, timeout=timeout)
        if came is None:
            self.last_reason = reason
        return came

    # --- pictures for the person -------------------------------------------------------------------------

    def save_explained(self, report: Report, frame: Frame | None, name: str) -> str:
        """Save the frame with what the reader finds drawn over it (the lattice, the dots, stray
        blobs) and return '; likely cause: ...' for the stop message ('' when it cannot say)."""
        if frame is None:
            return ""
        from flowbot.capture.explain import explain_misread

        try:
            misread = explain_misread(frame.pixels)
        except FlowbotError as error:
            log.warning("could not explain the misread: %s", error)
            self.save_failure(report, frame, name)
            return ""
        self.save_failure(report, Frame(misread.picture, frame.left, frame.top), name)
        return f"; likely cause: {misread.cause}"

    def save_failure(self, report: Report, frame: Frame | None, name: str) -> None:
        """Keep the screenshot flowbot could not handle, for the person to look at."""
        if frame is None:
            return
        from flowbot.capture.overlay import encode_png

        try:
            path = save_failure_picture(self.artifacts, name, encode_png(frame.pixels))
            report.failure_image = str(path)
        except FlowbotError as error:
            log.warning("could not save the failure screenshot: %s", error)


@dataclass
class _Levels:
    """A Flow game's levels as the rounds of a live run (flowbot.live.rounds), kept in `report`."""

    loop: LiveLoop
    report: Report
    progress: Progress | None

    def first(self) -> Scene | None:
        """The board on screen at the start; with none, the stop says why and the picture explains."""
        loop = self.loop
        scene = loop.first_board()
        if scene is None:
            cause = loop.save_explained(self.report, loop.screen.grab(loop.region), "level-1-no-board")
            self.report.stopped = f"no board found on screen ({loop.last_reason}){cause}"
        return scene

    def check_stop(self) -> None:
        """Stop on Ctrl-C (or a signal) asked for while the last level played."""
        if self.loop.stop_requested:
            raise AutoClearError("interrupted (Ctrl-C)")

    def play(self, number: int, scene: Scene) -> None:
        """Play one level and keep its result."""
        self.report.levels.append(self.loop.play(number, scene, self.report))
        if self.progress is not None:
            self.progress.advance(f"level {number} {scene.reading.puzzle.size}")

    def following(self, scene: Scene) -> Scene | None:
        """Move on and return the next level's board, the wait kept with the level just played; with
        none, the stop names the end screen, or what was tried with a picture that explains."""
        loop = self.loop
        started = loop.clock.now()
        following = loop.next_level(scene)
        last = self.report.levels[-1]
        waited = replace(last.timing, next_ms=(loop.clock.now() - started) * 1000)
        self.report.levels[-1] = replace(last, timing=waited)
        if following is None:
            over = loop.game_over(scene.geometry)
            self.report.stopped = over or loop.last_reason
            if over is None:  # no end screen (a time trial's "Time's up!"): something went wrong
                frame = loop.screen.grab(loop.region)
                number = len(self.report.levels) + 1
                self.report.stopped += loop.save_explained(self.report, frame, f"level-{number}-no-board")
        return following


@dataclass(frozen=True)
class _Look:
    """One look of wait_for_board: its frame, the board read on it (None: none), that board as rows
    (see _next_rows), and what the capture and the read cost in milliseconds."""

    frame: Frame
    reading: BoardReading | None
    rows: list[str] | None
    capture_ms: float
    read_ms: float


@dataclass
class _Presses:
    """The presses made to move on from one won level: where the controls were looked for (the
    window, and the frame they were found on), what was pressed, and what was refused."""

    window: Region | None
    frame: Frame | None = None
    tried: list[str] = field(default_factory=list)  # what was pressed, for the stop message
    pressed: list[RememberedControl] = field(default_factory=list)  # controls pressed that did nothing
    refused: list[str] = field(default_factory=list)  # labels found that flowbot never presses

    def attempt(
        self,
        loop: LiveLoop,
        target: tuple[float, float],
        previous: list[str] | None,
        name: str,
        control: RememberedControl | None = None,
    ) -> Scene | None:
        """Press at `target` and wait for a new board; a press that brought none is noted."""
        came = loop._try(target, previous, self.window)
        if came is None:
            self.tried.append(name)
            if control is not None:
                self.pressed.append(control)
        return came


def _bounding(one: Region, other: Region) -> Region:
    """The smallest region holding both."""
    left, top = min(one.left, other.left), min(one.top, other.top)
    right = max(one.left + one.width, other.left + other.width)
    bottom = max(one.top + one.height, other.top + other.height)
    return Region(left, top, right - left, bottom - top)


def _unchanged(before: Frame, now: Frame, reading: BoardReading | None) -> bool:
    """True when `now` shows exactly what `before` did around the board read on it (the board and a
    cell around it), or anywhere when no board read there: two captures of one still picture."""
    if before.region != now.region:
        return False
    if reading is None:
        return np.array_equal(before.pixels, now.pixels)
    left, top, right, bottom = reading.geometry.bounds
    margin = reading.geometry.cell_size
    height, width = now.pixels.shape[:2]
    rows = slice(max(0, int(top - margin)), min(height, int(bottom + margin) + 1))
    cols = slice(max(0, int(left - margin)), min(width, int(right + margin) + 1))
    return np.array_equal(before.pixels[rows, cols], now.pixels[rows, cols])


def _nothing_came(presses: _Presses) -> str:
    """Why no new level came though the window did not change: what was pressed, or refused, or that
    no control was found."""
    if presses.tried:
        return f"no new level came after pressing {', '.join(presses.tried)}"
    if presses.refused:
        labels = ", ".join(repr(label) for label in dict.fromkeys(presses.refused))
        return (
            f"no new level came; the only controls found say {labels}, and flowbot never presses "
            "one that goes back, undoes, restarts, solves, hints, buys or shares"
        )
    return (
        "no new level came, and no control to move on was found (looked for Flow-style "
        "buttons, push buttons and links labelled next, continue, new or play); "
        "put its position in a profile's next_button (docs/other-games.md, 'Other Flow games')"
    )
