"""Calibration: automatic, by pointing, and the picture of what flowbot sees."""

from __future__ import annotations

import io
import random

import cv2
import numpy as np
import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture.screen import Frame, ImageScreen
from flowbot.generate.levels import make_level
from flowbot.modes.calibrate import (
    CalibrationError,
    calibrate_automatically,
    calibrate_by_pointing,
    draw_check,
)
from tests.simulated_game import SimulatedGame


@pytest.fixture(scope="module")
def game():
    """The in-process game showing a 6x6 level in a wide window."""
    return SimulatedGame([make_level(6, 6, 6, random.Random(1)).puzzle], size=(2400, 900))


def test_automatic_calibration_finds_the_board_and_a_window_around_it(game):
    profile = calibrate_automatically(game, "wide", None, PointerSettings())
    geometry = game.layout.geometry
    assert (profile.rows, profile.cols) == (6, 6)
    assert profile.region.contains(geometry.xs[0], geometry.ys[0])
    assert profile.region.contains(geometry.xs[-1] - 1, geometry.ys[-1] - 1)
    assert profile.region.width < 2400  # the window, not the whole screen


def test_calibration_by_pointing_checks_what_was_pointed_at(game):
    geometry = game.layout.geometry
    corner_points = [
        (round(geometry.xs[0]), round(geometry.ys[0])),
        (round(geometry.xs[-1]), round(geometry.ys[-1])),
    ]

    def point(answer_list):
        corners, answers = iter(corner_points), iter(answer_list)
        return calibrate_by_pointing(
            game,
            "pointed",
            PointerSettings(),
            lambda question: next(answers),
            lambda: next(corners),
            io.StringIO(),
        )

    profile = point(["", "", "6x6", "s"])
    assert (profile.rows, profile.cols, profile.next_button) == (6, 6, None)
    with pytest.raises(CalibrationError, match="reads as a 6x6 board, not 7x7"):
        point(["", "", "7x7", "s"])


def test_nothing_to_calibrate_on_is_an_error():
    blank = ImageScreen([np.zeros((600, 400, 3), dtype=np.uint8)])
    with pytest.raises(CalibrationError, match="no board on screen"):
        calibrate_automatically(blank, "none", None, PointerSettings())


def test_the_check_picture_names_what_was_seen(game, tmp_path):
    verdict = draw_check(game.grab(), str(tmp_path / "seen.png"))
    assert verdict == "board 6x6, 6 colours"
    picture = cv2.imread(str(tmp_path / "seen.png"))
    assert picture.shape == (900, 2400, 3)
    assert not np.array_equal(picture, game.grab().pixels)  # outlines and names were drawn on it
    verdict = draw_check(Frame(np.zeros((300, 300, 3), dtype=np.uint8)), str(tmp_path / "none.png"))
    assert verdict.startswith("no board read")
