"""The game's clock and score as its answer to the last stroke (see live/tally.py): found in the words
already read on the level's baseline (no OCR of its own there), and only where a clock showed is its
line read again after drawing (OCR, once) and looked at again STILL_GAP later on the loop's clock."""

from __future__ import annotations

import logging

import numpy as np

from flowbot.capture.ocr import dark_on_light, read_words
from flowbot.capture.screen import Frame, Region
from flowbot.live.controls import cut
from flowbot.live.scene import Scene
from flowbot.live.tally import (
    STILL_GAP,
    ClockPlace,
    Shown,
    Tally,
    clock_answer,
    paired,
    read_tally,
    same_text,
    score_rose,
    still,
    tally_word,
)

log = logging.getLogger(__name__)

READ_SCALES = (2.0, 1.0, 3.0, 1.5)  # a part of the window holding a clock is read at these scales in turn


class TallySigns:
    """The game's clock and score as its word (a role of LiveLoop: it reads `baseline`, `screen` and
    `clock`, and keeps `_seconds_clocks`, the places on the screen of the clocks that stopped after
    running two seconds or more on a level the game took: such a clock counts seconds, so one tick of
    it is a second too, see MIN_RUN)."""

    def tally_before(self, scene: Scene) -> Tally:
        """The clocks and scores on the level's screen before drawing, from the words read on it whole
        or band by band (whichever found more; both are read by then for the game's win words and
        counters), once per level."""
        baseline = self.baseline_of(scene)
        if baseline.tally is None:
            whole, bands = read_tally(self.words_before(scene)), read_tally(self.bands_before(scene))
            baseline.tally = max((whole, bands), key=lambda tally: (len(tally.clocks), len(tally.scores)))
        return baseline.tally

    def tally_says(self, scene: Scene, drawn_at: float) -> str | None:
        """After the last stroke (every join shown at `drawn_at` on the loop's clock): "clock stopped"
        or "clock stopped, score rose" when the game's clock answered it (see live/tally.py), None
        when it did not or the level's screen showed no clock (then nothing is read). The clock is
        read once (OCR) and looked at again STILL_GAP later: its pixels unchanged, it stood still."""
        before, baseline = self.tally_before(scene), self.baseline_of(scene)
        if not before.clocks or baseline.at is None:
            return None
        window = self.window_of(scene.geometry)
        shown = self.screen.grab(window).pixels
        # Read on the clock after the grab: never fewer seconds than passed since the baseline's frame.
        elapsed = self.clock.now() - baseline.seen_at
        first = read_area(shown, before)
        pairs = paired(before.clocks, first.clocks)  # a clock not read again in its place says nothing
        if not pairs:
            log.info("the game's clock could not be read again in its place after drawing")
            return None
        self.clock.sleep(STILL_GAP)
        looks = (cut(baseline.frame, window), shown, self.screen.grab(window).pixels)
        timing = (drawn_at - baseline.at, elapsed)
        origin = window_origin(baseline.frame, window)
        places = [ClockPlace.of(start, *origin) for start, _ in pairs]
        answers = [
            (place, self._clock_answer(start, now, looks, timing, self._counts_seconds(place)))
            for (start, now), place in zip(pairs, places, strict=True)
        ]
        return self._tally_word(before, first, answers)

    def _clock_answer(
        self,
        start: Shown,
        now: Shown,
        looks: tuple[np.ndarray, ...],
        timing: tuple[float, float],
        known: bool,
    ) -> str:
        """What a clock says, on the window's pixels before drawing, now and STILL_GAP later: its pixels
        are the judge of standing still and of having moved at all (OCR may misread a digit), its
        values of how far it ran. `timing`: the drawing's seconds and those since the baseline's frame;
        `known`: the clock is known to count seconds."""
        earlier, shown, again = looks
        if not still(shown, again, now.box):
            return "running"
        if same_text(earlier, start.box, shown, now.box):
            return "still before drawing"
        drawing, elapsed = timing
        return clock_answer(start, now, now, drawing, elapsed, known)

    def _counts_seconds(self, place: ClockPlace) -> bool:
        """True when the clock in `place` stopped after running two seconds or more on a level before."""
        return any(known.holds(place) for known in self._seconds_clocks)

    def _tally_word(self, before: Tally, first: Tally, answers: list[tuple[ClockPlace, str]]) -> str | None:
        """The word of the clocks' answers (one that stopped) and the score, logged either way. A clock
        that stopped so is known by its place to count seconds from then on (it ran MIN_RUN or more,
        or was known)."""
        said = [answer for _, answer in answers]
        answer = "stopped" if "stopped" in said else said[0]
        word = tally_word(answer, score_rose(before, first))
        if word is not None:
            log.info("the game's clock stood still after the last stroke: %s", word)
            learnt = {place for place, its in answers if its == "stopped"}
            self._seconds_clocks |= {place for place in learnt if not self._counts_seconds(place)}
        elif answer == "stopped":
            log.info("the game's clock stood still, but its score did not rise: no sign")
        else:
            log.info("the game's clock gives no sign: %s", answer)
        return word


def window_origin(frame: Frame, window: Region | None) -> tuple[int, int]:
    """Where the part of `frame` in `window` (see cut) begins on the screen."""
    if window is None:
        return frame.left, frame.top
    return max(frame.left, window.left), max(frame.top, window.top)


def read_area(pixels: np.ndarray, before: Tally) -> Tally:
    """The clocks and scores read now in the game's window (`pixels`) where they were before drawing
    (see Tally.area), in the window's pixels."""
    height, width = pixels.shape[:2]
    left, top, part_width, part_height = before.area(width, height) or (0, 0, width, height)
    part = pixels[top : top + part_height, left : left + part_width]
    return read_part(part, before.shifted(-left, -top)).shifted(left, top)


def read_part(pixels: np.ndarray, before: Tally) -> Tally:
    """The clocks and scores read on a part of the game's window (`before` in its pixels), as it is
    and as black on white, at each of READ_SCALES in turn, until each read before drawing shows again
    in its place (a font tesseract reads badly at one size often reads at another); the read that
    placed the most otherwise, then the one that found the most."""
    part = np.ascontiguousarray(pixels)
    looks = (part, dark_on_light(part))
    wanted = (len(before.clocks), len(before.scores))
    best, most = Tally(), (0, 0, 0, 0)
    for scale in READ_SCALES:
        for look in looks:
            tally = read_tally(read_words(look, scale))
            placed = (len(paired(before.clocks, tally.clocks)), len(paired(before.scores, tally.scores)))
            if placed == wanted:
                return tally
            found = (*placed, len(tally.clocks), len(tally.scores))
            if found > most:
                best, most = tally, found
    return best
