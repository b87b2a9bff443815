"""Finding the way to the next level in any style, and judging a drawn board in any look."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from flowbot.capture import ocr
from flowbot.capture.controls import (
    find_push_buttons,
    is_forbidden,
    label_score,
    new_move_on_buttons,
    next_controls,
    says_won,
)
from flowbot.capture.verdict import centre_colours, missing_cells
from flowbot.model import Geometry
from flowbot.solve.sat import solve
from tests.boards import snake_board

needs_ocr = pytest.mark.skipif(not ocr.available(), reason="tesseract is not installed")


def page(width: int, height: int, grey: int) -> np.ndarray:
    """A plain page of one grey."""
    return np.full((height, width, 3), grey, dtype=np.uint8)


def push_button(frame, x, y, w, h, text, fill=(205, 205, 205), ink=(30, 30, 30), scale=0.6):
    """A plain rectangular push button with a text label, as desktop toolkits draw them."""
    cv2.rectangle(frame, (x, y), (x + w, y + h), fill, -1)
    cv2.rectangle(frame, (x, y), (x + w, y + h), (120, 120, 120), 1)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    origin = (x + (w - tw) // 2, y + (h + th) // 2)
    cv2.putText(frame, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 1, cv2.LINE_AA)


@pytest.mark.parametrize(
    ("label", "moves_on"),
    [("Next Level", True), ("Continue", True), ("New puzzle", True), ("Play next", True), ("->", True),
     ("Restart", False), ("Undo", False), ("Back to level 1", False), ("Hint", False), ("Buy hints", False),
     ("Share", False), ("Solve", False), ("Level select", False), ("Settings", False), ("", False)],
)  # fmt: skip
def test_labels_that_move_on_and_labels_never_pressed(label, moves_on):
    assert (label_score(label) > 0) is moves_on
    if label and not moves_on and label != "Settings":
        assert is_forbidden(label) or label_score(label) == 0


def test_a_forbidden_word_wins_over_a_moving_one():
    assert label_score("Next: restart the level") == 0
    assert label_score("New level") > label_score("New")


def test_push_buttons_are_found_and_board_cells_are_not():
    frame = page(900, 700, 240)
    for row in range(5):  # a grid of square cells: never a button
        for col in range(5):
            cv2.rectangle(
                frame, (50 + col * 40, 50 + row * 40), (90 + col * 40, 90 + row * 40), (90, 90, 90), 1
            )
    push_button(frame, 400, 300, 150, 40, "Next Level")
    boxes = find_push_buttons(frame)
    assert len(boxes) == 1
    left, top, width, _ = boxes[0]
    assert abs(left - 400) <= 3 and abs(top - 300) <= 3 and abs(width - 150) <= 6


@needs_ocr
@pytest.mark.parametrize("seed", range(3))
def test_the_next_button_is_chosen_and_the_restart_button_never(seed):
    rng = random.Random(seed)
    light = rng.random() < 0.5
    frame = page(1280, 1000, 245 if light else 25)
    fill, ink = ((205, 205, 205), (30, 30, 30)) if light else ((70, 70, 70), (235, 235, 235))
    spots = rng.sample([(100, 800), (560, 480), (900, 200), (300, 600), (1000, 850)], 3)
    labels = ["Restart", "Undo", rng.choice(["Next Level", "New puzzle", "Continue"])]
    for (x, y), label in zip(spots, labels, strict=True):
        push_button(frame, x, y, 160, 40, label, fill, ink)
    refused: list[str] = []
    chosen = list(next_controls(frame, None, refused))
    assert [control.label for control in chosen] == [labels[2]]
    x, y = chosen[0].center
    assert abs(x - (spots[2][0] + 80)) < 6 and abs(y - (spots[2][1] + 20)) < 6
    assert chosen[0].kind == "push-button"


@needs_ocr
def test_a_text_link_is_found_when_there_is_no_button():
    frame = page(800, 600, 30)
    cv2.putText(frame, "You won!", (300, 200), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (230, 230, 230), 2, cv2.LINE_AA)
    cv2.putText(frame, "Continue", (330, 400), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (120, 170, 255), 2, cv2.LINE_AA)
    control = next(next_controls(frame), None)
    assert control is not None and control.kind == "text" and "Continue" in control.label
    (width, height), _ = cv2.getTextSize("Continue", cv2.FONT_HERSHEY_SIMPLEX, 0.8, 2)
    assert abs(control.center[0] - (330 + width / 2)) < 8 and abs(control.center[1] - (400 - height / 2)) < 6
    assert says_won(ocr.read_words(frame))


@needs_ocr
def test_nothing_to_press_on_a_page_without_controls():
    frame = page(640, 480, 240)
    cv2.putText(frame, "level 10  5x5", (20, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (30, 30, 30), 1, cv2.LINE_AA)
    push_button(frame, 200, 300, 160, 40, "Restart")
    refused: list[str] = []
    assert list(next_controls(frame, None, refused)) == []
    assert refused == ["Restart"]
    assert not says_won(ocr.read_words(frame))


def board_picture(puzzle, solution, drawn, light, cell=30, left=40, top=60):
    """A board drawn in a light or dark look with the pipes of `drawn` colours (BGR frame, geometry)."""
    rows, cols = puzzle.rows, puzzle.cols
    frame = page(left * 2 + cols * cell, top * 2 + rows * cell, 250 if light else 0)
    geometry = Geometry(tuple(float(left + c * cell) for c in range(cols + 1)),
                        tuple(float(top + r * cell) for r in range(rows + 1)))  # fmt: skip
    colours = [(0, 0, 230), (0, 160, 0), (230, 40, 40), (0, 220, 230), (200, 0, 200), (0, 130, 255),
               (230, 230, 0), (120, 60, 160), (255, 255, 255), (130, 130, 130)]  # fmt: skip
    for index, path in enumerate(solution.paths):
        if index not in drawn:
            continue
        points = np.array([[round(v) for v in geometry.center(c)] for c in path], np.int32)
        cv2.polylines(frame, [points], False, colours[index], cell // 3)
    for index, pair in enumerate(puzzle.endpoints):
        for row, col in pair:
            x, y = geometry.center((row, col))
            cv2.circle(frame, (round(x), round(y)), round(cell * 0.35), colours[index], -1)
    rgb = tuple(tuple(int(v) for v in colours[index][::-1]) for index in range(len(puzzle.colors)))
    return frame, geometry, rgb


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
def test_missing_cells_names_what_the_game_did_not_take(light):
    puzzle = snake_board(random.Random(4), 6, 6, max_walls=0)
    solution = solve(puzzle).solution
    before_frame, geometry, rgb = board_picture(puzzle, solution, set(), light)
    before = centre_colours(before_frame, geometry)
    done, _, _ = board_picture(puzzle, solution, set(range(len(puzzle.colors))), light)
    assert missing_cells(done, geometry, solution, rgb, before) == []
    half, _, _ = board_picture(puzzle, solution, {0}, light)
    expected = {cell for index, path in enumerate(solution.paths) if index != 0 for cell in path[1:-1]}
    assert set(missing_cells(half, geometry, solution, rgb, before)) == expected
    # Somewhere else entirely (a board that moved): nothing is taken there.
    moved = geometry.shifted(7, 13)
    assert missing_cells(done, moved, solution, rgb, before)


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
def test_cells_hidden_by_a_button_are_not_judged_but_a_covered_board_is_not_won(light):
    puzzle = snake_board(random.Random(4), 6, 6, max_walls=0)
    solution = solve(puzzle).solution
    before_frame, geometry, rgb = board_picture(puzzle, solution, set(), light)
    before = centre_colours(before_frame, geometry)
    done, _, _ = board_picture(puzzle, solution, set(range(len(puzzle.colors))), light)
    # A grey "Next Level" button over the middle of the won board: two cells out of sight.
    x, y = (round(v) for v in geometry.center((2, 2)))
    cv2.rectangle(done, (x - 5, y - 8), (x + 40, y + 8), (200, 200, 200), -1)
    assert missing_cells(done, geometry, solution, rgb, before) == []
    # A window over the whole board: nothing can be judged, so nothing counts as taken.
    covered = done.copy()
    covered[
        round(geometry.ys[0]) : round(geometry.ys[-1]), round(geometry.xs[0]) : round(geometry.xs[-1])
    ] = 128
    inner = sum(len(path) - 2 for path in solution.paths)
    assert len(missing_cells(covered, geometry, solution, rgb, before)) == inner


def word(text: str, x: int = 0, y: int = 0) -> ocr.Word:
    """A word as OCR gives it, at a place on the frame."""
    return ocr.Word(text, x, y, 10 * len(text), 12, 90.0)


def test_a_win_word_that_already_showed_before_drawing_is_a_counter_not_a_win():
    hud = [word("time"), word("0:18"), word("solved"), word("6")]
    assert says_won(hud) and not says_won(hud, hud)  # a time trial's status line, before and after
    dialog = [*hud, word("Level"), word("solved!")]
    assert says_won(dialog, hud)  # a second "solved": the game said so just now
    assert says_won([word("You"), word("won!")], hud)
    assert not says_won([word("flows:"), word("3/3")], [])


def test_a_button_inside_a_much_larger_box_already_offered_is_still_offered():
    from flowbot.capture.controls import Control, _new

    seen: list = []
    area = Control(100, 300, 300, 160, "O==Q", "flow-button")  # a dialog's area taken for a button
    twin = Control(110, 310, 280, 140, "next level", "push-button")  # the same box found another way
    button = Control(180, 400, 170, 50, "Next Level", "push-button")  # the real button, inside it
    assert list(_new(area, seen)) == [area]
    assert list(_new(twin, seen)) == []
    assert list(_new(button, seen)) == [button]


@needs_ocr
def test_only_a_move_on_button_that_was_not_there_before_is_a_new_one():
    before = page(500, 300, 240)
    push_button(before, 40, 230, 150, 40, "Next Level")  # always there, beside the board
    push_button(before, 300, 230, 150, 40, "Restart")
    after = before.copy()
    assert new_move_on_buttons(after, before) == []  # nothing changed: no win
    push_button(after, 170, 100, 160, 44, "Continue")  # the game's new dialog button
    push_button(after, 170, 160, 160, 44, "Replay")  # new, but it does not move on
    found = new_move_on_buttons(after, before)
    assert [control.label for control in found] == ["Continue"]


@needs_ocr
def test_a_label_showing_all_along_framed_by_something_drifting_behind_it_is_no_new_button():
    # A game's plain "Next Level" text, always active, once had a translucent band drift behind it:
    # the band's edges made a box that was not there before, and the level was claimed.
    before = page(500, 300, 0)
    cv2.putText(before, "Next Level", (170, 140), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    after = before.copy()
    band = after[100:160, 150:340]
    band[:] = np.maximum(band, 60)  # a grey band behind the text, its edges a box around it
    assert find_push_buttons(after) and not find_push_buttons(before)
    assert new_move_on_buttons(after, before) == []


def win_screen() -> np.ndarray:
    """A game's own win screen: a huge "YOU WIN!" and, under it, two small coloured words to click."""
    frame = np.zeros((480, 640, 3), np.uint8)
    cv2.putText(frame, "YOU WIN!", (40, 250), cv2.FONT_HERSHEY_TRIPLEX, 3.2, (40, 110, 240), 14)
    cv2.putText(frame, "MENU", (140, 300), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 0, 255), 2)
    cv2.putText(frame, "NEXT", (380, 300), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 255, 0), 2)
    return frame


