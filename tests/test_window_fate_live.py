"""The move-on step names what happened to the game's window right after a win (closed, hidden,
moved, covered) in one line and stops with exit status 11 within 2 s of the game's clock, instead of
waiting for a level that cannot come and stopping exit 4 "no new level could be read"."""

from __future__ import annotations

import random

import numpy as np
import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture.screen import Region
from flowbot.generate.levels import make_level
from flowbot.live.window_fate import WindowFacts, WindowGoneError, window_fate
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import DESKTOP_BGR, DesktopGame

pytest.importorskip("pygame")

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
COVER_ID, COVER_BGR = 2, (200, 200, 200)


@pytest.fixture(scope="module")
def levels():
    """Three small generated levels."""
    return [make_level(5, 5, 4, random.Random(seed)).puzzle for seed in range(3)]


class FatedGame(DesktopGame):
    """The game on a desktop whose window something happens to (`fate`: closed, hidden, moved,
    covered) `after` looks once `arm()` was called: the display's windows say so (stack, box,
    exists) and the desktop shows it. A `deaf` game loses the presses made once armed."""

    def __init__(self, levels, fate: str, after: int, deaf: bool = False) -> None:
        super().__init__(levels, desktop=(1600, 1000), at=(500, 20))
        self.fate, self.after, self.deaf = fate, after, deaf
        self.armed, self.happened_at = False, None
        self.state = "shown"  # or closed, hidden, moved, covered
        self.cover = Region(self.at[0] + 100, self.at[1] + 300, 300, 300)

    def arm(self) -> None:
        """Let the fate come `after` looks from now (the move-on step begins)."""
        self.armed = True

    def show(self) -> None:
        """Draw the desktop as it is now, the fate come when its time is."""
        if self.armed and self.happened_at is None:
            self.after -= 1
            if self.after < 0:
                self.happened_at = self.clock.now()
                self.state = self.fate
                if self.fate == "moved":
                    self.move_window(self.at[0] + 200, self.at[1])
        if self.state in ("closed", "hidden"):
            self.desktop[:] = DESKTOP_BGR
            return
        super().show()
        if self.state == "covered":
            box = self.cover
            self.desktop[box.top : box.top + box.height, box.left : box.left + box.width] = COVER_BGR

    def down(self) -> None:
        """A press; once armed, a `deaf` game loses it (the bot waits for a level that never comes)."""
        if not (self.armed and self.deaf):
            super().down()

    def stack(self) -> list[int]:
        """The game's window, and the cover over it once it came."""
        shown = [] if self.state == "closed" else [1]
        return shown + ([COVER_ID] if self.state == "covered" else [])

    def box(self, window_id: int) -> Region | None:
        """Where a shown window is."""
        if window_id == 1 and self.state not in ("closed", "hidden"):
            return self.window
        return self.cover if window_id == COVER_ID and self.state == "covered" else None

    def exists(self, window_id: int) -> bool:
        """The game's window exists until it is closed."""
        return window_id == 1 and self.state != "closed"


def _run(game: FatedGame, tmp_path):
    """Clear two levels, the fate armed as the move-on step from level 1 begins."""
    loop = AutoClear(game, game, FAST, None, 2, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=8.0, verify_timeout=0.2, windows=game)  # fmt: skip
    next_level = loop.next_level

    def arming(scene):
        game.arm()
        return next_level(scene)

    loop.next_level = arming
    return loop.run()


@pytest.mark.parametrize(
    ("after", "deaf"),
    [(0, False), (5, True)],
    ids=["at-once", "while-waiting"],  # on the dialog; while waiting for a level a lost click never brings
)
@pytest.mark.parametrize(
    ("fate", "words"),
    [("closed", "was closed"), ("hidden", "was hidden"), ("moved", "moved from"), ("covered", "covers")],
)
def test_the_move_on_step_names_what_happened_to_the_window(levels, tmp_path, fate, words, after, deaf):
    game = FatedGame(levels, fate, after, deaf=deaf)
    report = _run(game, tmp_path)
    assert report.cleared == 1
    assert isinstance(report.halt, WindowGoneError) and report.halt.exit_code == 11
    assert report.halt.fate.what == fate
    assert words in report.stopped and "\n" not in report.stopped
    assert game.happened_at is not None and game.clock.now() - game.happened_at <= 2.0


def test_a_window_nothing_happened_to_plays_on(levels, tmp_path):
    game = FatedGame(levels, "shown", 0)
    report = _run(game, tmp_path)
    assert report.cleared == 2 and report.halt is None, report.stopped


