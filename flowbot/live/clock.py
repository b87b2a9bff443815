"""The clock port of the live loops: every wait, deadline and timeout reads `now` and waits with
`sleep` on one `Clock`, so a test can run a loop on time of its own (no real seconds spent waiting
for a deadline) and a game simulated in-process can share that time."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Where a live loop's time comes from."""

    def now(self) -> float:
        """Seconds on a clock that never goes back (only differences mean anything)."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait `seconds` on this clock."""
        ...


class SystemClock:
    """The real clock: `time.perf_counter` (monotonic, fine-grained) and `time.sleep`."""

    def now(self) -> float:
        """Seconds of the performance counter."""
        return time.perf_counter()

    def sleep(self, seconds: float) -> None:
        """Wait for real (a negative wait is none)."""
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """A clock that moves only when asked: `sleep` moves it on at once, and so does `advance`. Calling
    it gives `now()`, so it can stand where a plain `() -> float` clock is asked for (a simulated
    game's)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.time = start

    def now(self) -> float:
        """The clock's time."""
        return self.time

    def sleep(self, seconds: float) -> None:
        """Move the clock on by `seconds` (no real wait)."""
        self.time += max(0.0, seconds)

    def advance(self, seconds: float) -> None:
        """Move the clock on, as work that takes time would."""
        self.time += max(0.0, seconds)

    def __call__(self) -> float:
        return self.time
