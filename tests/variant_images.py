"""Screenshots of Flow's sister games drawn by the tests, the way those games draw them: Hexes (flat-topped
hexagons in odd-q columns, a thick outline), Bridges (two grey arched strokes), walls (bright thick
segments on cell edges) and Warps (openings in the outline at both ends of a row or column)."""

from __future__ import annotations

import random

import cv2
import numpy as np

from flowbot.palette import PALETTES

LINE = (70, 110, 110)  # BGR of the thin lines between cells: olive, as the real Hexes boards
OUTLINE = (90, 140, 140)
WALL = (150, 230, 150)  # BGR: the light green of the walls on real boards
BRIDGE = (207, 208, 213)


def hex_centre(row: int, col: int, side: float, margin: tuple[int, int]) -> tuple[float, float]:
    """Pixel centre of odd-q cell (row, col): odd columns half a cell lower."""
    height = np.sqrt(3) * side
    return margin[0] + side + 1.5 * side * col, margin[1] + height / 2 + height * row + (col % 2) * height / 2


def draw_hexes(
    lines: list[str], side: int = 40, margin: tuple[int, int] = (30, 140), palette: str = "current"
) -> np.ndarray:
    """An (H, W, 3) BGR picture of a hex board written as odd-q text lines ('#' no cell)."""
    rows, cols = len(lines), len(lines[0])
    height = np.sqrt(3) * side
    size = (int(margin[1] * 2 + height * (rows + 1)), int(margin[0] * 2 + side * (1.5 * cols + 0.5)))
    frame = np.zeros((*size, 3), dtype=np.uint8)
    cv2.putText(frame, "flows: 0/5   moves: 0", (margin[0], margin[1] - 40), cv2.FONT_HERSHEY_SIMPLEX,
                0.6, (255, 255, 255), 1, cv2.LINE_AA)  # fmt: skip
    cells = {(r, c) for r in range(rows) for c in range(cols) if lines[r][c] != "#"}
    centres = {cell: hex_centre(*cell, side, margin) for cell in cells}
    places = [(round(x), round(y)) for x, y in centres.values()]
    outline = []
    for x, y in centres.values():
        corners = _hex_corners(x, y, side)
        cv2.polylines(frame, [np.rint(corners).astype(np.int32)], True, LINE, 1, cv2.LINE_AA)
        for first, second in zip(corners, np.roll(corners, -1, axis=0), strict=True):
            middle = (first + second) / 2
            beyond = (round(2 * middle[0] - x), round(2 * middle[1] - y))
            if not any(abs(beyond[0] - px) <= 2 and abs(beyond[1] - py) <= 2 for px, py in places):
                outline.append((first, second))
    # The outline is about three times as thick as the lines between cells, as on the real boards.
    for first, second in outline:
        start, end = tuple(np.rint(first).astype(int)), tuple(np.rint(second).astype(int))
        cv2.line(frame, start, end, OUTLINE, max(3, side // 7))
    _dots(frame, lines, centres, 0.32 * height, palette)
    return frame


def _hex_corners(x: float, y: float, side: float) -> np.ndarray:
    """(6, 2) corners of a flat-topped hexagon."""
    half = np.sqrt(3) * side / 2
    return np.array(
        [(x + side, y), (x + side / 2, y + half), (x - side / 2, y + half), (x - side, y),
         (x - side / 2, y - half), (x + side / 2, y - half)]
    )  # fmt: skip


def _dots(frame, lines, centres, radius, palette) -> None:
    """Endpoint discs, each letter its palette colour (letters in order of the alphabet)."""
    colours = PALETTES[palette]
    for (row, col), (x, y) in centres.items():
        char = lines[row][col]
        if char.isalpha():
            red, green, blue = colours[(ord(char.upper()) - ord("A")) % len(colours)]
            cv2.circle(frame, (round(x), round(y)), round(radius), (blue, green, red), -1, cv2.LINE_AA)


def draw_square(
    lines: list[str],
    walls: frozenset = frozenset(),
    warps: frozenset = frozenset(),
    cell: int = 48,
    margin: tuple[int, int] = (40, 120),
    gap: float = 1.0,
) -> np.ndarray:
    """An (H, W, 3) BGR picture of a square board: '#' no cell, '+' a bridge, thick bright walls
    between the given pairs of cells, and an opening in the outline (the middle `gap` of the
    cell's edge) at both ends of a row or column that warps."""
    rows, cols = len(lines), len(lines[0])
    left, top = margin
    frame = np.zeros((top * 2 + cell * rows, left * 2 + cell * cols, 3), dtype=np.uint8)
    cv2.putText(frame, "flows: 0/5   moves: 0   pipe: 0%", (left, top - 20), cv2.FONT_HERSHEY_SIMPLEX,
                0.6, (255, 255, 255), 1, cv2.LINE_AA)  # fmt: skip
    cells = {(r, c) for r in range(rows) for c in range(cols) if lines[r][c] != "#"}
    openings = set()
    for kind, index in warps:
        if kind == "row":
            openings |= {((index, 0), "left"), ((index, cols - 1), "right")}
        else:
            openings |= {((0, index), "top"), ((rows - 1, index), "bottom")}
    for row, col in cells:
        x0, y0 = left + col * cell, top + row * cell
        sides = {
            "left": ((x0, y0), (x0, y0 + cell), (row, col - 1)),
            "right": ((x0 + cell, y0), (x0 + cell, y0 + cell), (row, col + 1)),
            "top": ((x0, y0), (x0 + cell, y0), (row - 1, col)),
            "bottom": (((x0, y0 + cell)), (x0 + cell, y0 + cell), (row + 1, col)),
        }
        for name, (start, end, beyond) in sides.items():
            if ((row, col), name) in openings:
                _open_line(frame, start, end, gap, OUTLINE, max(2, cell // 20))
                continue
            if beyond in cells:
                wall = frozenset({(row, col), beyond}) in walls
                colour, width = (WALL, max(2, cell // 24)) if wall else (LINE, 1)
            else:
                colour, width = OUTLINE, max(2, cell // 20)
            cv2.line(frame, start, end, colour, width)
        if lines[row][col] == "+":
            _bridge(frame, x0, y0, cell)
    centres = {(r, c): (left + c * cell + cell / 2, top + r * cell + cell / 2) for r, c in cells}
    _dots(frame, lines, centres, 0.35 * cell, "current")
    return frame


def _open_line(frame, start, end, gap, colour, width) -> None:
    """A line with its middle `gap` (share of its length) left out."""
    start, end = np.array(start, dtype=float), np.array(end, dtype=float)
    for low, high in ((0.0, (1 - gap) / 2), ((1 + gap) / 2, 1.0)):
        if high > low:
            first, second = start + low * (end - start), start + high * (end - start)
            cv2.line(
                frame, tuple(np.rint(first).astype(int)), tuple(np.rint(second).astype(int)), colour, width
            )


def _bridge(frame: np.ndarray, x0: int, y0: int, cell: int) -> None:
    """The Bridges symbol: two grey strokes across the cell, each arching over the middle."""
    thick = max(2, cell // 40)
    for share in (0.31, 0.68):
        y = round(y0 + share * cell)
        cv2.line(frame, (x0 + 2, y), (round(x0 + 0.32 * cell), y), BRIDGE, thick)
        cv2.line(frame, (round(x0 + 0.68 * cell), y), (x0 + cell - 2, y), BRIDGE, thick)
        axes = (round(0.16 * cell), round(0.1 * cell))
        cv2.ellipse(frame, (x0 + cell // 2, y), axes, 0, 180, 360, BRIDGE, thick, cv2.LINE_AA)


def random_hex_lines(rng: random.Random, rows: int, cols: int, colours: int) -> list[str]:
    """Odd-q lines of a random hex board: a few cells dropped at the rim, `colours` pairs of dots."""
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    for col in range(cols):
        for _ in range(rng.randint(0, 1)):
            grid[rng.choice((0, rows - 1))][col] = "#"
    return _place_dots(rng, grid, colours)


def random_square_lines(
    rng: random.Random, rows: int, cols: int, colours: int, bridges: int = 0
) -> list[str]:
    """Lines of a random square board with `colours` pairs of dots and `bridges` bridge cells."""
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    inner = [(r, c) for r in range(1, rows - 1) for c in range(1, cols - 1)]
    for row, col in rng.sample(inner, bridges):
        grid[row][col] = "+"
    return _place_dots(rng, grid, colours)


def _place_dots(rng: random.Random, grid: list[list[str]], colours: int) -> list[str]:
    """Put pairs of dots on free cells; letters then renamed by first appearance, as a reading gives them."""
    free = [(r, c) for r, line in enumerate(grid) for c, char in enumerate(line) if char == "."]
    spots = rng.sample(free, 2 * colours)
    for index, (row, col) in enumerate(spots):
        grid[row][col] = "ABCDEFGHIJKLMNOP"[index // 2]
    return [("".join(line)) for line in grid]


def first_appearance(lines: list[str]) -> list[str]:
    """Letters renamed A, B, ... by first appearance in reading order, as readings and truths give them."""
    names: dict[str, str] = {}
    for char in "".join(lines):
        if char.isalpha() and char not in names:
            names[char] = "ABCDEFGHIJKLMNOP"[len(names)]
    return ["".join(names.get(char, char) for char in line) for line in lines]
