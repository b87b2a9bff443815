"""The game's clocks before and after drawing are the same clocks by their place, never by their rank
among those read (flowbot.live.tally_signs on crafted pages, no OCR; a manual clock): a line read whole
before and in part after sets no clock against another, a clock runs no longer than the time that
passed, and a clock learnt to count seconds is known again by its place on the screen."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import flowbot.live.tally_signs as signs_module
from flowbot.capture.ocr import Word
from flowbot.capture.screen import Frame
from flowbot.live.baseline import Baseline
from flowbot.live.clock import ManualClock
from flowbot.live.scene import Scene
from flowbot.live.tally import read_tally
from flowbot.live.tally_signs import TallySigns, read_part

FONT, SCALE, TALL = cv2.FONT_HERSHEY_SIMPLEX, 0.5, 14  # how the pages are drawn; a word's box height


def line(*texts: str, top: int = 40, left: int = 40) -> list[Word]:
    """Words side by side on one line, each as wide as cv2's plain font draws it."""
    words = []
    for text in texts:
        (width, _), _ = cv2.getTextSize(text, FONT, SCALE, 1)
        words.append(Word(text, left, top, width, TALL, 95.0))
        left += width + TALL
    return words


def page(*words: Word) -> np.ndarray:
    """A light page with each word drawn dark in its box, BGR."""
    picture = np.full((120, 640, 3), 250, np.uint8)
    for word in words:
        bottom_left = (word.left, word.top + TALL - 2)
        cv2.putText(picture, word.text, bottom_left, FONT, SCALE, (30, 30, 30), 1, cv2.LINE_AA)
    return picture


class Pages:
    """A screen showing pages in turn: each grab the next, the last one from then on."""

    def __init__(self) -> None:
        self.pages: list[np.ndarray] = []

    def grab(self, region=None) -> Frame:
        """The page showing now."""
        return Frame(self.pages.pop(0) if len(self.pages) > 1 else self.pages[0])


class _NoBoard:
    """A scene whose board is never asked for (the role's window is the whole page)."""

    geometry = None


class Crafted(TallySigns):
    """The role on crafted pages: what each page shows and what OCR reads of it are given."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.screen, self.clock, self._seconds_clocks = Pages(), ManualClock(0.0), set()
        self.baseline: Baseline | None = None
        self.before: list[Word] = []
        self.after: list[Word] = []
        monkeypatch.setattr(signs_module, "read_area", lambda pixels, before: read_tally(self.after))

    def baseline_of(self, scene):
        return self.baseline

    def words_before(self, scene):
        return self.before

    def bands_before(self, scene):
        return []

    def window_of(self, board):
        return None

    def level(self, shown: list[Word], read: list[Word]) -> None:
        """A level whose screen shows `shown` when its drawing begins (now), OCR reading `read` of it."""
        self.baseline = Baseline(Scene(Frame(page(*shown)), None), at=self.clock.now())
        self.before = read

    def says(self, drawn_in: float, shown: list[Word], read: list[Word], later: list[Word] | None = None):
        """What the role says of the level drawn in `drawn_in` seconds, the page then showing `shown`
        (OCR reading `read` of it) and `later` (default: the same) STILL_GAP on."""
        self.clock.advance(drawn_in)
        self.screen.pages = [page(*shown), page(*(later or shown))]
        self.after = read
        return self.tally_says(_NoBoard(), self.clock.now())


def test_a_clock_read_after_drawing_in_another_clocks_place_is_not_the_one_read_before(monkeypatch):
    # "Time 0:03  Best 0:45": OCR caught only "Time 0:03" before drawing, only "Best 0:45" after. As
    # many clocks read each time, but the best time is no run of the level's clock (it ran 42 s?).
    signs = Crafted(monkeypatch)
    header = line("Time", "0:03", "Best", "0:45")
    signs.level(header, read=header[:2])
    after, later = line("Time", "0:07", "Best", "0:45"), line("Time", "0:09", "Best", "0:45")
    assert signs.says(3.5, after, read=after[2:], later=later) is None


def test_a_clock_that_ran_longer_than_the_time_that_passed_is_misread(monkeypatch):
    # OCR read the stopped clock's 0:07 as 0:47 after a drawing of 3.5 s: 44 s cannot have run.
    signs = Crafted(monkeypatch)
    header = line("Time", "0:03")
    signs.level(header, read=header)
    after = line("Time", "0:07")
    assert signs.says(3.5, after, read=line("Time", "0:47")) is None
    signs.level(header, read=header)
    assert signs.says(3.5, after, read=after) == "clock stopped"  # read right: 4 s in 3.5 s


def test_a_clock_learnt_to_count_seconds_is_known_by_its_place_not_its_rank(monkeypatch):
    signs = Crafted(monkeypatch)
    status = line("14:31", top=4, left=560)  # a phone's status bar, a wall clock in hours and minutes
    # Level 1: OCR misses the status bar; the game's timer, the only clock read, runs 4 s and stops.
    signs.level([*status, *line("00:01")], read=line("00:01"))
    assert signs.says(3.5, [*status, *line("00:05")], read=line("00:05")) == "clock stopped"
    assert len(signs._seconds_clocks) == 1  # learnt: the game's timer counts seconds
    # Level 2, drawn in 0.9 s and not taken: the game's timer runs on, and the status bar ticks once
    # (a minute) then stands still. Read first now, it is no clock known to count seconds.
    ticked = line("14:32", top=4, left=560)
    signs.level([*status, *line("00:01")], read=[*status, *line("00:01")])
    after = [*ticked, *line("00:02")]
    assert signs.says(0.9, after, read=after, later=[*ticked, *line("00:03")]) is None
    # Level 3, drawn in 0.9 s and taken: the game's timer ticks once and stops; known by its place.
    signs.level([*ticked, *line("00:01")], read=[*ticked, *line("00:01")])
    after = [*ticked, *line("00:02")]
    assert signs.says(0.9, after, read=after) == "clock stopped"


def test_the_read_after_drawing_is_the_one_with_each_clock_in_its_place(monkeypatch):
    # The first read (at the first scale) found one clock, as before drawing, but the best time's.
    header = line("Time", "0:03", "Best", "0:45")
    before = read_tally(header[:2])
    after = line("Time", "0:07", "Best", "0:45")
    reads = iter([after[2:], after])
    monkeypatch.setattr(signs_module, "read_words", lambda picture, scale=None: next(reads))
    tally = read_part(page(*after), before)
    assert [clock.value for clock in tally.clocks][:1] == [7]
