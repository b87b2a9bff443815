"""`flowbot calibrate`: find a game window's board and buttons, save a profile, or show what flowbot sees."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import cv2
import numpy as np

from flowbot.act.plan import PointerSettings
from flowbot.capture.board import find_board
from flowbot.capture.controls import Control
from flowbot.capture.read import Reading, grid_between, read_known_grid, read_puzzle
from flowbot.capture.screen import Frame, Region, Screen, region_around
from flowbot.errors import CaptureError, FlowbotError
from flowbot.formats import Outputs
from flowbot.model import Geometry
from flowbot.profiles import Profile, check_name, new_profile_path, save_profile
from flowbot.solve.sat import solve

Ask = Callable[[str], str]
Position = Callable[[], tuple[int, int]]


DEFAULT_PICTURE = "flowbot-check.png"


class CalibrationError(FlowbotError):
    """No board could be found, automatically or by pointing."""

    exit_code = 8


@dataclass(frozen=True, slots=True)
class Sight:
    """What calibration sees on one frame: the board's grid (frame pixels), the puzzle when it reads,
    and the control that moves on to the next level when a won level's dialog shows."""

    geometry: Geometry
    reading: Reading | None
    button: Control | None

    @property
    def size(self) -> str:
        """The grid as ROWSxCOLS."""
        return f"{self.geometry.rows}x{self.geometry.cols}"


def look_at_board(pixels: np.ndarray) -> Sight:
    """The board on a frame, read, or (under a won level's dialog, whose box hides dots) its grid alone
    with the dialog's next-level button; the reader's CaptureError when neither is there.

    pixels : (H, W, 3) uint8 ndarray, BGR
    """
    try:
        reading = read_puzzle(pixels)
    except CaptureError as error:
        try:
            geometry = find_board(pixels).geometry
        except CaptureError:
            raise error from None
        button = next_level_control(pixels, geometry)
        if button is None:
            raise
        return Sight(geometry, None, button)
    return Sight(reading.geometry, reading, next_level_control(pixels, reading.geometry))


def next_level_control(pixels: np.ndarray, geometry: Geometry) -> Control | None:
    """The button the bot would click to move on (a dialog's, whichever style), found as the live loop
    finds it; text links are left out: a profile remembers a button.

    pixels : (H, W, 3) uint8 ndarray, BGR
    """
    from flowbot.capture.controls import label_score, next_controls

    for control in next_controls(pixels, geometry):
        if control.kind == "text":
            return None  # past every button: what is left is words on the screen
        if label_score(control.label):
            return control
    return None


def calibrate_automatically(
    screen: Screen, name: str, region: Region | None, settings: PointerSettings
) -> Profile:
    """Find the board on screen, check it reads the same again within the window found and that the
    reading solves (or, on a won level, that its dialog's next-level button shows), and make a profile
    (with the next-level control when one is showing)."""
    frame = screen.grab(region)
    try:
        sight = look_at_board(frame.pixels)
    except CaptureError as error:
        raise CalibrationError(f"no board on screen: {error}") from None
    if sight.button is None:
        assert sight.reading is not None
        _solvable(sight.reading)  # a won level's board is hidden by its dialog: nothing to solve
    limit = region or frame.region
    window = _window_around(sight.geometry, frame, limit)
    again = _grid(screen.grab(window).pixels)
    if (again.rows, again.cols) != (sight.geometry.rows, sight.geometry.cols):
        raise CalibrationError(
            f"the board read {sight.size} and then {again.rows}x{again.cols}; is the game still moving?"
        )
    next_button = None
    if sight.button is not None:
        x, y = sight.button.center
        next_button = (round(x + frame.left), round(y + frame.top))
        window = _covering(window, [next_button], limit)
    rows, cols = sight.geometry.rows, sight.geometry.cols
    return Profile(name, window, rows, cols, next_button, None, "dialog", settings)


