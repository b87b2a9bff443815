"""Where frames come from: the real screen (mss, imported only here) or images, behind one protocol."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from flowbot.capture.depth import PixelFormat, check_format, colour_table, to_bgr
from flowbot.capture.desktop import capturable, off_screen
from flowbot.capture.space import Monitor, Region, capture_scale
from flowbot.display import (
    DisplayError,
    close_connection,
    display_alive,
    display_call,
    display_used,
    mark_lost,
    note_connected,
)
from flowbot.errors import CaptureError, DisplayLost, StopRun, UsageError

__all__ = [
    "Frame", "ImageScreen", "MssScreen", "Region", "Screen", "Window", "X11Windows", "XCapture",
    "region_around",
]  # fmt: skip

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Frame:
    """One capture: pixels : (H, W, 3) uint8 ndarray, BGR, and where its top-left pixel is on screen."""

    pixels: np.ndarray
    left: int = 0
    top: int = 0

    @property
    def region(self) -> Region:
        """The part of the screen this frame shows."""
        height, width = self.pixels.shape[:2]
        return Region(self.left, self.top, width, height)


def region_around(xs: tuple[float, ...], ys: tuple[float, ...], limit: Region, margin: float = 0.5) -> Region:
    """A board's grid with `margin` times its size around it (half: where games put their dialogs
    and buttons), kept inside `limit`."""
    width, height = (xs[-1] - xs[0]) * margin, (ys[-1] - ys[0]) * margin
    left = max(limit.left, int(xs[0] - width))
    top = max(limit.top, int(ys[0] - height))
    right = min(limit.left + limit.width, int(xs[-1] + width))
    bottom = min(limit.top + limit.height, int(ys[-1] + height))
    return Region(left, top, right - left, bottom - top)


class Screen(Protocol):
    """Something that can be looked at: the whole screen, or part of it."""

    def grab(self, region: Region | None = None) -> Frame:
        """The current picture of `region` (default: everything)."""
        ...


class MssScreen:
    """The real screen through mss: the only place flowbot touches the display to look.

    It looks at one monitor at a time (`use`; the primary one at first) and measures, per monitor,
    how many pixels a capture has per unit of mss's layout (2 on a Retina Mac); regions and frames
    are in those captured pixels, flowbot's screen pixels (see capture/space.py).
    """

    def __init__(self, monitor: int | None = None, backend=None) -> None:
        self._backend = backend
        self._mss = self._connect()
        self._lay_out(list(self._mss.monitors), monitor)

    def _connect(self):
        """A connection to the display through mss (the injected backend in tests)."""
        import mss  # imported here: it needs a display, and most commands never look at one

        try:
            connection = self._backend if self._backend is not None else mss.MSS()
        except mss.ScreenShotError as error:
            if display_used() and not display_alive():  # it was there earlier in this run
                raise DisplayLost(mark_lost("opening the screen for capture")) from None
            # mss takes only 24- and 32-bit screens; X's own GetImage reads any other (16, 30 bits).
            connection = XCapture.open(f"cannot open the screen for capture: {_first_line(error)}")
        note_connected()
        return connection

    def _lay_out(self, listed: list[dict], monitor: int | None) -> None:
        """Take mss's monitor list (the screen's layout), looking at `monitor` (default: the primary)."""
        if not listed:
            raise DisplayError("the display lists no screen to capture")
        if len(listed) == 1:
            # RandR lists no monitor (Xvfb after `xrandr --fb`, some VNC servers): the root window,
            # which mss gives as "all monitors", is the one monitor.
            log.info("the display lists no monitor: using its whole screen, %s", listed[0])
            listed.append({**listed[0], "is_primary": True})
        every = listed[0]  # all monitors together: what can be captured at all
        self.desktop = Region(every["left"], every["top"], every["width"], every["height"])
        boxes = [(n, Region(m["left"], m["top"], m["width"], m["height"])) for n, m in enumerate(listed)][1:]
        for box in off_screen(self.desktop, boxes):
            log.info("monitor %s lies (partly) off the screen %s: only its part on it", box, self.desktop)
        kept = capturable(self.desktop, boxes)
        if monitor is not None and not 0 < monitor < len(listed):
            raise CaptureError(f"monitor {monitor} does not exist (there are {len(kept)})")
        self.monitors = [Monitor(number, box, self._measure(box)) for number, box in kept]
        wanted = [m for m in self.monitors if m.index == monitor] if monitor is not None else []
        self.monitor = (wanted or [_primary(self.monitors, listed)])[0]

    @property
    def bounds(self) -> Region:
        """The monitor in use, in screen pixels."""
        return self.monitor.bounds

    @property
    def everything(self) -> Region:
        """What can be captured, in screen pixels: every monitor when they share one scale, else the
        one in use."""
        if all(m.capture_scale == self.monitor.capture_scale for m in self.monitors):
            return self.monitor.to_screen(self.desktop)
        return self.bounds

    def use(self, monitor: Monitor) -> None:
        """Look at `monitor` from now on."""
        self.monitor = monitor
        log.info("looking at monitor %d: %s, scale %g", monitor.index, monitor.box, monitor.capture_scale)

    def check_region(self, region: Region | None) -> None:
        """Refuse a region (from --region or a profile) that is not wholly on the screen."""
        if region is not None:
            check_on_screen(region, self.everything)

    def grab(self, region: Region | None = None) -> Frame:
        """Capture a region of the screen (screen pixels) as a BGR frame. A screen resized since it was
        last measured (`xrandr --fb`, a monitor plugged or unplugged) is measured again: a whole-monitor
        look shows the monitor as it is now; a region the smaller screen no longer holds stops the run."""
        area = region or self.bounds
        self.check_region(area)
        try:
            pixels = self._capture(area)
        except DisplayError:
            if not self._relaid():
                raise
            area = region or self.bounds
            if not self.everything.covers(area):
                raise ScreenChangedError(
                    f"the screen changed size to {self.desktop.width}x{self.desktop.height} and no longer "
                    f"holds the region {area} the game was in: stopped"
                ) from None
            pixels = self._capture(area)
        return Frame(np.ascontiguousarray(pixels), area.left, area.top)

    def _capture(self, area: Region) -> np.ndarray:
        """The pixels of `area` (screen pixels) on the monitor in use."""
        box, (dx, dy) = self.monitor.to_capture(area)
        pixels = self._shot(box)
        if self.monitor.capture_scale != 1:
            pixels = _fit(pixels[dy : dy + area.height, dx : dx + area.width], area)
        return pixels

    def _relaid(self) -> bool:
        """After a capture failed: True when the screen's layout has changed since it was read (then
        it is read afresh, on a new connection, the monitor in use kept where it still is)."""
        old = self._mss
        self._mss = self._connect()  # mss keeps the layout it first read, and buffers of its size
        if old is not self._mss:
            close_connection(old.close)
        listed = list(self._mss.monitors)
        before = (self.desktop, [m.box for m in self.monitors])
        index = self.monitor.index
        self._lay_out(listed, index if 0 < index < len(listed) else None)
        if (self.desktop, [m.box for m in self.monitors]) == before:
            return False
        log.info("the screen changed: now %s, looking at monitor %s", self.desktop, self.monitor.box)
        return True

    def _shot(self, box: Region) -> np.ndarray:
        """mss's capture of a box in its own units, as BGR pixels (of whatever size it delivers)."""
        try:
            with display_call("capturing the screen"):
                shot = self._mss.grab(
                    {"left": box.left, "top": box.top, "width": box.width, "height": box.height}
                )
        except mss_error() as error:
            # mss's text of an X error runs over several lines: the first says what it is.
            raise DisplayError(f"cannot capture the screen region {box}: {_first_line(error)}") from None
        # mss gives BGRA; the reader wants three contiguous BGR channels.
        return np.asarray(shot)[:, :, :3]

    def _measure(self, box: Region) -> float:
        """Capture pixels per mss unit on the monitor `box`, from the size of a small capture of it."""
        sample = Region(box.left, box.top, min(box.width, 200), min(box.height, 200))
        return capture_scale(sample, self._shot(sample).shape)

    def close(self) -> None:
        """Release the display connection."""
        close_connection(self._mss.close)


