"""A class of game: the winning stroke loads the next level in place at once, and the game's win
popup ("Perfect!", a button that only closes it) opens over the middle of that new board. The won
level's cells look as before drawing (the new level is empty), yet the level is the game's: its win
words, new since drawing, say so. Played in-process (ManualClock), the game's own results the judge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture import ocr
from flowbot.capture.screen import Frame
from flowbot.game.faults import FaultSpec
from flowbot.game.packs import levels_from
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
pytestmark = pytest.mark.skipif(not ocr.available(), reason="tesseract is not installed")


class NextUnderPopupGame(SimulatedGame):
    """The bundled game with its next level in place, and a popup of its own over the new board after
    each win, until its button is pressed; `words` are the popup's lines."""

    def __init__(self, levels, words: tuple[str, ...]) -> None:
        super().__init__(levels, faults=FaultSpec(next_in_place=True))
        self.words = words
        self.popup: tuple[int, int, int, int] | None = None  # the popup's box while it shows
        self.button: tuple[int, int, int, int] | None = None
        self.wins_seen = 0

    def _boxes(self) -> None:
        """The popup's box over the board's middle, and its button's in it."""
        left, top, right, bottom = (round(v) for v in self.layout.geometry.bounds)
        width, height = right - left, bottom - top
        x0, y0 = left + width // 10, top + height // 4
        self.popup = (x0, y0, width * 8 // 10, height // 2)
        self.button = (x0 + width * 2 // 10, y0 + height * 3 // 10, width * 4 // 10, height // 8)

    def grab(self, region=None):
        """The window, with the popup drawn over the new board while it shows."""
        frame = super().grab()
        won = sum(1 for result in self.results if result.solved)
        if won > self.wins_seen:
            self.wins_seen = won
            self._boxes()
        pixels = frame.pixels.copy()
        if self.popup is not None:
            x, y, w, h = self.popup
            pixels[y : y + h, x : x + w] = (40, 40, 40)
            for line, text in enumerate(self.words):
                cv2.putText(pixels, text, (x + 12, y + 30 + 28 * line), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                            (255, 255, 255), 2, cv2.LINE_AA)  # fmt: skip
            bx, by, bw, bh = self.button
            cv2.rectangle(pixels, (bx, by), (bx + bw, by + bh), (255, 255, 255), 3)
            cv2.putText(pixels, "play on", (bx + 12, by + bh * 2 // 3), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                        (255, 255, 255), 2, cv2.LINE_AA)  # fmt: skip
        if region is None:
            return Frame(pixels)
        part = pixels[region.top : region.top + region.height, region.left : region.left + region.width]
        return Frame(np.ascontiguousarray(part), region.left, region.top)

    def down(self) -> None:
        """A press on the popup's button closes it; elsewhere on the popup it does nothing."""
        if self.popup is not None:
            x, y, w, h = self.popup
            if x <= self.x <= x + w and y <= self.y <= y + h:
                bx, by, bw, bh = self.button
                if bx <= self.x <= bx + bw and by <= self.y <= by + bh:
                    self.popup = None
                self.presses += 1
                return
        super().down()

    def up(self) -> None:
        """A release after a press the popup took does nothing more."""
        if not self.held:
            return
        super().up()


def test_a_next_level_under_the_games_win_popup_is_taken_by_its_win_words(tmp_path):
    game = NextUnderPopupGame(levels_from("5x5", None)[:4], ("Perfect!", "Level complete"))
    report = AutoClear(game, game, FAST, None, 3, artifacts=tmp_path, clock=game.clock).run()
    assert report.cleared == 3, report.stopped
    assert all(level.won_by in ("message", "new level", "dialog") for level in report.levels)
    assert [(result.level, result.solved) for result in game.results][:3] == [(1, True), (2, True), (3, True)]


def test_a_halfway_popup_over_a_level_still_in_place_is_no_win(tmp_path):
    # The same popup with no win words, over a level that was never finished (its dots where they
    # were): no claim, whatever its button says.
    game = NextUnderPopupGame(levels_from("5x5", None)[:2], ("Almost there", "fill the board"))
    game.wins_seen = -1  # the popup shows from the start, over the first level
    game.layout = game._draw()
    game._boxes()
    report = AutoClear(game, game, FAST, None, 1, artifacts=tmp_path, clock=game.clock).run()
    claimed = report.cleared
    taken = sum(1 for result in game.results if result.solved)
    assert claimed <= taken
