"""The game's clock and score read from its words, and what they say after the last stroke (pure, on
words and synthetic pictures; no game): flowbot.live.tally, and the loop's role that reads them again
(flowbot.live.tally_signs) on an in-process sequence of pictures, on a manual clock."""

from __future__ import annotations

import numpy as np
import pytest

from flowbot.capture import ocr
from flowbot.capture.ocr import Word
from flowbot.capture.screen import Frame
from flowbot.live.baseline import Baseline
from flowbot.live.clock import ManualClock
from flowbot.live.scene import Scene
from flowbot.live.tally import (
    FIT_SLACK,
    MIN_RUN,
    STILL_GAP,
    ClockPlace,
    Shown,
    Tally,
    clock_answer,
    clock_form,
    clock_value,
    is_score_label,
    number_value,
    paired,
    read_tally,
    same_place,
    same_text,
    score_rose,
    still,
    tally_word,
)
from flowbot.live.tally_signs import TallySigns, read_part

needs_ocr = pytest.mark.skipif(not ocr.available(), reason="tesseract is not installed")


def line(*texts: str, top: int = 20, height: int = 14) -> list[Word]:
    """Words side by side on one line, 20 pixels apart."""
    words, left = [], 100
    for text in texts:
        width = 9 * len(text)
        words.append(Word(text, left, top, width, height, 95.0))
        left += width + 20
    return words


# --- reading words ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("00:07", 7), ("0:07", 7), ("12:30", 750), ("1:02:03", 3723), ("Time:00:18", 18), ("⏱03:05", 185),
     ("4/5", None), ("12.30", None), ("1:2", None), ("Level", None), ("1:75", None), ("1:75:00", None)],
)  # fmt: skip
def test_a_clock_is_m_ss_mm_ss_or_h_mm_ss(text, seconds):
    assert clock_value(text) == seconds


@pytest.mark.parametrize(
    ("text", "value"),
    [("763", 763), ("1,250", 1250), ("1.250", 1250), ("+40", 40), ("0", 0), ("4/5", None), ("95%", None),
     ("12a", None), ("", None)],
)  # fmt: skip
def test_a_score_is_a_whole_number(text, value):
    assert number_value(text) == value


@pytest.mark.parametrize(
    "label", ["Score:", "SCORE", "Points", "pts", "Punkte:", "Punktzahl", "Puntos", "Puntuación",
              "Pontuação", "Pontos", "Punti", "Punteggio"],
)  # fmt: skip
def test_score_words_in_six_languages(label):
    assert is_score_label(label)


@pytest.mark.parametrize("label", ["Moves:", "Mouvements", "Züge", "Level", "Best", "Time", "flows"])
def test_a_moves_counter_a_level_or_a_time_is_no_score(label):
    assert not is_score_label(label)


def test_a_header_gives_its_clock_and_its_score_not_its_moves():
    tally = read_tally(line("00:07", "Moves:", "12", "Score:", "763"))
    assert [shown.value for shown in tally.clocks] == [7]
    assert [shown.value for shown in tally.scores] == [763]  # "Moves: 12" is no score


def test_a_score_reads_in_one_word_or_with_its_number_on_either_side():
    assert [s.value for s in read_tally(line("Score:763")).scores] == [763]
    assert [s.value for s in read_tally(line("763", "pts")).scores] == [763]
    assert [s.value for s in read_tally(line("Punkte", "1.250")).scores] == [1250]
    # A number on another line, or far along this one, is not the label's.
    far = [*line("Score:"), Word("40", 600, 20, 20, 14, 95.0)]
    below = [*line("Score:"), Word("40", 170, 60, 20, 14, 95.0)]
    assert read_tally(far).scores == () and read_tally(below).scores == ()


def test_a_count_or_a_share_is_neither_clock_nor_score():
    assert read_tally(line("flows", "4/5", "pipe", "95%", "level", "12")) == Tally()


