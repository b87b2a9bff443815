"""Classic Flow's evidence for a drawn level, in one home: the baseline frozen when the level's
drawing began, one pure function from (baseline, the screen now, the plan) to what the picture says
(the joins not shown, the cells still as before drawing, whether the level still shows in place),
and the verdict's watch that asks the engine for the game's word against that baseline.

Joins on the screen alone are "drawn, unconfirmed": a level counts only on the game's word (a new
level, or a dialog, move-on button or win words that were not there before drawing, or its clock
standing still after the last stroke). A modal dialog that dims the whole window at once is the game's
word too when its control's words say to move on: the board is then judged as it shows through the
dimming, and the cells under the dialog are hidden, never dropped. A modal whose control is known by
its look alone (a filled button, an arrow by shape) is pressed by the verdict, and the level counts
only on the next level that press brings."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from flowbot.capture.ocr import read_words
from flowbot.capture.scrim import Scrim
from flowbot.capture.verdict import (
    JoinLooks,
    bare_start_dots,
    centre_colours,
    join_colours,
    missing_cells,
    missing_joins,
    same_level_showing,
    undrawn_cells,
)
from flowbot.errors import CaptureError
from flowbot.live.controls import board_pixels
from flowbot.live.game_over import game_over_message
from flowbot.live.report import PRESSED_ON, Evidence, GameOver
from flowbot.live.scene import Scene
from flowbot.model import Cell, Geometry, Solution

log = logging.getLogger(__name__)

# Seconds the game gets to give its word (a dialog, a new level, win words) once every join of the
# level shows: only a game that gives no sign waits it all, and then the level is not counted.
SIGN_WAIT = 1.0
# Mean difference per channel under which a cell shows as before drawing (capture.verdict.undrawn_cells).
UNDRAWN_TOLERANCE = 6.0
Starts = dict[int, Cell] | None  # the cell each flow's last stroke began on


@dataclass(frozen=True)
class Baseline:
    """A level as it was when its drawing began, frozen for all its tries: the frame's pixels and the
    board on them (what "never drawn" looks like, kept when a retry follows the board elsewhere), the
    centre colours and the joins' looks there, its dots and its flows' colours as seen."""

    pixels: np.ndarray
    geometry: Geometry
    centres: np.ndarray
    joins: JoinLooks
    dots: list
    flow_rgb: tuple[tuple[int, int, int], ...]

    @classmethod
    def of(cls, scene: Scene, solution: Solution) -> Baseline:
        """The baseline of a level read in `scene`, to be drawn as `solution`."""
        pixels, geometry, flow_rgb = scene.frame.pixels, scene.reading.geometry, scene.reading.seen_rgb
        joins = join_colours(pixels, geometry, solution, flow_rgb)
        return cls(pixels, geometry, centre_colours(pixels, geometry), joins, scene.dots, flow_rgb)

    @property
    def undrawn(self) -> tuple[np.ndarray, Geometry]:
        """The frame before any stroke and the board's geometry on it."""
        return self.pixels, self.geometry


@dataclass(frozen=True)
class Sight:
    """What the picture alone says of a drawn level on one look (never a win by itself)."""

    missing: list  # the solution's joins not shown
    unfinished: list  # cells that still show as before drawing
    in_place: bool  # the level's dots still show where they were (the level is still there)

    @property
    def joined(self) -> bool:
        """Every join of the solution shows: drawn, still to be confirmed by the game."""
        return not self.missing


def sight(
    baseline: Baseline,
    pixels: np.ndarray,
    board: Geometry,
    solution: Solution,
    starts: dict[int, Cell] | None,
    scrim: Scrim | None = None,
) -> Sight:
    """The evidence of the picture (pure): the board at `board` on `pixels` against the baseline, for
    the plan `solution` whose flows' last strokes began on `starts` (a game may leave that dot bare).
    Under a `scrim` (a modal dialog dimmed the page since drawing) the board is judged as it shows
    through it, and the cells under the dialog's panel are hidden: neither drawn nor missing."""
    tolerance = UNDRAWN_TOLERANCE
    if scrim is not None:
        pixels = scrim.unmixed(pixels)
        tolerance += 1 / scrim.gain  # undoing the dimming scales the capture's rounding up as much
    missing = joins_not_shown(baseline, pixels, board, solution, starts)
    unfinished = undrawn_cells(pixels, board, *baseline.undrawn, solution, tolerance)
    if scrim is not None:
        unfinished = [cell for cell in unfinished if not scrim.hides(_cell_box(board, cell))]
    in_place = same_level_showing(centre_colours(pixels, board), baseline.centres, baseline.dots)
    return Sight(missing, unfinished, in_place)


