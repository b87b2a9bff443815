"""The curses shell of `flowbot play`: paint frames, read keys, pace the replay, leave the terminal as found.

The only module that imports curses' screen functions; everything it shows comes from flowbot.play.view.
"""

from __future__ import annotations

import codecs
import contextlib
import curses
import locale
import os
import signal
import sys
import threading
import time
from types import FrameType

from flowbot.errors import UsageError
from flowbot.play.colors import color_depth, color_number
from flowbot.play.keys import ESCAPE, escape_key, key_name
from flowbot.play.session import PlaySession
from flowbot.play.view import ASCII, UNICODE, Frame, Glyphs, Style, render
from flowbot.render import PLAIN
from flowbot.system import is_windows, signals_here

# Wake up this often when idle, so a signal's handler runs soon even if no key comes.
IDLE_MS = 200
# While `a` waits for the background solver, look for its answer this often.
SOLVING_POLL_MS = 50
# How long ESC waits for the rest of an arrow key's sequence (curses' default is a slow 1 s).
ESCAPE_DELAY_MS = 25


class _Stop(Exception):
    """Raised by the Ctrl-C, SIGTERM and SIGHUP handler: leave the game loop and restore the terminal."""


def check_terminal() -> None:
    """Refuse to start off a terminal or on one curses cannot drive, before the screen is touched."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("flowbot play needs an interactive terminal (stdin and stdout)")
    if is_windows():
        return  # windows-curses (PDCurses) drives the console: no terminfo to ask (asking can crash)
    try:
        # initscr would print its own error and exit the process on an unknown TERM; setupterm raises.
        curses.setupterm(None, sys.stdout.fileno())
    except curses.error as error:
        raise UsageError(f"cannot drive this terminal (TERM={_term()!r}): {error}") from None
    if not curses.tigetstr("cup"):
        raise UsageError(
            f"this terminal (TERM={_term()!r}) cannot move its cursor; the game needs one that can"
        )


def _term() -> str:
    """The terminal type the environment names."""
    return os.environ.get("TERM", "")


def run_terminal(session: PlaySession) -> int:
    """Play in the terminal until q, Ctrl-C, SIGTERM or SIGHUP; the terminal is restored; returns 0."""
    previous = _install_handlers()
    try:
        curses.wrapper(_loop, session)
    except (KeyboardInterrupt, _Stop):  # KeyboardInterrupt: when the handlers could not be set
        pass  # curses.wrapper has already restored the terminal on the way out
    finally:
        _restore_handlers(previous)
    return 0


def _loop(screen: curses.window, session: PlaySession) -> None:
    """Draw, wait for a key or the next replay tick, handle it; until the session says quit."""
    default_colors = _setup(screen)
    depth = color_depth(os.environ, has_colors=curses.has_colors(), colors=curses.COLORS)
    utf8 = codecs.lookup(locale.getpreferredencoding(False)).name == "utf-8"
    painter = _Painter(screen, depth, default_colors, UNICODE if utf8 else ASCII)
    next_tick: float | None = None
    dirty = True
    while True:
        if dirty:
            painter.show(session)
            dirty = False
        if session.solving:
            next_tick = None
            screen.timeout(SOLVING_POLL_MS)
        elif session.animation is None:
            next_tick = None
            screen.timeout(IDLE_MS)
        else:
            # A deadline rather than a fixed wait, so painting time does not slow the replay down.
            now = time.monotonic()
            next_tick = next_tick if next_tick is not None else now + session.animation.pace.seconds_per_tick
            screen.timeout(max(0, round((next_tick - now) * 1000)))
        code = screen.getch()
        if session.poll():
            dirty = True
        if code == -1:
            if next_tick is not None and time.monotonic() >= next_tick:
                assert session.animation is not None
                next_tick += session.animation.pace.seconds_per_tick
                session.tick()
                dirty = True
            continue
        if code == curses.KEY_RESIZE:
            dirty = True
            continue
        name = escape_key(_escape_tail(screen)) if code == ESCAPE else key_name(code)
        if name is None:
            continue
        if name == "a" and not session.background and not session.animating and session.needs_solver():
            # Solving a big board takes a moment: say so rather than look frozen.
            session.message = "solving..."
            painter.show(session)
        if not session.press(name):
            return
        dirty = True


def _setup(screen: curses.window) -> bool:
    """Settings curses.wrapper leaves to us; True when the terminal's own colours can be kept (-1)."""
    screen.keypad(True)
    for call in (
        lambda: curses.curs_set(0),  # the board marks the cursor cell itself
        lambda: curses.set_escdelay(ESCAPE_DELAY_MS),
    ):
        # A terminal without the feature plays on without it (PDCurses on Windows lacks some calls).
        with contextlib.suppress(curses.error, AttributeError):
            call()
    try:
        curses.use_default_colors()
    except curses.error:
        return False
    return True


