"""The game's win signals, new since the level's drawing began: a dialog whose button says to move
on (over the board, or a modal one in front of the whole window dimmed at once), a new move-on
button, win words, counters that say the level is not taken, the end screen. Each is judged against
the screen the level was read from: what showed before drawing is no evidence. A modal whose control
is known by its look alone (a filled button, an arrow by shape) is no evidence either: its press is,
when the game's next level comes of it (MoveOn.confirmed_by_press)."""

from __future__ import annotations

import logging

import numpy as np

from flowbot.capture import ocr
from flowbot.capture.controls import (
    Control,
    box_score,
    modal_control,
    moves_on_in_words,
    new_move_on_buttons,
    new_move_on_words,
    says_won,
    skips_only,
)
from flowbot.capture.ocr import Word, read_words, read_words_in_bands, text_bands
from flowbot.capture.screen import Frame, Region
from flowbot.capture.scrim import Scrim, find_scrim
from flowbot.cellmap import CellMap
from flowbot.errors import CaptureError
from flowbot.live.baseline import Baseline
from flowbot.live.controls import cut, dialog_button, label_on, remember, same_place
from flowbot.live.counters import counters_against
from flowbot.live.game_over import game_over_message
from flowbot.live.observer import POLL
from flowbot.live.report import PRESSED_ON
from flowbot.live.scene import Scene
from flowbot.live.watch import until_past

log = logging.getLogger(__name__)

# Two looks in a row find a modal's scrim the same (its gain within this, its panel within
# SETTLED_PX) before its button is read: a dialog fading in is read, and remembered, once it shows.
SETTLED_GAIN, SETTLED_PX = 0.03, 8


def on_grid(box: tuple[int, int, int, int], board: CellMap) -> bool:
    """True when each side of a box (left, top, width, height) lies on a line between the board's
    cells: an outline of grid cells (pipes drawn along them), not a dialog laid over the board."""
    left, top, width, height = box
    size = board.cell_size
    middle = (left + width / 2, top + height / 2)
    sides = (
        (left, middle[1], 0), (left + width, middle[1], 0), (middle[0], top, 1), (middle[0], top + height, 1)
    )  # fmt: skip
    for x, y, axis in sides:
        inner = board.cell_at(x + size / 2, y) if axis == 0 else board.cell_at(x, y + size / 2)
        if inner is None:
            inner = board.cell_at(x - size / 2, y) if axis == 0 else board.cell_at(x, y - size / 2)
        if inner is None:
            return False
        edge = board.center(inner)[axis] - size / 2
        if min(abs((x, y)[axis] - edge), abs((x, y)[axis] - edge - size)) > 0.15 * size:
            return False
    return True


def _same_scrim(last: Scrim | None, now: Scrim) -> bool:
    """True when two looks found about the same scrim: the dialog has settled (not fading in)."""
    if last is None or abs(last.gain - now.gain) > SETTLED_GAIN:
        return False
    return all(abs(p - q) <= SETTLED_PX for p, q in zip(last.panel, now.panel, strict=True))