class ScreenChangedError(StopRun):
    """The screen shrank (or a monitor went) from under the game's region while a command looked at
    it: the board is gone from where it was, so nothing more is pressed."""

    exit_code = 11  # as the guard's BoardGoneError: the game's board is not where it was read


def _first_line(error: BaseException) -> str:
    """The first line of an error's text (X errors as mss words them run over several)."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _primary(monitors: list[Monitor], listed: list[dict]) -> Monitor:
    """The primary monitor: the one mss marks, else the one at the origin, else the first."""
    marked = [m for m in monitors if m.index and listed[m.index].get("is_primary")]
    at_origin = [m for m in monitors if (m.box.left, m.box.top) == (0, 0)]
    return (marked or at_origin or monitors)[0]


def _fit(pixels: np.ndarray, area: Region) -> np.ndarray:
    """A capture cut from a scaled monitor, resized to exactly the region's size when a fractional
    scale left it a pixel off."""
    if pixels.shape[:2] == (area.height, area.width):
        return pixels
    import cv2

    return cv2.resize(np.ascontiguousarray(pixels), (area.width, area.height), interpolation=cv2.INTER_LINEAR)


def check_on_screen(region: Region, screen: Region) -> None:
    """Raise a UsageError naming the region and the screen's size unless the region is wholly on it."""
    if not screen.covers(region):
        where = "wholly" if not screen.overlaps(region) else "partly"
        raise UsageError(
            f"region {region} (LEFT,TOP,WIDTH,HEIGHT) is {where} off the screen, which is "
            f"{screen.width}x{screen.height} at {screen.left},{screen.top}; give a region inside it"
        )