def _escape_tail(screen: curses.window) -> str:
    """The rest of an escape sequence curses did not decode (e.g. '[A'), read without waiting.

    Reads up to the sequence's final letter only, so keys typed after it stay queued.
    """
    screen.nodelay(True)
    try:
        tail = ""
        while len(tail) < 8:
            code = screen.getch()
            if not 0 <= code < 128:
                break
            tail += chr(code)
            if tail[0] not in "[O" or (len(tail) > 1 and 0x40 <= code <= 0x7E):
                break  # not a cursor-key sequence, or its final byte
        return tail
    finally:
        screen.nodelay(False)


class _Painter:
    """Paints frames on the curses screen; each span's RGB becomes a colour pair at the terminal's depth."""

    def __init__(self, screen: curses.window, depth: int, default_colors: bool, glyphs: Glyphs) -> None:
        self.screen = screen
        self.depth = depth
        self.glyphs = glyphs
        # -1 is the terminal's own colour; without use_default_colors, white on black stands in.
        self._default = (-1, -1) if default_colors else (curses.COLOR_WHITE, curses.COLOR_BLACK)
        self._pairs: dict[tuple[int, int], int] = {}

    def show(self, session: PlaySession) -> None:
        """Paint the session as it stands, at the screen's current size."""
        lines, columns = self.screen.getmaxyx()
        self.paint(render(session, columns, lines, self.depth, self.glyphs))

    def paint(self, frame: Frame) -> None:
        """Replace what is on screen with the frame (curses sends only the differences)."""
        screen = self.screen
        screen.erase()
        for span in frame.spans:
            # Text that reaches the screen's last cell is written, but curses reports an error.
            with contextlib.suppress(curses.error):
                screen.addstr(span.row, span.col, span.text, self._attributes(span.style))
        if frame.cursor is not None:
            with contextlib.suppress(curses.error):
                screen.move(*frame.cursor)
        screen.refresh()

    def _attributes(self, style: Style) -> int:
        """The curses attributes of a style."""
        attributes = curses.color_pair(self._pair(style))
        for wanted, flag in (
            (style.bold, curses.A_BOLD),
            (style.dim, curses.A_DIM),
            (style.reverse, curses.A_REVERSE),
            (style.underline, curses.A_UNDERLINE),
        ):
            if wanted:
                attributes |= flag
        return attributes

    def _pair(self, style: Style) -> int:
        """The colour pair for a style's colours, made on first use (0, the default pair, without colour)."""
        if self.depth == PLAIN or (style.fg is None and style.bg is None):
            return 0
        fg = self._default[0] if style.fg is None else color_number(style.fg, self.depth)
        bg = self._default[1] if style.bg is None else color_number(style.bg, self.depth)
        key = (fg, bg)
        if key not in self._pairs:
            number = len(self._pairs) + 1
            if number >= min(curses.COLOR_PAIRS, 256):
                return 0  # out of pairs (8-colour terminals have 64): plain beats wrong
            try:
                curses.init_pair(number, fg, bg)
            except (curses.error, ValueError, OverflowError):
                return 0
            self._pairs[key] = number
        return self._pairs[key]


def _install_handlers() -> dict[int, object]:
    """Make Ctrl-C, SIGTERM and SIGHUP (those the system has) end the game like q does; returns the
    handlers they replace.

    Set even where SIGINT was inherited as ignored (a shell's background job, some test runners):
    a game on the terminal should always stop on Ctrl-C.
    """
    if threading.current_thread() is not threading.main_thread():
        return {}  # only the main thread may set handlers

    def stop(signum: int, frame: FrameType | None) -> None:
        """Unwind out of curses.wrapper, which restores the terminal."""
        raise _Stop(signum)

    numbers = signals_here(("SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"))
    return {number: signal.signal(number, stop) for number in numbers}


def _restore_handlers(previous: dict[int, object]) -> None:
    """Put back the handlers `_install_handlers` replaced."""
    for number, handler in previous.items():
        signal.signal(number, handler)  # type: ignore[arg-type]
