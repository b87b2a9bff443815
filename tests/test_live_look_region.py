"""The live loop looks only where the game is: after the first look that finds the board, it grabs the
game's window (where the display tells it) or the board with the margin its dialog and controls may
lie in, never the whole 4K screen; a board that moves far away, or grows, is found again on the whole
screen; and what is read in the smaller grabs is what the whole screen gives."""

from __future__ import annotations

import random

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture.screen import Region
from flowbot.game.look import LIGHT_LINES, Look, Theme, Variant
from flowbot.game.render import Renderer
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from tests.boards import canonical
from tests.simulated_game import DesktopGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
SCREEN = (3840, 2160)
WHOLE = Region(0, 0, *SCREEN)
LOOKS = {
    "default": None,
    "no grid": Variant(Theme(grid=False)),
    "light": Variant(Theme(light=True, line_rgb=LIGHT_LINES)),
}


@pytest.fixture(scope="module")
def levels():
    """Three generated levels of growing size."""
    return [make_level(side, side, side - 1, random.Random(side)).puzzle for side in (5, 6, 7)]


class ChangingGame(DesktopGame):
    """A game on the desktop that changes once, when it first shows level 2: `change(game)`."""

    def __init__(self, levels, change, **options) -> None:
        self.change = change
        super().__init__(levels, **options)

    def show(self) -> None:
        """Make the change the first time level 2 shows, then draw."""
        if self.change is not None and self.session.level == 2:
            change, self.change = self.change, None
            change(self)
        super().show()


def clear(game: DesktopGame, tmp_path, count: int, windows: bool, region: Region | None = None):
    """Clear `count` levels on the game, the display's windows known or not; the report, and the
    board of each level as read (its rows, its cells in screen pixels)."""
    loop = AutoClear(game, game, FAST, region, count, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2, windows=game if windows else None)  # fmt: skip
    boards = []
    play = loop.play_level

    def noted(number, scene, report):
        boards.append((scene.rows, scene.geometry))
        return play(number, scene, report)

    loop.play_level = noted
    return loop.run(), boards


def keeps_to(game: DesktopGame, board) -> bool:
    """True when the game's last looks (two) hold the board, and not the whole screen."""
    left, top, right, bottom = board.bounds
    shown = Region(int(left), int(top), int(right - left), int(bottom - top))
    last = game.grabbed[-2:]
    return None not in last and all(region.covers(shown) and region != WHOLE for region in last)


def around(box: Region, pixels: int) -> Region:
    """`box` with `pixels` more on every side."""
    return Region(box.left - pixels, box.top - pixels, box.width + 2 * pixels, box.height + 2 * pixels)


def test_after_the_first_look_every_grab_is_of_the_games_window(levels, tmp_path):
    game = DesktopGame(levels, desktop=SCREEN, at=(1600, 600))
    report, _ = clear(game, tmp_path, 3, windows=True)
    assert report.cleared == 3, report.summary()
    assert game.grabbed[0] is None  # the first look of a run: the whole screen
    later = game.grabbed[1:]
    assert later and None not in later
    # The game's window, and at most a cell (here under 110 px) around the board beyond it.
    assert all(around(game.window, 110).covers(region) for region in later), set(later)


def test_with_no_window_known_the_grabs_keep_to_the_board_and_its_margin(levels, tmp_path):
    game = DesktopGame(levels, desktop=SCREEN, at=(100, 100))
    report, _ = clear(game, tmp_path, 3, windows=False)
    assert report.cleared == 3, report.summary()
    assert game.grabbed[0] is None
    later = game.grabbed[1:]
    assert later and None not in later
    # The board with three times its size around it (where a dialog or a control may be), not the screen.
    assert all(region.width * region.height < 0.6 * SCREEN[0] * SCREEN[1] for region in later), set(later)
    assert all(region.covers(game.window) for region in later)


@pytest.mark.parametrize("look", sorted(LOOKS))
def test_what_is_read_on_the_smaller_grabs_is_what_the_whole_screen_gives(levels, tmp_path, look):
    focused, whole = (DesktopGame(levels, at=(1600, 600), variant=LOOKS[look]) for _ in range(2))
    report, boards = clear(focused, tmp_path, 3, windows=True)
    assert report.cleared == 3, report.summary()
    report, every_time = clear(whole, tmp_path, 3, windows=False, region=WHOLE)  # never anything else
    assert report.cleared == 3, report.summary()
    assert set(whole.grabbed) == {WHOLE} and WHOLE not in focused.grabbed
    # The same puzzles, their cells where the whole screen puts them, to well under a pixel: a line's
    # sub-pixel place moves by up to a tenth of one with how deep the lines of the whole grab run
    # (dark lines on a light board are measured against the deepest of the grab).
    assert [rows for rows, _ in boards] == [rows for rows, _ in every_time]
    for (_, seen), (_, truth) in zip(boards, every_time, strict=True):
        assert seen.xs == pytest.approx(truth.xs, abs=0.25) and seen.ys == pytest.approx(truth.ys, abs=0.25)


@pytest.mark.parametrize("windows", [True, False], ids=["window known", "no window"])
def test_a_game_whose_window_moves_far_away_is_found_on_the_whole_screen(levels, tmp_path, windows):
    game = ChangingGame(levels, lambda game: game.move_window(3000, 1100), desktop=SCREEN, at=(100, 100))
    report, boards = clear(game, tmp_path, 3, windows=windows)
    assert report.cleared == 3, report.summary()
    assert None in game.grabbed[1:]  # no board where the game was: the whole screen
    left, top, right, bottom = boards[1][1].bounds
    assert game.window.contains(left, top) and game.window.contains(right - 1, bottom - 1)
    assert keeps_to(game, boards[-1][1])


@pytest.mark.parametrize("windows", [True, False], ids=["window known", "no window"])
def test_a_level_of_a_new_size_with_bigger_cells_is_found(tmp_path, windows):
    # A small 5x5 board at the top-left of a big window, then a 9x9 filling the window's middle.
    sides = enumerate((5, 9, 9))
    levels = [make_level(side, side, side - 1, random.Random(seed)).puzzle for seed, side in sides]
    small = Variant(look=Look(board_px=200))

    def grow(game):
        game.renderer = Renderer(small.theme, Look())

    game = ChangingGame(levels, grow, desktop=SCREEN, at=(100, 100), size=(1280, 1000), variant=small)
    report, boards = clear(game, tmp_path, 3, windows=windows)
    assert report.cleared == 3, report.summary()
    assert [rows for rows, _ in boards] == [canonical(level.to_rows()) for level in levels]
    assert boards[1][1].cell_size > 1.5 * boards[0][1].cell_size
    # With the window known the bigger board is in it still; else it is found on the whole screen.
    assert (None in game.grabbed[1:]) is not windows
    assert keeps_to(game, boards[-1][1])