def mss_error() -> type[Exception]:
    """mss's own exception class (imported late, like mss)."""
    import mss

    return mss.ScreenShotError


@dataclass(frozen=True, slots=True)
class Window:
    """A top-level window on the screen: the display's id for it, and where it is."""

    id: int
    box: Region


class X11Windows:
    """The top-level windows of an X display, read with python-xlib: is the game's window still there,
    still in place, and not covered? The only place flowbot asks the display about windows."""

    def __init__(self, to_screen: Callable[[Region], Region] | None = None) -> None:
        from flowbot.display import quiet_x_client

        self._to_screen = to_screen  # X's units (the pointer's) to screen pixels, when they differ
        with quiet_x_client():
            from Xlib import X, display, error

            self._display = display.Display()
        self._viewable, self._input_only = X.IsViewable, X.InputOnly
        self._errors = (error.XError, error.ConnectionClosedError)
        self._root = self._display.screen().root

    @classmethod
    def open(cls, to_screen: Callable[[Region], Region] | None = None) -> X11Windows | None:
        """The display's windows, or None where there are none to ask about (no X, Wayland, macOS)."""
        try:
            return cls(to_screen)
        except Exception as error:  # Xlib raises several kinds when no X display is reachable
            log.info("no window check: %s", error)
            return None

    def stack(self) -> list[int]:
        """Ids of the top-level windows, from the bottom of the stacking order to the top."""
        with display_call("looking at the windows"):
            return [child.id for child in self._root.query_tree().children]

    def box(self, window_id: int) -> Region | None:
        """Where a top-level window is on the screen, or None when it is gone or not shown."""
        with display_call("looking at the game's window"):
            window = self._display.create_resource_object("window", window_id)
            try:
                attributes = window.get_attributes()
                # Hidden windows cover nothing; input-only ones (window managers' edge catchers) draw nothing.
                if attributes.map_state != self._viewable or attributes.win_class == self._input_only:
                    return None
                geometry = window.get_geometry()
            except self._errors:
                if not display_alive():  # not the window gone: the display
                    raise DisplayLost(mark_lost("looking at the game's window")) from None
                return None
        border = geometry.border_width
        box = Region(geometry.x, geometry.y, geometry.width + 2 * border, geometry.height + 2 * border)
        return self._to_screen(box) if self._to_screen is not None else box

    def exists(self, window_id: int) -> bool:
        """True while the display still has the window, shown or not (False once it is destroyed)."""
        with display_call("looking at the game's window"):
            window = self._display.create_resource_object("window", window_id)
            try:
                window.get_attributes()
            except self._errors:
                if not display_alive():  # not the window gone: the display
                    raise DisplayLost(mark_lost("looking at the game's window")) from None
                return False
        return True

    def close(self) -> None:
        """Close the connection."""
        close_connection(self._display.close)


