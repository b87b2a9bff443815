"""The game's own clock and score, read from its words, as its answer to the last stroke (pure).

A clock is text like m:ss, mm:ss or h:mm:ss; a score is a number beside a word for score or points
(English, French, Spanish, German, Portuguese, Italian). A moves counter, a level number, a count
"4/5" is neither.

A stopped clock is the game's word that it took the level: a clock that ran while the level was drawn
stands still after the last stroke (looked at twice STILL_GAP apart, its pixels unchanged; its text
changed since before drawing, whatever OCR made of its digits). It must have run at about a second
a second (a wall clock in hours and minutes, a phone's status bar, ticks once a minute and then
stands still for a minute): at least MIN_RUN seconds since the level's screen was read, and no fewer
than PACE of the drawing's seconds (less a slack), and no more than the seconds that passed since the
level's screen was read (plus FIT_SLACK: more is another clock, or a digit misread). A single tick
counts only for a clock that already counted seconds so in this run, known again by its place on the
screen and the form of its text (ClockPlace). A clock that keeps running, counts down or was already
still before drawing says nothing.

A clock or score read after drawing is the one read before in its place (paired), never by its rank
among those read: a line read whole before and in part after ("Time 0:03  Best 0:45", then only
"Best 0:45") would set one clock against another.

A score that rose is no word of its own: a game may count points for each flow joined, so the last
stroke's points alone would say nothing, and telling that needs a look at the score between strokes
(its place found by OCR before the first stroke of every level, paid by every game). So the score is
a second witness: where one showed before drawing, a stopped clock counts only when the score rose
with it (a clock paused for another reason leaves the score as it was)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from flowbot.capture.controls import fold
from flowbot.capture.ocr import Word

STILL_GAP = 1.5  # seconds between the two reads: a running m:ss clock ticks at least once, even late
MIN_RUN = 2  # seconds a clock must have run since the level's screen was read (one tick: a minute's?)
PACE, PACE_SLACK = 0.8, 2.0  # the seconds it ran, at least PACE of the drawing's less PACE_SLACK
# A clock's text stands still when at most STILL_SHARE of its pixels moved by more than STILL_BY.
STILL_BY, STILL_SHARE = 40, 0.01
# A clock's box is compared with this many pixels of ground around it.
STILL_PAD = 2
# The header read again: its words' rows, with this share of their height above and below, and this
# many heights to the left and right (a line centred in the window shifts as its numbers grow).
ROW_MARGIN, SIDE_MARGIN = 0.6, 10
# A number read again is in its place when on the same rows, its middle at most SHIFT_REACH text heights
# sideways from where it was (a line centred or aligned right shifts as its numbers grow by a digit or
# three); two clocks or scores on one line with a word between them lie farther apart.
SHIFT_REACH = 3.0
# Seconds a clock may run beyond those that passed since the level's screen was read: it shows whole
# seconds and the game draws it a moment late; more is not this clock's run (another clock, a misread).
FIT_SLACK = 2.0

CLOCK = re.compile(r"(?<![\d.,])(?:(\d{1,2}):)?(\d{1,2}):([0-5]\d)(?![\d:.,])")
NUMBER = re.compile(r"[+]?(\d{1,3}(?:[,.' \u2009\u00a0]\d{3})+|\d{1,9})")
SCORE_WORDS = frozenset(
    {
        "score", "scores", "point", "points", "pts",  # English (and French "score", "points")
        "puntos", "puntaje", "puntuacion",  # Spanish
        "punkte", "punktzahl", "punktestand",  # German
        "pontos", "pontuacao",  # Portuguese
        "punti", "punteggio",  # Italian
    }
)  # fmt: skip
# A score's number lies on the label's line, at most this many text heights away from it.
NUMBER_REACH = 3.0

Box = tuple[int, int, int, int]  # left, top, width, height in the pixels of the picture read


@dataclass(frozen=True, slots=True)
class Shown:
    """A number the game shows (a clock in seconds, a score) and the box of its text."""

    value: int
    box: Box
    form: str = ""  # a clock's text with its digits as 9 ("99:99"): with its place, what knows it again

    def moved(self, dx: int, dy: int) -> Shown:
        """The same read in a bigger picture's pixels (read on a part of it at dx, dy)."""
        left, top, width, height = self.box
        return Shown(self.value, (left + dx, top + dy, width, height), self.form)


