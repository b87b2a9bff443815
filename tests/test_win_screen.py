"""A win screen in place of the board, in the same window, with bare words to press: the bundled
game's win-screen fault (pure, no window), the reading of its frames (the move-on word found, new
since drawing, and never "Levels"), small words read band by band at several sizes, and one live
check that the word found moves the real window on."""

from __future__ import annotations

import signal
import time

import cv2
import numpy as np
import pygame
import pytest

from flowbot.capture import ocr
from flowbot.capture.controls import new_move_on_words, next_controls, says_won
from flowbot.errors import UsageError
from flowbot.game.faults import Fault, Faults, FaultSpec, parse_fault
from flowbot.game.layout import compute_layout
from flowbot.game.look import DARK_LINES, Theme, Variant
from flowbot.game.packs import levels_from
from flowbot.game.render import surface_to_bgr
from flowbot.game.session import Session
from flowbot.game.view import GameView
from flowbot.game.winscreen import level_list, win_screen
from tests.test_game_faults import (  # noqa: F401  (display and start: the live check's fixtures)
    click,
    display,
    draw_live,
    live,
    start,
    wait_until,
    with_mouse,
)

WINDOW = (540, 960)
needs_ocr = pytest.mark.skipif(not ocr.available(), reason="tesseract is not installed")


def game(*, theme: Theme | None = None, levels: int = 3):
    """A game with the win-screen fault on a plain surface (no window), and its results."""
    pygame.font.init()
    results: list = []
    view = GameView(
        Session(levels_from("5x5", None)[:levels], report=results.append),
        Variant(theme or Theme()),
        faults=Faults(FaultSpec(win_screen=True)),
    )
    view.draw(pygame.Surface(WINDOW))
    return view, results


def win(view: GameView) -> None:
    """Draw the shown level's solution, stroke by stroke."""
    from flowbot.solve.sat import solve

    centre = view.layout.geometry.center
    for path in solve(view.session.board.puzzle).solution.paths:
        view.pointer_down(*centre(path[0]))
        for cell in path[1:]:
            view.pointer_move(*centre(cell))
        view.pointer_up()


def frame(view: GameView, size: tuple[int, int] = WINDOW) -> np.ndarray:
    """What the window shows at a size, as a BGR frame."""
    surface = pygame.Surface(size)
    view.draw(surface)
    return surface_to_bgr(surface)


def press(view: GameView, x: float, y: float) -> str:
    """A click at a window pixel; what it hit."""
    hit = view.pointer_down(x, y)
    view.pointer_up()
    view.draw(pygame.Surface(view.size))
    return hit


# --- the game --------------------------------------------------------------------------------------


def test_win_screen_is_a_fault_that_changes_the_win_so_it_goes_alone():
    assert parse_fault("win-screen") == Fault("win-screen")
    assert FaultSpec.of([Fault("win-screen")]).win_screen
    with pytest.raises(UsageError, match="both change what a win shows"):
        FaultSpec.of([Fault("win-screen"), Fault("popup-window")])


def test_a_time_trial_refuses_the_win_screen():
    """A time trial puts the next level in place at once after a win: no win screen can show."""
    from flowbot.game.app import _trial_faults

    with pytest.raises(UsageError, match="--fault win-screen"):
        _trial_faults(FaultSpec(win_screen=True))


def test_a_win_replaces_the_whole_window_and_continue_moves_on():
    view, results = game()
    board_frame = frame(view)
    assert view.controls.screen() is None
    win(view)
    shown = frame(view)
    assert view.controls.screen() == "win" and view.controls.shown_dialog() is None
    # No dot, pipe or grid is left: every pixel of the board's place is the page or the title's ink.
    left, top, right, bottom = (round(v) for v in view.layout.geometry.bounds)
    assert not np.array_equal(shown[top:bottom, left:right], board_frame[top:bottom, left:right])
    lines = np.array(DARK_LINES[::-1], np.uint8)
    assert (board_frame == lines).all(axis=2).any() and not (shown == lines).all(axis=2).any()  # no grid
    placed = win_screen(*WINDOW)
    assert press(view, placed.title.center[0], placed.title.center[1]) == "nothing"  # the title is no control
    assert view.session.level == 1
    [(_, _, box)] = [word for word in placed.words if word[0] == "continue"]
    assert press(view, *box.center) == "win continue"
    assert view.session.level == 2 and view.controls.screen() is None
    assert [(r.level, r.solved) for r in results] == [(1, True)]


