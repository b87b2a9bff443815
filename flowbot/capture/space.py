"""One coordinate space for looking and pointing (HiDPI, Retina, several monitors).

flowbot's screen pixels are the pixels it captures. The capture library (mss) lays its monitors
out in its own units (macOS: points, so a Retina capture has twice as many pixels as its monitor
has units), and the pointer library (pyautogui) may use yet other units (Windows at 150% with one
side DPI-aware and the other not). Both libraries put the primary monitor's top-left at (0, 0), so
one factor per monitor ties each pair together. This module holds those factors and is the only
place that converts: pure functions and values, measured by the adapters in screen.py and
pointer.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flowbot.errors import ScaleError

TOLERANCE = 0.02  # how far two measured factors may differ (rounding of odd sizes) and still agree
PROBE_SLACK = 1.5  # pointer units a probe may land off its target (rounding at fractional scales)


@dataclass(frozen=True, slots=True)
class Region:
    """A rectangle of the screen in pixels: left, top, width, height."""

    left: int
    top: int
    width: int
    height: int

    @property
    def size(self) -> tuple[int, int]:
        """(width, height)."""
        return self.width, self.height

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

    def clipped(self, other: Region) -> Region | None:
        """The part of this rectangle inside `other` (None when they share no pixel)."""
        if not self.overlaps(other):
            return None
        left, top = max(self.left, other.left), max(self.top, other.top)
        right = min(self.left + self.width, other.left + other.width)
        bottom = min(self.top + self.height, other.top + other.height)
        return Region(left, top, right - left, bottom - top)

    def __str__(self) -> str:
        return f"{self.left},{self.top},{self.width},{self.height}"


@dataclass(frozen=True, slots=True)
class Monitor:
    """One monitor: its box in the capture library's units, and capture pixels per one of those units."""

    index: int  # mss's number for it (1, 2, ...)
    box: Region
    capture_scale: float = 1.0

    @property
    def bounds(self) -> Region:
        """The monitor in flowbot's screen pixels."""
        return self.to_screen(self.box)

    def to_screen(self, box: Region) -> Region:
        """A rectangle in the capture library's units (a window's box too) in screen pixels."""
        scale = self.capture_scale
        left, top = math.floor(box.left * scale), math.floor(box.top * scale)
        right = math.ceil((box.left + box.width) * scale)
        bottom = math.ceil((box.top + box.height) * scale)
        return Region(left, top, right - left, bottom - top)

    def to_capture(self, region: Region) -> tuple[Region, tuple[int, int]]:
        """What to ask the capture library for to get `region` (screen pixels): the smallest box in
        its units that holds it, and where `region` starts inside that box's capture, in pixels."""
        scale = self.capture_scale
        left, top = math.floor(region.left / scale), math.floor(region.top / scale)
        right = math.ceil((region.left + region.width) / scale)
        bottom = math.ceil((region.top + region.height) / scale)
        offset = (round(region.left - left * scale), round(region.top - top * scale))
        return Region(left, top, right - left, bottom - top), offset


@dataclass(frozen=True, slots=True)
class Space:
    """Screen pixels to the pointer's coordinates and back: one factor on a shared origin."""

    scale: float = 1.0  # screen pixels per pointer unit (2 on a Retina Mac)

    def to_pointer(self, x: float, y: float) -> tuple[int, int]:
        """The pointer's coordinates of screen pixel (x, y)."""
        return round(x / self.scale), round(y / self.scale)

    def from_pointer(self, x: float, y: float) -> tuple[int, int]:
        """The screen pixel under the pointer's coordinates (x, y)."""
        return round(x * self.scale), round(y * self.scale)

    def box_from_pointer(self, box: Region) -> Region:
        """A rectangle in the pointer's coordinates (an X window's box: X is pyautogui's display) in
        screen pixels."""
        left, top = math.floor(box.left * self.scale), math.floor(box.top * self.scale)
        right = math.ceil((box.left + box.width) * self.scale)
        bottom = math.ceil((box.top + box.height) * self.scale)
        return Region(left, top, right - left, bottom - top)


def capture_scale(requested: Region, shape: tuple[int, ...]) -> float:
    """Capture pixels per capture-library unit, from the size of a capture of `requested`; a capture
    stretched differently across than down has no one factor (ScaleError)."""
    height, width = shape[:2]
    across, down = width / requested.width, height / requested.height
    if not _agree(across, down):
        raise ScaleError(
            f"a capture of {requested.width}x{requested.height} came back {width}x{height}: scaled "
            f"{across:g} across but {down:g} down, so flowbot cannot tell where it points; "
            "stopped before pressing"
        )
    return _tidy(across)


def pointer_scale(monitors: list[Monitor], everything: Region, pointer_size: tuple[int, int]) -> float:
    """Capture-library units per pointer unit, from the pointer library's screen size: that is the
    primary monitor's (Windows, macOS) or the whole desktop's (X11), so either may match; 1 wins
    when both do. A size no monitor matches by one factor is a ScaleError."""
    width, height = pointer_size
    primary = [monitor.box for monitor in monitors if (monitor.box.left, monitor.box.top) == (0, 0)]
    found = []
    for box in [everything, *primary]:
        across, down = box.width / width, box.height / height
        if _agree(across, down):
            found.append(_tidy(across))
    if not found:
        boxes = ", ".join(f"{box.width}x{box.height}" for box in [everything, *primary])
        raise ScaleError(
            f"the mouse's screen is {width}x{height} but the captured screen is {boxes}: no one factor "
            "maps one onto the other, so a press could land off the game; stopped before pressing "
            "(on Windows, give every monitor the same display scaling, or run flowbot with the same "
            "DPI awareness as the game)"
        )
    return 1.0 if 1.0 in found else found[0]


def check_probe(target: tuple[int, int], landed: tuple[float, float]) -> None:
    """After moving the pointer to `target` (its own units): a ScaleError unless it landed there."""
    if math.dist(target, landed) > PROBE_SLACK:
        raise ScaleError(
            f"the mouse was moved to {target} but reports {tuple(round(v) for v in landed)}: the pointer "
            "cannot reach the game's monitor as the screen shows it (display scaling or a monitor the "
            "mouse library does not know); stopped before pressing"
        )


def distinct_monitors(boxes: list[Region]) -> list[Region]:
    """The real monitors of a list that may also hold the whole desktop again (X11 lists the screen
    itself as one more monitor): duplicates and boxes covering two or more others are dropped."""
    kept: list[Region] = []
    for box in boxes:
        covered = [other for other in boxes if other != box and box.covers(other)]
        if box not in kept and len(covered) < 2:
            kept.append(box)
    return kept or boxes[:1]


def _agree(a: float, b: float) -> bool:
    """True when two factors are the same up to the rounding of odd sizes."""
    return abs(a - b) <= TOLERANCE * max(a, b)


def _tidy(factor: float) -> float:
    """A factor rounded to the hundredth (1.5 measured as 1.4999 is 1.5)."""
    return round(factor, 2)