def test_the_part_to_read_again_holds_the_line_with_room_to_shift():
    tally = read_tally(line("00:07", "Moves:", "12", "Score:", "763"))
    left, top, width, height = tally.area(1600, 1000)
    assert top < 20 and top + height > 34 and height < 40  # the line, not the window
    assert left <= 100 - 100 and left + width >= 100 + 5 * 60  # room on both sides
    assert Tally().area(1600, 1000) is None


# --- what a clock says -----------------------------------------------------------------------------


def shown(value: int) -> Shown:
    """A clock's reading."""
    return Shown(value, (0, 0, 40, 14))


@pytest.mark.parametrize(
    ("start", "first", "second", "drawing", "known", "answer"),
    [
        (1, 5, 5, 3.5, False, "stopped"),  # ran while drawn, then stood still
        (1, 5, 6, 3.5, False, "running"),  # keeps running: the game said nothing
        (300, 296, 296, 3.5, False, "counting down"),  # a timer counting down (stopped or run out)
        (7, 7, 7, 3.5, False, "still before drawing"),  # already still before drawing
        (845, 846, 846, 30.0, False, "ran 1 s while the level was drawn for 30.0 s"),  # a minute clock
        (845, 847, 847, 130.0, False, "ran 2 s while the level was drawn for 130.0 s"),
        (1, 2, 2, 0.9, False, "ran one tick only"),  # a fast drawing: one tick may be a minute's
        (1, 2, 2, 0.9, True, "stopped"),  # ...unless this clock counted seconds before
    ],
)
def test_a_clock_answers_only_when_it_ran_at_pace_then_stood_still(
    start, first, second, drawing, known, answer
):
    elapsed = drawing + 1.0  # the level's screen read a second before its drawing began
    assert clock_answer(shown(start), shown(first), shown(second), drawing, elapsed, known) == answer


@pytest.mark.parametrize(
    ("start", "first", "elapsed", "answer"),
    [
        (3, 45, 4.5, "ran 42 s in 4.5 s"),  # another clock's time, or a digit misread: not this run
        (3, 7, 4.5, "stopped"),
        (3, 9, 4.5, "stopped"),  # whole seconds, drawn a moment late: FIT_SLACK more
        (3, 10, 4.5, "ran 7 s in 4.5 s"),
    ],
)
def test_a_clock_runs_no_longer_than_the_time_that_passed(start, first, elapsed, answer):
    assert FIT_SLACK == 2.0
    assert clock_answer(shown(start), shown(first), shown(first), 3.5, elapsed, False) == answer


def test_a_number_read_again_is_paired_by_its_place_not_its_rank():
    # "Time 0:03  Best 0:45" read whole before drawing; after it, OCR finds only the best time.
    time, best = Shown(3, (140, 20, 36, 14)), Shown(45, (240, 20, 36, 14))
    assert paired((time,), (best,)) == []  # as many clocks, but not in its place: none paired
    assert paired((time, best), (Shown(9, (140, 20, 36, 14)),)) == [(time, Shown(9, (140, 20, 36, 14)))]
    # The line shifted sideways as a number on it grew (a digit or three), or its box grew by a digit.
    moved = Shown(9, (125, 21, 45, 14))
    assert same_place(time.box, moved.box)
    assert paired((time, best), (best, moved)) == [(time, moved), (best, best)]
    assert not same_place(time.box, (140, 40, 36, 14))  # the line below
    # Two read where one was: the nearer is it.
    near, far = Shown(8, (150, 20, 36, 14)), Shown(9, (170, 20, 36, 14))
    assert paired((time,), (far, near)) == [(time, near)]


def test_a_score_is_paired_by_its_place_too():
    score, best = Shown(120, (140, 20, 27, 14)), Shown(900, (240, 20, 27, 14))
    assert score_rose(Tally(scores=(score,)), Tally(scores=(best,))) is False  # the best score: not read
    assert score_rose(Tally(scores=(score,)), Tally(scores=(Shown(260, (140, 20, 27, 14)),))) is True


