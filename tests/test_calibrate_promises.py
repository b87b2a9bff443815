"""What the manual promises of `flowbot calibrate`: a profile made on a won level keeps the dialog's
next-level button (either style of the bundled game's dialog), `--check` draws the button it would
click, and `--manual` with no terminal to ask in stops with a message and exit 8."""

from __future__ import annotations

import io
import random

import cv2
import numpy as np
import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture import ocr
from flowbot.game.look import Look, Variant
from flowbot.generate.levels import make_level
from flowbot.modes.calibrate import (
    CalibrationError,
    calibrate_automatically,
    calibrate_by_pointing,
    draw_check,
)
from flowbot.solve.sat import solve
from tests.simulated_game import SimulatedGame

STYLES = {"flow": None, "text": Variant(look=Look(next_button="text"))}
MAGENTA = (255, 0, 255)  # the check picture's outline of the button it would click


def won_game(style: str) -> SimulatedGame:
    """The bundled game, in-process, with its first 6x6 level solved and its dialog showing."""
    if style == "text" and not ocr.available():
        pytest.skip("tesseract is not installed: a plain push button is known by its label")
    levels = [make_level(6, 6, 6, random.Random(seed)).puzzle for seed in (1, 2)]
    game = SimulatedGame(levels, size=(540, 960), variant=STYLES[style])
    geometry = game.layout.geometry
    result = solve(levels[0])
    assert result.solution is not None
    for path in result.solution.paths:
        game.move(*geometry.center(path[0]))
        game.down()
        for cell in path[1:]:
            game.move(*geometry.center(cell))
        game.up()
    assert game.layout.dialog is not None and game.layout.dialog.button is not None
    return game


def _on_button(game: SimulatedGame, point: tuple[float, float]) -> bool:
    """True when a screen point lies on the dialog's button."""
    button = game.layout.dialog.button
    x, y = point
    return button.x <= x <= button.x + button.width and button.y <= y <= button.y + button.height


@pytest.mark.parametrize("style", sorted(STYLES))
def test_calibrating_on_a_won_level_keeps_the_dialogs_next_button(style):
    game = won_game(style)
    profile = calibrate_automatically(game, "won", None, PointerSettings())
    assert (profile.rows, profile.cols) == (6, 6)
    assert profile.next_button is not None and _on_button(game, profile.next_button)
    x, y = profile.next_button
    assert profile.region.contains(x, y)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_check_picture_draws_the_button_it_would_click(style, tmp_path):
    game = won_game(style)
    frame = game.grab()
    verdict = draw_check(frame, str(tmp_path / "seen.png"))
    assert verdict.startswith("board 6x6"), verdict
    assert "next-level button" in verdict
    picture = cv2.imread(str(tmp_path / "seen.png"))
    button = game.layout.dialog.button
    middle_y = round(button.y + button.height / 2)
    row = picture[middle_y, : round(button.x + button.width / 2)]
    # BGR magenta: the left side of the outline drawn around the button
    assert (row == MAGENTA[::-1]).all(axis=1).any()


def test_a_fresh_level_offers_no_button_to_click(tmp_path):
    """Nothing is drawn as 'would click' when no dialog shows (the round arrows are not a dialog)."""
    game = SimulatedGame([make_level(6, 6, 6, random.Random(1)).puzzle], size=(540, 960))
    verdict = draw_check(game.grab(), str(tmp_path / "seen.png"))
    assert verdict == "board 6x6, 6 colours"
    assert calibrate_automatically(game, "fresh", None, PointerSettings()).next_button is None


def test_a_blank_screen_still_says_no_board():
    blank = SimpleBlank()
    with pytest.raises(CalibrationError, match="no board on screen"):
        calibrate_automatically(blank, "none", None, PointerSettings())


class SimpleBlank:
    """A black screen."""

    def grab(self, region=None):
        """A black frame."""
        from flowbot.capture.screen import Frame

        return Frame(np.zeros((600, 400, 3), dtype=np.uint8))


def test_manual_calibration_with_no_terminal_is_a_message_and_exit_8(monkeypatch, tmp_path, capsys):
    from flowbot.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal, and at its end
    code = main(["calibrate", "--manual", "--name", "pointed"])
    assert code == 8
    err = capsys.readouterr().err
    assert "no terminal" in err and "Traceback" not in err
    assert not (tmp_path / "calibration").exists()


def test_input_ending_while_pointing_is_a_calibration_error(monkeypatch):
    """Ctrl-D (or a closed input) at a question stops calibrating with exit 8, not EOFError."""
    from flowbot.modes.calibrate import _ask

    game = SimulatedGame([make_level(6, 6, 6, random.Random(1)).puzzle], size=(540, 960))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(CalibrationError, match="standard input ended") as raised:
        calibrate_by_pointing(game, "pointed", PointerSettings(), _ask, lambda: (0, 0), io.StringIO())
    assert raised.value.exit_code == 8