def calibrate_by_pointing(
    screen: Screen,
    name: str,
    settings: PointerSettings,
    ask: Ask,
    position: Position,
    out: TextIO,
    after_failure: bool = True,
) -> Profile:
    """Ask the person to point at the board's corners (and the next-level button), then check the
    result: the window holds everything pointed at, inside the screen, and the board read solves."""
    out.write(
        "Automatic detection did not find the board; let's point at it.\n"
        if after_failure
        else "Let's point at the board.\n"
    )
    ask("Move the mouse over the TOP-LEFT corner of the board and press Enter ")
    left, top = position()
    ask("Move the mouse over the BOTTOM-RIGHT corner of the board and press Enter ")
    right, bottom = position()
    if right - left < 20 or bottom - top < 20:
        raise CalibrationError(f"the corners ({left}, {top}) and ({right}, {bottom}) do not span a board")
    size = ask("How many rows and columns does the board have (e.g. 7x7)? ").strip()
    match = re.fullmatch(r"(\d+)\s*[xX]\s*(\d+)", size)
    if not match:
        raise CalibrationError(f"{size!r} is not ROWSxCOLS")
    rows, cols = int(match.group(1)), int(match.group(2))
    answer = ask(
        "Move the mouse over the NEXT LEVEL button (when one shows) and press Enter, or type s to skip "
    )
    next_button = None if answer.strip().lower().startswith("s") else position()
    margin = max(right - left, bottom - top) // 10
    screen_area = getattr(screen, "bounds", None) or screen.grab().region
    board = Region(left - margin, top - margin, right - left + 2 * margin, bottom - top + 2 * margin)
    window = _covering(_clamped(board, screen_area), [next_button] if next_button else [], screen_area)
    frame = screen.grab(window)
    _solvable(_read_pointed(frame, ((left, top), (right, bottom)), rows, cols))
    return Profile(name, window, rows, cols, next_button, None, "dialog", settings)


def _read_pointed(
    frame: Frame, corners: tuple[tuple[int, int], tuple[int, int]], rows: int, cols: int
) -> Reading:
    """The board between the corners pointed at (screen pixels), read at its cells' middles whatever
    its look; when its dots do not pair, what the area reads as by itself says why."""
    (left, top), (right, bottom) = corners
    on_frame = ((left - frame.left, top - frame.top), (right - frame.left, bottom - frame.top))
    try:
        return read_known_grid(frame.pixels, grid_between(on_frame, rows, cols))
    except CaptureError as error:
        try:
            found = read_puzzle(frame.pixels)
        except CaptureError:
            found = None
        if found is not None and (found.puzzle.rows, found.puzzle.cols) != (rows, cols):
            raise CalibrationError(
                f"the area pointed at reads as a {found.puzzle.size} board, not {rows}x{cols}; try again"
            ) from None
        raise CalibrationError(
            f"the {rows}x{cols} cells between the corners pointed at do not read: {error}; try again"
        ) from None


def _solvable(reading: Reading) -> Reading:
    """The reading, when its board has a solution; a board with none was misread, and a profile made
    from it would not help."""
    result = solve(reading.puzzle, timeout=10)
    if result.solution is None:
        puzzle = reading.puzzle
        raise CalibrationError(
            f"the board reads as {puzzle.size} with {len(puzzle.colors)} colours but has no solution "
            f"({result.status}): most likely a misread (a dialog, the pointer or a glow over the board?); "
            "start calibrating on a fresh level with the pointer away from the board"
        )
    return reading


def _clamped(area: Region, limit: Region) -> Region:
    """The part of `area` inside `limit` (captures outside the screen fail)."""
    left, top = max(area.left, limit.left), max(area.top, limit.top)
    right = min(area.left + area.width, limit.left + limit.width)
    bottom = min(area.top + area.height, limit.top + limit.height)
    if right <= left or bottom <= top:
        raise CalibrationError(f"the area {area} lies outside the screen {limit}")
    return Region(left, top, right - left, bottom - top)


