"""The game on the real screen, for the commands that play it: the screen, the mouse in the same
coordinate space (HiDPI measured and probed), and the game's windows for the board guard, opened
and closed in one place."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

from flowbot.capture.space import Region


@dataclass
class LiveGame:
    """What a live command plays through: screen, pointer and windows (None in a dry run)."""

    screen: object
    pointer: object
    windows: object | None


@contextmanager
def game_on_screen(region: Region | None, *, dry_run: bool = False) -> Iterator[LiveGame]:
    """The game on screen for one bot: a run that presses first takes the display's bot lock (one
    bot per game), so a second one refuses before it opens anything; released however it ends."""
    from flowbot.lock import bot_lock

    with nullcontext() if dry_run else bot_lock(), _opened(region, dry_run=dry_run) as game:
        yield game


@contextmanager
def _opened(region: Region | None, *, dry_run: bool) -> Iterator[LiveGame]:
    """Open the screen, look for the game's monitor, measure the pointer against it, and open the
    window list; all closed on the way out, however the run ends."""
    from flowbot.act.pointer import RecordingPointer, open_pointer
    from flowbot.capture.monitors import look_at_the_game
    from flowbot.capture.screen import MssScreen
    from flowbot.live.windows import GameWindows

    screen = MssScreen()
    windows = None
    try:
        screen.check_region(region)
        look_at_the_game(screen, region)  # the monitor with the board (several monitors)
        bounds = region or screen.bounds
        pointer = RecordingPointer() if dry_run else open_pointer(screen, bounds)  # HiDPI: measured, probed
        windows = None if dry_run else GameWindows.open(pointer.space.box_from_pointer)
        yield LiveGame(screen, pointer, windows)
    finally:
        screen.close()
        if windows is not None:
            windows.close()
