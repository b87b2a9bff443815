"""A still screen is not read again: the last frame's reading is given for the same pixels and hint."""

import numpy as np
import pytest

from flowbot.errors import CaptureError
from flowbot.live.last_frame import LastFrame


def counting_reader(outcome):
    """A reader that counts its calls and gives `outcome` (raised when it is an error)."""
    calls = []

    def read():
        calls.append(1)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    return read, calls


def test_the_same_pixels_and_hint_give_the_last_reading_without_a_read():
    memo: LastFrame[str] = LastFrame()
    frame = np.zeros((40, 60, 3), np.uint8)
    read, calls = counting_reader("board")
    assert [memo.read(frame.copy(), "near", read) for _ in range(5)] == ["board"] * 5
    assert len(calls) == 1


def test_a_changed_pixel_a_new_hint_or_a_new_size_reads_again():
    memo: LastFrame[str] = LastFrame()
    frame = np.zeros((40, 60, 3), np.uint8)
    read, calls = counting_reader("board")
    memo.read(frame, None, read)
    changed = frame.copy()
    changed[39, 59, 2] = 1
    memo.read(changed, None, read)
    memo.read(changed, "near", read)
    memo.read(np.zeros((60, 40, 3), np.uint8), "near", read)
    assert len(calls) == 4


def test_the_frame_is_kept_as_it_was_read_not_as_the_caller_changes_it_later():
    memo: LastFrame[str] = LastFrame()
    frame = np.zeros((40, 60, 3), np.uint8)
    read, calls = counting_reader("board")
    memo.read(frame, None, read)
    frame[0, 0] = 255  # the caller reuses its buffer for the next grab
    memo.read(frame, None, read)
    assert len(calls) == 2


def test_no_board_on_a_still_screen_is_the_same_error_each_look():
    memo: LastFrame[str] = LastFrame()
    frame = np.full((40, 60, 3), 200, np.uint8)
    read, calls = counting_reader(CaptureError("no board found on screen"))
    for _ in range(3):
        with pytest.raises(CaptureError, match="no board found"):
            memo.read(frame, None, read)
    assert len(calls) == 1
