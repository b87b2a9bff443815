"""A virtual X display (Xvfb) for headless machines: started on demand, stopped on exit."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from flowbot.errors import DisplayLost, FlowbotError, StopRun

log = logging.getLogger(__name__)


class DisplayError(FlowbotError):
    """No display to play on, and none could be started."""

    exit_code = 6


class VirtualDisplay:
    """Xvfb on a free display number, with an Xauthority file so X clients connect quietly.

    Use as a context manager; it sets DISPLAY and XAUTHORITY for this process and its children.
    """

    def __init__(self, width: int = 1280, height: int = 1024, cookie: bool = True, depth: int = 24) -> None:
        self.width, self.height = width, height
        self.depth = depth  # bits of colour per pixel: 24 as most desktops; 8, 16 and 30 are Xvfb's others
        self.cookie = cookie  # False: no -auth and no XAUTHORITY, like displays that have no Xauthority file
        self.process: subprocess.Popen | None = None
        self.name = ""
        self._saved: dict[str, str | None] = {}
        self._folder: tempfile.TemporaryDirectory | None = None

    def __enter__(self) -> VirtualDisplay:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Start Xvfb and point this process's X clients at it."""
        if shutil.which("Xvfb") is None:
            raise DisplayError("no display and no Xvfb to start one (apt-get install xvfb)")
        self._folder = tempfile.TemporaryDirectory(prefix="flowbot-x-")
        authority = Path(self._folder.name) / "Xauthority"
        authority.touch()  # python-xlib (pyautogui) wants the file to exist
        for number in range(90, 200):
            # A number is free when no server answers on it and no live process holds its lock: the
            # files a killed server leaves behind (Xvfb takes over both) must not use up the numbers.
            if _lock_held(number) or display_alive(f":{number}", timeout=0.2):
                continue
            # -noreset: the server stays up when the last client (a test's game) disconnects.
            command = ["Xvfb", f":{number}", "-screen", "0", f"{self.width}x{self.height}x{self.depth}",
                       "-noreset", "-nolisten", "tcp"]  # fmt: skip
            if self.cookie:
                _add_cookie(authority, number)
                command += ["-auth", str(authority)]
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if _wait_for(f":{number}", process) and _still_running(process):
                self.process, self.name = process, f":{number}"
                break
            process.kill()
        else:
            raise DisplayError("could not start Xvfb on any display number from :90 to :199")
        _lost.clear()  # a new server: what was known gone was an earlier one
        for key, value in (("DISPLAY", self.name), ("XAUTHORITY", str(authority) if self.cookie else None)):
            self._saved[key] = os.environ.get(key)
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value

    def stop(self) -> None:
        """Stop Xvfb and restore the environment."""
        for key, value in self._saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        self._saved.clear()
        if self.process is not None:
            end_process(self.process, timeout=5)
            _remove_leftovers(self.name, self.process.pid)
            self.process = None
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None


# Once the display is known to be gone, why: no call is made to it again (python-xlib can hang for
# ever on a broken connection), every later one is a DisplayLost at once.
_lost: list[str] = []
# Held while an X client connects quietly (see quiet_x_client).
_x_client_lock = threading.RLock()
# Whether this process has opened a connection to a display (so that the CLI may ask, of an error it
# does not know, whether the display went).
_used: list[str] = []


@contextlib.contextmanager
def display_call(what: str) -> Iterator[None]:
    """Around a call to the display (a capture, a pointer move, a look at the windows): when it fails
    because the display is gone, DisplayLost naming `what` was being done, instead of mss's or
    python-xlib's own errors (an AssertionError, a TypeError, a broken pipe), or an adapter's own
    error (the pointer that cannot connect to a display that has just gone)."""
    if _lost:
        raise DisplayLost(_lost[0])
    try:
        yield
    except FlowbotError as error:
        if isinstance(error, StopRun) or not display_used() or display_alive():
            raise  # a stop of its own, or the adapter's error about a display that is there
        raise DisplayLost(mark_lost(what)) from None
    except Exception as error:
        if display_alive() and not connection_broken(error):
            raise
        raise DisplayLost(mark_lost(what)) from None


def connection_broken(error: BaseException) -> bool:
    """True for an error that says this process's connection to the display broke (reset, closed by
    the server): the run cannot go on over it, even while something still answers on the display's
    socket (a killed server's socket has been seen to take a connection for a moment)."""
    if isinstance(error, ConnectionError):
        return True
    try:
        from Xlib.error import ConnectionClosedError
    except ImportError:  # no python-xlib: no connection of its kind to break
        return False
    return isinstance(error, ConnectionClosedError)


def mark_lost(what: str) -> str:
    """Note that the display is gone (found while doing `what`) and say so in a sentence."""
    if not _lost:
        name = os.environ.get("DISPLAY", "")
        _lost.append(
            f"the display {name} went away while {what}: stopped (its X server ended or the connection broke)"
        )
    return _lost[0]


def close_connection(close: Callable[[], None]) -> None:
    """Close a connection to the display; one to a display that is gone has nothing to close (no call
    is made to it, and a failure to close it is no error)."""
    if _lost:
        return
    try:
        close()
    except Exception as error:
        if display_alive() and not connection_broken(error):
            raise
        mark_lost("closing the connection")


def display_lost() -> bool:
    """True once a call found the display gone."""
    return bool(_lost)