def _covering(area: Region, points: list[tuple[int, int]], limit: Region, pad: int = 40) -> Region:
    """`area` grown to hold each point with `pad` pixels around it, kept inside `limit`."""
    left, top = area.left, area.top
    right, bottom = area.left + area.width, area.top + area.height
    for x, y in points:
        left, top = min(left, x - pad), min(top, y - pad)
        right, bottom = max(right, x + pad), max(bottom, y + pad)
    return _clamped(Region(left, top, right - left, bottom - top), limit)


def draw_check(frame: Frame, out_path: str, outputs: Outputs | None = None) -> str:
    """Save a picture of what flowbot sees on the frame; returns a one-line verdict.

    `outputs` owns the overwrite rules (the caller claims the path before grabbing the screen);
    without it the picture replaces any file of that name.
    """
    from flowbot.capture.overlay import draw_grid, encode_png

    outputs = outputs or Outputs(force=True)

    picture = frame.pixels.copy()
    try:
        sight = look_at_board(frame.pixels)
    except CaptureError as error:
        verdict = f"no board read: {error}"
        _caption(picture, verdict, (0, 0, 255))
        outputs.write_bytes(out_path, encode_png(picture))
        return verdict
    geometry = sight.geometry
    draw_grid(picture, geometry, (255, 255, 255), 1)
    corner_a = (round(geometry.xs[0]), round(geometry.ys[0]))
    corner_b = (round(geometry.xs[-1]), round(geometry.ys[-1]))
    cv2.rectangle(picture, corner_a, corner_b, (0, 255, 0), 3)
    scale = max(0.4, geometry.cell_size / 90)
    if sight.reading is not None:
        puzzle = sight.reading.puzzle
        _draw_dots(picture, geometry, puzzle, scale)
        verdict = f"board {puzzle.size}, {len(puzzle.colors)} colours"
    else:
        verdict = f"board {sight.size} under a dialog"
    if sight.button is not None:
        button = sight.button
        far_corner = (button.left + button.width, button.top + button.height)
        cv2.rectangle(picture, (button.left, button.top), far_corner, (255, 0, 255), 4)
        below = (button.left, min(picture.shape[0] - 4, button.top + button.height + round(24 * scale)))
        cv2.putText(
            picture, "would click", below, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 0, 255), 2, cv2.LINE_AA
        )
        x, y = button.center
        verdict += (
            f", next-level button {button.label!r} at ({round(x + frame.left)}, {round(y + frame.top)})"
        )
    _caption(picture, verdict, (0, 255, 0))
    outputs.write_bytes(out_path, encode_png(picture))
    return verdict


def _draw_dots(picture: np.ndarray, geometry: Geometry, puzzle, scale: float) -> None:
    """Ring and name each endpoint read, and cross out each wall."""
    for color, (first, second) in zip(puzzle.colors, puzzle.endpoints, strict=True):
        for cell in (first, second):
            x, y = geometry.center(cell)
            cv2.circle(picture, (round(x), round(y)), round(geometry.cell_size * 0.38), (255, 255, 255), 2)
            text = f"{color.label} {color.name or '?'}"
            where = (round(x - geometry.cell_size * 0.45), round(y))
            cv2.putText(
                picture, text, where, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 2, cv2.LINE_AA
            )
    for row, col in puzzle.walls:
        x, y = geometry.center((row, col))
        cv2.drawMarker(
            picture,
            (round(x), round(y)),
            (0, 0, 255),
            cv2.MARKER_TILTED_CROSS,
            round(geometry.cell_size / 3),
            2,
        )