def _cell_box(board: Geometry, cell: Cell) -> tuple[float, float, float, float]:
    """A cell's box (left, top, right, bottom) in the board's pixels."""
    x, y = board.center(cell)
    half = board.cell_size / 2
    return x - half, y - half, x + half, y + half


def joins_not_shown(
    baseline: Baseline,
    pixels: np.ndarray,
    board: Geometry,
    solution: Solution,
    starts: dict[int, Cell] | None,
) -> list:
    """The solution's joins not shown with the board at `board` on `pixels` (a join into a dot the
    game leaves bare judged outside its cell)."""
    shown = join_colours(pixels, board, solution, baseline.flow_rgb)
    bare = bare_start_dots(pixels, board, *baseline.undrawn, solution, starts) if starts else frozenset()
    return missing_joins(shown, baseline.joins, solution, baseline.flow_rgb, bare)


@dataclass
class FlowVerdict:
    """One verdict's watch over a drawn level (see AutoClear.verdict): each `look` returns the
    evidence once it decides, None to look again."""

    loop: Any  # the AutoClear playing the level
    scene: Scene
    solution: Solution
    baseline: Baseline
    deadline: float
    latest: float  # a game still catching up with the strokes is judged by then at the latest
    starts: dict[int, Cell] | None
    looked_for_words: bool
    window: object = None
    looked_for_controls: bool = False
    looked_for_tally: bool = False  # the game's clock and score were read after drawing
    drawn_at: float | None = None  # when every join first showed (the level drawn, not yet confirmed)
    gone_at: float | None = None  # when the level's dots first no longer showed in place
    against: list[str] = field(default_factory=list)  # the game's counters that say it is not taken
    last_board: np.ndarray | None = None

    def look(self) -> Evidence | None:
        """One look: the game's word new since drawing, or at the end what is still missing."""
        loop, scene = self.loop, self.scene
        frame = loop.screen.grab(loop.look_region())
        old = scene.geometry.shifted(-frame.left, -frame.top)
        scrim = loop.scrim_on(frame, self.window, scene)  # a modal dialog dimmed the page since drawing
        # Every join where the board was: the level drawn, the game's word still to come.
        seen_now = sight(self.baseline, frame.pixels, old, self.solution, self.starts, scrim)
        missing, joined, unfinished = seen_now.missing, seen_now.joined, seen_now.unfinished
        # A win signal counts only while the board, where it can be seen, does not say otherwise: a
        # flow none of whose cells shows its colour (all as before drawing, or another flow's) beside
        # a dialog means a game's "halfway" box or a signal about something else.
        if unfinished:
            log.info("%d cell(s) show as before drawing: no win signal is trusted", len(unfinished))
        else:
            if loop.new_dialog(frame, old, self.window, scene, scrim):
                return Evidence("dialog")
            if loop.dialog_says_won(self.window, scene):
                return Evidence("message")
            if self.pressed_on():
                return Evidence(PRESSED_ON)
        if scrim is not None:
            # A modal dialog over the dimmed page is the game's answer, its words read above: no board
            # reads under it, and no other words are worth their OCR.
            return self.ended(self.late(joined, frame), joined, missing, frame, old)
        try:
            seen = loop.read(frame.pixels)
        except CaptureError:
            seen = None
        if seen is not None and seen.puzzle.to_rows() != scene.rows:
            # Another board read: a new level only where the level's dots no longer show (else it
            # is this level misread, half drawn or under something) and it has a solution.
            if not seen_now.in_place and loop.solvable(seen.puzzle):
                return Evidence("new level")
        elif seen is not None and seen.geometry != old:
            # ...or wherever the board is now (a win banner may have pushed it down).
            moved = joins_not_shown(self.baseline, frame.pixels, seen.geometry, self.solution, self.starts)
            joined = joined or not moved
            missing = moved if len(moved) < len(missing) else missing
        if not seen_now.in_place and self.gone_at is None:
            self.gone_at = loop.clock.now()
        late = self.late(joined, frame)
        word = self.word(late, unfinished, seen is None, seen_now.in_place)
        if word is None and late and joined and not unfinished and seen_now.in_place:
            word = self.tally()
        if word is not None:
            return word
        return self.ended(late, joined, missing, frame, old)

    def pressed_on(self) -> bool:
        """True when the modal's control known by its look alone was pressed now and the next level came."""
        loop = self.loop
        if not loop.modal_to_press:
            return False
        # Kept as won first: what still shows of the level after the press is told from a new one.
        loop.keep_won(self.scene, self.solution, self.baseline)
        return loop.confirmed_by_press(self.scene)

    def ended(self, late: bool, joined: bool, missing: list, frame, old: Geometry) -> Evidence | None:
        """Once the look is late, no word of the game: every join shown is "unconfirmed", else what is
        still missing; None while it is not late."""
        if not late:
            return None
        if joined:
            return Evidence(None, unconfirmed=True, against=tuple(self.against))
        cells = missing_cells(frame.pixels, old, self.solution, self.baseline.flow_rgb, self.baseline.centres)
        return Evidence(None, tuple(cells), tuple(missing))

    def late(self, joined: bool, frame) -> bool:
        """True once the level is to be judged: the look's time is up and the board stopped changing
        (or the latest time passed), and a drawn level had SIGN_WAIT for the game's word."""
        clock = self.loop.clock
        if joined and self.drawn_at is None:
            # Drawn: the game's own word (a dialog, a new level, win words) gets SIGN_WAIT from now,
            # however short the look asked for.
            self.drawn_at = clock.now()
        board = board_pixels(frame, self.scene.geometry)
        settled = self.last_board is not None and np.array_equal(board, self.last_board)
        self.last_board = board
        now = clock.now()
        waited = self.drawn_at is None or now > self.drawn_at + SIGN_WAIT
        # A board changed in place (its dots gone from an unmoved window) is the game answering: its
        # word (a new level that reads, a dialog, words) may come a moment later, so it gets SIGN_WAIT.
        waited = waited and (self.gone_at is None or now > self.gone_at + SIGN_WAIT)
        late = ((now > self.deadline and settled) or now > self.latest) and waited
        if joined and late:
            self.looked_for_words = False  # drawn: win words are read at the end, even on a fast try
        return late

    def tally(self) -> Evidence | None:
        """Once a verdict, on a level drawn whole and still in place that the game's counters do not
        speak against: its clock standing still after the last stroke (with its score risen, where
        one shows), the game's answer (flowbot.live.tally)."""
        if self.looked_for_tally or self.against or self.drawn_at is None:
            return None
        self.looked_for_tally = True
        answer = self.loop.tally_says(self.scene, self.drawn_at)
        return None if answer is None else Evidence(answer)

    def word(self, late: bool, unfinished: list, none_read: bool, in_place: bool) -> Evidence | None:
        """The game's word that costs OCR, looked for once each: a new move-on button (when the look
        is late or the level is gone), then win words or counters (late, or nothing read in place).
        Cells as before drawing on a level still in place trust no sign (a "halfway" box); where the
        level's dots are gone (a next level in place, under the game's popup) only win words do."""
        if unfinished and in_place:
            return None
        loop, scene = self.loop, self.scene
        if not unfinished and not self.looked_for_controls and (late or not in_place):
            # A button that moves on, new since the board was read, over or beside the board.
            self.looked_for_controls = True
            if loop.new_button(scene, self.window):
                return Evidence("dialog")
        if not self.looked_for_words and (late or (none_read and not in_place)):
            # Most of the board hidden (something over it), or time is up: a win message in words
            # ("You won!", "Level complete") that was not there before, once: OCR costs a few hundred
            # milliseconds.
            self.looked_for_words = True
            shown = loop.screen.grab(self.window).pixels
            shown_words = read_words(shown)
            over = game_over_message(shown_words)
            if over is not None:  # "Time's up! 5 levels solved": the end, not this level's win
                raise GameOver(f"the game is over: {over}")
            if loop.says_won(shown, shown_words, scene):
                return Evidence("message")
            self.against = loop.counters_against(shown, shown_words, scene.geometry)
            if self.against:
                log.info("the game's counters say the level is not taken: %s", ", ".join(self.against))
        return None
