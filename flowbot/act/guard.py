"""Before each press: is the board the bot read still there? A cheap look, so a closed, moved or
covered game window stops the run instead of letting the bot press on whatever took its place."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from flowbot.act.pointer import StopRun
from flowbot.capture.screen import Frame, Region, Screen, Window
from flowbot.cellmap import CellMap
from flowbot.model import Cell

# How far (0-255, per channel) a dot's colour may drift before it no longer counts as the same dot:
# wide enough for antialiasing and a game's faint highlight, far narrower than another colour.
COLOUR_TOLERANCE = 48
STOPPED = "stopped before pressing"
# Half the side of the square judged at each dot's centre, of a cell: its corners stay inside any
# dot drawn (dots are 0.3 of a cell in radius or more), and it is wide enough that a mark the game
# draws on a dot (its own cursor under the pointer, a pressed dot's highlight, a number) leaves the
# square's median colour the dot's.
SPOT = 0.2
# A board whose changed dots are at most one in this many, the rest as read, has not answered.
MARKED_SHARE = 4
LOOKS = 3  # a board that still looks different after this many looks is gone
RELOOK_PAUSE = 0.15  # seconds between looks


class BoardGoneError(StopRun):
    """The game's board is no longer where the bot read it: the window closed, moved or is covered."""

    exit_code = 11


class BoardAnsweredError(BoardGoneError):
    """The board changed in place while the game's window stayed where it was, shown and uncovered:
    the game reacting to the strokes (a win screen, the next level), not a moved or closed window."""


class Windows(Protocol):
    """The display's top-level windows (X11Windows, or a fake in tests)."""

    def stack(self) -> list[int]:
        """Window ids from the bottom of the stacking order to the top."""
        ...

    def box(self, window_id: int) -> Region | None:
        """Where the window is, or None when it is gone or hidden."""
        ...


def same_game(windows: Windows, game: int, other: int) -> bool:
    """True when `other` is one of the game's own windows (the game's window itself, a popup or
    dialog window the same program opened, or one transient for it), where the display can tell:
    a `same_game(a, b)` method on the windows; without one only the game's window itself."""
    if other == game:
        return True
    ask = getattr(windows, "same_game", None)
    return bool(ask(game, other)) if ask is not None else False


@dataclass(frozen=True, slots=True)
class Spot:
    """A screen pixel that must keep its colour while the level is drawn (a dot's centre), as read."""

    x: int
    y: int
    bgr: tuple[int, int, int]


