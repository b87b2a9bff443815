"""A box holding words far apart ("Restart   Next Level" under a board, read as one button) is a strip
of several controls: its middle is none of them, so the move-on words are pressed where they are."""

import cv2
import numpy as np
import pytest

from flowbot.capture import ocr
from flowbot.capture.controls import next_controls

pytestmark = pytest.mark.skipif(not ocr.available(), reason="tesseract is not installed")


def write(frame: np.ndarray, text: str, x: int) -> None:
    """White words on the frame, their baseline at y 242."""
    cv2.putText(frame, text, (x, 242), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2, cv2.LINE_AA)


def strip(left_word: str) -> np.ndarray:
    """A dark frame with one outlined strip holding `left_word` at its left and "Next Level" at its right."""
    frame = np.full((300, 560, 3), 20, np.uint8)
    cv2.rectangle(frame, (60, 190), (540, 270), (70, 70, 70), -1)
    cv2.rectangle(frame, (60, 190), (540, 270), (200, 200, 200), 2)
    write(frame, left_word, 80)
    write(frame, "Next Level", 340)
    return frame


# "Resta": a "Restart" read short, so no word of it is known as one never to press.
@pytest.mark.parametrize("left_word", ["Sound", "Resta"])
def test_a_strip_of_two_labels_is_pressed_at_its_move_on_words_never_in_its_middle(left_word):
    controls = list(next_controls(strip(left_word), None))
    assert controls, "the move-on words in the strip were not found"
    for control in controls:
        x, _ = control.center
        assert 330 <= x <= 500, f"{control} is not on the words 'Next Level' (x 340-500)"


def test_one_button_whose_words_are_a_phrase_is_still_one_button():
    frame = np.full((300, 560, 3), 20, np.uint8)
    cv2.rectangle(frame, (180, 190), (400, 270), (70, 70, 70), -1)
    cv2.rectangle(frame, (180, 190), (400, 270), (200, 200, 200), 2)
    write(frame, "Next Level", 205)
    [first, *_] = list(next_controls(frame, None))
    assert abs(first.center[0] - 290) < 20 and first.width > 150  # the whole button, at its middle
