"""Desktops the tests pretend to have: capture libraries and mice that scale, shift and split the
screen the way a Retina Mac, Windows at 150% or a monitor left of the primary one do."""

from __future__ import annotations

import math

import cv2
import numpy as np


class CanvasMss:
    """An mss stand-in showing a BGR picture of the whole desktop, whose top-left is at `origin`."""

    def __init__(self, canvas: np.ndarray, boxes: list[tuple[int, int, int, int]], origin=(0, 0)) -> None:
        self.canvas, self.origin = canvas, origin
        height, width = canvas.shape[:2]
        whole = {"left": origin[0], "top": origin[1], "width": width, "height": height}
        self.monitors = [whole] + [
            {"left": left, "top": top, "width": w, "height": h, "is_primary": (left, top) == (0, 0)}
            for left, top, w, h in boxes
        ]
        self.grabs: list[dict] = []

    def grab(self, box: dict) -> np.ndarray:
        """BGRA pixels of `box`, black off the canvas (as mss shows dead areas)."""
        self.grabs.append(box)
        left, top = box["left"] - self.origin[0], box["top"] - self.origin[1]
        out = np.zeros((box["height"], box["width"], 4), dtype=np.uint8)
        height, width = self.canvas.shape[:2]
        x0, y0 = max(0, left), max(0, top)
        x1, y1 = min(width, left + box["width"]), min(height, top + box["height"])
        if x1 > x0 and y1 > y0:
            out[y0 - top : y1 - top, x0 - left : x1 - left, :3] = self.canvas[y0:y1, x0:x1]
        return out

    def close(self) -> None:
        """Nothing to release."""


class ScaledMss:
    """Wraps an mss (the real one, or CanvasMss) to report and capture the desktop as a scaled one
    would: `layout` multiplies the monitors' geometry (Windows at 150%, DPI-aware capture), `capture`
    multiplies the pixels of each capture without touching the geometry (a Retina Mac: points laid
    out, pixels captured), `down` (when given) the capture's height only (a mismatch), and `origin`
    moves the primary monitor's top-left to (0, 0) (Windows and macOS put monitors left of or above
    the primary at negative coordinates)."""

    def __init__(self, inner, layout=1.0, capture=1.0, down=None, origin=(0, 0)) -> None:
        self.inner, self.layout, self.capture, self.origin = inner, layout, capture, origin
        self.down = down if down is not None else capture
        self.monitors = [self._out(monitor) for monitor in inner.monitors]

    def _out(self, monitor: dict) -> dict:
        """A monitor of the inner mss as this desktop reports it."""
        left, top = monitor["left"] - self.origin[0], monitor["top"] - self.origin[1]
        values = {"left": left, "top": top, "width": monitor["width"], "height": monitor["height"]}
        return {**monitor, **{key: round(value * self.layout) for key, value in values.items()}}

    def grab(self, box: dict) -> np.ndarray:
        """The inner capture of the same part of the desktop, resized to this desktop's pixels."""
        scale = self.layout
        left, top = math.floor(box["left"] / scale), math.floor(box["top"] / scale)
        right = math.ceil((box["left"] + box["width"]) / scale)
        bottom = math.ceil((box["top"] + box["height"]) / scale)
        inner = {"left": left + self.origin[0], "top": top + self.origin[1],
                 "width": right - left, "height": bottom - top}  # fmt: skip
        pixels = np.ascontiguousarray(np.asarray(self.inner.grab(inner)))
        # The inner box was widened to whole units: cut the asked part out of its upsampled picture.
        big = cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
        dx, dy = round(box["left"] - left * scale), round(box["top"] - top * scale)
        part = big[dy : dy + box["height"], dx : dx + box["width"]]
        size = (round(box["width"] * self.capture), round(box["height"] * self.down))
        return cv2.resize(np.ascontiguousarray(part), size, interpolation=cv2.INTER_LINEAR)

    def close(self) -> None:
        """Close the wrapped mss."""
        self.inner.close()


class ShiftedGui:
    """Wraps pyautogui to use coordinates whose (0, 0) is the primary monitor's top-left at `origin`
    and to report the primary's `size`, as pyautogui does on Windows and macOS. Settings (PAUSE,
    FAILSAFE, ...) go through to pyautogui."""

    def __init__(self, gui, origin: tuple[int, int], size: tuple[int, int]) -> None:
        object.__setattr__(self, "_gui", gui)
        object.__setattr__(self, "_origin", origin)
        object.__setattr__(self, "_size", size)

    def __getattr__(self, name: str):
        """Everything else is pyautogui's own."""
        return getattr(self._gui, name)

    def __setattr__(self, name: str, value) -> None:
        """Settings are pyautogui's (PAUSE = 0 must reach it, or every move waits 0.1 s)."""
        setattr(self._gui, name, value)

    def size(self):
        """The primary monitor's size, as pyautogui gives it on Windows and macOS."""
        return self._size

    def moveTo(self, x, y):
        """Move in primary-origin coordinates."""
        self._gui.moveTo(x + self._origin[0], y + self._origin[1])

    def position(self):
        """Where the pointer is, in primary-origin coordinates."""
        x, y = self._gui.position()
        return x - self._origin[0], y - self._origin[1]


class MixedMss(CanvasMss):
    """A desktop whose monitors capture at different scales (a Retina laptop beside a plain external
    monitor on macOS): each capture is scaled by the monitor holding its top-left."""

    def __init__(self, canvas, boxes, scales: list[float], origin=(0, 0)) -> None:
        super().__init__(canvas, boxes, origin)
        self.scales = scales

    def grab(self, box: dict) -> np.ndarray:
        """The capture at the scale of the monitor it starts on."""
        pixels = super().grab(box)
        for monitor, scale in zip(self.monitors[1:], self.scales, strict=True):
            if monitor["left"] <= box["left"] < monitor["left"] + monitor["width"] and (
                monitor["top"] <= box["top"] < monitor["top"] + monitor["height"]
            ):
                return cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        return pixels
