"""The game's window's fate between two looks (closed, hidden, moved, covered, nothing): the pure
classification, the facts gathered from a display's windows, and real X windows on Xvfb."""

from __future__ import annotations

import shutil
import time

import pytest

from flowbot.act.guard import BoardGoneError
from flowbot.capture.space import Region
from flowbot.live.window_fate import WindowFacts, WindowGoneError, window_facts, window_fate

BOX = Region(100, 100, 300, 400)
SHOWN = WindowFacts(exists=True, shown=True, box=BOX)


@pytest.mark.parametrize(
    ("now", "what", "words"),
    [
        (WindowFacts(exists=False, shown=False, box=None), "closed", "was closed"),
        (WindowFacts(exists=True, shown=False, box=None), "hidden", "was hidden"),
        (WindowFacts(exists=True, shown=True, box=Region(500, 100, 300, 400)), "moved", "moved from 100,100"),
        (WindowFacts(exists=True, shown=True, box=Region(100, 100, 200, 400)), "moved", "to 100,100,200,400"),
        (WindowFacts(True, True, BOX, covering=(Region(0, 0, 200, 200),)), "covered", "(0,0,200,200) covers"),
        (SHOWN, "nothing", "where it was"),
    ],
    ids=["closed", "hidden", "moved", "resized", "covered", "nothing"],
)
def test_each_fate_is_named_in_one_line(now, what, words):
    fate = window_fate(SHOWN, now)
    assert fate.what == what
    assert words in fate.message and "\n" not in fate.message
    assert fate.exit_code == (0 if what == "nothing" else 11)


def test_the_first_change_that_explains_the_rest_wins():
    # A moved window that is also covered is reported moved; a hidden one has no box to compare.
    moved_and_covered = WindowFacts(True, True, Region(0, 0, 300, 400), covering=(BOX,))
    assert window_fate(SHOWN, moved_and_covered).what == "moved"
    assert window_fate(SHOWN, WindowFacts(True, False, None, covering=(BOX,))).what == "hidden"


def test_a_window_not_known_before_has_nothing_to_compare():
    unknown = WindowFacts(exists=False, shown=False, box=None)
    assert window_fate(unknown, WindowFacts(False, False, None)).what == "nothing"


def test_the_error_stops_a_run_with_status_11_like_the_guard():
    fate = window_fate(SHOWN, WindowFacts(exists=False, shown=False, box=None))
    error = fate.error()
    assert isinstance(error, WindowGoneError) and isinstance(error, BoardGoneError)
    assert error.exit_code == 11 and str(error) == fate.message and error.fate is fate


class _Windows:
    """A display's windows as the guard sees them: a stack, boxes, which exist, which are the game's."""

    def __init__(self, boxes: dict[int, Region | None], exists: set[int], game: frozenset = frozenset()):
        self.boxes, self.existing, self.game = boxes, exists, game

    def stack(self) -> list[int]:
        """Bottom to top, in the order the boxes were given."""
        return [window for window in self.boxes if window in self.existing]

    def box(self, window_id: int) -> Region | None:
        """The box of a shown window."""
        return self.boxes.get(window_id) if window_id in self.existing else None

    def exists(self, window_id: int) -> bool:
        """Whether the window exists."""
        return window_id in self.existing

    def same_game(self, game: int, other: int) -> bool:
        """Windows of the game's own program."""
        return other == game or (game in self.game and other in self.game)


def test_facts_count_only_other_programs_windows_above_over_the_board():
    board = Region(150, 150, 200, 200)
    windows = _Windows(
        {
            1: Region(0, 0, 1000, 1000),  # below the game: no cover
            2: BOX,  # the game
            3: Region(200, 200, 50, 50),  # the game's own popup over the board
            4: Region(350, 450, 100, 100),  # above, over the window but off the board
            5: Region(300, 300, 100, 100),  # another program's, over the board
            6: None,  # above, hidden
        },
        exists={1, 2, 3, 4, 5, 6},
        game=frozenset({2, 3}),
    )
    facts = window_facts(windows, 2, board)
    assert facts == WindowFacts(True, True, BOX, covering=(Region(300, 300, 100, 100),))
    # Without a board, the window's own box is what must stay uncovered.
    assert window_facts(windows, 2).covering == (Region(350, 450, 100, 100), Region(300, 300, 100, 100))


def test_facts_tell_a_hidden_window_from_a_closed_one():
    windows = _Windows({2: None}, exists={2})
    assert window_facts(windows, 2) == WindowFacts(exists=True, shown=False, box=None)
    assert window_facts(_Windows({}, exists=set()), 2) == WindowFacts(exists=False, shown=False, box=None)


# --- real X windows ------------------------------------------------------------------------------

live = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")


def _client():
    """A new X client on the display set now (as a program of its own would be)."""
    from Xlib import display

    from flowbot.display import quiet_x_client

    with quiet_x_client():
        return display.Display()


def _window(client, box: Region):
    """A shown top-level window of `client` at `box`, drawn and flushed."""
    screen = client.screen()
    window = screen.root.create_window(
        box.left, box.top, box.width, box.height, 0, screen.root_depth, background_pixel=screen.white_pixel
    )
    window.map()
    client.sync()
    return window


def _fate_within(windows, window_id: int, before: WindowFacts, board: Region, seconds: float = 2.0):
    """The first fate other than nothing seen within `seconds`, and how long it took to see."""
    started = time.monotonic()
    while True:
        fate = window_fate(before, window_facts(windows, window_id, board))
        if fate.what != "nothing" or time.monotonic() - started > seconds:
            return fate, time.monotonic() - started
        time.sleep(0.05)


@live
@pytest.mark.parametrize("change", ["closed", "hidden", "moved", "covered", "nothing"])
def test_real_windows_closed_hidden_moved_or_covered_are_named_within_2_s(change):
    from flowbot.display import VirtualDisplay
    from flowbot.live.windows import GameWindows

    board = Region(150, 150, 200, 200)
    with VirtualDisplay(800, 600):
        game, other = _client(), _client()
        window = _window(game, BOX)
        popup = _window(game, Region(200, 200, 50, 50))  # the game's own window over its board
        windows = GameWindows.open()
        assert windows is not None
        try:
            before = window_facts(windows, window.id, board)
            assert before == WindowFacts(True, True, BOX)
            if change == "closed":
                window.destroy()
            elif change == "hidden":
                window.unmap()
            elif change == "moved":
                window.configure(x=420, y=100)
            elif change == "covered":
                _window(other, Region(300, 300, 150, 150))
            game.sync()
            other.sync()
            fate, took = _fate_within(windows, window.id, before, board)
        finally:
            windows.close()
            popup.destroy()
            game.close()
            other.close()
    assert fate.what == change, fate.message
    assert took < 2.0 or change == "nothing"  # nothing: looked at for the whole 2 s