def test_levels_leaves_the_won_level_for_a_list_whose_numbers_open_a_level():
    view, results = game()
    win(view)
    [(_, _, box)] = [word for word in win_screen(*WINDOW).words if word[0] == "levels"]
    assert press(view, *box.center) == "win levels"
    assert view.controls.screen() == "levels" and [(r.level, r.solved) for r in results] == [(1, True)]
    numbers = level_list(*WINDOW, 3)
    assert press(view, numbers[2].center[0], numbers[2].center[1] + numbers[2].height) == "nothing"
    assert press(view, *numbers[2].center) == "level 3"
    assert view.session.level == 3 and view.controls.screen() is None
    assert len(results) == 1  # the won level was reported once, when it was left


def test_the_won_board_takes_no_strokes_under_the_win_screen():
    view, _ = game()
    win(view)
    dot = view.session.board.puzzle.endpoints[0][0]
    press(view, *view.layout.geometry.center(dot))
    assert view.session.board.complete and view.controls.screen() == "win"


# --- reading it ------------------------------------------------------------------------------------


@needs_ocr
@pytest.mark.parametrize(
    ("size", "light"), [(WINDOW, False), (WINDOW, True), ((1600, 1000), False), ((400, 300), False)]
)
def test_the_new_bare_move_on_word_is_found_and_levels_never(size, light):
    view, _ = game(theme=Theme(light=light))
    before = frame(view, size)
    win(view)
    after = frame(view, size)
    found = new_move_on_words(after, before)
    assert [control.label for control in found] == ["Continue"]
    [(_, _, box)] = [word for word in win_screen(*size).words if word[0] == "continue"]
    assert box.contains(*found[0].center)
    controls = list(next_controls(after, None))
    assert controls and controls[0].label == "Continue"
    assert not any("level" in control.label.lower() for control in controls)


@needs_ocr
def test_words_showing_all_along_are_not_new():
    view, _ = game()
    before = frame(view)
    assert new_move_on_words(before, before) == []
    win(view)
    after = frame(view)
    assert new_move_on_words(after, after) == []
    assert new_move_on_words(after, before[:-1]) == []  # not the same part of the screen


@needs_ocr
def test_small_words_of_a_small_window_on_a_big_screen_read_band_by_band():
    """Words 7 rows tall: too thin for a band of the old minimum height, read now at a larger size."""
    view, _ = game()
    win(view)
    screen = np.zeros((1000, 1600, 3), np.uint8)
    screen[300:570, 600:960] = frame(view, (360, 270))
    words = [word.text for word in ocr.read_words_in_bands(screen)]
    assert "Continue" in words and "Levels" in words


def test_a_band_is_read_at_its_own_size_then_larger():
    assert ocr.band_scales(7) == [None, round(36 / 7, 2), 6.0]
    assert ocr.band_scales(40) == [None, 1.0, 1.6]  # never shrunk
    assert ocr.band_scales(18) == [None, 3.56]  # 2 is read_words' own scale for a band


@needs_ocr
def test_bare_words_far_apart_on_one_line_are_controls_of_their_own():
    """Bare "Continue" and "Levels" side by side are two words to press, not the phrase "Continue Levels"
    (which says levels, and would never be pressed)."""
    shot = np.zeros((400, 900, 3), np.uint8)
    for text, x in (("Continue", 150), ("Levels", 560)):
        cv2.putText(shot, text, (x, 250), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (255, 255, 255), 2, cv2.LINE_AA)
    cv2.putText(shot, "Winner!", (250, 120), cv2.FONT_HERSHEY_SIMPLEX, 2.4, (200, 60, 200), 5, cv2.LINE_AA)
    labels = [control.label for control in next_controls(shot, None)]
    assert labels == ["Continue"]


def test_win_words_in_other_languages_are_read_as_a_win():
    word = ocr.Word("Parfait", 10, 10, 80, 20, 90.0)
    assert says_won([word, ocr.Word("!", 95, 10, 5, 20, 90.0)])
    assert says_won([ocr.Word("Perfekt!", 10, 10, 80, 20, 90.0)])


# --- a real window ---------------------------------------------------------------------------------


@live
@needs_ocr
def test_live_the_word_found_on_the_win_screen_moves_the_window_on(display, start):  # noqa: F811
    from tests.test_game_window import grab

    levels = levels_from("5x5", None)
    game_ = start("--pack", "5x5", "--fault", "win-screen")
    layout = compute_layout(*WINDOW, levels[0].rows, levels[0].cols)
    time.sleep(0.3)
    before = grab(display)

    def play(mouse) -> None:
        draw_live(mouse, layout, levels[0])
        found = wait_until(lambda: new_move_on_words(grab(display), before), 5.0)
        assert found and found[0].label == "Continue"
        click(mouse, *found[0].center)
        assert wait_until(lambda: game_.records())

    with_mouse(display, play)
    game_.process.send_signal(signal.SIGINT)
    code, _, err = game_.finish()
    assert code == 0, err
    assert [(r["level"], r["solved"]) for r in game_.records()] == [(1, True), (2, False)]