@dataclass(frozen=True, slots=True)
class ClockPlace:
    """A clock as known from one level to the next: its box in the screen's pixels and the form of its
    text, never its rank among the clocks read (a phone's status bar that OCR missed on one level
    would take the game's clock's rank on another)."""

    box: Box
    form: str

    @classmethod
    def of(cls, clock: Shown, dx: int, dy: int) -> ClockPlace:
        """The place of a clock read on a part of the screen whose top-left is at dx, dy."""
        return cls(clock.moved(dx, dy).box, clock.form)

    def holds(self, other: ClockPlace) -> bool:
        """True when `other` is this clock again: the same form, in its place (see same_place)."""
        return self.form == other.form and same_place(self.box, other.box)


@dataclass(frozen=True, slots=True)
class Tally:
    """The clocks and scores read on a picture, each in reading order."""

    clocks: tuple[Shown, ...] = ()
    scores: tuple[Shown, ...] = ()

    def area(self, width: int, height: int) -> Box | None:
        """The part of a picture `width` x `height` to read again for them (their lines, with room for
        the line to shift as its numbers grow), None when there are none."""
        boxes = [shown.box for shown in (*self.clocks, *self.scores)]
        if not boxes:
            return None
        tall = max(box[3] for box in boxes)
        top = max(0, min(box[1] for box in boxes) - round(ROW_MARGIN * tall))
        bottom = min(height, max(box[1] + box[3] for box in boxes) + round(ROW_MARGIN * tall))
        left = max(0, min(box[0] for box in boxes) - SIDE_MARGIN * tall)
        right = min(width, max(box[0] + box[2] for box in boxes) + SIDE_MARGIN * tall)
        return left, top, right - left, bottom - top

    def shifted(self, dx: int, dy: int) -> Tally:
        """The same reads in a bigger picture's pixels (read on a part of it at dx, dy)."""
        return Tally(
            tuple(shown.moved(dx, dy) for shown in self.clocks),
            tuple(shown.moved(dx, dy) for shown in self.scores),
        )


def same_place(box: Box, other: Box) -> bool:
    """True when two boxes (in the same pixels) hold one number read twice: on the same rows, their
    middles at most SHIFT_REACH text heights apart sideways."""
    tall = max(box[3], other[3])
    across, down = _middle(box)[0] - _middle(other)[0], _middle(box)[1] - _middle(other)[1]
    return abs(down) <= tall / 2 and abs(across) <= SHIFT_REACH * tall


def paired(before: tuple[Shown, ...], now: tuple[Shown, ...]) -> list[tuple[Shown, Shown]]:
    """Each number read before drawing with the one read now in its place (see same_place), the
    nearest where two could be, in `before`'s order; one with none in its place, either side, is left
    out."""
    near = sorted(
        (math.dist(_middle(start.box), _middle(after.box)), one, other)
        for one, start in enumerate(before)
        for other, after in enumerate(now)
        if same_place(start.box, after.box)
    )
    mates: dict[int, int] = {}
    for _, one, other in near:
        if one not in mates and other not in mates.values():
            mates[one] = other
    return [(before[one], now[mates[one]]) for one in sorted(mates)]


def _middle(box: Box) -> tuple[float, float]:
    """The middle of a box."""
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def clock_form(text: str) -> str:
    """The form of a clock's text, its digits as 9 ("00:07" "99:99", "1:02:03" "9:99:99"); "" for none."""
    found = CLOCK.search(text)
    return "" if found is None else re.sub(r"\d", "9", found.group())


def clock_value(text: str) -> int | None:
    """The seconds a clock's text shows ("00:07" 7, "1:02:03" 3723), None for no clock."""
    found = CLOCK.search(text)
    if found is None:
        return None
    hours, minutes, seconds = found.groups()
    if hours is not None and int(minutes) > 59:
        return None
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)


def number_value(text: str) -> int | None:
    """The whole number a word is ("763", "1,250", "+40"), None when it is anything else."""
    stripped = text.strip(" :=.,;()[]")
    found = NUMBER.fullmatch(stripped)
    return None if found is None else int(re.sub(r"\D", "", found.group(1)))


def is_score_label(text: str) -> bool:
    """True for a word that names a score ("Score:", "Punkte", "Pontuação")."""
    return re.sub(r"[^a-z]", "", fold(text)) in SCORE_WORDS


def read_tally(words: Iterable[Word]) -> Tally:
    """The clocks and scores among words read on one picture."""
    ordered = reading_order(list(words))
    clocks = []
    for word in ordered:
        value = clock_value(word.text)
        if value is not None:
            clocks.append(Shown(value, _box(word), clock_form(word.text)))
    scores = [shown for shown in (_score_at(ordered, index) for index in range(len(ordered))) if shown]
    return Tally(tuple(clocks), tuple(scores))


