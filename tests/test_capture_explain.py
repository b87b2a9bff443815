"""Failure pictures: what the reader found drawn over the frame, and the likely cause of a misread."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from flowbot.capture.explain import explain_misread
from flowbot.errors import CaptureError
from flowbot.model import Puzzle
from tests.images import draw_look

BOARD = Puzzle.from_rows(["A.B.C", "..D..", ".....", "A.B.C", "D...."])
CELL, ORIGIN = 50, (100, 100)


def _frame(puzzle: Puzzle = BOARD) -> np.ndarray:
    """A dark board with grid lines, 50 px cells at (100, 100) of a 500x500 frame (BGR)."""
    return draw_look(puzzle, style="lines", cell=CELL, origin=ORIGIN, size=(500, 500))


def _dot(frame: np.ndarray, x: float, y: float, like: tuple[int, int]) -> None:
    """Paint a dot at (x, y) in the colour of the dot at cell `like` (row, col), in place."""
    row, col = like
    colour = frame[ORIGIN[1] + row * CELL + CELL // 2, ORIGIN[0] + col * CELL + CELL // 2]
    cv2.circle(frame, (round(x), round(y)), 17, tuple(int(v) for v in colour), -1, cv2.LINE_AA)


def test_a_board_read_whole_is_described_and_drawn_over():
    frame = _frame()
    misread = explain_misread(frame)
    assert misread.cause.startswith("board read as 5x5 with 4 colours")
    assert misread.picture.shape == frame.shape
    assert not np.array_equal(misread.picture, frame)  # the lattice and the dots were drawn on it


def test_no_board_says_what_was_tried():
    misread = explain_misread(np.zeros((300, 400, 3), dtype=np.uint8))
    assert misread.cause.startswith("no board found: ")


def test_a_third_dot_of_a_colour_is_named():
    frame = _frame()
    _dot(frame, ORIGIN[0] + 2 * CELL + CELL / 2, ORIGIN[1] + 2 * CELL + CELL / 2, like=(0, 0))
    cause = explain_misread(frame).cause
    assert cause.startswith("dots do not pair up: colour #")
    assert "has 3 endpoints" in cause


def test_a_dot_between_cells_says_the_lattice_is_off():
    frame = _frame()
    _dot(frame, ORIGIN[0] + CELL, ORIGIN[1] + 2 * CELL, like=(0, 0))  # on a crossing of lines
    cause = explain_misread(frame).cause
    assert cause.startswith("lattice found with 5 rows and 5 columns, but 1 dot(s) sit off it")


def test_dots_past_the_lattice_say_a_column_was_lost():
    frame = _frame()
    right = ORIGIN[0] + 5 * CELL
    # The last two vertical lines are gone (as lines lost against a window's edge): the dots remain.
    for x in (right - CELL, right):
        frame[ORIGIN[1] - 2 : ORIGIN[1] + 5 * CELL + 3, x - 3 : x + 4] = 0
    cause = explain_misread(frame).cause
    assert "lie just outside it" in cause, cause


def test_a_frame_that_is_not_an_image_is_refused():
    with pytest.raises(CaptureError, match="expected an"):
        explain_misread(np.zeros((10, 10), dtype=np.uint8))