class BoardGuard:
    """Compares the screen, before each press, with the frame the board was read from.

    Two looks: the dots' centres (pipes never cover them, so they keep their colour for the whole
    level) and, where the display can tell, the game's top-level window (still there, in the same
    place, with no other window over the board).
    """

    def __init__(
        self, screen: Screen, spots: list[Spot], board: Region, windows: Windows | None, radius: int
    ) -> None:
        self.screen, self.spots, self.board, self.windows, self.radius = screen, spots, board, windows, radius
        self.sleep: Callable[[float], None] = time.sleep
        self.window: Window | None = self._window_under(board) if windows is not None else None

    @classmethod
    def arm(
        cls, screen: Screen, frame: Frame, geometry: CellMap, dots: Iterable[Cell], windows: Windows | None
    ) -> BoardGuard:
        """A guard for a board read from `frame`; `geometry` in screen pixels, `dots` its endpoint cells.

        The dots' colours to keep are taken from a grab made now, of the very part of the screen each
        check grabs: the frame read may be older (a board still fading in) or grabbed at another size
        (a scaled capture resamples a small grab differently from the whole screen), and either made
        a still screen look changed. `frame` is used where the screen gives nothing to grab.
        """
        radius = max(1, round(geometry.cell_size * SPOT))
        centres = [tuple(round(value) for value in geometry.center(cell)) for cell in dots]
        now = (
            screen.grab(_bounding([Spot(x, y, (0, 0, 0)) for x, y in centres], radius)) if centres else frame
        )
        spots = [Spot(x, y, _median(now.pixels, x - now.left, y - now.top, radius)) for x, y in centres]
        edges = geometry.bounds
        left, top = round(edges[0]), round(edges[1])
        board = Region(left, top, round(edges[2]) - left, round(edges[3]) - top)
        return cls(screen, spots, board, windows, radius)

    def check(self, x: float | None = None, y: float | None = None) -> None:
        """Raise BoardGoneError unless the board is still there (and (x, y), if given, on its window)."""
        self.check_window()
        if self.window is not None and x is not None and y is not None and not self.window.box.contains(x, y):
            raise BoardGoneError(f"({x:.0f}, {y:.0f}) is outside the game's window; {STOPPED}")
        if not self.spots:
            return
        for look in range(LOOKS):
            changed = self._changed_spots()
            if not changed:
                return
            if look < LOOKS - 1:  # a game redrawing, or a capture mid-update: look again before giving up
                self.sleep(RELOOK_PAUSE)
        if self.window is not None and self._only_marked(changed, x, y):
            return
        if self.window is not None:
            # The window was looked at just now (check_window): same place, shown, nothing over the
            # board. What changed is the game's own picture: its answer, which the caller judges.
            raise BoardAnsweredError(
                f"the game changed its board in place ({len(changed)} of {len(self.spots)} dots look "
                f"different; its window did not move, close or get covered); {STOPPED}"
            )
        raise BoardGoneError(
            f"the game's board is no longer where it was (window closed, moved or covered): "
            f"{len(changed)} of {len(self.spots)} dots look different; {STOPPED}"
        )

    def _only_marked(self, changed: list[Spot], x: float | None, y: float | None) -> bool:
        """True when a few of many dots changed (at most one in MARKED_SHARE) in an unmoved window and
        the press is on none of them: a mark on those dots (a browser's text selection behind a dot's
        glyph after a drag), not the game's answer, which a new level, a dialog or a win screen over
        the board gives on most dots at once. A press is never made on a dot that changed."""
        if len(changed) * MARKED_SHARE > len(self.spots):
            return False
        reach = self.radius / SPOT / 2  # half a cell
        return x is None or y is None or all(max(abs(x - s.x), abs(y - s.y)) > reach for s in changed)

    def _changed_spots(self) -> list[Spot]:
        """The dots whose centre no longer shows the colour read."""
        frame = self.screen.grab(_bounding(self.spots, self.radius))
        return [
            spot for spot in self.spots if _distance(self._seen(frame, spot), spot.bgr) > COLOUR_TOLERANCE
        ]

    def _seen(self, frame: Frame, spot: Spot) -> tuple[int, int, int]:
        """The colour a frame shows at a spot, judged as when the guard was armed."""
        return _median(frame.pixels, spot.x - frame.left, spot.y - frame.top, self.radius)

    def check_window(self) -> None:
        """The cheap half of `check`, also run while the button is held: the game's window is still
        there, in the same place, and nothing covers the board. Does nothing where windows are unknown."""
        if self.windows is None or self.window is None:
            return
        box = self.windows.box(self.window.id)
        if box is None:
            raise BoardGoneError(f"the game's window is gone (closed or hidden); {STOPPED}")
        if box != self.window.box:
            where = f"from {self.window.box} to {box}, LEFT,TOP,WIDTH,HEIGHT"
            if box.size != self.window.box.size:
                # A game fits its window to the level it shows: one that changed size under the strokes
                # is the game's answer (the next level, of another size) until the verdict finds no word.
                raise BoardAnsweredError(f"the game's window changed size ({where}); {STOPPED}")
            raise BoardGoneError(f"the game's window moved ({where}); {STOPPED}")
        stack = self.windows.stack()
        above = stack[stack.index(self.window.id) + 1 :] if self.window.id in stack else []
        for window_id in above:
            other = self.windows.box(window_id)
            # The game's own popup or dialog window over its board is part of the game.
            if (
                other is not None
                and other.overlaps(self.board)
                and not same_game(self.windows, self.window.id, window_id)
            ):
                raise BoardGoneError(f"another window ({other}) covers part of the board; {STOPPED}")

    def check_point(self, x: float, y: float) -> None:
        """Before a press off the board (a control): raise BoardGoneError unless the topmost window
        under (x, y) is one of the game's (its window, or a popup or dialog window of its own), never
        the bare desktop or another program. Does nothing where windows are unknown."""
        if self.windows is None or self.window is None:
            return
        for window_id in reversed(self.windows.stack()):
            box = self.windows.box(window_id)
            if box is None or not box.contains(x, y):
                continue
            if same_game(self.windows, self.window.id, window_id):
                return
            raise BoardGoneError(f"({x:.0f}, {y:.0f}) is on another program's window ({box}); {STOPPED}")
        raise BoardGoneError(
            f"({x:.0f}, {y:.0f}) is on the bare desktop, on no window of the game; {STOPPED}"
        )

    def _window_under(self, board: Region) -> Window | None:
        """The topmost shown window holding the board's centre: the game's (None if there is none)."""
        assert self.windows is not None
        return window_under(self.windows, board.left + board.width / 2, board.top + board.height / 2)


def window_under(windows: Windows, x: float, y: float) -> Window | None:
    """The topmost shown window holding the screen pixel (x, y) (None if there is none): under a
    board's centre, the game's."""
    for window_id in reversed(windows.stack()):
        box = windows.box(window_id)
        if box is not None and box.contains(x, y):
            return Window(window_id, box)
    return None


def check_on_a_window(windows: Windows | None, x: float, y: float) -> None:
    """Before a press where the game's window is not known yet: raise BoardGoneError when (x, y) is on
    no window at all (the bare desktop). Does nothing where windows are unknown."""
    if windows is None:
        return
    for window_id in windows.stack():
        box = windows.box(window_id)
        if box is not None and box.contains(x, y):
            return
    raise BoardGoneError(f"({x:.0f}, {y:.0f}) is on the bare desktop, on no window; {STOPPED}")


def _median(pixels: np.ndarray, x: int, y: int, radius: int) -> tuple[int, int, int]:
    """The median BGR of the square of `radius` around (x, y) on an image (black where it falls off)."""
    height, width = pixels.shape[:2]
    rows = slice(max(0, y - radius), min(height, y + radius + 1))
    patch = pixels[rows, max(0, x - radius) : min(width, x + radius + 1)]
    if patch.size == 0:
        return (0, 0, 0)
    blue, green, red = np.median(patch.reshape(-1, 3), axis=0)
    return round(blue), round(green), round(red)


def _distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    """The largest difference of one channel."""
    return max(abs(p - q) for p, q in zip(a, b, strict=True))


def _bounding(spots: list[Spot], radius: int) -> Region:
    """The smallest rectangle holding every spot's square."""
    left = min(spot.x for spot in spots) - radius
    top = min(spot.y for spot in spots) - radius
    right = max(spot.x for spot in spots) + radius + 1
    bottom = max(spot.y for spot in spots) + radius + 1
    return Region(left, top, right - left, bottom - top)
