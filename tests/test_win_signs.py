"""The game's win signs, each a class, played in-process on the bundled game (ManualClock: no test
waits real seconds), the game's own results the judge: bare move-on words on a win screen in the
board's place."""

from __future__ import annotations

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture import ocr
from flowbot.game.faults import FaultSpec
from flowbot.game.packs import levels_from
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
needs_ocr = pytest.mark.skipif(not ocr.available(), reason="tesseract is not installed")


def levels(count: int = 3) -> list:
    """The bundled 5x5 pack's first levels."""
    return levels_from("5x5", None)[:count]


def clear(game: SimulatedGame, count: int, tmp_path):
    """auto-clear's defaults (timeouts and all) on the in-process game, on its clock."""
    return AutoClear(game, game, FAST, None, count, artifacts=tmp_path, clock=game.clock).run()


@needs_ocr
def test_a_win_screen_with_no_win_words_is_won_by_its_new_bare_move_on_word(tmp_path, monkeypatch):
    # The board gives way to a title that is no win word and bare "Continue" / "Levels": the new
    # "Continue" alone is the game's word (without it the level is judged not drawn and redrawn).
    monkeypatch.setattr("flowbot.game.winscreen.TITLE", "Yay!")
    game = SimulatedGame(levels(), faults=FaultSpec(win_screen=True))
    report = clear(game, 3, tmp_path)
    assert report.cleared == 3, report.stopped
    assert [level.won_by for level in report.levels] == ["dialog"] * 3
    assert [(result.level, result.solved) for result in game.results] == [(1, True), (2, True)]
    assert game.session.board.complete  # the third, won, waits on its own win screen


def test_with_no_ocr_a_new_flow_dialog_is_the_win_and_its_button_is_pressed(tmp_path, monkeypatch):
    # No tesseract: the dialog's label cannot be read, yet a dialog that was not there before drawing
    # and came after the strokes is the game's reaction; its press is confirmed by the next level.
    monkeypatch.setattr("flowbot.capture.ocr.available", lambda: False)
    game = SimulatedGame(levels())
    report = clear(game, 3, tmp_path)
    assert report.cleared == 3, report.stopped
    assert [(level.won_by, level.retries) for level in report.levels] == [("dialog", 0)] * 3
    assert [(result.level, result.solved) for result in game.results] == [(1, True), (2, True)]


def test_an_outline_of_grid_cells_is_no_dialog():
    from flowbot.live.signs import on_grid
    from flowbot.model import Geometry

    board = Geometry(tuple(100 + 50 * i for i in range(7)), tuple(200 + 50 * i for i in range(7)))
    assert on_grid((150, 250, 150, 100), board)  # two cells in, three wide, two high: pipes' outline
    assert on_grid((148, 252, 153, 97), board)  # a few pixels off, as a pipe's edge is
    assert not on_grid((130, 270, 240, 90), board)  # a dialog's box, laid over the board
    assert not on_grid((20, 250, 150, 100), board)  # off the board


def test_a_dialog_buttons_arrow_by_shape_says_to_move_on_only_off_the_board(monkeypatch):
    # Pipes ending in a dot are arrows by shape too: over the board a new dialog's button moves on by
    # its label's words alone (as controls found to press, capture.controls.box_score); beside the
    # board an arrow told by its shape says so as well.
    import cv2
    import numpy as np

    from flowbot.capture.buttons import Button
    from flowbot.capture.screen import Frame
    from flowbot.model import Geometry

    pixels = np.full((400, 700, 3), 30, np.uint8)
    pixels[150:210, 100:320] = (200, 90, 40)  # the button: "Go" and an arrow, as pipes may look
    cv2.putText(pixels, "Go", (120, 192), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2, cv2.LINE_AA)
    cv2.arrowedLine(pixels, (210, 182), (260, 182), (255, 255, 255), 2, cv2.LINE_AA, tipLength=0.35)
    button = Button(100, 150, 220, 60)
    monkeypatch.setattr(ocr, "available", lambda: True)
    monkeypatch.setattr("flowbot.live.signs.label_on", lambda pixels, button: "")  # no word read
    loop = AutoClear(None, None)
    over = Geometry(tuple(60.0 + 60 * i for i in range(6)), tuple(60.0 + 60 * i for i in range(6)))
    beside = Geometry(tuple(400.0 + 50 * i for i in range(6)), tuple(60.0 + 50 * i for i in range(6)))
    assert not loop._button_moves_on(Frame(pixels), button, over)
    assert loop._button_moves_on(Frame(pixels), button, beside)


class LateAnswerGame(SimulatedGame):
    """On a win the board gives way at once (its place blank in the unmoved window, nothing to read)
    and the game's win dialog opens LATE seconds later."""

    LATE = 0.6

    def grab(self, region=None):
        """The window now: the won board's place blank until the dialog opens."""
        import numpy as np

        from flowbot.capture.screen import Frame

        pixels = super().grab().pixels
        board = self.session.board
        if board.complete:
            if getattr(self, "won", None) is not board:
                self.won, self.won_at = board, self.clock.now()
            answering = self.clock.now() - self.won_at < self.LATE
            self.controls.dialog = not answering
            if answering:
                left, top, right, bottom = (round(v) for v in self.layout.geometry.bounds)
                pixels[top:bottom, left:right] = pixels[5, 5]
        if region is None:
            return Frame(pixels)
        part = pixels[region.top : region.top + region.height, region.left : region.left + region.width]
        return Frame(np.ascontiguousarray(part), region.left, region.top)


def test_a_board_changed_in_place_gets_a_moment_for_the_games_late_word(tmp_path):
    # A short look (a fast try's) ends while the board's place is blank: the level gone from an
    # unmoved window is the game answering, so its dialog, 0.6 s later, is waited for; no stroke is
    # drawn again over the blank place.
    game = LateAnswerGame(levels())
    loop = AutoClear(game, game, FAST, None, 3, artifacts=tmp_path, clock=game.clock, verify_timeout=0.1)
    report = loop.run()
    assert report.cleared == 3, report.stopped
    assert [level.retries for level in report.levels] == [0, 0, 0]
    assert [level.won_by for level in report.levels][:2] == ["dialog", "dialog"]
    assert [(result.level, result.solved) for result in game.results] == [(1, True), (2, True)]
