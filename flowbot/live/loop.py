"""The engine every Flow-like game plays through: observe (find the board, read it twice alike:
observer.py), decide and act (solve once, draw, judge on the game's word: level.py and signs.py),
confirm, and move on (moving_on.py), with the run's report, stop signals and tuning ladder here.
`LiveLoop` is made of those roles, sharing one state; it knows no game and no solver: a game plugs
in its reader (`read`), its solver (`solve_board`), how a level's tries are planned and judged
(`play_level`, through `play_tries`), and whether the level just won still shows (`still_won`).

The win signals any game gives (a new dialog, a new move-on button, new win words, a new level,
its clock standing still after the last stroke, the end screen) are looked for here, always against
the screen the level was read from: a control or text that showed before drawing is no evidence.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from flowbot.act.guard import BoardGoneError, Windows
from flowbot.act.plan import PointerSettings
from flowbot.act.pointer import Pointer, StopRun, stop_signals
from flowbot.act.tuning import Tuner
from flowbot.artifacts import default_folder
from flowbot.capture import ocr
from flowbot.capture.buttons import buttons_by_words
from flowbot.capture.controls import is_forbidden, label_score, says_won, skips_only
from flowbot.capture.ocr import Word, read_words
from flowbot.capture.screen import Frame, Region, Screen
from flowbot.capture.scrim import Scrim
from flowbot.errors import FlowbotError
from flowbot.live.baseline import Baseline
from flowbot.live.clock import Clock, SystemClock
from flowbot.live.controls import RememberedControl, label_on
from flowbot.live.level import MISREAD_LOOKS, LevelPlay
from flowbot.live.moving_on import MoveOn
from flowbot.live.observer import POLL, STILL_POLL, Observer
from flowbot.live.pictures import Pictures
from flowbot.live.place import GamePlace
from flowbot.live.report import PRESSED_ON, AutoClearError, LevelResult, Report
from flowbot.live.rounds import play_rounds
from flowbot.live.scene import BoardReading, Scene
from flowbot.live.signs import WinSigns
from flowbot.live.tally import ClockPlace
from flowbot.live.tally_signs import TallySigns
from flowbot.live.window_fate import WindowFacts
from flowbot.live.window_watch import WindowWatch
from flowbot.progress import Progress

log = logging.getLogger(__name__)

__all__ = ["MISREAD_LOOKS", "POLL", "STILL_POLL", "LiveLoop"]

# What a level's `won_by` says of how the game goes on: by itself (a new level showed, or the verdict's
# press brought it already), or only by a press (it showed a dialog or a message).
MOVED_ON, SHOWED_A_CONTROL = frozenset({"new level", PRESSED_ON}), frozenset({"dialog", "message"})


@dataclass
class LiveLoop(LevelPlay, Observer, GamePlace, WinSigns, TallySigns, MoveOn, Pictures, WindowWatch):
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
    _dialog_moves_on: tuple[tuple[int, int, int, int], bool] | None = None  # a dialog button's label says so
    # The button of the win dialog the verdict read, with its look: pressed first to move on, with no
    # second reading (a dialog that closes by itself may not wait for OCR twice).
    _dialog_control: RememberedControl | None = None
    # The level's screen before any stroke, frozen when its drawing began: every win signal and
    # counter is judged against it (see live/baseline.py).
    baseline: Baseline | None = None
    # The frame on which a dialog new since drawing showed with a button that does not say to move on
    # (a pack's last level: "restart pack"), and whether its words were read: see dialog_says_won.
    _other_dialog: tuple[Frame, bool] | None = None
    # Where on the screen (and in what form) the game's clocks showed that stopped after running two
    # seconds or more on a level it took: they count seconds, so a single tick of one is one (see
    # live/tally.py). Never their rank among the clocks read: OCR may miss another clock on one level.
    _seconds_clocks: set[ClockPlace] = field(default_factory=set)
    # The scrim (the page dimmed behind a modal dialog) the last look found, and the modal's panel with
    # whether a control on it moves on: see WinSigns._modal_moves_on.
    _last_scrim: Scrim | None = None
    _modal: tuple[tuple[int, int, int, int], bool] | None = None
    # A modal's control known by its look alone, to be pressed once by the verdict: the level counts only
    # on the next level that press brings (WinSigns._read_modal, MoveOn.confirmed_by_press).
    _modal_press: RememberedControl | None = None
    _focus: Region | None = None  # the game's part of the screen, around the last board found (look_region)
    _game_window: Region | None = None  # the game's window there, where the display tells it (window_of)
    # The game's window (its id, the board's area, its facts) when the level's drawing began: see
    # WindowWatch; and when it was last looked at (clock seconds).
    _window_before: tuple[int, Region, WindowFacts] | None = None
    _window_checked: float = float("-inf")
    _window_moved_at: float | None = None  # when a move was first seen while waiting (see MOVED_GRACE)
    # The answers for the boards solved last, by their rows: each level is solved once (solve_once).
    _solutions: dict[tuple[str, ...], Any] = field(default_factory=dict)

    # --- what a game plugs in --------------------------------------------------------------------------

    def read(self, pixels: np.ndarray) -> BoardReading:
        """Read the board on a frame (CaptureError when none reads)."""
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
        """Freeze the level's baseline, the screen it is drawn from: the win signals are looked for
        against it, and a dialog read on an earlier level is not this level's; and note the game's
        window as it is then."""
        self.baseline = Baseline(scene, at=self.clock.now())
        self.note_window(scene.geometry)
        self._dialog_control = None
        self._other_dialog = None
        self._last_scrim = self._modal = self._modal_press = None

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
            note = no_ocr_note()
            self.last_reason = reason + (
                "; flowbot presses nothing to move on from a board it cannot read (that could skip a "
                "level never played), "
                + (
                    f"and {note}"
                    if note
                    else "but a win dialog's own button: close what covers the board, or start on a level"
                )
            )
        return following

    def close_win_dialog(self) -> Scene | None:
        """Press the button of a Flow-style dialog that says its level was won ("You completed the
        level"), and return the board that comes; None when there is no such dialog or no board came.
        The button is one outlined near and below the win words, whatever its width on the screen,
        whose label says to move on; one that restarts, goes back or skips is never pressed."""
        frame = self.screen.grab(self.region)
        won = [word for word in read_words(frame.pixels) if says_won([word])]
        if not won:
            return None  # no word of a win: perhaps a dialog over a level never played
        for button in buttons_by_words(frame.pixels, _box_of(won)):
            label = label_on(frame.pixels, button)
            if is_forbidden(label) or not label_score(label) or skips_only(label):
                continue  # a button that restarts, goes back or skips, or says nothing of moving on
            log.info("started on a win dialog: pressing its button %r", label)
            x, y = button.center
            return self._try((x + frame.left, y + frame.top), None, self.region)
        return None


def no_ocr_note() -> str:
    """'' when a win dialog's words can be read (Tesseract); else why no dialog's button is pressed
    over a board that cannot be read (a stop's message says it)."""
    if ocr.available():
        return ""
    return (
        "a win dialog's button is pressed only once Tesseract reads its words, and Tesseract is not "
        "installed: start on a level, or install Tesseract"
    )


def _box_of(words: list[Word]) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) around some words."""
    return (
        min(word.left for word in words),
        min(word.top for word in words),
        max(word.left + word.width for word in words),
        max(word.top + word.height for word in words),
    )


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