def reading_order(words: list[Word]) -> list[Word]:
    """Words line by line (a word whose middle lies within the line's first word's rows is on that
    line), each line from left to right."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda word: word.top):
        middle = word.top + word.height / 2
        if lines and lines[-1][0].top <= middle <= lines[-1][0].top + lines[-1][0].height:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [word for line in lines for word in sorted(line, key=lambda word: word.left)]


def _score_at(words: list[Word], index: int) -> Shown | None:
    """The score named by the word at `index`, when it is a score's label: the number in the same
    word ("Score:763"), else the nearest number beside it on its line, right first ("Score: 763",
    "763 pts")."""
    label = words[index]
    letters = re.sub(r"\d", "", label.text)
    if not is_score_label(letters):
        return None
    inside = re.search(r"\d[\d,.' ]*", label.text)
    if inside is not None and number_value(inside.group()) is not None:
        return Shown(number_value(inside.group()), _box(label))  # type: ignore[arg-type]
    beside = [word for word in words if word is not label and _beside(label, word)]
    right = [word for word in beside if word.left >= label.left]
    for word in sorted(right, key=lambda word: word.left) + sorted(beside, key=lambda w: -w.left):
        value = number_value(word.text)
        if value is not None:
            return Shown(value, _box(word))
    return None


def _beside(label: Word, word: Word) -> bool:
    """True when `word` lies on `label`'s line within NUMBER_REACH text heights of it."""
    middle = word.top + word.height / 2
    if not label.top <= middle <= label.top + label.height:
        return False
    gap = max(word.left - (label.left + label.width), label.left - (word.left + word.width))
    return gap <= NUMBER_REACH * max(label.height, word.height)


def _box(word: Word) -> Box:
    """A word's box."""
    return word.left, word.top, word.width, word.height


def still(before: np.ndarray, after: np.ndarray, box: Box) -> bool:
    """True when the text in `box` (with STILL_PAD around) shows the same on two pictures of one place:
    a running clock's digits change, whatever OCR makes of them."""
    return same_text(before, box, after, box)


def same_text(one: np.ndarray, box: Box, other: np.ndarray, other_box: Box) -> bool:
    """True when the text in `box` on one picture shows the same as the text in `other_box` on another
    (each with STILL_PAD around, compared from their top-left corners over the size they share): at
    most STILL_SHARE of its pixels moved by more than STILL_BY."""
    first, second = _patch(one, box), _patch(other, other_box)
    height, width = min(first.shape[0], second.shape[0]), min(first.shape[1], second.shape[1])
    if height == 0 or width == 0:
        return False
    moved = cv2.absdiff(first[:height, :width], second[:height, :width]).max(axis=2) > STILL_BY
    return float(np.mean(moved)) <= STILL_SHARE


def _patch(picture: np.ndarray, box: Box) -> np.ndarray:
    """The pixels of `box` with STILL_PAD around, within the picture."""
    left, top, width, height = box
    x0, y0 = max(0, left - STILL_PAD), max(0, top - STILL_PAD)
    return picture[y0 : top + height + STILL_PAD, x0 : left + width + STILL_PAD]


def clock_answer(
    start: Shown, first: Shown, second: Shown, drawing: float, elapsed: float, counts_seconds: bool
) -> str:
    """What a clock says after the last stroke, read at the level's start (`start`) and twice after
    (`first`, `second`, STILL_GAP apart), the level drawn for `drawing` seconds and `first` read
    `elapsed` seconds after `start`'s frame: "stopped" (the game's word), else why not.
    `counts_seconds`: this run saw it stop after running two seconds or more."""
    ran = first.value - start.value
    if second.value != first.value:
        return "running"
    if ran < 0:
        return "counting down"
    if ran == 0:
        return "still before drawing"
    if ran > elapsed + FIT_SLACK:
        return f"ran {ran} s in {elapsed:.1f} s"
    if ran < PACE * drawing - PACE_SLACK:
        return f"ran {ran} s while the level was drawn for {drawing:.1f} s"
    if ran < MIN_RUN and not counts_seconds:
        return "ran one tick only"
    return "stopped"


def score_rose(before: Tally, now: Tally) -> bool | None:
    """Whether the score rose since before drawing: None when none showed then; True when every score
    shown then reads again in its place, none lower and one higher."""
    if not before.scores:
        return None
    pairs = paired(before.scores, now.scores)  # by place, as the clocks
    if len(pairs) != len(before.scores):
        return False
    return all(after.value >= start.value for start, after in pairs) and any(
        after.value > start.value for start, after in pairs
    )


def tally_word(clock: str, score: bool | None) -> str | None:
    """The game's word from its clock's answer and its score: "clock stopped" (no score shows),
    "clock stopped, score rose", or None (no word: the clock did not stop, or a score showed and did
    not rise with it)."""
    if clock != "stopped":
        return None
    if score is None:
        return "clock stopped"
    return "clock stopped, score rose" if score else None
