"""The baseline of a level: the screen it is drawn from, frozen when its drawing begins. Every win
signal and every counter of the game is judged against it (a dialog, a button, win words or a count
that showed then is no evidence), and what is read on it is read once, when first asked: OCR costs
a few hundred milliseconds, and most levels are confirmed by a new level or a dialog first."""

from __future__ import annotations

from dataclasses import dataclass

from flowbot.capture.ocr import Word
from flowbot.capture.screen import Frame
from flowbot.live.scene import Scene
from flowbot.live.tally import Tally


@dataclass
class Baseline:
    """A level's screen before its first stroke (the scene it was read from), with the reads made on
    it so far (None: not read yet)."""

    scene: Scene
    at: float | None = None  # when its drawing began, on the loop's clock (None: not drawn yet)
    words: list[Word] | None = None  # the game's window read whole
    bands: list[Word] | None = None  # the same, band by band of text
    dialog: bool | None = None  # a Flow-style dialog's button showed on it
    tally: Tally | None = None  # the game's clocks and scores in those words (see live/tally.py)

    @property
    def frame(self) -> Frame:
        """The frame the level was read from."""
        return self.scene.frame

    @property
    def seen_at(self) -> float | None:
        """When its frame was grabbed, on the loop's clock (when its drawing began where not known)."""
        return self.scene.at if self.scene.at is not None else self.at
