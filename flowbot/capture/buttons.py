"""Find the level-complete dialog's "next level" button: a wide white-outlined box, the topmost one."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from flowbot.cellmap import CellMap

# The narrowest a dialog's button may be, in pixels: a short label ("OK") at a small font. A frame with
# no board gives no scale to judge a button's width by; the win words it must lie by do.
MIN_BUTTON_WIDTH = 40
# How far below the win words a dialog's buttons may begin, in heights of those words' line.
BUTTON_REACH = 10

# White: bright and grey. The outlines of the game's buttons are drawn in pure white.
WHITE_LEVEL = 180
GREY_SPREAD = 60


@dataclass(frozen=True, slots=True)
class Button:
    """A button's box on the frame, in pixels."""

    left: int
    top: int
    width: int
    height: int

    @property
    def center(self) -> tuple[float, float]:
        """The pixel (x, y) to click."""
        return self.left + self.width / 2, self.top + self.height / 2


def find_buttons(frame: np.ndarray, min_width: float | None = None) -> list[Button]:
    """Wide boxes outlined in white with a dark inside, top to bottom.

    frame : (H, W, 3) uint8 ndarray, BGR
    min_width : the narrowest a button may be, in pixels (default: a fifth of the frame)
    """
    width = frame.shape[1]
    blue, green, red = cv2.split(frame)
    high = cv2.max(cv2.max(blue, green), red)
    low = cv2.min(cv2.min(blue, green), red)
    white = ((high >= WHITE_LEVEL) & (cv2.subtract(high, low) <= GREY_SPREAD)).astype(np.uint8)
    contours, _ = cv2.findContours(white, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    buttons = []
    for contour in contours:
        left, top, w, h = cv2.boundingRect(contour)
        # Buttons are wide and sizeable, 2:1 to 10:1; text and icons are smaller.
        if w < (0.2 * width if min_width is None else min_width) or h < 8 or not 2 <= w / h <= 10:
            continue
        if _is_outlined_box(white, left, top, w, h):
            buttons.append(Button(left, top, w, h))
    buttons = _distinct(buttons)
    return sorted(buttons, key=lambda button: (button.top, button.left))


def find_next_button(frame: np.ndarray, board: CellMap | None = None) -> Button | None:
    """The "next level" button of a level-complete dialog: the topmost of its stacked buttons.

    With the board's grid (in frame pixels) the search is relative to the board, over which the
    dialog opens: on a desktop the game window may be a small part of the frame.
    """
    if board is None:
        buttons = find_buttons(frame)
    else:
        left, top, right, bottom = board.bounds
        width, height = right - left, bottom - top
        buttons = [
            button
            for button in find_buttons(frame, min_width=0.3 * width)
            if left <= button.center[0] <= right
            and top - height / 2 <= button.center[1] <= bottom + height / 2
            and button.width <= 1.5 * width
        ]  # fmt: skip
    return buttons[0] if buttons else None


def buttons_by_words(frame: np.ndarray, words: tuple[int, int, int, int]) -> list[Button]:
    """The outlined buttons of a dialog whose words lie in `words` (left, top, right, bottom, frame
    pixels): of any reasonable width (a frame with no board gives no scale: a dialog's button may be a
    small part of a big screen), beginning below the words' top and within reach of them, across from
    them; nearest first. What is far from the words is some other window's, not the dialog's."""
    left, top, right, bottom = words
    span, line = right - left, max(1, bottom - top)
    return [
        button
        for button in find_buttons(frame, min_width=MIN_BUTTON_WIDTH)
        if button.top >= top
        and button.top <= bottom + BUTTON_REACH * line
        and button.left <= right + span
        and button.left + button.width >= left - span
    ]  # fmt: skip


def _is_outlined_box(white: np.ndarray, left: int, top: int, w: int, h: int) -> bool:
    """True when the box's four sides are white lines and its middle is mostly not white."""
    band = max(2, min(w, h) // 12)
    sides = [
        white[top : top + band, left : left + w].any(axis=0),
        white[top + h - band : top + h, left : left + w].any(axis=0),
        white[top : top + h, left : left + band].any(axis=1),
        white[top : top + h, left + w - band : left + w].any(axis=1),
    ]
    if min(side.mean() for side in sides) < 0.9:
        return False
    inside = white[top + band : top + h - band, left + band : left + w - band]
    return inside.size > 0 and inside.mean() < 0.35


def _distinct(buttons: list[Button]) -> list[Button]:
    """Drop boxes nested in another found box (the inner edge of a thick outline)."""
    kept = []
    for button in sorted(buttons, key=lambda b: -b.width * b.height):
        inside_other = any(
            other.left <= button.left and other.top <= button.top
            and button.left + button.width <= other.left + other.width
            and button.top + button.height <= other.top + other.height
            for other in kept
        )  # fmt: skip
        if not inside_other:
            kept.append(button)
    return kept