def test_a_clock_is_known_again_by_its_place_and_its_form():
    timer = ClockPlace.of(Shown(1, (40, 40, 45, 14), "99:99"), 100, 200)
    assert timer.box == (140, 240, 45, 14)
    assert timer.holds(ClockPlace((150, 241, 45, 14), "99:99"))  # its line shifted a little
    assert not timer.holds(ClockPlace((560, 4, 45, 14), "99:99"))  # a status bar's clock elsewhere
    assert not timer.holds(ClockPlace((140, 240, 36, 14), "9:99"))  # another form: not known as it
    assert [clock_form(text) for text in ("00:07", "Time:0:07", "1:02:03", "Level")] == [
        "99:99", "9:99", "9:99:99", ""
    ]  # fmt: skip


def test_a_score_rose_when_every_score_reads_again_none_lower_one_higher():
    before = Tally(scores=(shown(0),))
    assert score_rose(Tally(), Tally()) is None  # no score showed: nothing to say
    assert score_rose(before, Tally(scores=(shown(763),))) is True
    assert score_rose(before, Tally(scores=(shown(0),))) is False
    assert score_rose(before, Tally()) is False  # not read again
    two = Tally(scores=(shown(50), shown(10)))
    assert score_rose(two, Tally(scores=(shown(40), shown(90)))) is False  # one fell


def test_the_word_needs_the_clock_stopped_and_a_score_shown_risen_with_it():
    assert tally_word("stopped", None) == "clock stopped"
    assert tally_word("stopped", True) == "clock stopped, score rose"
    assert tally_word("stopped", False) is None  # a score not risen: a clock paused for another reason
    assert tally_word("running", True) is None  # a score alone (per flow?) is no word
    assert tally_word("counting down", True) is None


# --- pictures --------------------------------------------------------------------------------------


def text_line(text: str, size: tuple[int, int] = (640, 60)) -> np.ndarray:
    """A light picture with one line of dark text (pygame's own font), BGR."""
    import pygame

    from flowbot.game.render import surface_to_bgr

    pygame.font.init()
    surface = pygame.Surface(size)
    surface.fill((250, 250, 250))
    surface.blit(pygame.font.Font(None, 30).render(text, True, (30, 30, 30)), (40, 20))
    return surface_to_bgr(surface)


def header(clock: str, score: int, moves: int = 0) -> np.ndarray:
    """A header line: 'clock     Moves: m     Score: s'."""
    return text_line(f"{clock}     Moves: {moves}     Score: {score}")


def test_a_clock_stands_still_when_its_pixels_do():
    box = (36, 16, 60, 26)
    assert still(header("00:07", 0), header("00:07", 0), box)
    assert not still(header("00:07", 0), header("00:08", 0), box)
    assert still(header("00:07", 0), header("00:07", 90), box)  # the score beside it changed: not its box


def test_the_same_text_is_found_the_same_where_its_line_shifted():
    shifted = np.roll(header("00:07", 0), 25, axis=1)
    assert same_text(header("00:07", 0), (36, 16, 60, 26), shifted, (61, 16, 60, 26))
    assert not same_text(header("00:07", 0), (36, 16, 60, 26), np.roll(header("00:09", 0), 25, axis=1),
                         (61, 16, 60, 26))  # fmt: skip


@needs_ocr
def test_a_header_picture_reads_as_a_clock_and_a_score():
    tally = read_part(header("00:07", 763, 12), Tally(clocks=(shown(0),), scores=(shown(0),)))
    assert [s.value for s in tally.clocks] == [7] and [s.value for s in tally.scores] == [763]


# --- the loop's role on a sequence of pictures -----------------------------------------------------


class Pictures:
    """A screen showing a header picture on a page: `show` changes it; every grab copies it."""

    def __init__(self, picture: np.ndarray) -> None:
        self.picture = picture

    def grab(self, region=None) -> Frame:
        """The page as it is."""
        return Frame(self.picture.copy())


