"""Flow-like screenshots drawn by the tests themselves: black background, grid lines, dots."""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from flowbot.model import Puzzle
from flowbot.palette import PALETTES


def draw_board(
    puzzle: Puzzle,
    *,
    cell: int = 48,
    margin: tuple[int, int] = (40, 120),
    size: tuple[int, int] | None = None,
    line_rgb: tuple[int, int, int] = (70, 110, 70),
    palette: str = "current",
    line_width: int = 2,
    hud: bool = True,
) -> np.ndarray:
    """An (H, W, 3) BGR picture of a puzzle as the game draws it; walls are left blank (holes)."""
    left, top = margin
    width, height = size or (left * 2 + cell * puzzle.cols, top * 2 + cell * puzzle.rows)
    frame = np.zeros((height, width, 3), dtype=np.uint8)
    if hud:  # text above the board, as the game's header shows it
        cv2.putText(frame, "flows: 0/5   moves: 0   pipe: 0%", (left, top - 20), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6, (255, 255, 255), 1, cv2.LINE_AA)  # fmt: skip
    line = tuple(int(v) for v in line_rgb[::-1])
    for row, col in puzzle.cells():
        x0, y0 = left + col * cell, top + row * cell
        cv2.rectangle(frame, (x0, y0), (x0 + cell, y0 + cell), line, line_width)
    colours = PALETTES[palette]
    for index, pair in enumerate(puzzle.endpoints):
        red, green, blue = colours[index % len(colours)]
        for row, col in pair:
            centre = (left + col * cell + cell // 2, top + row * cell + cell // 2)
            cv2.circle(frame, centre, int(cell * 0.35), (blue, green, red), -1, cv2.LINE_AA)
    return frame


def png_bytes(frame: np.ndarray) -> bytes:
    """A frame encoded as a PNG file."""
    return cv2.imencode(".png", frame)[1].tobytes()


def jpeg_bytes(frame: np.ndarray, quality: int = 85) -> bytes:
    """A frame encoded as a JPEG file."""
    return cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()


# Looks of third-party Flow games (issue 11), drawn by the tests: each colour is (page, board, marks).
DARK_LOOK = {"page": (0, 0, 0), "panel": (46, 40, 38), "line": (90, 90, 90), "marker": (66, 60, 58)}
LIGHT_LOOK = {
    "page": (250, 250, 250),
    "panel": (226, 226, 230),
    "line": (120, 120, 120),
    "marker": (204, 204, 208),
}
HEADER_TEXT = "level 10  {rows}x{cols}  flows 0/{flows}"


def draw_look(
    puzzle: Puzzle,
    *,
    style: str = "nogrid",
    light: bool = False,
    cell: int = 40,
    size: tuple[int, int] = (800, 800),
    origin: tuple[int, int] = (100, 100),
    glyphs: bool = False,
    header: bool = False,
    pipes: bool = False,
    dot_radius: float = 0.4,
    page: tuple[int, int, int] | None = None,
) -> np.ndarray:
    """An (H, W, 3) BGR frame of a board in a look the official game does not have.

    style "nogrid": one rounded panel, a faint small marker in each empty cell, big discs.
    style "lines": thin grid lines on a board of its own colour (dark lines on a light board).
    size is (width, height) of the frame, origin the board's top-left pixel; walls are not drawn.
    """
    look = LIGHT_LOOK if light else DARK_LOOK
    width, height = size
    left, top = origin
    right, bottom = left + cell * puzzle.cols, top + cell * puzzle.rows
    frame = np.empty((height, width, 3), dtype=np.uint8)
    frame[:] = page if page is not None else look["page"]
    panel = look["panel"]
    if style == "nogrid":
        radius = max(2, cell // 5)
        _rounded_rectangle(frame, (left, top), (right - 1, bottom - 1), radius, panel)
    else:
        frame[top:bottom, left:right] = panel
    ends = {cell_: index for index, pair in enumerate(puzzle.endpoints) for cell_ in pair}
    if style == "nogrid":
        for row, col in puzzle.cells():
            if (row, col) not in ends:
                centre = (left + col * cell + cell // 2, top + row * cell + cell // 2)
                cv2.circle(frame, centre, max(1, round(cell * 0.05)), look["marker"], -1, cv2.LINE_AA)
    if pipes:
        _draw_pipes(frame, puzzle, cell, origin, light)
    if style == "lines":
        thickness = 1 if cell < 40 else 2
        for index in range(puzzle.cols + 1):
            x = min(left + index * cell, right - 1)
            cv2.line(frame, (x, top), (x, bottom - 1), look["line"], thickness)
        for index in range(puzzle.rows + 1):
            y = min(top + index * cell, bottom - 1)
            cv2.line(frame, (left, y), (right - 1, y), look["line"], thickness)
    colours = look_palette(light)
    for row, col in puzzle.cells():
        centre = (left + col * cell + cell // 2, top + row * cell + cell // 2)
        if (row, col) in ends:
            index = ends[(row, col)]
            red, green, blue = colours[index % len(colours)]
            disc = int(cell * dot_radius)
            cv2.circle(frame, centre, disc, (blue, green, red), -1, cv2.LINE_AA)
            if glyphs:
                _draw_glyph(frame, centre, disc // 2, index)
    if header:
        text = HEADER_TEXT.format(rows=puzzle.rows, cols=puzzle.cols, flows=len(puzzle.colors))
        scale = max(0.35, cell / 80)
        ink = (40, 40, 40) if light else (230, 230, 230)
        # The text's baseline sits a fifth of a cell above the board: within half a cell of its edge.
        baseline = top - max(3, cell // 5)
        cv2.putText(frame, text, (left, baseline), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 1, cv2.LINE_AA)
    return frame


def look_palette(light: bool) -> list[tuple[int, int, int]]:
    """The dot colours (RGB) of a look: a light board has brown and slate for white and grey."""
    colours = list(PALETTES["current"])
    if light:
        colours[colours.index((255, 255, 255))] = (120, 72, 30)
        colours[colours.index((160, 159, 184))] = (96, 96, 118)
    return colours


def _rounded_rectangle(frame, corner, far, radius, colour) -> None:
    """Fill a rectangle with rounded corners (inclusive pixel corners)."""
    (x0, y0), (x1, y1) = corner, far
    cv2.rectangle(frame, (x0 + radius, y0), (x1 - radius, y1), colour, -1)
    cv2.rectangle(frame, (x0, y0 + radius), (x1, y1 - radius), colour, -1)
    for x, y in ((x0 + radius, y0 + radius), (x1 - radius, y0 + radius), (x0 + radius, y1 - radius),
                 (x1 - radius, y1 - radius)):  # fmt: skip
        cv2.circle(frame, (x, y), radius, colour, -1, cv2.LINE_AA)


def _draw_glyph(frame, centre, radius, index, plus: bool = False) -> None:
    """A white shape inside a dot, as colour-blind modes draw, one per colour in turn: circle,
    triangle, square, star (a plus with `plus`), diamond."""
    x, y = centre
    white = (255, 255, 255)
    kind = index % 5
    if kind == 0:
        cv2.circle(frame, centre, radius, white, -1, cv2.LINE_AA)
        return
    if kind == 2:
        cv2.rectangle(frame, (x - radius + 1, y - radius + 1), (x + radius - 1, y + radius - 1), white, -1)
        return
    if kind == 3 and plus:
        bar = max(1, radius // 3)
        cv2.rectangle(frame, (x - radius, y - bar), (x + radius, y + bar), white, -1)
        cv2.rectangle(frame, (x - bar, y - radius), (x + bar, y + radius), white, -1)
        return
    corners = {1: 3, 3: 10, 4: 4}[kind]
    points = []
    for step in range(corners):
        angle = -np.pi / 2 + 2 * np.pi * step / corners
        reach = radius if kind != 3 or step % 2 == 0 else radius * 0.45
        points.append((x + reach * np.cos(angle), y + reach * np.sin(angle)))
    cv2.fillPoly(frame, [np.rint(np.array(points)).astype(np.int32)], white, cv2.LINE_AA)


def _draw_pipes(frame, puzzle: Puzzle, cell: int, origin: tuple[int, int], light: bool) -> None:
    """A short pipe out of each first endpoint (one step, into a free neighbour), with the cell's tint."""
    left, top = origin
    colours = look_palette(light)
    taken = {end for pair in puzzle.endpoints for end in pair}
    for index, pair in enumerate(puzzle.endpoints):
        start = pair[0]
        free = [step for step in puzzle.neighbors(start) if step not in taken]
        if not free:
            continue
        step = free[0]
        taken.add(step)
        red, green, blue = colours[index % len(colours)]
        colour = np.array((blue, green, red), dtype=np.float64)
        base = frame[top + step[0] * cell + cell // 2, left + step[1] * cell + cell // 2].astype(np.float64)
        tint = tuple(int(v) for v in (base * 0.7 + colour * 0.3))
        x0, y0 = left + step[1] * cell, top + step[0] * cell
        frame[y0 : y0 + cell, x0 : x0 + cell] = tint
        a = (left + start[1] * cell + cell // 2, top + start[0] * cell + cell // 2)
        b = (x0 + cell // 2, y0 + cell // 2)
        cv2.line(frame, a, b, (blue, green, red), max(2, cell // 3))
        cv2.circle(frame, b, max(1, cell // 6), (blue, green, red), -1, cv2.LINE_AA)


def draw_open_panel(
    puzzle: Puzzle,
    *,
    colours: dict[str, tuple[int, int, int]],
    cell: int = 60,
    origin: tuple[int, int] = (300, 200),
    size: tuple[int, int] = (1600, 1000),
    pad: int = 12,
    paths: tuple[tuple[tuple[int, int], ...], ...] = (),
    light: bool = True,
    palette: list[tuple[int, int, int]] | None = None,
) -> np.ndarray:
    """An (H, W, 3) BGR frame of a board with no lines at all: a rounded panel within a few levels of
    the page's colour, set off by a thin border; a small mark at each empty cell's middle and a big
    flat dot with a white glyph at each endpoint; `paths` (a flow's cells each, in the puzzle's
    colour order) drawn as thick round-capped pipes over the marks.

    colours: BGR "page", "panel", "border", "mark"; origin is the top-left of the board's cells, the
    panel reaching `pad` pixels beyond them; palette: the flows' colours (RGB), the look's by default.
    """
    width, height = size
    frame = np.empty((height, width, 3), dtype=np.uint8)
    frame[:] = colours["page"]
    left, top = origin
    right, bottom = left + cell * puzzle.cols + pad, top + cell * puzzle.rows + pad
    radius = max(4, min(24, cell // 4))
    _rounded_rectangle(frame, (left - pad - 1, top - pad - 1), (right, bottom), radius + 1, colours["border"])
    _rounded_rectangle(frame, (left - pad, top - pad), (right - 1, bottom - 1), radius, colours["panel"])
    taken = {step for path in paths for step in path}
    ends = {end: index for index, pair in enumerate(puzzle.endpoints) for end in pair}
    for row, col in puzzle.cells():
        if (row, col) not in ends and (row, col) not in taken:
            centre = (left + col * cell + cell // 2, top + row * cell + cell // 2)
            _soft_disc(frame, centre, max(1.5, cell * 0.07), colours["mark"])
    palette = palette or look_palette(light)
    for index, path in enumerate(paths):
        red, green, blue = palette[index % len(palette)]
        points = [(left + col * cell + cell // 2, top + row * cell + cell // 2) for row, col in path]
        # About a third of a cell wide, with round caps and joins.
        for a, b in itertools.pairwise(points):
            cv2.line(frame, a, b, (blue, green, red), max(3, round(cell / 3)), cv2.LINE_AA)
        for point in points:
            cv2.circle(frame, point, max(1, round(cell / 6)), (blue, green, red), -1, cv2.LINE_AA)
    for (row, col), index in ends.items():
        red, green, blue = palette[index % len(palette)]
        centre = (left + col * cell + cell // 2, top + row * cell + cell // 2)
        disc = round(cell * 0.32)
        cv2.circle(frame, centre, disc, (blue, green, red), -1, cv2.LINE_AA)
        _draw_glyph(frame, centre, max(2, round(disc * 0.4)), index, plus=True)
    return frame


def _soft_disc(frame: np.ndarray, centre: tuple[int, int], radius: float, colour) -> None:
    """A small disc smoothed as a browser draws it, round to the pixel (OpenCV's are lopsided)."""
    x, y = centre
    reach = int(radius) + 2
    rows, cols = np.mgrid[y - reach : y + reach + 1, x - reach : x + reach + 1]
    cover = np.clip(radius + 0.5 - np.hypot(cols - x, rows - y), 0, 1)[..., None]
    patch = frame[y - reach : y + reach + 1, x - reach : x + reach + 1]
    patch[:] = np.rint(patch * (1 - cover) + np.array(colour) * cover).astype(np.uint8)
