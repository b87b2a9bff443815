"""Whose upload a free worker takes next: client addresses in turn, so that one client's many
uploads (costly pictures sent again and again) queue behind each other, not in front of everyone's."""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator


class Turns:
    """At most `slots` jobs at once; when all are taken, the next free one goes to the waiting client
    address that waited longest for a turn, one job per address in turn (round robin)."""

    def __init__(self, slots: int) -> None:
        self.free = slots
        self._waiting: OrderedDict[str, deque[asyncio.Future]] = OrderedDict()

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
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        """Give a slot to the next address in turn, or free it."""
        while self._waiting:
            client, queue = self._waiting.popitem(last=False)
            granted = queue.popleft()
            if queue:
                self._waiting[client] = queue  # its next upload waits for every other address's turn
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
