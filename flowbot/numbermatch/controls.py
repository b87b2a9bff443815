"""The "add numbers" control of a Number Match look that draws no "+" sign: a button labelled "add"."""

from __future__ import annotations

import numpy as np

from flowbot.capture import ocr
from flowbot.numbermatch.read import Grid

# A label whose first word is one of these asks for more numbers (read lower-case).
ADD_WORDS = ("add", "more", "deal")


def find_add_control(frame: np.ndarray, grid: Grid) -> tuple[float, float] | None:
    """The middle of the word that labels the add control nearest the grid, or None (no OCR, no such word).

    frame : (H, W, 3) uint8 ndarray, BGR; the point is in its pixels.
    """
    words = [word for word in ocr.read_words(frame) if word.text.lower().strip(".:!") in ADD_WORDS]
    if not words:
        return None
    middle_x = (grid.xs[0] + grid.xs[-1]) / 2
    middle_y = (grid.ys[0] + grid.ys[-1]) / 2
    nearest = min(words, key=lambda word: abs(word.center[0] - middle_x) + abs(word.center[1] - middle_y))
    return nearest.center
