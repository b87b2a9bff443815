"""What `flowbot serve` answers for a Number Match screenshot: the board read, the winning line, one
hint per move (the pair to tap, where it is on the screenshot), and the pairs drawn over it.

A move's cells are on the board as it stands at that move (as in `flowbot numbermatch --json`); its
`points` are where those digits are on the screenshot. Rows that vanish move the digits on the phone
but not on the screenshot, so each digit is followed back to where the screenshot shows it; a digit
that "+" added is not on the screenshot: its point is where the phone shows it then, below the grid.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Sequence

import cv2
import numpy as np

from flowbot.numbermatch.errors import NumberMatchInputError

# Colours the pairs are drawn in, in turn (RGB): distinct on the game's white and on its blue.
PAIR_RGB = ((230, 57, 70), (42, 157, 143), (244, 162, 97), (131, 56, 236), (38, 70, 83), (255, 0, 110))

# Where a slot is: (row, col) on the screenshot as read, or None for a digit "+" added later.
Slot = tuple[int, int] | None


def analyse_numbermatch(frame: np.ndarray, data: bytes, name: str, timeout: float) -> dict:
    """Read a Number Match board on the frame, solve it, and answer the page's keys (`game: "numbermatch"`).

    NumberMatchReadError (a CaptureError: the next game's reader is tried) when no Number Match grid
    is on it; NumberMatchInputError when one is but its reading is refused (a mark that is no digit)
    or cannot be solved as it is (only part of a scrolled board shows).
    frame : (H, W, 3) uint8 ndarray, BGR
    """
    from flowbot.capture.overlay import encode_png
    from flowbot.numbermatch.board import make_board
    from flowbot.numbermatch.cli import board_rows, moves_json
    from flowbot.numbermatch.read import NumberMatchReadError, read_board
    from flowbot.numbermatch.rules import Rules
    from flowbot.numbermatch.search import WON, solve

    started = time.perf_counter()
    try:
        reading = read_board(frame, name)
    except NumberMatchReadError as error:
        if not shows_grid(frame):
            raise  # not Number Match, as far as can be told: the next game's reader may read it
        # A Number Match grid misread: no other game's reader is worth its time (Flow's would search
        # a photo for seconds), and this one says what was wrong.
        raise NumberMatchInputError(str(error)) from None
    if not reading.whole:
        raise NumberMatchInputError(
            f"{name}: only part of the Number Match board shows (scrolled: its first row or its end is off "
            f"the screenshot); rows read: {' '.join(reading.rows)}"
        )
    rules = Rules() if reading.adds_left is None else Rules(adds=reading.adds_left)
    text = [row.rstrip("_") for row in reading.rows]
    cells = make_board([int(char) if char.isdigit() else 0 for row in text for char in row], rules)
    answer = solve(cells, rules, timeout=timeout)
    moves = moves_json(cells, answer.moves, rules) if answer.status == WON else []
    slots = screenshot_slots(text, rules.width)
    hints = numbermatch_hints(moves, cells, slots, reading, rules.width)
    height, width = frame.shape[:2]
    picture = draw_pairs(frame, hints, reading.grid.cell * _scale(reading))
    grid = None
    if not reading.rectified:
        grid = {"xs": [round(x, 1) for x in reading.grid.xs], "ys": [round(y, 1) for y in reading.grid.ys]}
    return {
        "game": "numbermatch",
        "status": answer.status,
        "puzzle": list(reading.rows),
        "board": list(reading.rows),
        "solution": moves,
        "moves": moves,
        "paths": {},
        "colors": {},
        "seconds": round(answer.seconds, 6),
        "error": _unsolved_message(answer.status, rules.adds, timeout),
        "adds": rules.adds,
        "adds_left": reading.adds_left,
        "adds_used": sum(move["type"] == "add" for move in moves),
        "overlay": "data:image/png;base64," + base64.b64encode(encode_png(picture)).decode("ascii"),
        "image": {"width": width, "height": height},
        "name": name,
        "grid": grid,
        "cell_size": round(reading.grid.cell * _scale(reading), 1),
        "centres": [],
        "endpoints": [],
        "hints": hints,
        "file": {"rows": board_rows(cells, rules.width)},
        "elapsed": round(time.perf_counter() - started, 6),
    }


def shows_grid(frame: np.ndarray) -> bool:
    """True when the frame shows Number Match's grid of nine columns, upright, whatever is in its cells."""
    from flowbot.numbermatch.read import NumberMatchReadError, find_grid

    try:
        find_grid(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    except NumberMatchReadError:
        return False
    return True


def screenshot_slots(rows: Sequence[str], width: int) -> list[Slot]:
    """Where each slot of the board (as `make_board` keeps it: fully cleared rows taken away) is on the
    screenshot, in reading order."""
    slots: list[Slot] = []
    for row, text in enumerate(rows):
        if any(char.isdigit() for char in text):
            slots.extend((row, col) for col in range(len(text)))
    return slots


def numbermatch_hints(
    moves: Sequence[dict], cells: Sequence[int], slots: Sequence[Slot], reading, width: int
) -> list[dict]:
    """One hint per move, in order: a pair (its cells as the board stands, its digits, and where they
    are on the screenshot) or the "+" add (where the button is, when it was found)."""
    board = list(cells)
    where = list(slots)
    hints = []
    for number, move in enumerate(moves, start=1):
        rgb = list(PAIR_RGB[(number - 1) % len(PAIR_RGB)])
        if move["type"] == "add":
            plus = [] if reading.plus is None else [_rounded(reading.frame_point(*reading.plus))]
            hints.append(
                {"type": "add", "label": str(number), "name": None, "rgb": rgb, "cells": [], "points": plus}
            )
            live = [value for value in board if value]
            board += live
            where += [None] * len(live)
            continue
        a, b = (move["a"][0] * width + move["a"][1], move["b"][0] * width + move["b"][1])
        points = [_rounded(_slot_point(where[index], index, reading, width)) for index in (a, b)]
        hints.append({
            "type": "pair",
            "label": str(number),
            "name": None,
            "rgb": rgb,
            "cells": [move["a"], move["b"]],
            "digits": move["digits"],
            "points": points,
            "on_screenshot": [where[a] is not None, where[b] is not None],
        })  # fmt: skip
        board[a] = board[b] = 0
        # The later row first, so that taking it away does not move the earlier one (as the rules do).
        for row in sorted({a // width, b // width}, reverse=True):
            start, end = row * width, min(row * width + width, len(board))
            if not any(board[start:end]):
                del board[start:end]
                del where[start:end]
    return hints


def _slot_point(slot: Slot, index: int, reading, width: int) -> tuple[float, float]:
    """The pixel middle of a slot on the frame: where the screenshot shows it, or for an added digit
    where the phone shows it now (its row counted down from the grid's first row)."""
    grid = reading.grid
    if slot is not None:
        row, col = slot
    else:
        row, col = divmod(index, width)
    pitch = (grid.ys[-1] - grid.ys[0]) / (len(grid.ys) - 1)
    x = (grid.xs[col] + grid.xs[col + 1]) / 2
    y = grid.ys[0] + (row + 0.5) * pitch
    return reading.frame_point(x, y)


def draw_pairs(frame: np.ndarray, hints: Sequence[dict], cell: float) -> np.ndarray:
    """The screenshot with every pair whose two digits it shows ringed, joined and numbered in move order."""
    picture = frame.copy()
    height, width = frame.shape[:2]
    radius = max(4, round(0.42 * cell))
    thickness = max(2, round(cell / 14))
    for hint in hints:
        if hint["type"] != "pair" or not all(hint["on_screenshot"]):
            continue
        red, green, blue = hint["rgb"]
        colour = (blue, green, red)
        (x1, y1), (x2, y2) = (_pixel(point) for point in hint["points"])
        for x, y in ((x1, y1), (x2, y2)):
            cv2.circle(picture, (x, y), radius, colour, thickness, cv2.LINE_AA)
        cv2.line(picture, (x1, y1), (x2, y2), colour, max(1, thickness // 2), cv2.LINE_AA)
        scale = max(0.4, cell / 70)
        label = hint["label"]
        (text_w, text_h), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
        tx = min(max(0, x1 - radius), width - text_w)
        ty = min(max(text_h, y1 - radius), height - 1)
        cv2.putText(picture, label, (tx, ty), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
    return picture


def _scale(reading) -> float:
    """How many frame pixels one pixel of the reading spans (1 unless it was read straightened)."""
    if reading.to_frame is None:
        return 1.0
    grid = reading.grid
    x0, y0 = reading.frame_point(grid.xs[0], grid.ys[0])
    x1, y1 = reading.frame_point(grid.xs[-1], grid.ys[0])
    return float(np.hypot(x1 - x0, y1 - y0) / (grid.xs[-1] - grid.xs[0]))


def _rounded(point: tuple[float, float]) -> list[float]:
    """A pixel point as JSON: [x, y] to a tenth of a pixel."""
    return [round(float(point[0]), 1), round(float(point[1]), 1)]


def _pixel(point: Sequence[float]) -> tuple[int, int]:
    """A point as OpenCV's integer pixel."""
    return round(point[0]), round(point[1])


def _unsolved_message(status: str, adds: int, timeout: float) -> str | None:
    """The sentence for a board that was read but not won (None when a winning line was found)."""
    if status == "no-win":
        return f"no winning line exists with {adds} add{'s' if adds != 1 else ''} left (an exhaustive search)"
    if status == "timeout":
        return f"no winning line found within {timeout:g} s"
    return None
