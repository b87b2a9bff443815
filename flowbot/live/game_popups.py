"""A window of the game's own over its board: a "level complete" popup the game opens as a top-level
window of its own over the next level, which it has already put in place. The board shows only around
it, and what reads there (its rows above the popup) is a smaller board that is not the level: such a
board is not played, the popup's control is pressed (or the popup goes by itself) first.

`popup_over` is pure over the display's windows (X11Windows, or any object with `stack`, `box` and,
where the display can tell a program's windows, `same_game`)."""

from __future__ import annotations

import math

from flowbot.act.guard import Windows, same_game
from flowbot.capture.space import Region

# How far past the board's edge, in cells, a popup still counts as over it: a board cut by a popup
# reads as its uncovered rows, whose edge lies at the popup's.
MARGIN_CELLS = 1.0


def popup_over(windows: Windows, bounds: tuple[float, float, float, float], cell: float) -> Region | None:
    """The box of a shown window of the game's own over a board read at `bounds` (left, top, right,
    bottom, screen pixels) or within a cell of its edge, stacked above the window the board shows in;
    None when there is none. The window the board shows in is the topmost under its centre; when that
    one does not hold the whole board and a window of the same program below it does, it is itself a
    popup over the board (one that covers the board's middle)."""
    left, top, right, bottom = bounds
    margin = MARGIN_CELLS * cell
    x0, y0 = math.floor(left - margin), math.floor(top - margin)
    area = Region(x0, y0, math.ceil(right + margin) - x0, math.ceil(bottom + margin) - y0)
    board = Region(
        math.floor(left), math.floor(top), max(1, math.ceil(right - left)), max(1, math.ceil(bottom - top))
    )
    stack = windows.stack()
    boxes = {window: windows.box(window) for window in stack}
    centre = ((left + right) / 2, (top + bottom) / 2)
    under = [window for window in stack if boxes[window] is not None and boxes[window].contains(*centre)]
    if not under:
        return None
    game = under[-1]
    if not boxes[game].covers(board):
        below = [window for window in under[:-1] if boxes[window].covers(board)]
        if any(same_game(windows, window, game) for window in below):
            return boxes[game]  # a popup over the board's middle; the game's window is below it
    for window in stack[stack.index(game) + 1 :]:
        box = boxes[window]
        if box is not None and box.overlaps(area) and same_game(windows, game, window):
            return box
    return None
