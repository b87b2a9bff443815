"""The game's colours: RGB values for drawing boards and as hints when naming read colours."""

from __future__ import annotations

from flowbot.model import PALETTE, Puzzle

# Approximate RGB of each palette colour in the current game; screenshots vary, so readers
# group colours within an image and use these only to name the groups.
RGB: dict[str, tuple[int, int, int]] = {
    "red": (234, 51, 35),
    "green": (61, 137, 41),
    "blue": (20, 41, 245),
    "yellow": (232, 223, 73),
    "orange": (235, 142, 52),
    "cyan": (117, 251, 253),
    "magenta": (234, 53, 193),
    "maroon": (165, 44, 41),
    "purple": (116, 20, 123),
    "white": (255, 255, 255),
    "grey": (160, 160, 160),
    "lime": (117, 250, 76),
    "tan": (161, 138, 108),
    "dark blue": (50, 63, 175),
    "teal": (55, 128, 128),
    "pink": (241, 155, 168),
}


def display_rgb(puzzle: Puzzle, index: int) -> tuple[int, int, int]:
    """The RGB to draw a colour with: its own name's, or the palette colour of its rank."""
    name = puzzle.colors[index].name
    if name in RGB:
        return RGB[name]
    return RGB[PALETTE[index % len(PALETTE)]]
