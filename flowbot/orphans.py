"""Worker processes that end with the process that started them, however it ends (SIGKILL included)."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

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