class WinSigns:
    """The win signals a game gives (a role of LiveLoop: it judges them against `baseline`, the level's
    screen frozen when its drawing began, and keeps `_dialog_*`, `_other_dialog`, `_modal`,
    `_modal_press`, `_last_scrim`)."""

    def baseline_of(self, scene: Scene) -> Baseline:
        """The baseline a level's signals are judged against: the one frozen when its drawing began
        (begin_drawing), or, asked before drawing, the scene itself."""
        if self.baseline is None:
            self.baseline = Baseline(scene)
        return self.baseline

    def scrim_on(self, frame: Frame, window: Region | None, scene: Scene) -> Scrim | None:
        """The scrim over the game's window on `frame` (in the frame's pixels) that was not there when
        the level's drawing began: the whole window dimmed (or washed out) at once, a dialog's panel in
        front of it (flowbot.capture.scrim). The board, changed by the strokes, is left out of the fit."""
        baseline = self.baseline_of(scene)
        area = window or frame.region
        now, before = cut(frame, area), cut(baseline.frame, area)
        if now.shape != before.shape or now.size == 0:
            return None  # the board was read from a part of the screen not holding the window
        dx, dy = max(0, area.left - frame.left), max(0, area.top - frame.top)
        left, top, right, bottom = scene.geometry.bounds
        x0, y0 = frame.left + dx, frame.top + dy  # the screen pixel of the cut's top-left
        scrim = find_scrim(before, now, (left - x0, top - y0, right - x0, bottom - y0))
        return None if scrim is None else scrim.shifted(dx, dy)

    def new_dialog(
        self, frame: Frame, board: CellMap, window: Region | None, scene: Scene, scrim: Scrim | None = None
    ) -> bool:
        """True when a dialog shows on the frame that did not on the frame the board was read from (a
        "Next Level" always showing beside the board is no win), with a button that says to move on:
        a modal in front of `scrim` (the page dimmed since), or a Flow-style dialog button over the
        board or in the game's window (an outline of grid cells, changed by the pipes drawn in it, is
        no dialog)."""
        if scrim is not None:
            # A modal's reading alone decides: a Flow-style button on its card, taken by an arrow read
            # or a look remembered, would make a control known by its look alone the game's word.
            return self._modal_moves_on(frame, scrim, scene)
        button = dialog_button(frame, board, window)
        if button is None:
            return False
        baseline = self.baseline_of(scene)
        if baseline.dialog is None:
            baseline.dialog = (
                dialog_button(baseline.frame, baseline.scene.reading.geometry, window) is not None
            )
        if baseline.dialog:
            return False
        box = (button.left, button.top, button.width, button.height)
        if self._dialog_moves_on is None or self._dialog_moves_on[0] != box:
            # The control that moved on last time, showing where it was, needs no reading (OCR, which
            # a dialog that closes by itself may not wait for).
            if self.control is not None and self.control.shows_in(frame):
                moves_on = True
            else:
                moves_on = self._button_moves_on(frame, button, board)
            self._dialog_moves_on = (box, moves_on)
        if not self._dialog_moves_on[1] and self._other_dialog is None:
            self._other_dialog = (frame, False)
        return self._dialog_moves_on[1]

    def _modal_moves_on(self, frame: Frame, scrim: Scrim, scene: Scene) -> bool:
        """True when a modal dialog in front of the dimmed page (new since drawing) has a control whose
        words say to move on (see _read_modal); read once the scrim showed the same on two looks in a
        row. A modal with none may still say in words that the level was won (dialog_says_won)."""
        settled, self._last_scrim = _same_scrim(self._last_scrim, scrim), scrim
        if not settled:
            return False
        if self._modal is None or self._modal[0] != scrim.panel:
            self._modal = (scrim.panel, self._read_modal(frame, scrim, scene))
        if not self._modal[1] and self._other_dialog is None:
            self._other_dialog = (frame, False)
        return self._modal[1]

    def _read_modal(self, frame: Frame, scrim: Scrim, scene: Scene) -> bool:
        """Read a modal's control on its card and remember it to press; True when its words move on."""
        before = same_place(self.baseline_of(scene).frame, frame)
        control = modal_control(frame.pixels, scrim, before)
        if control is None:
            return False
        self._dialog_control = remember(frame, control)
        if moves_on_in_words(control.label):
            log.info("a dialog showed over the dimmed page; its control %r moves on", control.label)
            return True
        # Known by its look alone (a filled button, an arrow or check mark by shape), it could be an
        # offer ("Install", "+5 moves"): the verdict presses it, and only the next level it brings
        # counts. One that only skips is no sign: pressed only once the game's words said it was won.
        if not skips_only(control.label):
            log.info("a dialog showed over the dimmed page; %r, known by its look alone, is to be "
                     "pressed: the level counts if the next level comes", control.label)  # fmt: skip
            self._modal_press = self._dialog_control
        return False

    def _button_moves_on(self, frame: Frame, button, board: CellMap) -> bool:
        """True when a new dialog's button moves on: its label says so (OCR), in words or with an arrow
        or check mark it ends with (told by shape too, off the board only: pipes ending in a dot are
        arrows by shape); never one that only skips; with no OCR to read it, a box new since drawing
        that is no outline of grid cells (the game's reaction to the strokes, its press confirmed by the
        new level it brings). Remembered as the control to press."""
        box = (button.left, button.top, button.width, button.height)
        if ocr.available():
            label = label_on(frame.pixels, button)
            if skips_only(label) or not box_score(frame.pixels, box, label, board):
                return False
        elif on_grid(box, board):
            return False
        else:
            label = ""
            log.info("a new dialog showed after drawing (no OCR to read its button)")
        self._dialog_control = remember(frame, Control(*box, label, "flow-button"))
        return True

    @property
    def modal_to_press(self) -> bool:
        """True when a modal's control known by its look alone waits to be pressed (see _read_modal)."""
        return self._modal_press is not None

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
        """True when the game's window shows a push button labelled to move on ("Next Level"), or bare
        move-on words ("Continue" on a win screen in the board's place), that were not there when the
        board was read (a look with OCR, taken once per verdict)."""
        frame = self.screen.grab(window)
        before = cut(scene.frame, window or Region(frame.left, frame.top, *frame.pixels.shape[1::-1]))
        if before.shape != frame.pixels.shape:
            return False  # the board was read from a part of the screen not holding the window
        board = scene.geometry.shifted(-frame.left, -frame.top)
        found = new_move_on_buttons(frame.pixels, before, board)
        if found:
            log.info("a new button %r showed after drawing", found[0].label)
        else:
            # No box around them: a win screen's bare words, new since drawing, are its win sign too.
            found = new_move_on_words(frame.pixels, before)
            if found:
                log.info("new move-on words %r showed after drawing", found[0].label)
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
        return says_won(read_words_in_bands(shown), self.bands_before(scene, board))

    def counters_against(self, shown: np.ndarray, words: list[Word], board: CellMap) -> list[str]:
        """The game's counters that say the level just drawn is not taken ("flows 4/5", "pipe 95%"),
        in the game's window (`shown`, its `words` read whole) read whole and band by band (a small
        counter line beside a bright board reads only so), against the same reads of the window
        before the level's first stroke. Reads repeat no OCR of a picture read lately."""
        if self.baseline is None:
            return []
        scene = self.baseline.scene
        earlier = [*self.words_before(scene, board), *self.bands_before(scene, board)]
        return counters_against(earlier, [*words, *read_words_in_bands(shown)])

    def words_before(self, scene: Scene, board: CellMap | None = None) -> list[Word]:
        """The words in the game's window before the level was drawn (read once per level, and only
        when a win message is looked for): what already showed then (a counter such as "solved 6")
        is not a win."""
        baseline = self.baseline_of(scene)
        if baseline.words is None:
            baseline.words = read_words(cut(baseline.frame, self.window_of(board or scene.geometry)))
        return baseline.words

    def bands_before(self, scene: Scene, board: CellMap | None = None) -> list[Word]:
        """The same words, read band by band of text (see says_won), once per level."""
        baseline = self.baseline_of(scene)
        if baseline.bands is None:
            window = self.window_of(board or scene.geometry)
            baseline.bands = read_words_in_bands(cut(baseline.frame, window))
        return baseline.bands

    def game_word(self, scene: Scene) -> str | None:
        """After drawing: what showed the game's win within the verify timeout (`won_by`: a dialog, a
        modal one over the dimmed page too, or a new level that was not there when the board was read,
        by itself or after pressing a modal's control known by its look alone; win words that were
        not, at the end of it), None when nothing did. A dialog or words already showing before drawing
        are no win."""
        window = self.window_of(scene.geometry)

        def look() -> str | None:
            """One look for a new dialog or a new level."""
            frame = self.screen.grab(self.look_region())
            board = scene.geometry.shifted(-frame.left, -frame.top)
            if self.new_dialog(frame, board, window, scene, self.scrim_on(frame, window, scene)):
                return "dialog"
            if self.modal_to_press:  # a modal's control known by its look alone: its press is the word
                return PRESSED_ON if self.confirmed_by_press(scene) else None
            try:
                seen = self.read(frame.pixels)
            except CaptureError:
                return None
            if seen.puzzle.to_rows() == scene.rows or not self.solvable(seen.puzzle):
                return None
            if self._popup_over(seen.geometry.shifted(frame.left, frame.top)) is not None:
                # Part of a board beside a window of the game's own ("almost there" over the level, or
                # "level complete" over the next one): its words say which, the board read says nothing.
                return None
            return "new level"  # the game went on by itself

        found = until_past(self.clock, self.verify_timeout, look, POLL)
        if found is not None:
            return found
        if says_won(read_words(self.screen.grab(window).pixels), self.words_before(scene)):
            return "message"
        return None

    def game_over(self, board: CellMap | None) -> str | None:
        """What the game's end screen says (a time trial's "Time's up!"), when one shows, in words: a
        look (OCR) taken only when a level could not be played on."""
        window = self.window_of(board) if board is not None else self.region
        frame = self.screen.grab(window)
        message = game_over_message(read_words(frame.pixels))
        return None if message is None else f"the game is over: {message}"
