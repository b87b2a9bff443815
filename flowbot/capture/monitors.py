"""Which monitor to look at: the one holding the given window, else the one showing a board."""

from __future__ import annotations

import logging

from flowbot.capture.buttons import find_next_button
from flowbot.capture.desktop import bounding, spanning
from flowbot.capture.read import read_puzzle
from flowbot.capture.screen import MssScreen
from flowbot.capture.space import Monitor, Region
from flowbot.errors import FlowbotError

log = logging.getLogger(__name__)


def look_at_the_game(screen: MssScreen, region: Region | None) -> Monitor:
    """Point `screen` at the game's monitor and return it: the monitors `region` touches when one is
    given (--region, a profile), else the first on which a board reads (the primary first), else the
    monitors a board read across all of them touches (a game window spanning two), else the first
    showing a won level's dialog, else the primary. Several monitors touched are looked at as one,
    their bounding union (see desktop.spanning). One look per monitor: waiting for a board still
    loading is the live loop's job."""
    monitors = screen.monitors
    if region is not None:
        most = max(monitors, key=lambda monitor: _shared_area(monitor.bounds, region))
        chosen = spanning(monitors, region) or most
    else:
        primary = screen.monitor
        chosen = _showing_the_game(screen, [primary, *(m for m in monitors if m != primary)]) or primary
    screen.use(chosen)
    return chosen


def _showing_the_game(screen: MssScreen, order: list[Monitor]) -> Monitor | None:
    """The first monitor in `order` with a board, else the union of the monitors a board read across
    them all touches, else the first with a won level's dialog; looks at each only until a board shows
    (None with one monitor: nothing to choose)."""
    if len(order) == 1:
        return None
    dialogs = []
    for monitor in order:
        seen = what_shows(screen, monitor)
        if seen == "board":
            return monitor
        if seen == "dialog":
            dialogs.append(monitor)
    across = _board_across(screen, order)
    return across or (dialogs[0] if dialogs else None)


def _board_across(screen: MssScreen, order: list[Monitor]) -> Monitor | None:
    """The monitors a board touches when it reads only on all monitors together (it spans two or
    more), as one; None when no board reads there or the monitors have different scales."""
    every = spanning(order, bounding([monitor.bounds for monitor in order]))
    if every is None:
        return None
    screen.use(every)
    frame = screen.grab()
    try:
        left, top, right, bottom = read_puzzle(frame.pixels).geometry.bounds
    except FlowbotError as error:
        log.info("no board across the monitors either: %s", error)
        return None
    board = Region(frame.left + int(left), frame.top + int(top), int(right - left) + 1, int(bottom - top) + 1)
    log.info("a board spans monitors at %s", board)
    return spanning(order, board)


def what_shows(screen: MssScreen, monitor: Monitor) -> str | None:
    """What `monitor` shows: "board" when a board reads on all of it, "dialog" when a won level's dialog
    shows there (the board under it does not read), else None."""
    screen.use(monitor)
    pixels = screen.grab().pixels
    try:
        read_puzzle(pixels)
    except FlowbotError as error:
        log.info("no board on monitor %d: %s", monitor.index, error)
        return "dialog" if find_next_button(pixels) is not None else None
    return "board"


def _shared_area(a: Region, b: Region) -> int:
    """How many pixels two rectangles share."""
    width = min(a.left + a.width, b.left + b.width) - max(a.left, b.left)
    height = min(a.top + a.height, b.top + b.height) - max(a.top, b.top)
    return max(0, width) * max(0, height)
