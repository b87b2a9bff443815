"""Flow-like screenshots drawn by the tests themselves: black background, grid lines, dots."""

from __future__ import annotations

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
