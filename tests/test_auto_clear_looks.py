"""The live loop on every look of the bundled game, in-process: find the board, verify the win wherever
the board is now, and find the way to the next level, with no setting for the look."""

from __future__ import annotations

import random

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture import ocr
from flowbot.game.look import LIGHT_LINES, Look, Theme, Variant
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
EVERYTHING = Theme(grid=False, light=True, glyphs=True, line_rgb=LIGHT_LINES)
LOOKS = {
    "no grid": (Variant(Theme(grid=False)), (540, 960)),
    "light": (Variant(Theme(light=True, line_rgb=LIGHT_LINES)), (540, 960)),
    "glyphs": (Variant(Theme(glyphs=True)), (540, 960)),
    "text button": (Variant(look=Look(next_button="text")), (540, 960)),
    "win banner": (Variant(look=Look(win_banner=True)), (540, 960)),
    "header": (Variant(look=Look(header=True)), (540, 960)),
    "small board": (Variant(look=Look(board_px=200)), (1280, 1000)),
    "all at once": (
        Variant(EVERYTHING, look=Look(next_button="text", win_banner=True, header=True)),
        (540, 960),
    ),
    "all, small board": (
        Variant(EVERYTHING, look=Look(next_button="text", win_banner=True, header=True, board_px=220)),
        (1280, 1000),
    ),
}
# Looks whose way on is a labelled button found by reading it (OCR).
NEEDS_OCR = {"text button", "all at once", "all, small board"}


@pytest.fixture(scope="module")
def levels():
    """Three generated levels of growing size."""
    return [make_level(side, side, side - 1, random.Random(side)).puzzle for side in (5, 6, 7)]


@pytest.mark.parametrize("name", sorted(LOOKS))
def test_every_look_is_cleared_with_no_setting_for_it(name, levels, tmp_path):
    if name in NEEDS_OCR and not ocr.available():
        pytest.skip("tesseract is not installed")
    variant, size = LOOKS[name]
    game = SimulatedGame(levels, size=size, variant=variant)
    loop = AutoClear(game, game, FAST, None, 3, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    report = loop.run()
    assert report.cleared == 3, report.summary()
    # The game's own verdict on the two levels it has left behind.
    assert [result.solved for result in game.results] == [True, True]


def test_started_while_a_win_is_showing_over_a_board_it_cannot_read_it_presses_nothing(levels, tmp_path):
    game = SimulatedGame(levels, variant=Variant(look=Look(next_button="text")))
    solved = AutoClear(game, game, FAST, None, 1, artifacts=tmp_path, clock=game.clock,
                       settle_timeout=1.0, verify_timeout=0.3).run()  # fmt: skip
    assert solved.cleared == 1 and game.session.board.complete  # level 1 won, its button showing
    presses = game.presses
    report = AutoClear(game, game, FAST, None, 1, artifacts=tmp_path, clock=game.clock,
                       settle_timeout=1.0, verify_timeout=0.3).run()  # fmt: skip
    # The drawn board under the button does not read as a level: pressing "Next Level" there could
    # skip a level never played, so the run stops and says so.
    assert report.cleared == 0 and "a win dialog's own button" in report.stopped, report.summary()
    assert game.presses == presses and game.session.level == 1


def test_started_on_a_win_dialog_that_says_its_level_was_won_it_presses_that_dialogs_button(levels, tmp_path):
    if not ocr.available():
        pytest.skip("tesseract is not installed")
    game = SimulatedGame(levels)
    AutoClear(game, game, FAST, None, 1, artifacts=tmp_path, clock=game.clock,
              settle_timeout=1.0, verify_timeout=0.3).run()  # fmt: skip
    assert game.session.board.complete  # level 1 won, "You completed the level" and its button showing
    report = AutoClear(game, game, FAST, None, 1, artifacts=tmp_path, clock=game.clock,
                       settle_timeout=1.0, verify_timeout=0.3).run()  # fmt: skip
    assert report.cleared == 1 and game.session.level == 2, report.summary()
    assert [result.solved for result in game.results] == [True]  # the level left behind was won


def test_a_level_that_will_not_verify_names_the_cells(levels, tmp_path):
    game = SimulatedGame(levels[:1], variant=Variant(Theme(light=True, line_rgb=LIGHT_LINES)))
    real_down = game.down
    strokes = []

    def only_the_very_first_press_lands():
        strokes.append(1)
        if len(strokes) == 1:
            real_down()

    game.down = only_the_very_first_press_lands
    report = AutoClear(game, game, FAST, None, 1, artifacts=tmp_path, clock=game.clock,
                       settle_timeout=1.0, verify_timeout=0.3).run()  # fmt: skip
    assert report.cleared == 0
    assert "did not take it" in report.stopped and "still empty (row " in report.stopped