def test_a_window_beside_the_board_is_no_cover(levels, tmp_path):
    # Another program's window over the game's edge, off the board, when the level was read.
    game = FatedGame(levels, "covered", 0)
    game.cover = Region(game.at[0] + game.window.width - 2, game.at[1] + 300, 100, 100)
    game.state = "covered"
    report = _run(game, tmp_path)
    assert not isinstance(report.halt, WindowGoneError), report.stopped
    assert np.any(game.desktop != DESKTOP_BGR)


def test_a_cover_already_over_the_board_when_it_was_read_is_no_news():
    box, old, new = Region(0, 0, 300, 400), Region(10, 10, 50, 50), Region(100, 100, 50, 50)
    before = WindowFacts(True, True, box, covering=(old,))
    assert window_fate(before, WindowFacts(True, True, box, covering=(old,))).what == "nothing"
    fate = window_fate(before, WindowFacts(True, True, box, covering=(old, new)))
    assert fate.what == "covered" and str(new) in fate.message and str(old) not in fate.message


def test_a_window_moved_as_the_next_level_loads_is_followed(levels, tmp_path):
    # A game that moves its window as the next level shows: that level is found in its new place
    # (the whole screen is looked at), and played; only a move with no level after it is named.
    game = FatedGame(levels, "moved", 0)
    game.arm = lambda: None  # nothing before the press

    real_down = game.down

    def down_then_move():
        real_down()
        if game.session.level == 2 and game.happened_at is None:
            game.armed = True  # the window moves as level 2 loads

    game.down = down_then_move
    report = _run(game, tmp_path)
    assert game.happened_at is not None
    assert report.cleared == 2 and report.halt is None, report.stopped


def test_a_window_of_another_size_while_moving_on_is_the_game_fitting_it_to_the_next_level():
    # Moving on from a level the game took, its window shows at another size (a pack of bigger boards):
    # watched from its new size on, never named moved; a window that only moved is still named.
    from flowbot.live.clock import ManualClock
    from flowbot.live.window_watch import WindowWatch

    class OneWindow:
        """The display's one window, the game's, wherever the test puts it."""

        def __init__(self, box: Region) -> None:
            self.at = box

        def stack(self) -> list[int]:
            return [1]

        def box(self, window_id: int) -> Region:
            return self.at

        def exists(self, window_id: int) -> bool:
            return True

    class Watch(WindowWatch):
        """The watch alone, as the live loop holds it."""

        def __init__(self, windows: OneWindow) -> None:
            self.windows, self.clock = windows, ManualClock()
            self._window_before, self._window_checked, self._window_moved_at = None, float("-inf"), None

    windows = OneWindow(Region(500, 20, 540, 960))
    watch = Watch(windows)
    watch._window_before = (1, Region(520, 300, 500, 500), WindowFacts(True, True, windows.at))
    windows.at = Region(460, 0, 620, 1000)  # grown for the next level
    watch.check_window(now=True)
    assert watch._window_before[2].box == Region(460, 0, 620, 1000)
    windows.at = Region(600, 0, 620, 1000)  # then moved, at the same size
    with pytest.raises(WindowGoneError, match="moved from"):
        watch.check_window(now=True)


class GoingAsThePointerComes(FatedGame):
    """The fate comes as the pointer comes to the dialog's button (the click's approach), after the
    checks made before the click: the press that follows would land on what is there now."""

    def __init__(self, levels, fate: str) -> None:
        super().__init__(levels, fate, after=10**9)  # never by looks
        self.pressed_after: list[tuple[float, float]] = []

    def move(self, x: float, y: float) -> None:
        super().move(x, y)
        if self.armed and self.happened_at is None:
            self.happened_at = self.clock.now()
            self.state = self.fate
            if self.fate == "moved":
                self.move_window(self.at[0] + 200, self.at[1])

    def down(self) -> None:
        if self.happened_at is not None:
            self.pressed_after.append((self.x, self.y))
        super().down()


@pytest.mark.parametrize(("fate", "words"), [("closed", "was closed"), ("hidden", "was hidden"),
                                             ("moved", "moved from"), ("covered", "covers")])  # fmt: skip
def test_a_window_that_goes_as_the_pointer_comes_to_the_button_gets_no_press(levels, tmp_path, fate, words):
    game = GoingAsThePointerComes(levels, fate)
    report = _run(game, tmp_path)
    assert game.happened_at is not None
    assert game.pressed_after == []  # no press on the desktop, another window, or the window's old place
    assert isinstance(report.halt, WindowGoneError) and words in report.stopped
