"""Where frames come from: the real screen (mss, imported only here) or images, behind one protocol."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from flowbot.display import DisplayError
from flowbot.errors import CaptureError, UsageError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Region:
    """A rectangle of the screen in pixels: left, top, width, height."""

    left: int
    top: int
    width: int
    height: int

    def contains(self, x: float, y: float) -> bool:
        """True when the pixel (x, y) lies inside the rectangle."""
        return self.left <= x < self.left + self.width and self.top <= y < self.top + self.height

    def covers(self, other: Region) -> bool:
        """True when `other` lies wholly inside this rectangle."""
        return (
            self.left <= other.left
            and self.top <= other.top
            and other.left + other.width <= self.left + self.width
            and other.top + other.height <= self.top + self.height
        )

    def overlaps(self, other: Region) -> bool:
        """True when the two rectangles share at least one pixel."""
        return (
            self.left < other.left + other.width
            and other.left < self.left + self.width
            and self.top < other.top + other.height
            and other.top < self.top + self.height
        )

    def __str__(self) -> str:
        return f"{self.left},{self.top},{self.width},{self.height}"


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
    """The real screen through mss: the only place flowbot touches the display to look."""

    def __init__(self, monitor: int = 1) -> None:
        import mss  # imported here: it needs a display, and most commands never look at one

        try:
            self._mss = mss.MSS()
        except mss.ScreenShotError as error:
            raise DisplayError(f"cannot open the screen for capture: {error}") from error
        monitors = self._mss.monitors
        if not 0 <= monitor < len(monitors):
            raise CaptureError(f"monitor {monitor} does not exist (there are {len(monitors) - 1})")
        whole = monitors[monitor]
        self.bounds = Region(whole["left"], whole["top"], whole["width"], whole["height"])
        every = monitors[0]  # all monitors together: what can be captured at all
        self.everything = Region(every["left"], every["top"], every["width"], every["height"])

    def check_region(self, region: Region | None) -> None:
        """Refuse a region (from --region or a profile) that is not wholly on the screen."""
        if region is not None:
            check_on_screen(region, self.everything)

    def grab(self, region: Region | None = None) -> Frame:
        """Capture a region of the screen as a BGR frame."""
        area = region or self.bounds
        self.check_region(area)
        try:
            shot = self._mss.grab(
                {"left": area.left, "top": area.top, "width": area.width, "height": area.height}
            )
        except mss_error() as error:
            raise DisplayError(f"cannot capture the screen region {area}: {error}") from None
        # mss gives BGRA; the reader wants three contiguous BGR channels.
        pixels = np.ascontiguousarray(np.asarray(shot)[:, :, :3])
        return Frame(pixels, area.left, area.top)

    def close(self) -> None:
        """Release the display connection."""
        self._mss.close()


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

    def __init__(self) -> None:
        from flowbot.display import quiet_x_client

        with quiet_x_client():
            from Xlib import X, display, error

            self._display = display.Display()
        self._viewable, self._input_only = X.IsViewable, X.InputOnly
        self._errors = (error.XError, error.ConnectionClosedError)
        self._root = self._display.screen().root

    @classmethod
    def open(cls) -> X11Windows | None:
        """The display's windows, or None where there are none to ask about (no X, Wayland, macOS)."""
        try:
            return cls()
        except Exception as error:  # Xlib raises several kinds when no X display is reachable
            log.info("no window check: %s", error)
            return None

    def stack(self) -> list[int]:
        """Ids of the top-level windows, from the bottom of the stacking order to the top."""
        return [child.id for child in self._root.query_tree().children]

    def box(self, window_id: int) -> Region | None:
        """Where a top-level window is on the screen, or None when it is gone or not shown."""
        window = self._display.create_resource_object("window", window_id)
        try:
            attributes = window.get_attributes()
            # Hidden windows cover nothing; input-only ones (window managers' edge catchers) draw nothing.
            if attributes.map_state != self._viewable or attributes.win_class == self._input_only:
                return None
            geometry = window.get_geometry()
        except self._errors:
            return None
        border = geometry.border_width
        return Region(geometry.x, geometry.y, geometry.width + 2 * border, geometry.height + 2 * border)

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
