"""Calibration by pointing keeps what was pointed at, inside the screen, and only saves what solves."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture.screen import Frame, Region
from flowbot.generate.levels import make_level
from flowbot.model import Puzzle
from flowbot.modes.calibrate import CalibrationError, calibrate_automatically, calibrate_by_pointing
from tests.simulated_game import SimulatedGame


@pytest.fixture(scope="module")
def game():
    """The in-process game with a 5x5 level in a small window: the board nearly touches its edges."""
    return SimulatedGame([make_level(5, 5, 4, random.Random(3)).puzzle], size=(300, 540))


def board_corners(game) -> list[tuple[int, int]]:
    """The board's top-left and bottom-right corners on the game's screen."""
    geometry = game.layout.geometry
    return [(round(geometry.xs[0]), round(geometry.ys[0])), (round(geometry.xs[-1]), round(geometry.ys[-1]))]


def point(game, corners, answers, next_at=None, after_failure=False):
    """Calibrate by pointing with scripted answers and pointer positions; returns (profile, printed)."""
    positions = iter([*corners, *([next_at] if next_at else [])])
    replies = iter(answers)
    out = io.StringIO()
    profile = calibrate_by_pointing(
        game, "p", PointerSettings(), lambda _: next(replies), lambda: next(positions), out, after_failure
    )
    return profile, out.getvalue()


def test_the_window_holds_the_next_button_pointed_at_and_stays_on_screen(game):
    geometry = game.layout.geometry
    corners = [
        (round(geometry.xs[0]), round(geometry.ys[0])),
        (round(geometry.xs[-1]), round(geometry.ys[-1])),
    ]
    far_button = (150, 520)  # well below the board, near the screen's bottom edge
    profile, printed = point(game, corners, ["", "", "5x5", ""], next_at=far_button)
    window = profile.region
    assert window.contains(*far_button) and profile.next_button == far_button
    screen = game.bounds
    assert window.left >= 0 and window.top >= 0
    assert window.left + window.width <= screen.width and window.top + window.height <= screen.height
    # No detection ran with --manual: the first line does not pretend one did.
    assert printed.startswith("Let's point at the board.")


def test_after_a_failed_detection_the_message_says_so(game):
    geometry = game.layout.geometry
    corners = [
        (round(geometry.xs[0]), round(geometry.ys[0])),
        (round(geometry.xs[-1]), round(geometry.ys[-1])),
    ]
    _, printed = point(game, corners, ["", "", "5x5", "s"], after_failure=True)
    assert printed.startswith("Automatic detection did not find the board")


class FrozenScreen:
    """A screen that always shows one frame (an unsolvable board drawn by the game's renderer)."""

    def __init__(self, pixels: np.ndarray) -> None:
        self.pixels = pixels
        height, width = pixels.shape[:2]
        self.bounds = Region(0, 0, width, height)

    def grab(self, region=None) -> Frame:
        """The frame, cut to `region`."""
        if region is None:
            return Frame(self.pixels)
        part = self.pixels[region.top : region.top + region.height, region.left : region.left + region.width]
        return Frame(np.ascontiguousarray(part), region.left, region.top)


def test_a_reading_without_a_solution_is_not_saved():
    # Two colours whose paths must cross: readable, but no solution.
    crossing = Puzzle.from_rows(["A.B..", ".....", "B.A..", ".....", "....."])
    shown = SimulatedGame([crossing], size=(540, 960))
    with pytest.raises(CalibrationError, match="no solution"):
        calibrate_automatically(FrozenScreen(shown.grab().pixels), "bad", None, PointerSettings())


def test_the_control_that_moved_on_is_kept_in_the_profile_with_what_tuning_found(tmp_path, monkeypatch):
    from flowbot.act.tuning import LADDER
    from flowbot.live.controls import RememberedControl
    from flowbot.modes.auto_clear_run import _remember_control
    from flowbot.profiles import Profile, load_profile, save_profile, save_tuned

    monkeypatch.chdir(tmp_path)
    save_profile(Profile("browser-game", notes="mine"), tmp_path / "calibration")
    profile = load_profile("browser-game")
    save_tuned(profile, LADDER[1].settings)  # tuning saved first, from the profile as loaded
    control = RememberedControl(600, 480, 160, 40, "Next Level", np.zeros((40, 160), dtype=np.uint8))
    _remember_control(profile, control)
    again = load_profile("browser-game")
    assert again.next_button == (680, 500)
    assert again.pointer == LADDER[1].settings and again.notes == "mine"  # neither save lost the other
    # A profile that names its control keeps it.
    _remember_control(again, RememberedControl(0, 0, 10, 10, "Next", np.zeros((10, 10), dtype=np.uint8)))
    assert load_profile("browser-game").next_button == (680, 500)
