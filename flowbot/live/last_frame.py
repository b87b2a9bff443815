"""The reading of the last frame, given again for a frame with the same pixels.

While the bot waits for the game's word it looks many times a second at a screen that mostly stands
still; reading a board takes tens of milliseconds (more on a big screen), a comparison well under
one. A still screen then costs the machine the game runs on almost nothing, and a slow machine's
looks stay on time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

import numpy as np

from flowbot.errors import CaptureError

T = TypeVar("T")


class LastFrame(Generic[T]):
    """The last frame read, its hint (where the board was looked for first) and what reading it gave."""

    def __init__(self) -> None:
        self._pixels: np.ndarray | None = None
        self._hint: object = None
        self._outcome: T | CaptureError | None = None

    def read(self, pixels: np.ndarray, hint: object, reader: Callable[[], T]) -> T:
        """What `reader` gives for these pixels and hint: the last outcome again (a reading, or the same
        CaptureError) when both are as last time, else a new read."""
        if self._same(pixels, hint):
            if isinstance(self._outcome, CaptureError):
                raise self._outcome.with_traceback(None)
            return self._outcome  # type: ignore[return-value]
        try:
            outcome: T | CaptureError = reader()
        except CaptureError as error:
            outcome = error
        self._pixels, self._hint, self._outcome = pixels.copy(), hint, outcome
        if isinstance(outcome, CaptureError):
            raise outcome
        return outcome

    def _same(self, pixels: np.ndarray, hint: object) -> bool:
        """True when the pixels and the hint are those of the last read."""
        last = self._pixels
        return (
            last is not None
            and hint == self._hint
            and last.shape == pixels.shape
            and np.array_equal(last, pixels)
        )
