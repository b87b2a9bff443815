"""Colour depth for the terminal game, and RGB mapped to the colour numbers a terminal knows."""

from __future__ import annotations

from collections.abc import Mapping

from flowbot.render import (
    BASIC,
    CUBE_STEPS,
    PLAIN,
    TRUECOLOR,
    XTERM_256,
    basic_index,
    cube_index,
    cube_levels,
)

Rgb = tuple[int, int, int]


def color_depth(environ: Mapping[str, str], *, has_colors: bool, colors: int) -> int:
    """How many colours to paint with, from NO_COLOR and what the terminal's terminfo offers.

    Curses can only send what terminfo describes, so COLORTERM does not count here: 24-bit colour
    needs a direct-colour entry (e.g. TERM=xterm-direct, 2**24 colours); xterm-256color gets the cube.
    """
    if environ.get("NO_COLOR", "") != "" or environ.get("TERM", "") == "dumb":
        return PLAIN
    if not has_colors or colors < 8:
        return PLAIN
    if colors >= TRUECOLOR:
        return TRUECOLOR
    if colors >= XTERM_256:
        return XTERM_256
    return BASIC


def color_number(rgb: Rgb, depth: int) -> int:
    """The terminal's colour number nearest to an RGB at a colour depth (direct, 256 or 8 colours)."""
    if depth >= TRUECOLOR:
        red, green, blue = rgb
        return (red << 16) | (green << 8) | blue  # direct-colour terminfo numbers colours by their RGB
    if depth >= XTERM_256:
        return xterm_index(rgb)
    return basic_index(rgb)


def xterm_index(rgb: Rgb) -> int:
    """The nearest of the xterm 256 colours that do not depend on the theme: the cube or the grey ramp."""
    cube = cube_index(rgb)
    cube_rgb = tuple(CUBE_STEPS[level] for level in cube_levels(rgb))
    # Greys 232-255 run from 8 to 238 in steps of 10; a grey (the game's grey, white) may sit closer there.
    grey_level = max(0, min(23, round((sum(rgb) / 3 - 8) / 10)))
    grey = 8 + 10 * grey_level
    if _distance(rgb, (grey, grey, grey)) < _distance(rgb, cube_rgb):
        return 232 + grey_level
    return cube


def ink_for(rgb: Rgb) -> Rgb:
    """Black letters on light colours, white on dark, so a dot's label stays readable."""
    return (0, 0, 0) if sum(rgb) > 380 else (255, 255, 255)


def _distance(a: Rgb, b: Rgb | tuple[int, ...]) -> int:
    """Squared distance between two RGB colours."""
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))
