"""Started on the bundled game's won-level dialog (what every earlier run leaves on screen), with no
profile, auto-clear presses the dialog's own "next level" button and plays on: at any screen size, the
game's window anywhere on it. Only a dialog whose words say the level was won, and only a button
that says to move on (when OCR reads it), is ever pressed."""

from __future__ import annotations

import random

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture import ocr
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import DesktopGame

pytest.importorskip("pygame")
needs_ocr = pytest.mark.skipif(not ocr.available(), reason="the dialog's words are read by Tesseract")

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)


@pytest.fixture(scope="module")
def levels():
    """Three small generated levels."""
    return [make_level(5, 5, 4, random.Random(seed)).puzzle for seed in range(3)]


def _run(game: DesktopGame, tmp_path):
    """One `auto-clear --count 1` with no profile on the game's desktop."""
    loop = AutoClear(game, game, FAST, None, 1, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2)  # fmt: skip
    return loop.run()


@needs_ocr
@pytest.mark.parametrize(
    ("desktop", "window"),
    [((1600, 1000), (540, 960)), ((1920, 1080), (540, 960)), ((3840, 2160), (540, 960)),
     ((1600, 1000), (800, 600)), ((1280, 800), (400, 700))],
    ids=["1600x1000", "1920x1080", "4k", "wide-window", "small"],
)  # fmt: skip
def test_two_runs_in_a_row_each_clear_a_level(levels, tmp_path, desktop, window):
    at = ((desktop[0] - window[0]) // 2, (desktop[1] - window[1]) // 2)
    game = DesktopGame(levels, desktop=desktop, at=at, size=window)
    first = _run(game, tmp_path)
    assert first.cleared == 1, first.stopped
    second = _run(game, tmp_path)  # starts on the first level's win dialog
    assert second.cleared == 1, second.stopped
    assert game.session.level >= 3 or game.results  # the second level was played, none skipped


def _dialog(title: str, labels: list[str], screen=(1600, 1000), scale: float = 1.0, at=(600, 300)):
    """A dark screen with a dialog: `title` in words, then outlined buttons labelled `labels` below
    it, stacked; the buttons' centres in screen pixels."""
    import pygame

    from flowbot.game.render import surface_to_bgr

    pygame.font.init()
    surface = pygame.Surface(screen)
    surface.fill((30, 30, 40))
    font = pygame.font.Font(None, round(40 * scale))
    surface.blit(font.render(title, True, (255, 255, 255)), at)
    width, height, centres = round(240 * scale), round(60 * scale), []
    for index, label in enumerate(labels):
        box = pygame.Rect(at[0], at[1] + round((80 + 90 * index) * scale), width, height)
        pygame.draw.rect(surface, (255, 255, 255), box, width=max(2, round(3 * scale)))
        text = font.render(label, True, (255, 255, 255))
        surface.blit(text, text.get_rect(center=box.center))
        centres.append(box.center)
    return surface_to_bgr(surface), centres


def _pressed(pixels) -> list[tuple[float, float]]:
    """Where starting on `pixels` (no board there) pressed."""
    from flowbot.act.pointer import RecordingPointer
    from flowbot.capture.screen import ImageScreen
    from flowbot.live.clock import ManualClock

    pointer = RecordingPointer()
    loop = AutoClear(ImageScreen([pixels]), pointer, FAST, None, 1, clock=ManualClock(), settle_timeout=0.2)
    loop.close_win_dialog()
    return [(x, y) for kind, x, y in pointer.events if kind == "down"]


def _near(point, centre) -> bool:
    """True when a press landed on a button's centre (within a pixel or two)."""
    return abs(point[0] - centre[0]) <= 2 and abs(point[1] - centre[1]) <= 2


@needs_ocr
@pytest.mark.parametrize("scale", [0.6, 1.0, 2.0], ids=["small", "plain", "hidpi"])
def test_a_won_dialogs_move_on_button_is_pressed_whatever_its_width(scale):
    pixels, (button,) = _dialog("Level complete!", ["next level"], scale=scale)
    presses = _pressed(pixels)
    assert len(presses) == 1 and _near(presses[0], button)


@needs_ocr
def test_a_restart_button_by_the_win_words_is_never_pressed_but_next_below_it_is():
    pixels, (_restart, following) = _dialog("Level complete!", ["restart", "next level"])
    presses = _pressed(pixels)
    assert len(presses) == 1 and _near(presses[0], following)
    only_restart, _ = _dialog("Level complete!", ["restart"])
    assert _pressed(only_restart) == []


@needs_ocr
def test_a_skip_by_the_win_words_is_never_pressed_but_next_below_it_is():
    pixels, (_skip, following) = _dialog("Level complete!", ["skip", "next level"])
    presses = _pressed(pixels)
    assert len(presses) == 1 and _near(presses[0], following)
    only_skip, _ = _dialog("Level complete!", ["skip"])
    assert _pressed(only_skip) == []


@needs_ocr
def test_no_win_words_no_press():
    pixels, _ = _dialog("Choose a pack", ["next level"])
    assert _pressed(pixels) == []


@needs_ocr
def test_a_button_far_from_the_win_words_is_not_the_dialogs():
    pixels, _ = _dialog("Level complete!", [], at=(100, 100))
    far, _ = _dialog("Settings", ["continue"], at=(1200, 700))
    pixels[600:] = far[600:]  # another window's button, far below and aside
    assert _pressed(pixels) == []


def test_without_tesseract_a_run_started_on_a_won_dialog_says_it_needs_it(levels, tmp_path, monkeypatch):
    # With no OCR the dialog's words cannot be read: nothing is pressed, and the stop says why, not
    # "close what covers the board" as if a dialog's button could have been pressed.
    monkeypatch.setattr("flowbot.capture.ocr.available", lambda: False)
    game = DesktopGame(levels, desktop=(1600, 1000), at=(530, 20))
    assert _run(game, tmp_path).cleared == 1  # the first run plays on a level: no words needed
    level, results = game.session.level, list(game.results)
    second = _run(game, tmp_path)  # starts on the first level's win dialog
    assert second.cleared == 0  # short of its count: status 4
    assert "Tesseract is not installed" in second.stopped and "close what covers" not in second.stopped
    assert (game.session.level, game.results) == (level, results)  # nothing pressed