def test_text_bands_part_a_title_from_the_words_under_it():
    bands = ocr.text_bands(win_screen())
    assert len(bands) == 2
    (title_top, title_bottom), (words_top, words_bottom) = bands
    assert title_bottom <= words_top and words_bottom - words_top < title_bottom - title_top


@needs_ocr
def test_a_word_the_whole_frame_read_missed_is_found_band_by_band(monkeypatch):
    # Tesseract read a real game's win screen as two big words, the small "NEXT" swallowed into
    # their boxes; here the whole-frame read is made to miss it the same way.
    real = ocr.read_words
    monkeypatch.setattr(ocr, "read_words", lambda frame: [] if frame.shape[0] > 200 else real(frame))
    links = list(next_controls(win_screen()))
    assert [link.label for link in links] == ["NEXT"]
    x, y = links[0].center
    assert 380 <= x <= 450 and 275 <= y <= 305


@pytest.mark.parametrize(
    ("label", "moves_on"),
    [("continuer & jouer", True), ("Niveau suivant", True), ("jouer 6x6", True), ("Recommencer", False),
     ("Réessayer", False), ("Siguiente nivel", True), ("Jugar de nuevo", False), ("Reiniciar", False),
     ("Nächstes Level", True), ("Weiter", True), ("Neu starten", False), ("Zurück", False),
     ("Próximo nível", True), ("Tentar novamente", False), ("Livello successivo", True),
     ("Gioca ancora", False), ("Indietro", False), ("✓", True), ("Annuler", False), ("Indice", False)],
)  # fmt: skip
def test_move_on_words_in_other_languages_and_icons_and_their_forbidden_words(label, moves_on):
    # Games speak French, Spanish, German, Portuguese and Italian, with accents or without (as OCR
    # reads them): a move-on label scores, a restart, undo, hint or back in any of them never does.
    assert (label_score(label) > 0) is moves_on
    plain = label.replace("é", "e").replace("ä", "a").replace("ó", "o").replace("ü", "u").replace("í", "i")
    assert (label_score(plain) > 0) is moves_on


