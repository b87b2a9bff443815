"""`python -m flowbot` and the `flowbot` console script: the command line, run as a program."""

import gc
import sys
import types


class _InspectOnFirstUse(types.ModuleType):
    """Stands in for `inspect` until someone reads from it; then imports it and becomes a copy of it."""

    def __getattr__(self, name: str) -> object:
        """Import the real `inspect` on the first attribute read, and answer from it."""
        if sys.modules.get("inspect") is self:
            del sys.modules["inspect"]
        real = __import__("inspect")
        self.__dict__.update(real.__dict__)
        return getattr(real, name)


def _defer_inspect() -> None:
    """Put off importing `inspect` until it is used.

    `dataclasses` imports `inspect` (and with it `ast`, `dis` and `tokenize`) only to write a
    docstring for a class that has none, and every dataclass of flowbot has one: a text solve never
    reads it. Its import was about 10 ms of a 5x5 solve's 45 (41 of 191 million instructions,
    callgrind). Not importlib's LazyLoader: in Python 3.11 `import inspect` reads the module's
    `__spec__`, which makes a LazyLoader module load at once.
    """
    if "inspect" not in sys.modules:
        sys.modules["inspect"] = _InspectOnFirstUse("inspect")


def entry() -> int:
    """Run the command line as the whole of this process; its exit status.

    Start-up makes thousands of objects (modules, classes, functions) that live as long as the
    process, and the collector's passes over them while they load are wasted work: it is paused
    while the command line loads and what was made is set aside for good (gc.freeze, as Python's
    documentation suggests before a fork). At the end the process exits, so everything made since is
    set aside too: the shutdown need not walk it all once more. Objects are still freed as the
    modules are torn down; only reference cycles are left to the end of the process, whose
    finalisers Python never promises to run at exit. Together about 7 ms of a small solve's 45.
    """
    gc.disable()
    _defer_inspect()
    try:
        from flowbot.cli import main
    finally:
        gc.freeze()
        gc.enable()
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(entry())