class Signs(TallySigns):
    """The role alone, with what it asks of the loop: the level's baseline (its words read whole and
    band by band), the game's window (the whole page), the screen and a manual clock."""

    def __init__(self, screen: Pictures, drawn_at: float) -> None:
        # The loop's clock stands at the drawing's end: as many seconds passed since the baseline.
        self.screen, self.clock, self._seconds_clocks = screen, ManualClock(drawn_at), set()
        self.baseline = Baseline(Scene(screen.grab(), None), at=0.0)
        self.drawn_at = drawn_at

    def baseline_of(self, scene):
        return self.baseline

    def words_before(self, scene):
        return ocr.read_words(self.baseline.frame.pixels)

    def bands_before(self, scene):
        return ocr.read_words_in_bands(self.baseline.frame.pixels)

    def window_of(self, board):
        return None

    def says(self, after: np.ndarray, later: np.ndarray | None = None) -> str | None:
        """What the role says when the page shows `after` once the level is drawn and `later` (default:
        the same) STILL_GAP on."""
        self.screen.picture = after
        sleep = self.clock.sleep

        def step(seconds: float) -> None:
            sleep(seconds)
            if later is not None:
                self.screen.picture = later

        self.clock.sleep = step
        return self.tally_says(_NoBoard(), self.drawn_at)


class _NoBoard:
    """A scene whose board is never asked for (the role's window is the whole page)."""

    geometry = None


@needs_ocr
def test_a_clock_that_ran_then_stood_still_with_its_score_risen_is_the_games_word():
    signs = Signs(Pictures(header("00:01", 0)), drawn_at=3.5)
    assert signs.says(header("00:05", 763, 9)) == "clock stopped, score rose"
    assert [place.form for place in signs._seconds_clocks] == ["99:99"]  # learned: it counts seconds
    (place,) = signs._seconds_clocks
    assert 30 <= place.box[0] <= 50 and 10 <= place.box[1] <= 30  # known by where it is on the screen


@needs_ocr
def test_a_clock_that_keeps_running_is_no_word():
    signs = Signs(Pictures(header("00:01", 0)), drawn_at=3.5)
    assert signs.says(header("00:05", 763, 9), later=header("00:06", 763, 9)) is None
    assert signs.clock.now() >= STILL_GAP  # looked at again STILL_GAP later, on the manual clock


@needs_ocr
def test_a_stopped_clock_whose_score_did_not_rise_is_no_word():
    signs = Signs(Pictures(header("00:01", 40)), drawn_at=3.5)
    assert signs.says(header("00:05", 40, 9)) is None


@needs_ocr
def test_a_clock_whose_pixels_did_not_move_since_before_drawing_is_still_whatever_ocr_reads(monkeypatch):
    import flowbot.live.tally_signs as signs_module

    read = ocr.read_words

    def misread(picture, scale=None):
        """OCR that reads the clock's 5 as an 8 after drawing."""
        return [Word(w.text.replace("00:05", "00:08"), w.left, w.top, w.width, w.height, w.confidence)
                for w in read(picture, scale)]  # fmt: skip

    monkeypatch.setattr(signs_module, "read_words", misread)
    signs = Signs(Pictures(header("00:05", 0)), drawn_at=3.5)
    assert signs.says(header("00:05", 763, 9)) is None


@needs_ocr
def test_a_page_with_no_clock_reads_nothing_after_drawing():
    signs = Signs(Pictures(text_line("Moves: 0     Score: 0")), drawn_at=3.5)
    assert signs.says(header("00:05", 763, 9)) is None
    assert signs.clock.now() == signs.drawn_at  # no second look: nothing to wait for


def test_one_tick_counts_only_for_a_clock_known_to_count_seconds():
    assert MIN_RUN == 2
    assert clock_answer(shown(3), shown(4), shown(4), 0.8, 1.0, False) != "stopped"
    assert clock_answer(shown(3), shown(4), shown(4), 0.8, 1.0, True) == "stopped"
