"""The game's colours: RGB values for drawing boards and as hints when naming colours read from images."""

from __future__ import annotations

from flowbot.model import PALETTE, Puzzle

# The palettes the game has shipped, as RGB per colour name, in PALETTE order. Screenshots differ
# by device, compression and pack, so a reader groups colours within one image and uses these only
# to name the groups. Values are the centres of endpoint dots observed in real screenshots.
PALETTES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "current": (
        (234, 51, 35), (61, 138, 37), (15, 40, 249), (233, 225, 73), (241, 149, 58), (117, 251, 253),
        (234, 53, 194), (160, 45, 43), (127, 3, 126), (255, 255, 255), (160, 159, 184), (117, 251, 76),
        (160, 138, 83), (56, 40, 174), (55, 126, 127), (237, 131, 230),
    ),
    "legacy": (
        (252, 0, 1), (0, 133, 1), (0, 0, 253), (235, 229, 1), (252, 132, 1), (2, 254, 254),
        (253, 9, 199), (165, 42, 42), (127, 3, 126), (255, 255, 255), (166, 166, 166), (2, 254, 2),
        (189, 183, 107), (1, 0, 138), (2, 128, 132), (255, 192, 203),
    ),
    "muted": (
        (255, 72, 72), (72, 169, 72), (80, 99, 254), (238, 238, 100), (255, 160, 72), (72, 255, 255),
        (255, 79, 213), (170, 80, 80), (150, 60, 150), (255, 255, 255), (170, 170, 170), (120, 255, 120),
        (200, 180, 130), (70, 70, 190), (72, 150, 150), (255, 170, 220),
    ),
}  # fmt: skip

RGB: dict[str, tuple[int, int, int]] = dict(zip(PALETTE, PALETTES["current"], strict=True))


def display_rgb(puzzle: Puzzle, index: int) -> tuple[int, int, int]:
    """The RGB to draw a colour with: its own name's, or the palette colour of its rank."""
    name = puzzle.colors[index].name
    if name in RGB:
        return RGB[name]
    return RGB[PALETTE[index % len(PALETTE)]]
