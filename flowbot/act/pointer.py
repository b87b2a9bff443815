"""What moves the mouse: pyautogui (imported only here) or a recorder, behind one protocol.

This module owns pressing and releasing. Every way out of a live run lets the button go: an
exception (the `finally` of each stroke), pyautogui's fail-safe (released without the fail-safe
check, which would only raise again), SIGINT, SIGTERM, SIGHUP and SIGQUIT (SIGBREAK on
Windows; turned into a clean stop by `stop_signals`, each where the system has it), and interpreter
exit (`release_all` runs at exit). It is also the one place that turns screen pixels into the
pointer library's coordinates (through the Space measured by `open_pointer`).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import signal
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from flowbot.capture.screen import Region
from flowbot.capture.space import Space, check_probe, pointer_scale
from flowbot.display import display_call, display_lost
from flowbot.errors import FlowbotError, StopRun
from flowbot.system import signals_here

if TYPE_CHECKING:
    from flowbot.capture.screen import MssScreen

log = logging.getLogger(__name__)


class PointerError(FlowbotError):
    """The pointer was asked to leave the game window, or the mouse cannot be driven."""

    exit_code = 5


class FailSafeError(StopRun):
    """The person threw the pointer into a screen corner: pyautogui's fail-safe."""

    exit_code = 10

    def __init__(self) -> None:
        super().__init__("stopped by the fail-safe (the pointer was moved into a screen corner)")


