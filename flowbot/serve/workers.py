"""The worker processes that read and solve uploads for `flowbot serve`, away from its event loop.

Processes rather than threads: reading a board is mostly Python and holds the GIL, so threads would
take turns on one core; and a crash in native code (a decoder fed a crafted file) kills one worker,
which costs that one request, never the server.
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from flowbot.errors import FlowbotError


class WorkerCrashed(FlowbotError):
    """A worker process died while analysing an upload (the pool is made anew for the next ones)."""


class Workers:
    """A pool of `count` worker processes, started fresh from Python (spawn: no copy of the server's
    event loop or threads), each ignoring Ctrl-C, which the server handles for all of them."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        """A new pool of worker processes."""
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(self.count, mp_context=context, initializer=_worker_start)

    async def warm(self) -> None:
        """Start every worker and load its imports now, so that the first upload does not wait for them."""
        await asyncio.gather(*(self.run(_warm) for _ in range(self.count)))

    async def run(self, function: Callable, *args):
        """`function(*args)` in a worker process, its exceptions raised here; WorkerCrashed if it died."""
        pool = self._pool
        try:
            return await asyncio.wrap_future(pool.submit(function, *args))
        except BrokenProcessPool:
            if self._pool is pool:  # the first request to see the crash replaces the pool
                self._pool = self._new_pool()
                pool.shutdown(wait=False, cancel_futures=True)
            raise WorkerCrashed("a worker process died reading this screenshot") from None

    def close(self) -> None:
        """Stop the workers: waiting uploads are dropped, running ones end within the solve limit."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def _worker_start() -> None:
    """In each worker: leave Ctrl-C to the server (the terminal sends it to every process of the group),
    and end with the server even when it is killed outright."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    server = os.getppid()
    _die_with_parent()
    if os.getppid() != server:  # the server died before the kernel was asked to tell
        os._exit(0)


# prctl(2) option: the signal this process gets when its parent dies.
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """On Linux, have the kernel send SIGTERM to this process when its parent dies; elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # without it, a worker of a killed server ends when it next reads its closed queue


def _warm() -> None:
    """Import what reading and solving need."""
    import flowbot.capture.overlay
    import flowbot.capture.screenshot
    import flowbot.numbermatch.read
    import flowbot.numbermatch.search
    import flowbot.serve.numbermatch
    import flowbot.serve.service
    import flowbot.solve.sat  # noqa: F401
