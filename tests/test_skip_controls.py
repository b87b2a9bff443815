"""A control that only skips ("Skip", "Skip level") moves on whether the game took the level or not: it
is tried after every other control (a "Skip" showing all along beside the board is no move-on), it is
never a sign of a win (new or not), and it is pressed only after the game's dialog or words said the
level was won."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from flowbot.capture import ocr
from flowbot.capture.controls import moves_on_in_words, new_move_on_buttons, next_controls, skips_only
from tests.test_controls import page, push_button

needs_ocr = pytest.mark.skipif(not ocr.available(), reason="tesseract is not installed")


@pytest.mark.parametrize(
    ("label", "skips", "in_words"),
    [("Skip", True, False), ("Skip level", True, False), ("SKIP ->", True, False), ("Next", False, True),
     ("Skip to next level", False, True), ("Continuer", False, True), ("->", False, False),
     ("Play again", False, False), ("", False, False)],
)  # fmt: skip
def test_a_label_that_only_skips_is_told_from_one_that_moves_on_in_words(label, skips, in_words):
    assert skips_only(label) is skips
    assert moves_on_in_words(label) is in_words


@needs_ocr
def test_a_skip_showing_all_along_is_tried_after_the_win_screens_move_on_word():
    # A push button "Skip" beside the board, and the win screen's bare "Continue": the word first.
    frame = page(900, 600, 240)
    push_button(frame, 650, 500, 150, 44, "Skip")
    cv2.putText(frame, "Continue", (330, 300), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (30, 30, 30), 2, cv2.LINE_AA)
    labels = [control.label for control in next_controls(frame)]
    assert labels[0] == "Continue" and labels[-1] == "Skip", labels


@needs_ocr
def test_a_new_skip_button_is_no_sign_of_a_win():
    # A game may offer "Skip" on a level it did not take ("Stuck? Skip level").
    before = page(500, 300, 240)
    after = before.copy()
    push_button(after, 170, 100, 160, 44, "Skip level")
    assert new_move_on_buttons(after, before) == []
    push_button(after, 170, 180, 160, 44, "Continue")
    assert [control.label for control in new_move_on_buttons(after, before)] == ["Continue"]


@pytest.mark.parametrize("dialog_seen", [False, True], ids=["clock-stopped", "dialog"])
def test_a_skip_is_pressed_only_after_the_games_dialog_or_words_said_the_level_was_won(
    dialog_seen, tmp_path, monkeypatch
):
    from flowbot.act.plan import PointerSettings
    from flowbot.act.pointer import RecordingPointer
    from flowbot.capture.controls import Control
    from flowbot.capture.screen import ImageScreen
    from flowbot.live import moving_on
    from flowbot.live.clock import ManualClock
    from flowbot.modes.auto_clear import AutoClear

    screen = ImageScreen([np.full((200, 300, 3), 40, dtype=np.uint8)])
    skip = Control(200, 150, 80, 30, "Skip", "push-button")
    monkeypatch.setattr(moving_on, "next_controls", lambda *args: iter([skip]))
    pointer = RecordingPointer()
    loop = AutoClear(screen, pointer, PointerSettings(), None, 3, artifacts=tmp_path, clock=ManualClock())
    loop._dialog_seen = dialog_seen  # the level was won on a dialog or words, or on its clock alone
    loop.wait_for_board = lambda previous, first=False, timeout=None: None
    loop._press_controls(["A.A"], None)
    assert ("down" in [kind for kind, _, _ in pointer.events]) is dialog_seen