class XCapture:
    """Captures through the X server's GetImage (over the XCB binding mss ships), for screens mss's own
    capture refuses (16-bit, 30-bit or indexed colour): any depth comes out as 8-bit BGR. It shows
    the same face as mss (`monitors`, `grab`, `close`)."""

    def __init__(self) -> None:
        from mss.linux import xcb

        self._xcb = xcb
        self._conn, number = xcb.connect(os.environ.get("DISPLAY"))
        try:
            setup = xcb.get_setup(self._conn)
            screen = xcb.setup_roots(setup)[number]
            self._root, self._depth = screen.root, screen.root_depth
            self._form, indexed = _pixel_format(xcb, setup, screen)
            check_format(self._form, self._depth)
            self._colours = _ColourTable(indexed) if indexed else None
            self.monitors = self._list_monitors()
        except BaseException:
            xcb.disconnect(self._conn)
            raise
        log.info("capturing through X's GetImage: a %d-bit screen, %s", self._depth, self._form)

    @classmethod
    def open(cls, refused: str) -> XCapture:
        """A capture of the display through X itself; the DisplayError `refused` (mss's reason) when X
        cannot be reached either, and one naming the format when X gives one flowbot cannot decode."""
        if sys.platform in ("win32", "darwin"):  # no X there: mss's reason stands
            raise DisplayError(refused)
        try:
            return cls()
        except DisplayError:
            raise  # X answered, with a screen flowbot cannot decode: that is the reason to give
        except Exception as error:  # no X (or no XCB) to ask: mss's XCB binding raises several kinds
            log.info("no capture through X either: %s", error)
            raise DisplayError(refused) from None

    def _list_monitors(self) -> list[dict]:
        """mss's monitor list: the root window, then each RandR monitor (RandR 1.5; else the root alone)."""
        xcb = self._xcb
        root = xcb.get_geometry(self._conn, self._root)
        monitors = [{"left": 0, "top": 0, "width": root.width, "height": root.height}]
        if not xcb.get_extension_data(self._conn, xcb.LIB.randr_id).present:
            return monitors
        version = xcb.randr_query_version(self._conn, xcb.RANDR_MAJOR_VERSION, xcb.RANDR_MINOR_VERSION)
        if (version.major_version, version.minor_version) < (1, 5):
            return monitors
        listed = xcb.randr_get_monitors_monitors(xcb.randr_get_monitors(self._conn, self._root, 1))
        return monitors + [
            {"left": m.x, "top": m.y, "width": m.width, "height": m.height, "is_primary": bool(m.primary)}
            for m in listed
        ]

    def grab(self, box: dict) -> np.ndarray:
        """BGR pixels of `box` (root window coordinates); mss's error for one X refuses (off the root)."""
        xcb = self._xcb
        reply = xcb.get_image(
            self._conn, xcb.ImageFormat.ZPixmap, self._root,
            box["left"], box["top"], box["width"], box["height"], 0xFFFFFFFF,
        )  # fmt: skip
        # An indexed screen's colours may be changed by any client: its table is read for each capture.
        form = self._form if self._colours is None else replace(self._form, table=self._colours.read())
        return to_bgr(xcb.get_image_data(reply), box["width"], box["height"], form)

    def close(self) -> None:
        """Close the connection."""
        if self._colours is not None:
            self._colours.close()
        self._xcb.disconnect(self._conn)


def _pixel_format(xcb, setup, screen) -> tuple[PixelFormat, int]:
    """How the X screen stores its pixels, from the facts the server gave at connection, and how many
    entries its colour table has when its values index one (0 for red, green and blue masks)."""
    depth = screen.root_depth
    stored = next((f for f in xcb.setup_pixmap_formats(setup) if f.depth == depth), None)
    visuals = [v for d in xcb.screen_allowed_depths(screen) if d.depth == depth for v in xcb.depth_visuals(d)]
    visual = next((v for v in visuals if v.visual_id == screen.root_visual), None)
    if stored is None or visual is None:
        raise DisplayError(f"the display does not say how it stores {depth}-bit pixels: cannot capture it")
    big_endian = setup.image_byte_order == 1  # X's MSBFirst
    form = PixelFormat(stored.bits_per_pixel, stored.scanline_pad, big_endian)
    if visual.class_ in (4, 5):  # TrueColor, DirectColor: channels by mask
        return replace(form, masks=(visual.red_mask, visual.green_mask, visual.blue_mask)), 0
    # StaticGray, GrayScale, StaticColor, PseudoColor: each value is an index into the colormap.
    return replace(form, masks=(0, 0, 0), table=np.zeros((1, 3), np.uint8)), visual.colormap_entries


class _ColourTable:
    """The default colormap of an indexed screen, read through python-xlib (XCB's binding in mss has
    no QueryColors)."""

    def __init__(self, entries: int) -> None:
        from flowbot.display import quiet_x_client

        with quiet_x_client():
            from Xlib import display

            self._display = display.Display()
        self._colormap, self._entries = self._display.screen().default_colormap, entries

    def read(self) -> np.ndarray:
        """The colours now, as (entries, 3) BGR bytes."""
        colours = self._colormap.query_colors(list(range(self._entries)))
        return colour_table([(c.red, c.green, c.blue) for c in colours])

    def close(self) -> None:
        """Close the connection."""
        self._display.close()


class ImageScreen:
    """Frames from images instead of a screen: for tests, and for replaying saved captures."""

    def __init__(self, frames: Iterable[np.ndarray]) -> None:
        self._frames: Iterator[np.ndarray] = iter(frames)
        self._last: np.ndarray | None = None

    def grab(self, region: Region | None = None) -> Frame:
        """The next image (the last one again once they run out), cut to `region` when given."""
        self._last = next(self._frames, self._last)
        if self._last is None:
            raise CaptureError("no image to show")
        if region is None:
            return Frame(self._last)
        pixels = self._last[region.top : region.top + region.height, region.left : region.left + region.width]
        return Frame(np.ascontiguousarray(pixels), region.left, region.top)
