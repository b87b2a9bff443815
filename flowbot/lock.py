"""One bot per game: a lock per display, so a second `auto-clear` or `scrape` on the same screen
refuses to start instead of drawing over the first one's strokes.

The lock is a kernel lock on a small file in the runtime folder (flock on POSIX, msvcrt on
Windows): the kernel drops it when its process ends however it ends, so a killed bot never leaves
a stale lock behind. The file names the holder (pid and command) for the second bot's message.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from flowbot.errors import FlowbotError

__all__ = ["BotRunningError", "Holder", "bot_lock", "lock_path", "screen_key"]


class BotRunningError(FlowbotError):
    """Another bot already plays on this display; this one refused to start before any press."""

    exit_code = 9


@dataclass(frozen=True, slots=True)
class Holder:
    """The bot that holds a display's lock, as its lock file names it (pid 0: not written yet)."""

    pid: int
    command: str

    def describe(self) -> str:
        """'pid 1234 (flowbot auto-clear --count 5)', or what is known of it."""
        if self.pid <= 0:
            return "a process that has not yet written its name"
        return f"pid {self.pid} ({self.command})" if self.command else f"pid {self.pid}"


def screen_key(display: str | None = None) -> str:
    """The screen a bot plays on: $DISPLAY without its screen number (':0.0' and 'unix:0' are ':0'),
    else $WAYLAND_DISPLAY, else the one console of systems without either."""
    name = display if display is not None else os.environ.get("DISPLAY") or ""
    if name:
        host, _, rest = name.rpartition(":")
        number = rest.split(".")[0]
        return f"{'' if host in ('', 'unix') else host}:{number}"
    return os.environ.get("WAYLAND_DISPLAY") or "console"


def lock_path(display: str | None = None, folder: Path | None = None) -> Path:
    """The lock file of a display: in $XDG_RUNTIME_DIR (per user), else the temp folder with the
    user's id in its name (another user's file there could not be opened for writing)."""
    key = re.sub(r"[^A-Za-z0-9._-]", "_", screen_key(display))
    if folder is None:
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        if runtime and os.path.isdir(runtime) and os.access(runtime, os.W_OK):
            folder = Path(runtime)
        else:
            folder = Path(tempfile.gettempdir())
            key = f"{key}-{_user_id()}"
    return folder / f"flowbot-bot-{key}.lock"


@contextmanager
def bot_lock(
    display: str | None = None, *, command: str | None = None, folder: Path | None = None
) -> Iterator[Path]:
    """Hold the display's bot lock while the block runs; BotRunningError (naming the holder) when
    another process holds it. Released on the way out, and by the kernel if this process dies."""
    path = lock_path(display, folder)
    try:
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - closed below, which drops the lock
    except OSError as error:
        raise BotRunningError(
            f"cannot open the bot lock {path}: {error.strerror or error}"
            " (it keeps a second bot off the same display)"
        ) from None
    try:
        if not _try_lock(handle.fileno()):
            holder = read_holder(path)
            raise BotRunningError(
                f"another bot is already playing on display {screen_key(display)}: {holder.describe()};"
                " one bot per game (wait for it to end, or stop it first)"
            )
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n{command if command is not None else _own_command()}\n")
        handle.flush()
        try:
            yield path
        finally:
            # Emptied before the lock goes, so no later bot reads a name that no longer plays.
            handle.seek(0)
            handle.truncate()
            handle.flush()
    finally:
        handle.close()  # closing the file releases the kernel lock


def read_holder(path: Path) -> Holder:
    """Who a lock file names: its first line the pid, its second the command."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    pid = int(lines[0]) if lines and lines[0].strip().isdigit() else 0
    return Holder(pid, lines[1].strip() if len(lines) > 1 else "")


def _try_lock(fd: int) -> bool:
    """Take an exclusive lock on an open file without waiting; False when another process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _own_command() -> str:
    """This process's command line as a person typed it: 'flowbot auto-clear --count 5'."""
    program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"
    if program in ("__main__.py", "-m", "-c"):
        program = "flowbot"
    return shlex.join([program, *sys.argv[1:]])


def _user_id() -> str:
    """The user's id where there is one (POSIX), else the login name."""
    getuid = getattr(os, "getuid", None)
    if getuid is not None:
        return str(getuid())
    return re.sub(r"[^A-Za-z0-9._-]", "_", os.environ.get("USERNAME", "user"))
