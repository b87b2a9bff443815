"""Worker processes that end with the process that started them, however it ends (SIGKILL included)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

# The signals that stop a command: held while workers are forked (see worker_pool).
_STOPS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers are started now, and die with this process.

    They are forked with the stop signals held: a signal's handler that raises (Ctrl-C, or SIGTERM
    through the CLI's) inside fork's own hooks has its exception dropped, and the stop would be lost.
    Held, the signal waits until the forks are done, then stops the run as anywhere else.
    """
    pool = ProcessPoolExecutor(max_workers=workers, initializer=start_worker, initargs=(os.getpid(),))
    with _held(_STOPS):
        pool.submit(int).result()  # a forking pool starts all its workers on its first job
    return pool


@contextlib.contextmanager
def _held(signals: tuple[int, ...]) -> Iterator[None]:
    """Block `signals` for the block (where the system can); they are delivered after it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


# prctl(2) option: the signal this process gets when its parent dies.
_PR_SET_PDEATHSIG = 1


def start_worker(parent: int) -> None:
    """In a worker process (a pool's initializer): leave Ctrl-C, SIGTERM and SIGHUP to `parent` (the
    terminal sends Ctrl-C to the whole group; a forked worker would otherwise run the parent's own
    handlers, which raise and are caught by the pool as a job's error), and die with `parent`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked with them held (worker_pool)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    die_with_parent()
    if os.getppid() != parent:  # the parent died before the kernel was asked to tell
        os._exit(0)


def die_with_parent() -> bool:
    """On Linux, have the kernel kill this process (SIGKILL: a worker holds nothing to clean up) when
    the thread that started it ends; True when asked. Elsewhere nothing (False)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False
