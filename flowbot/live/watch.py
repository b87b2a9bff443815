"""The engine's ways to look again: every wait over looks at the screen, for any game, is one of
these, on the injected clock. A game gives only the look (what it reads, and whether that is what it
waits for); how often, how long and how many times is said here once.

A look returns a value when it found what is waited for, and None to look again (`AGAIN`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flowbot.live.clock import Clock

T = TypeVar("T")
AGAIN = None  # what a look returns to be looked at again


def until(
    clock: Clock, seconds: float, look: Callable[[], T | None], pause: float, first_pause: bool = False
) -> T | None:
    """Look until a look finds something (its value) or `seconds` have passed on the clock (None);
    a pause between looks, and one before the first with `first_pause` (a game given its time)."""
    deadline = clock.now() + seconds
    while clock.now() < deadline:
        if first_pause:
            clock.sleep(pause)
        found = look()
        if found is not None:
            return found
        if not first_pause:
            clock.sleep(pause)
    return None


def until_past(clock: Clock, seconds: float, look: Callable[[], T | None], pause: float) -> T | None:
    """Look until a look finds something, at least once and until a look after `seconds` have passed
    (the last look is taken past the deadline, so a slow game is seen at its latest): its value, or
    None."""
    deadline = clock.now() + seconds
    while True:
        found = look()
        if found is not None:
            return found
        if clock.now() > deadline:
            return None
        clock.sleep(pause)


def polls(clock: Clock, look: Callable[[], T | None], pause: float) -> T:
    """Look until a look decides (a value other than None): the look keeps its own deadline (a
    verdict that waits for a sign, then for a picture that stops changing)."""
    while True:
        found = look()
        if found is not None:
            return found
        clock.sleep(pause)


def tries(
    sleep: Callable[[float], None],
    times: int,
    look: Callable[[], T | None],
    pause: float,
    last_pause: bool = True,
) -> T | None:
    """Look at most `times` times until a look finds something (its value, else None), pausing after
    each look that did not (but the last when `last_pause` is False), with `sleep` (a clock's, or
    a guard's own)."""
    for number in range(times):
        found = look()
        if found is not None:
            return found
        if last_pause or number < times - 1:
            sleep(pause)
    return None


def until_done(turn: Callable[[], T | None]) -> T:
    """Take turns (observe, decide, act, confirm) until one says the round is done (a value other
    than None); a turn that cannot go on raises."""
    while True:
        done = turn()
        if done is not None:
            return done