def note_connected() -> None:
    """Note that this process has connected to the display (a client other than python-xlib's: mss)."""
    _used.append(os.environ.get("DISPLAY", ""))


def display_used() -> bool:
    """True when this process has connected to a display."""
    return bool(_used)


def display_alive(name: str | None = None, timeout: float = 1.0) -> bool:
    """False when the X display `name` (default: $DISPLAY) has no server that answers, its server
    gone; True when one answers a connection, or when it cannot be told (no X display named, or a
    server too busy to answer within `timeout`)."""
    name = os.environ.get("DISPLAY", "") if name is None else name
    found = re.fullmatch(r"(?P<host>[^:]*):(?P<number>\d+)(\.\d+)?", name)
    if found is None:
        return True
    host, number = found["host"], int(found["number"])
    if host in ("", "unix"):
        # Linux servers listen on an abstract socket and a file; a killed server leaves the file behind.
        addresses = [
            (socket.AF_UNIX, f"\0/tmp/.X11-unix/X{number}"),
            (socket.AF_UNIX, f"/tmp/.X11-unix/X{number}"),
        ]
    else:
        addresses = [(socket.AF_INET, (host, 6000 + number))]
    for family, address in addresses:
        try:
            with socket.socket(family, socket.SOCK_STREAM) as probe:
                probe.settimeout(timeout)
                probe.connect(address)
                # A server being killed still takes connections for a moment (its listening socket
                # closes after the clients'): only one that answers the X greeting is there.
                probe.sendall(_X_GREETING)
                return bool(probe.recv(1))
        except TimeoutError:
            return True  # connected, but no answer yet: a busy server, not a gone one
        except OSError:
            continue
    return False


# The X11 connection setup, little-endian, protocol 11.0, no authorisation: every live server replies
# (Success, Failed or Authenticate), and one that is going away closes the connection instead.
_X_GREETING = b"l\0" + (11).to_bytes(2, "little") + bytes(8)


def _lock_held(number: int) -> bool:
    """True when display `number`'s lock file names a process that is still running (or cannot be read)."""
    lock = Path(f"/tmp/.X{number}-lock")
    try:
        pid = int(lock.read_text().strip())
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True  # a lock we cannot read is someone's: leave the number alone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's running process
    return True


def _remove_leftovers(name: str, pid: int) -> None:
    """Remove the lock and socket files our Xvfb `pid` left on display `name` when it was killed (a
    server that ends by itself removes them)."""
    number = name.lstrip(":")
    lock = Path(f"/tmp/.X{number}-lock")
    try:
        if int(lock.read_text().strip()) != pid:
            return  # another server's by now
    except (OSError, ValueError):
        return
    for path in (lock, Path(f"/tmp/.X11-unix/X{number}")):
        with contextlib.suppress(OSError):
            path.unlink()


@contextlib.contextmanager
def quiet_x_client() -> Iterator[None]:
    """Around connecting a python-xlib client (pyautogui, the window check): work without an
    Xauthority file, and keep Xlib's warnings off stdout, where they would break --json.

    Displays started without a cookie (Xvfb, some desktops) have no Xauthority file, or an empty
    one: some python-xlib versions refuse a missing file, and all of them print "no xauthority
    details available" with print(). A missing file is replaced by an empty one for the connection;
    what Xlib prints goes to the debug log instead.
    """
    # One connection at a time: sys.stdout and XAUTHORITY are the process's, and two threads
    # connecting at once could each restore what the other had put there (stdout left a StringIO).
    with _x_client_lock, _quietly():
        yield


@contextlib.contextmanager
def _quietly() -> Iterator[None]:
    """quiet_x_client's work, for one thread at a time."""
    saved = os.environ.get("XAUTHORITY")
    home = os.environ.get("HOME")
    authority = saved or (str(Path(home) / ".Xauthority") if home else None)
    if authority is None or not os.access(authority, os.R_OK):
        os.environ["XAUTHORITY"] = os.devnull
    printed = io.StringIO()
    note_connected()
    try:
        with contextlib.redirect_stdout(printed):
            yield
    finally:
        if saved is None:
            os.environ.pop("XAUTHORITY", None)
        else:
            os.environ["XAUTHORITY"] = saved
        if printed.getvalue().strip():
            log.debug("X client said: %s", printed.getvalue().strip())


def end_process(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """Ask a child process to stop (SIGTERM), and kill it if it has not within `timeout` seconds."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _add_cookie(authority: Path, number: int) -> None:
    """Give the display a secret cookie in the Xauthority file, so clients authenticate quietly."""
    if shutil.which("xauth") is None:
        return  # without xauth the server accepts local clients anyway; Xlib only warns
    cookie = secrets.token_hex(16)
    subprocess.run(
        ["xauth", "-f", str(authority), "add", f":{number}", "MIT-MAGIC-COOKIE-1", cookie],
        check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _still_running(process: subprocess.Popen, settle: float = 0.1) -> bool:
    """True when the server is still up a moment after its socket showed (one that found its display
    number taken exits at once, while the socket seen is another server's)."""
    time.sleep(settle)
    return process.poll() is None


def _wait_for(name: str, process: subprocess.Popen, timeout: float = 10.0) -> bool:
    """Wait until the X server answers on display `name` (True) or dies or time runs out (False); its
    socket file is no sign (one a killed server left may be there before it listens)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if display_alive(name, timeout=0.5):
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.05)
    return False
