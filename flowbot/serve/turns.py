"""Whose upload a free worker takes next: the waiting client address that has used the workers least
lately, so that one client's many uploads (costly pictures sent again and again) queue behind each
other, not in front of a person's one screenshot. Worker time spent on an upload that gave no answer
(no board in it, refused once decoded, a crash) counts several times over: a script sending pictures
that never read, from many addresses, each using the workers about as much as a person sending
screenshots one after another, still waits behind that person."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

# Worker time used counts half as much after this many seconds: recent use is what decides.
HALF_LIFE = 60.0
# Addresses whose use is remembered at most; past it, the least used are forgotten.
REMEMBERED = 4096
# How many times over a turn that gave no answer counts. In the soak benchmark each of 8 addresses
# sending costly black pictures used the workers as much as the one sending real screenshots, and
# that one waited behind most of them (p95 6.2 s beyond its own work, load 9).
WASTED_WEIGHT = 4.0


@dataclass
class Turn:
    """One job's turn; the job sets `answered` when its upload gave an answer (its time counts once)."""

    answered: bool = False


class Turns:
    """At most `slots` jobs at once; when all are taken, the next free one goes to the waiting address
    with the least worker time used lately (decayed with HALF_LIFE), the longest waiting among equals."""

    def __init__(self, slots: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.free = slots
        self._clock = clock
        self._waiting: OrderedDict[str, deque[asyncio.Future]] = OrderedDict()
        self._used: dict[str, tuple[float, float]] = {}  # address -> (seconds used, when last counted)

    @contextlib.asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[Turn]:
        """Hold one slot for `client` while the body runs, waiting for its turn if none is free; the
        worker time counts against `client` once if the body marks its Turn answered, else WASTED_WEIGHT
        times."""
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
        started, turn = self._clock(), Turn()
        try:
            yield turn
        finally:
            self._count(client, (self._clock() - started) * (1.0 if turn.answered else WASTED_WEIGHT))
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
