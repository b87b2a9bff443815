"""Clocks for the live loops in tests (flowbot.live.clock): time that passes only when a loop waits,
so no test waits real seconds for a deadline."""

from __future__ import annotations

from collections.abc import Callable

from flowbot.live.clock import ManualClock


class HookedClock:
    """The time of `base`, whose waits also go to `hook` first (a simulated pointer's frames, a list
    of the pauses asked for)."""

    def __init__(self, hook: Callable[[float], object], base: ManualClock | None = None) -> None:
        self.hook, self.base = hook, base if base is not None else ManualClock()

    def now(self) -> float:
        """The base clock's time."""
        return self.base.now()

    def sleep(self, seconds: float) -> None:
        """Tell the hook, then move the base clock on."""
        self.hook(seconds)
        self.base.sleep(seconds)


class TimeOf:
    """The time of an object that keeps its own: a `now` attribute and a `sleep` that moves it on (a
    simulated game whose frames pass as the bot waits)."""

    def __init__(self, owner) -> None:
        self.owner = owner

    def now(self) -> float:
        """The owner's time."""
        return self.owner.now

    def sleep(self, seconds: float) -> None:
        """The owner's time passes."""
        self.owner.sleep(seconds)
