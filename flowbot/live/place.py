"""Where the game is on the screen: the part of it looked at once a board was found (the game's
window, or the board with room around it), where its controls may be, the pointer's fence and the
board guard armed before drawing."""

from __future__ import annotations

import math

from flowbot.act.guard import BoardGuard, window_under
from flowbot.capture.screen import Frame, Region, region_around
from flowbot.cellmap import CellMap
from flowbot.live.scene import BoardReading, Scene
from flowbot.model import Puzzle


class GamePlace:
    """Where the game is (a role of LiveLoop: it reads `region`, `pointer`, `screen`, `windows` and
    keeps `_focus`, `_game_window` and `screen_bounds`)."""

    def look_region(self) -> Region | None:
        """The part of the screen the loop's looks grab: once a board was found, the game's part of it
        (where its controls may be around the board, see room_of), else `region` (None: the whole
        screen). A capture costs as its area: a 4K screen grabbed whole costs several times that."""
        return self._focus or self.region

    def _focus_on(self, scene: Scene, wide: bool) -> None:
        """Look at the game's part of the screen around `scene`'s board from now on: what a look must
        hold for the board (room_of) and the game's window, where the display tells it (a board that
        grows or moves in it is found there); else a cell more around (a board that shifts a little
        from one level to the next). After a look at the whole area the game's window is looked up
        again: the board may be in another window now."""
        if self.region is not None:
            return  # the person's region is the game's part already
        board = scene.geometry
        if wide and self.windows is not None:
            left, top, right, bottom = board.bounds
            window = window_under(self.windows, (left + right) / 2, (top + bottom) / 2)
            self._game_window = window.box if window is not None else None
        room, game, limit = self.room_of(board), self._game_window_of(board), self.limit()
        if room is None or limit is None:
            self._focus = None
            return
        if game is None:
            cell = math.ceil(board.cell_size)
            room = Region(room.left - cell, room.top - cell, room.width + 2 * cell, room.height + 2 * cell)
        self._focus = _bounding(room, game or room).clipped(limit) or room

    def room_of(self, board: CellMap) -> Region | None:
        """What a look must hold for a board (screen pixels) to be judged on it: where the game's
        controls may be (window_of) and a cell around the board (a board cut by the look's edge would
        read as a smaller one), inside the screen; None where the screen's extent is not known."""
        window, limit = self.window_of(board), self.limit()
        if window is None or limit is None:
            return None
        left, top, right, bottom = board.bounds
        cell = board.cell_size
        x0, y0 = math.floor(left - cell), math.floor(top - cell)
        around = Region(x0, y0, math.ceil(right + cell) - x0, math.ceil(bottom + cell) - y0)
        return _bounding(window, around).clipped(limit)

    def _game_window_of(self, board: CellMap) -> Region | None:
        """The game's window, as the display told it when the board was last found on the whole
        area, when it holds the board's centre (None: not known, or the board is elsewhere now)."""
        left, top, right, bottom = board.bounds
        game = self._game_window
        return game if game is not None and game.contains((left + right) / 2, (top + bottom) / 2) else None

    def _holds(self, frame: Frame, reading: BoardReading) -> bool:
        """True when a frame holds all that a board read on it needs to be judged there (room_of)."""
        room = self.room_of(reading.geometry.shifted(frame.left, frame.top))
        return room is not None and frame.region.covers(room)

    def fence(self, board: CellMap, frame: Frame, puzzle: Puzzle) -> None:
        """Before drawing a board read from `frame` (`board` in screen pixels): arm the pointer's
        guard (is the board still there before each press?), and keep the pointer near the board when
        no window region was given: the board and half its size around it (where the game's dialog and
        its buttons are), inside the screen."""
        if hasattr(self.pointer, "guard") and not self.dry_run:
            dots = [cell for pair in puzzle.endpoints for cell in pair]
            self.pointer.guard = BoardGuard.arm(self.screen, frame, board, dots, self.windows)
            self.pointer.guard.sleep = self.clock.sleep
        bounds = getattr(self.pointer, "bounds", None)
        if self.region is not None or bounds is None:
            return
        self.screen_bounds = self.screen_bounds or bounds
        left, top, right, bottom = board.bounds
        self.pointer.bounds = region_around((left, right), (top, bottom), self.limit())

    def window_of(self, board: CellMap) -> Region | None:
        """Where the game's controls may be: the window region when given, else the board with three
        times its size around it (a dialog centred on a window much bigger than its board), within
        the game's window where the display tells it (its controls are on it)."""
        if self.region is not None:
            return self.region
        limit = self.limit()
        if limit is None:
            return None
        left, top, right, bottom = board.bounds
        around = region_around((left, right), (top, bottom), limit, margin=3.0)
        game = self._game_window_of(board)
        return (around.clipped(game) or around) if game is not None else around

    def limit(self) -> Region | None:
        """Where on the screen the game may be: the pointer's first bounds (the monitor, or --region),
        cut to the screen as it is now (it may have been resized since the run began)."""
        limit = self.screen_bounds or getattr(self.pointer, "bounds", None)
        now = getattr(self.screen, "everything", None)  # a real screen's extent, measured afresh
        if limit is None or now is None:
            return limit
        return limit.clipped(now) or limit


def _bounding(one: Region, other: Region) -> Region:
    """The smallest region holding both."""
    left, top = min(one.left, other.left), min(one.top, other.top)
    right = max(one.left + one.width, other.left + other.width)
    bottom = max(one.top + one.height, other.top + other.height)
    return Region(left, top, right - left, bottom - top)
