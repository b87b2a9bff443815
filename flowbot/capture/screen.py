"""Where frames come from: the real screen (mss, imported only here) or images, behind one protocol."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from flowbot.display import DisplayError
from flowbot.errors import CaptureError


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

    def grab(self, region: Region | None = None) -> Frame:
        """Capture a region of the screen as a BGR frame."""
        area = region or self.bounds
        shot = self._mss.grab(
            {"left": area.left, "top": area.top, "width": area.width, "height": area.height}
        )
        # mss gives BGRA; the reader wants three contiguous BGR channels.
        pixels = np.ascontiguousarray(np.asarray(shot)[:, :, :3])
        return Frame(pixels, area.left, area.top)

    def close(self) -> None:
        """Release the display connection."""
        self._mss.close()


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