class Interrupted(StopRun):
    """A stop signal (SIGINT, SIGTERM, SIGHUP, ...) arrived; the exit status is 128 + its number,
    as shells do."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.exit_code = 128 + signum
        name = signal.Signals(signum).name
        super().__init__("interrupted (Ctrl-C)" if signum == signal.SIGINT else f"interrupted by {name}")


class Guard(Protocol):
    """Says whether the board the bot is drawing on is still there (act/guard.py's BoardGuard)."""

    def check(self, x: float | None = None, y: float | None = None) -> None:
        """Before a press at (x, y): raise a FlowbotError when the board is gone, moved or covered."""
        ...

    def check_window(self) -> None:
        """While the button is held: the cheap part of `check` (the game's window)."""
        ...


class Pointer(Protocol):
    """A mouse: move, press, release, turn the wheel."""

    def move(self, x: float, y: float) -> None:
        """Put the pointer at screen pixel (x, y)."""
        ...

    def down(self) -> None:
        """Press the left button where the pointer is."""
        ...

    def up(self) -> None:
        """Release the left button where the pointer is."""
        ...

    def wheel(self, x: float, y: float, notches: int) -> None:
        """Turn the wheel with the pointer at (x, y): `notches` toward the page's end (negative: back)."""
        ...


@dataclass
class RecordingPointer:
    """Records what it is asked to do instead of doing it: for tests and --dry-run."""

    events: list[tuple[str, float, float]] = field(default_factory=list)
    x: float = 0.0
    y: float = 0.0
    guard: Guard | None = None  # asked before each stroke's press (see draw_strokes)

    def move(self, x: float, y: float) -> None:
        """Note a move."""
        self.x, self.y = x, y
        self.events.append(("move", x, y))

    def down(self) -> None:
        """Note a press."""
        self.events.append(("down", self.x, self.y))

    def up(self) -> None:
        """Note a release."""
        self.events.append(("up", self.x, self.y))

    def wheel(self, x: float, y: float, notches: int) -> None:
        """Note a move and a turn of the wheel (as ("wheel", notches, 0))."""
        self.move(x, y)
        self.events.append(("wheel", notches, 0))


# Pointers whose button is down right now: what atexit and a second signal release.
_held: weakref.WeakSet = weakref.WeakSet()
# The stop signal received during `stop_signals`, which pointers act on at their next call.
_pending: list[int] = []


class PyAutoGuiPointer:
    """The real mouse through pyautogui, kept inside the game window.

    pyautogui's module settings are set once, here: no pause after each call (flowbot paces moves
    itself), the fail-safe kept on (throw the mouse into a screen corner to stop), and moves made
    as single jumps, one per call, so the game sees every step. It remembers whether it holds the
    button, so that every way out can let it go.
    """

    def __init__(self, bounds: Region, gui=None, space: Space | None = None) -> None:
        self._gui = gui if gui is not None else import_pyautogui()
        self.space = space or Space()  # screen pixels to pyautogui's coordinates (see open_pointer)
        self._gui.PAUSE = 0
        self._gui.FAILSAFE = True
        self._gui.MINIMUM_DURATION = 0
        self.bounds = bounds
        self.guard: Guard | None = None  # asked before each stroke's press (see draw_strokes)
        self.held = False

    def move(self, x: float, y: float) -> None:
        """Jump the pointer to (x, y), refusing to leave the window."""
        self._check_pending()
        if not self.bounds.contains(x, y):
            raise PointerError(f"refusing to move the pointer to ({x:.0f}, {y:.0f}), outside the game window")
        if self.held and self.guard is not None:
            try:  # mid-drag: the window's cheap look, so a window closed under the drag ends it at once
                self.guard.check_window()
            except FlowbotError:
                self.release()
                raise
        self._safely(self._gui.moveTo, *self.space.to_pointer(x, y))

    def down(self) -> None:
        """Press the left button (after the fail-safe check, so a refused press is not half made)."""
        self._check_pending()
        self._safely(self._gui.failSafeCheck)
        self.held = True  # before the press: if it raises half way, the release still happens
        _held.add(self)
        self._safely(self._button, True)

    def up(self) -> None:
        """Release the left button, if this pointer pressed it."""
        self.release()

    def wheel(self, x: float, y: float, notches: int) -> None:
        """Turn the wheel over (x, y) by `notches` (positive: toward the page's end), with the same
        checks as a move: a stop signal first, never outside the window, never with the button held
        (a wheel mid-drag would scroll what the drag holds)."""
        self._check_pending()
        if not self.bounds.contains(x, y):
            raise PointerError(f"refusing to turn the wheel at ({x:.0f}, {y:.0f}), outside the game window")
        if self.held:
            raise PointerError("refusing to turn the wheel with the button held")
        if self.guard is not None:
            self.guard.check_window()  # the game's window is still the one under the pointer
        self._safely(self._gui.moveTo, *self.space.to_pointer(x, y))
        # pyautogui's clicks count up (away from the person) as positive: the page's start.
        self._safely(self._gui.scroll, -int(notches))

    def release(self) -> None:
        """Let the button go without the fail-safe check: in a corner that check would raise again.
        On a display that is gone there is no button to let go (and no call is made to it)."""
        if not self.held:
            return
        if display_lost():
            self.held = False
            _held.discard(self)
            return
        saved = self._gui.FAILSAFE
        self._gui.FAILSAFE = False
        try:
            with display_call("releasing the mouse button"):
                self._button(False)
        finally:
            self._gui.FAILSAFE = saved
            self.held = False
            _held.discard(self)

    def _button(self, press: bool) -> None:
        """Press or release the left button where the pointer is, as that one event alone.

        On X, pyautogui's mouseDown and mouseUp first move the pointer to where it already is, and the
        server sends that as a motion event just before the button's: a game that takes one input event
        per frame and drops the rest (Allegro's examples flush their queue after each event) then takes
        the motion and never sees the press or the release. There the button's event is sent alone,
        through pyautogui's own connection (so it still comes after the moves made before it)."""
        x11 = _x11_buttons(self._gui)
        if x11 is None:
            (self._gui.mouseDown if press else self._gui.mouseUp)()
            return
        connection, fake_input = x11
        from Xlib import X

        fake_input(connection, X.ButtonPress if press else X.ButtonRelease, 1)
        connection.sync()

    def probe(self, area: Region) -> None:
        """Move to the centre of `area` (screen pixels), check the pointer landed there (a ScaleError
        if not), and put it back where it was. No button is touched."""
        with display_call("reading the pointer's position"):
            home = self._gui.position()
        target = self.space.to_pointer(area.left + area.width / 2, area.top + area.height / 2)
        self._safely(self._gui.moveTo, *target)
        try:
            with display_call("reading the pointer's position"):
                landed = tuple(self._gui.position())
            check_probe(target, landed)
        finally:
            self._safely(self._gui.moveTo, *home)

    def _safely(self, action: Callable, *args) -> None:
        """Run a pyautogui call; the fail-safe becomes a FailSafeError with the button released, the
        display going away a DisplayLost."""
        try:
            with display_call("moving the mouse"):
                action(*args)
        except self._gui.FailSafeException:
            self.release()
            raise FailSafeError() from None

    def _check_pending(self) -> None:
        """Stop at once when a stop signal came: release, then raise Interrupted."""
        if _pending:
            self.release()
            raise Interrupted(_pending[0])


def _x11_buttons(gui) -> tuple[object, Callable] | None:
    """pyautogui's X connection and its XTest call when it drives an X server (None elsewhere, or for
    a stand-in without them): what sends a button's event with no move before it."""
    platform = getattr(gui, "platformModule", None)
    connection = getattr(platform, "_display", None)
    fake_input = getattr(platform, "fake_input", None)
    if connection is None or not callable(fake_input):
        return None
    return connection, fake_input


def release_all() -> None:
    """Release every button a pointer holds; never raises (it runs at exit and from signal handlers)."""
    for pointer in list(_held):
        try:
            pointer.release()
        except Exception as error:  # the display may be gone; nothing is held on a display that is gone
            log.warning("could not release the mouse button: %s", error)


atexit.register(release_all)


@dataclass
class SignalWatch:
    """What `stop_signals` saw: the first stop signal's number, or None."""

    received: int | None = None

    def error(self) -> Interrupted | None:
        """The Interrupted error for the signal received, if any."""
        return Interrupted(self.received) if self.received is not None else None


@contextlib.contextmanager
def stop_signals(on_stop: Callable[[int], None] = lambda signum: None) -> Iterator[SignalWatch]:
    """Turn SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGBREAK (those the system has) into a clean stop
    while a live command runs.

    The first signal calls `on_stop` and makes every pointer release its button and raise
    Interrupted at its next call (within one move, mid-stroke); a second one releases at once and
    raises Interrupted wherever the program is. Outside the main thread nothing is installed.
    """
    watch = SignalWatch()

    def handler(signum: int, frame: object) -> None:
        if watch.received is not None:
            release_all()
            raise Interrupted(watch.received)
        watch.received = signum
        _pending.append(signum)
        on_stop(signum)

    previous = {}
    try:
        for number in signals_here():
            previous[number] = signal.signal(number, handler)
    except ValueError:  # not the main thread (a test runner's worker): no handler to install
        pass
    try:
        yield watch
    finally:
        for number, old in previous.items():
            signal.signal(number, old)
        _pending.clear()


def import_pyautogui():
    """pyautogui, connected to the display quietly (see display.quiet_x_client), or a PointerError."""
    from flowbot.display import quiet_x_client

    try:
        with quiet_x_client():
            import pyautogui  # imported here: it connects to the display on import
    except Exception as error:  # Xlib raises several kinds when no display is reachable
        raise PointerError(f"cannot drive the mouse: {error}") from error
    return pyautogui


def open_pointer(screen: MssScreen, bounds: Region, gui=None, probe: bool = True) -> PyAutoGuiPointer:
    """The real mouse for a run on `screen` (an MssScreen looking at the game's monitor), kept inside
    `bounds`: the factor between screen pixels and pyautogui's coordinates is measured (pyautogui's
    screen size against mss's monitors) and, with `probe`, confirmed by moving the pointer to the
    monitor's centre and reading it back (then putting it back). A ScaleError before any press when
    they cannot agree."""
    gui = gui if gui is not None else import_pyautogui()
    space = measure_space(screen, gui)
    pointer = PyAutoGuiPointer(bounds, gui, space)
    if probe:
        pointer.probe(screen.bounds)
    return pointer


def measure_space(screen: MssScreen, gui) -> Space:
    """The Space of the monitor `screen` looks at: its capture scale times mss units per pyautogui unit."""
    width, height = gui.size()
    units = pointer_scale(screen.monitors, screen.desktop, (int(width), int(height)))
    space = Space(screen.monitor.capture_scale * units)
    log.info("screen pixels per pointer unit: %g", space.scale)
    return space


def mouse_position(screen: MssScreen | None = None) -> tuple[int, int]:
    """Where the real mouse pointer is, in screen pixels of `screen` (an MssScreen) when given, for
    calibrating by pointing."""
    try:
        gui = import_pyautogui()
    except PointerError as error:
        raise PointerError(str(error).replace("drive the mouse", "read the mouse position")) from None
    x, y = gui.position()
    if screen is None:
        return int(x), int(y)
    return measure_space(screen, gui).from_pointer(x, y)


def click(
    pointer: Pointer,
    x: float,
    y: float,
    hold: float = 0.05,
    approach: float = 0.0,
    sleep=time.sleep,
    ready: Callable[[], None] | None = None,
) -> None:
    """Move to (x, y), press, hold briefly (games read a click over a frame or two), release.

    With `approach` seconds, come to the point in two moves (from two pixels off) and rest there before
    pressing: a game that learns where the pointer is only from motion events, and drops events queued
    behind another, sees it on the control before the press. `ready` is called at the last moment
    before the press (it raises to stop it: the game's window gone meanwhile)."""
    bounds = getattr(pointer, "bounds", None)
    if approach > 0 and (bounds is None or bounds.contains(x - 2, y - 2)):
        pointer.move(x - 2, y - 2)
        sleep(approach / 2)
    pointer.move(x, y)
    if approach > 0:
        sleep(approach / 2)
    if ready is not None:
        ready()
    pointer.down()
    try:
        sleep(hold)
    finally:
        pointer.up()