@pytest.mark.parametrize(
    "text", ["Gagné !", "Félicitations", "¡Ganaste!", "Gewonnen", "Parabéns", "Hai vinto"]
)
def test_win_words_in_other_languages_are_a_win_when_new(text):
    words = [ocr.Word(part, 0, 0, 10, 10, 90.0) for part in text.split()]
    assert says_won(words, [])
    assert not says_won(words, words)


def test_a_picture_read_lately_is_not_read_again_and_a_changed_one_is(monkeypatch):
    # The live loop reads a game's window after each try of a level: a still window costs no OCR.
    calls = []
    monkeypatch.setattr(ocr, "available", lambda: True)
    word = ocr.Word("ok", 0, 0, 1, 1, 99)
    monkeypatch.setattr(ocr, "_tesseract_words", lambda frame: calls.append(1) or [word])
    picture = np.zeros((40, 60, 3), dtype=np.uint8)
    assert ocr.read_words(picture) == ocr.read_words(picture.copy()) == [word]
    assert len(calls) == 1
    picture[5, 5] = 255
    ocr.read_words(picture)
    assert len(calls) == 2


def test_tesseract_runs_on_one_thread_unless_the_environment_says_otherwise(monkeypatch):
    # tesseract's OpenMP threads spin while they wait: the same words cost three times the CPU.
    pytest.importorskip("pytesseract")
    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    ocr._engine()
    assert ocr.os.environ["OMP_THREAD_LIMIT"] == "1"
    monkeypatch.setenv("OMP_THREAD_LIMIT", "3")
    ocr._engine()
    assert ocr.os.environ["OMP_THREAD_LIMIT"] == "3"
