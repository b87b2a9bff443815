"""Whose upload a free worker takes next: the waiting client address that has used the workers least
lately, so that one client's many uploads (costly pictures sent again and again) queue behind each
other, not in front of a person's one screenshot."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable

# Worker time used counts half as much after this many seconds: recent use is what decides.
HALF_LIFE = 60.0
# Addresses whose use is remembered at most; past it, the least used are forgotten.
REMEMBERED = 4096


class Turns:
    """At most `slots` jobs at once; when all are taken, the next free one goes to the waiting address
    with the least worker time used lately (decayed with HALF_LIFE), the longest waiting among equals."""

    def __init__(self, slots: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.free = slots
        self._clock = clock
        self._waiting: OrderedDict[str, deque[asyncio.Future]] = OrderedDict()
        self._used: dict[str, tuple[float, float]] = {}  # address -> (seconds used, when last counted)

    @contextlib.asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """Hold one slot for `client` while the body runs, waiting for its turn if none is free."""
        if self.free > 0 and not self._waiting:
            self.free -= 1
        else:
            granted = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(client, deque()).append(granted)
            try:
                await granted
            except asyncio.CancelledError:
                if granted.done() and not granted.cancelled():
                    self._release()  # given a slot just as it was cancelled: pass it on
                else:
                    self._forget(client, granted)
                raise
        started = self._clock()
        try:
            yield
        finally:
            self._count(client, self._clock() - started)
            self._release()

    def used(self, client: str) -> float:
        """Seconds of worker time `client` used, decayed to now."""
        seconds, when = self._used.get(client, (0.0, 0.0))
        return seconds * math.exp2(-(self._clock() - when) / HALF_LIFE)

    def _count(self, client: str, seconds: float) -> None:
        """Add a turn's seconds to the client's use."""
        self._used[client] = (self.used(client) + seconds, self._clock())
        if len(self._used) > REMEMBERED:
            for address in sorted(self._used, key=self.used)[: REMEMBERED // 2]:
                del self._used[address]

    def _release(self) -> None:
        """Give a slot to the waiting address that used the workers least lately, or free it."""
        while self._waiting:
            client = min(self._waiting, key=self.used)  # min keeps the first (longest waiting) of equals
            queue = self._waiting.pop(client)
            granted = queue.popleft()
            if queue:
                self._waiting[client] = queue  # its next upload waits behind every other address
            if not granted.done():
                granted.set_result(None)
                return
        self.free += 1

    def _forget(self, client: str, granted: asyncio.Future) -> None:
        """Drop a waiter that gave up (its client hung up or the server is stopping)."""
        queue = self._waiting.get(client)
        if queue is not None and granted in queue:
            queue.remove(granted)
            if not queue:
                del self._waiting[client]
