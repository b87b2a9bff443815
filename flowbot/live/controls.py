"""The game's controls as the live loop meets them: a control remembered with its look (pressed again
next time with no reading), where a point lies, the part of a frame inside the game's window, and
whether a press changed that window. Pure functions on frames and boxes."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from flowbot.capture.buttons import Button, find_next_button
from flowbot.capture.controls import Control, names_move_on
from flowbot.capture.ocr import read_line
from flowbot.capture.screen import Frame, Region
from flowbot.cellmap import CellMap

# Mean grey difference under which a remembered control still looks the same.
CONTROL_LOOK_DIFFERENCE = 12.0
# A window changed after a press when more than CHANGED_SHARE of its pixels moved by more than
# CHANGED_BY (0-255, any channel): far beyond capture noise, far below a dialog closing.
CHANGED_BY, CHANGED_SHARE = 30, 0.02


@dataclass(frozen=True, slots=True)
class RememberedControl:
    """The control that moved the game on last time: where it was on screen and how it looked."""

    left: int
    top: int
    width: int
    height: int
    label: str
    look: np.ndarray  # (height, width) uint8, grey

    @property
    def center(self) -> tuple[float, float]:
        """The screen pixel (x, y) to click."""
        return self.left + self.width / 2, self.top + self.height / 2

    def shows_in(self, frame: Frame) -> bool:
        """True when the frame shows the same control at the same place (a cheap look, no OCR)."""
        left, top = self.left - frame.left, self.top - frame.top
        patch = frame.pixels[top : top + self.height, left : left + self.width]
        if left < 0 or top < 0 or patch.shape[:2] != self.look.shape:
            return False
        grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
        return float(np.mean(cv2.absdiff(grey, self.look))) < CONTROL_LOOK_DIFFERENCE


def remember(frame: Frame, control: Control) -> RememberedControl:
    """Note a control found on a frame, in screen pixels, with its look for a cheap check next time."""
    patch = frame.pixels[
        control.top : control.top + control.height, control.left : control.left + control.width
    ]
    look = cv2.cvtColor(np.ascontiguousarray(patch), cv2.COLOR_BGR2GRAY)
    return RememberedControl(
        control.left + frame.left, control.top + frame.top, control.width, control.height, control.label, look
    )


def inside_box(point: tuple[float, float], control: RememberedControl) -> bool:
    """True when screen pixel (x, y) lies on a remembered control."""
    return inside_bounds(
        point, (control.left, control.top, control.left + control.width, control.top + control.height)
    )


def inside_bounds(point: tuple[float, float], bounds: tuple[float, float, float, float]) -> bool:
    """True when pixel (x, y) lies within (left, top, right, bottom)."""
    left, top, right, bottom = bounds
    return left <= point[0] <= right and top <= point[1] <= bottom


def on_the_board(control: Control, board: CellMap, still_won: bool) -> bool:
    """True for a control found over the board that is the board itself misread: over a board,
    whatever says no word of moving on ("next", "continue") is pipes and dots read as an arrow
    ('_».', '» 4' seen on pipes under drifting bands; a click on a won board's dot clears that flow),
    save a dialog button over a board that no longer shows the won level; and while the won level
    shows, words are never a link."""
    if not inside_bounds(control.center, board.bounds):
        return False
    if control.kind == "text" and still_won:
        return True
    return not names_move_on(control.label) and (still_won or control.kind != "flow-button")


def cut(frame: Frame, window: Region | None) -> np.ndarray:
    """The part of a frame inside a window given in screen pixels (all of it for no window)."""
    if window is None:
        return frame.pixels
    left, top = max(0, window.left - frame.left), max(0, window.top - frame.top)
    part = frame.pixels[
        top : max(0, window.top - frame.top + window.height),
        left : max(0, window.left - frame.left + window.width),
    ]
    return np.ascontiguousarray(part)


def same_place(before: Frame, now: Frame) -> np.ndarray:
    """`before`'s pixels at `now`'s part of the screen (black where `before` shows none of it)."""
    pixels = np.zeros_like(now.pixels)
    height, width = now.pixels.shape[:2]
    left, top = max(now.left, before.left), max(now.top, before.top)
    right = min(now.left + width, before.left + before.pixels.shape[1])
    bottom = min(now.top + height, before.top + before.pixels.shape[0])
    if right > left and bottom > top:
        pixels[top - now.top : bottom - now.top, left - now.left : right - now.left] = before.pixels[
            top - before.top : bottom - before.top, left - before.left : right - before.left
        ]
    return pixels


def board_pixels(frame: Frame, board: CellMap) -> np.ndarray:
    """The part of a frame where the board (in screen pixels) was: to tell when the picture settles."""
    edges = board.bounds
    left, top = round(edges[0]) - frame.left, round(edges[1]) - frame.top
    right, bottom = round(edges[2]) - frame.left, round(edges[3]) - frame.top
    return frame.pixels[max(0, top) : max(0, bottom), max(0, left) : max(0, right)].copy()


def window_changed(before: Frame, now: Frame) -> bool:
    """True when a window no longer looks as on `before` (same region grabbed again): a press did
    something (a dialog closed, a level loading)."""
    if now.pixels.shape != before.pixels.shape:
        return True
    differs = np.abs(now.pixels.astype(np.int16) - before.pixels.astype(np.int16)).max(axis=2) > CHANGED_BY
    return float(np.mean(differs)) > CHANGED_SHARE


def dialog_button(frame: Frame, board: CellMap, window: Region | None) -> Button | None:
    """A Flow-style dialog button on a frame, over the board (`board` in the frame's pixels) or
    anywhere in the game's window (a dialog wider than a small board), in the frame's pixels."""
    button = find_next_button(frame.pixels, board)
    if button is not None or window is None:
        return button
    part = cut(frame, window)
    found = find_next_button(part) if part.size else None
    if found is None:
        return None
    dx, dy = max(0, window.left - frame.left), max(0, window.top - frame.top)
    return Button(found.left + dx, found.top + dy, found.width, found.height)


def label_on(pixels: np.ndarray, button: Button) -> str:
    """The label read (OCR) inside a button's outline."""
    return read_line(inside_of(pixels, button))


def inside_of(pixels: np.ndarray, button: Button) -> np.ndarray:
    """A button's inside, short of its outline: where its label and icon are."""
    inset = max(2, min(button.width, button.height) // 8)
    return pixels[
        button.top + inset : button.top + button.height - inset,
        button.left + inset : button.left + button.width - inset,
    ]
