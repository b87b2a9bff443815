"""The monitors of a desktop as geometry: what of each can be captured, and one view over the monitors
a rectangle (a game's board or region) touches. Pure: the screen adapter lists, this module decides."""

from __future__ import annotations

from flowbot.capture.space import Monitor, Region, distinct_monitors


def capturable(screen: Region, listed: list[tuple[int, Region]]) -> list[tuple[int, Region]]:
    """The monitors (number, box) cut to the screen that can be captured, those wholly off it dropped,
    duplicates and boxes spanning two others dropped (see distinct_monitors). On X11 that screen is
    the root window, from (0, 0): RandR may still list a monitor left of or above it (at negative
    coordinates), which has no pixels to capture; elsewhere the screen holds every monitor. When none
    is left, the screen itself is the one monitor (number 0)."""
    cut = [(number, box.clipped(screen)) for number, box in listed]
    kept = [(number, box) for number, box in cut if box is not None]
    boxes = distinct_monitors([box for _, box in kept])
    numbers: dict[Region, int] = {}
    for number, box in kept:
        numbers.setdefault(box, number)
    return [(numbers[box], box) for box in boxes] or [(0, screen)]


def off_screen(screen: Region, listed: list[tuple[int, Region]]) -> list[Region]:
    """The monitors' boxes that are not wholly on the screen that can be captured (to say so)."""
    return [box for _, box in listed if not screen.covers(box)]


def bounding(boxes: list[Region]) -> Region:
    """The smallest rectangle holding every box."""
    left, top = min(box.left for box in boxes), min(box.top for box in boxes)
    right = max(box.left + box.width for box in boxes)
    bottom = max(box.top + box.height for box in boxes)
    return Region(left, top, right - left, bottom - top)


def touched(monitors: list[Monitor], area: Region) -> list[Monitor]:
    """The monitors `area` (screen pixels) shares at least one pixel with, in their order."""
    return [monitor for monitor in monitors if monitor.bounds.overlaps(area)]


def spanning(monitors: list[Monitor], area: Region) -> Monitor | None:
    """One monitor to look at for `area` (screen pixels): the monitor holding it when one does, else the
    bounding union of the monitors it touches, numbered as the one holding most of it. None when it
    touches none, or monitors of different capture scales (no one capture holds them)."""
    hit = touched(monitors, area)
    if not hit or len({monitor.capture_scale for monitor in hit}) > 1:
        return None
    most = max(hit, key=lambda monitor: _shared(monitor.bounds, area))
    if len(hit) == 1:
        return most
    return Monitor(most.index, bounding([monitor.box for monitor in hit]), most.capture_scale)


def _shared(a: Region, b: Region) -> int:
    """How many pixels two rectangles share."""
    both = a.clipped(b)
    return both.width * both.height if both is not None else 0
