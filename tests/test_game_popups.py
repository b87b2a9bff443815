"""A window of the game's own over its board (tk-like games open their "level complete" popup as a
window of its own over the next level, already in place): the board around it is part of a board,
never played; `popup_over` finds such a window from the display's windows alone."""

from __future__ import annotations

from flowbot.capture.space import Region
from flowbot.live.game_popups import popup_over

GAME = Region(100, 100, 400, 600)  # the game's window
BOARD = (150.0, 200.0, 450.0, 500.0)  # a 5x5 board of 60 px cells in it
CELL = 60.0


class _Windows:
    """Top-level windows bottom to top, with the ones of the game's own program."""

    def __init__(self, boxes: dict[int, Region | None], game: set[int]) -> None:
        self.boxes, self.game = boxes, game

    def stack(self) -> list[int]:
        """Bottom to top."""
        return list(self.boxes)

    def box(self, window_id: int) -> Region | None:
        """Where a shown window is (None: hidden)."""
        return self.boxes[window_id]

    def same_game(self, game: int, other: int) -> bool:
        """Both windows are the game's program's."""
        return game == other or (game in self.game and other in self.game)


def test_no_popup_over_a_board_alone_or_beside_windows_of_other_programs():
    assert popup_over(_Windows({1: Region(0, 0, 1600, 1000), 2: GAME}, {2}), BOARD, CELL) is None
    other = Region(200, 300, 200, 100)  # another program's window over the board: the guard's business
    assert popup_over(_Windows({2: GAME, 3: other}, {2}), BOARD, CELL) is None


def test_a_popup_of_the_game_over_the_lower_rows_cuts_the_board_the_rows_above_it_read_as():
    popup = Region(130, 390, 340, 160)  # over rows 4 and 5 (rows are 60 px from y=200)
    windows = _Windows({2: GAME, 7: popup}, {2, 7})
    assert popup_over(windows, BOARD, CELL) == popup
    # What reads above it (rows 1 to 3, ending 10 px above the popup) is a board cut by it.
    assert popup_over(windows, (150.0, 200.0, 450.0, 380.0), CELL) == popup
    # A board that ends more than a cell above the game's window is not cut by it.
    assert popup_over(windows, (150.0, 200.0, 450.0, 320.0), CELL) is None


def test_a_popup_over_the_boards_middle_is_found_under_the_centre():
    popup = Region(200, 250, 200, 200)
    assert popup_over(_Windows({2: GAME, 7: popup}, {2, 7}), BOARD, CELL) == popup


def test_a_window_of_the_game_beyond_a_cell_from_the_board_or_hidden_or_below_is_none():
    far = Region(600, 100, 200, 200)  # beside the game's window
    hidden = None
    below = Region(150, 200, 100, 100)  # stacked under the game's window
    windows = _Windows({8: below, 2: GAME, 7: far, 9: hidden}, {2, 7, 8, 9})
    assert popup_over(windows, BOARD, CELL) is None


def test_a_window_of_the_game_that_holds_the_whole_board_is_the_game_window_itself():
    # A program with two windows one above the other (a frame and the board's own window): the
    # topmost under the board that holds it whole is where the board shows, not a popup.
    inner = Region(120, 150, 360, 400)
    assert popup_over(_Windows({2: GAME, 5: inner}, {2, 5}), BOARD, CELL) is None
