"""Which monitor to look at: the one holding the given window, else the one showing a board."""

from __future__ import annotations

import logging

from flowbot.capture.read import read_puzzle
from flowbot.capture.screen import MssScreen
from flowbot.capture.space import Monitor, Region
from flowbot.errors import FlowbotError

log = logging.getLogger(__name__)


def look_at_the_game(screen: MssScreen, region: Region | None) -> Monitor:
    """Point `screen` at the game's monitor and return it: the one holding most of `region` when one is
    given (--region, a profile), else the first on which a board reads (the primary first), else the
    primary. One look per monitor: waiting for a board still loading is the live loop's job."""
    monitors = screen.monitors
    if region is not None:
        chosen = max(monitors, key=lambda monitor: _shared_area(monitor.bounds, region))
    else:
        primary = screen.monitor
        order = [primary, *(monitor for monitor in monitors if monitor != primary)]
        chosen = next((m for m in order if len(monitors) == 1 or _shows_board(screen, m)), primary)
    screen.use(chosen)
    return chosen


def _shows_board(screen: MssScreen, monitor: Monitor) -> bool:
    """True when a board reads on the whole of `monitor` (the screen is left looking at it)."""
    screen.use(monitor)
    try:
        read_puzzle(screen.grab().pixels)
    except FlowbotError as error:
        log.info("no board on monitor %d: %s", monitor.index, error)
        return False
    return True


def _shared_area(a: Region, b: Region) -> int:
    """How many pixels two rectangles share."""
    width = min(a.left + a.width, b.left + b.width) - max(a.left, b.left)
    height = min(a.top + a.height, b.top + b.height) - max(a.top, b.top)
    return max(0, width) * max(0, height)