def run_calibrate(
    *,
    name: str | None,
    check: bool,
    picture: str | None,
    manual: bool,
    region: Region | None,
    settings: PointerSettings,
    folder: Path,
    out: TextIO,
    force: bool = False,
) -> int:
    """Make a profile (automatically, or by pointing when that fails), or with --check save the picture.

    The file to write is checked before the screen is looked at: an existing picture or profile is
    replaced only with `force`.
    """
    from flowbot.capture.monitors import look_at_the_game
    from flowbot.capture.screen import MssScreen

    # The default picture is flowbot's own scratch file, replaced each time; a file named is the user's.
    outputs = Outputs(force=force or picture is None)
    picture = picture or DEFAULT_PICTURE
    if check:
        outputs.claim(picture, "the check picture")
    elif name is not None:
        new_profile_path(name, folder, force)
        if manual and not has_terminal():
            raise CalibrationError(
                "--manual asks where the board is, and there is no terminal to ask in (standard input is "
                "closed or not a terminal); run it in a terminal, or leave out --manual to detect the board"
            )
    screen = MssScreen()
    try:
        look_at_the_game(screen, region)
        if check:
            verdict = draw_check(screen.grab(region), picture, outputs)
            out.write(f"{verdict}\npicture of what flowbot sees: {picture}\n")
            return 0 if verdict.startswith("board") else CalibrationError.exit_code
        if name is None:
            raise CalibrationError("give the profile a name: flowbot calibrate --name NAME")
        check_name(name)
        profile = _calibrate(screen, name, region, settings, manual, out)
    finally:
        screen.close()
    path = save_profile(profile, folder, force=force)
    out.write(f"profile saved: {path} ({profile.rows}x{profile.cols} board in {profile.region})\n")
    return 0


def _calibrate(
    screen, name: str, region: Region | None, settings: PointerSettings, manual: bool, out: TextIO
) -> Profile:
    """A profile made automatically, or by pointing when that fails (or with `manual`)."""
    if not manual:
        try:
            return calibrate_automatically(screen, name, region, settings)
        except FlowbotError as error:
            if not has_terminal():
                raise CalibrationError(
                    f"automatic calibration failed ({error}) and there is no terminal to ask; "
                    "run it in a terminal, or give --region"
                ) from None
            out.write(f"automatic calibration failed: {error}\n")
    return calibrate_by_pointing(
        screen, name, settings, _ask, lambda: _mouse_position(screen), out, after_failure=not manual
    )


def _grid(pixels: np.ndarray) -> Geometry:
    """The board's grid on a frame (its dots may be hidden by a dialog), or say why not."""
    try:
        return find_board(pixels).geometry
    except CaptureError as error:
        raise CalibrationError(f"no board on screen: {error}") from None


def has_terminal() -> bool:
    """True when a person can answer questions on standard input (not closed, not a pipe or file)."""
    stdin = sys.stdin
    return stdin is not None and not stdin.closed and stdin.isatty()


def _ask(question: str) -> str:
    """Ask on the terminal; its end (Ctrl-D, a closed input) stops calibrating with a message."""
    try:
        return input(question)
    except EOFError:
        raise CalibrationError("no answer: standard input ended while calibrating by pointing") from None


def _read(frame: Frame) -> Reading:
    """Read the board on a frame, or say why not."""
    try:
        return read_puzzle(frame.pixels)
    except CaptureError as error:
        raise CalibrationError(f"no board on screen: {error}") from None


def _window_around(geometry: Geometry, frame: Frame, limit: Region) -> Region:
    """The window to remember: the board on screen with room around it for the dialog."""
    geometry = geometry.shifted(frame.left, frame.top)
    return region_around(geometry.xs, geometry.ys, limit)


def _caption(picture: np.ndarray, text: str, colour: tuple[int, int, int]) -> None:
    """Write a verdict at the top of the picture, on a dark band so it stays readable."""
    cv2.rectangle(picture, (0, 0), (picture.shape[1], 34), (0, 0, 0), -1)
    cv2.putText(picture, text, (8, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2, cv2.LINE_AA)


def _mouse_position(screen) -> tuple[int, int]:
    """Where the real mouse pointer is, in the screen's pixels (pyautogui is imported only in the
    pointer adapter, which converts)."""
    from flowbot.act.pointer import mouse_position
    from flowbot.display import display_call

    # A person may take a while to answer: the display can go meanwhile.
    with display_call("reading the pointer's position"):
        return mouse_position(screen)
