"""Digit glyphs for reading Number Match: normalised shapes, and templates rendered from a font.

A glyph is a cell's ink cut to its bounding box and scaled to GLYPH_SIZE, blurred a little so that
stroke weight and a pixel of offset matter less than shape; its aspect ratio is kept beside it
because scaling makes a '1' as wide as an '8'. Templates come from pygame's bundled sans font
(the one the bundled game draws with) and the common sans fonts a desktop has (games in a browser
draw with those: a bold '1' with a foot, a '4' open or closed), at several weights, so nothing is
downloaded or learned.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

GLYPH_SIZE = (20, 28)  # width, height
DIGITS = tuple(range(1, 10))
# Sizes the templates are drawn at (pixels); the glyphs read are scaled anyway.
TEMPLATE_HEIGHTS = (40, 64)
HOLE_PENALTY = 0.15
# Sans fonts that browsers and desktops draw digits with, where the system has them (Debian paths;
# a missing one is skipped). Regular and bold: a game's digits are one or the other.
SYSTEM_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
)


@dataclass(frozen=True, slots=True)
class Glyph:
    """A normalised digit shape: a zero-mean unit-norm vector, and width / height of its ink."""

    vector: np.ndarray
    aspect: float
    holes: int  # enclosed counters: 6 and 9 have one, 8 two, 5 none (which blur alone loses)


def glyph_of(mask: np.ndarray) -> Glyph | None:
    """The glyph of a binary ink mask (nonzero = ink), or None when it holds no ink."""
    points = cv2.findNonZero((mask > 0).astype(np.uint8))
    if points is None:
        return None
    x, y, width, height = cv2.boundingRect(points)
    crop = (mask[y : y + height, x : x + width] > 0).astype(np.float32)
    scaled = cv2.resize(crop, GLYPH_SIZE, interpolation=cv2.INTER_AREA)
    scaled = cv2.GaussianBlur(scaled, (5, 5), 1.2)
    vector = scaled.ravel() - scaled.mean()
    norm = float(np.linalg.norm(vector))
    if norm == 0:
        return None
    return Glyph(vector / norm, width / height, _holes(crop > 0))


def _holes(ink: np.ndarray) -> int:
    """How many background regions the ink encloses, ignoring specks under 2% of its box."""
    contours, hierarchy = cv2.findContours(
        np.pad(ink, 1).astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE
    )
    if hierarchy is None:
        return 0
    least = 0.02 * ink.size
    return sum(
        1
        for contour, links in zip(contours, hierarchy[0], strict=True)
        if links[3] >= 0 and cv2.contourArea(contour) >= least
    )


def match(glyph: Glyph) -> tuple[int, float, float]:
    """(digit, score, runner-up score) of the template family that fits the glyph best; score <= 1."""
    digits, vectors, aspects, holes = _template_arrays()
    similarity = _similarity(glyph, vectors, aspects, holes)
    best = {digit: float(similarity[digits == digit].max()) for digit in DIGITS}
    ranked = sorted(best.items(), key=lambda item: -item[1])
    return ranked[0][0], ranked[0][1], ranked[1][1]


def _similarity(glyph: Glyph, vectors: np.ndarray, aspects: np.ndarray, holes: np.ndarray) -> np.ndarray:
    """How well the glyph fits each template (1 at best), shape less aspect and counter penalties."""
    similarity = vectors @ glyph.vector
    # A '1' and a '7' differ mostly in width; a wrong aspect costs in proportion to how wrong.
    similarity -= 0.5 * np.abs(np.log(glyph.aspect / aspects))
    # A 5 and a 6 blur alike; whether the bowl is closed tells them apart.
    similarity -= HOLE_PENALTY * np.abs(glyph.holes - holes)
    return similarity


@functools.cache
def _template_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The templates as arrays (digit, vector rows, aspect, holes), for one matrix product per glyph."""
    found = [(digit, glyph) for _, digit, glyph in _templates_by_face()]
    return (
        np.array([digit for digit, _ in found]),
        np.stack([glyph.vector for _, glyph in found]),
        np.array([glyph.aspect for _, glyph in found]),
        np.array([glyph.holes for _, glyph in found]),
    )


def templates() -> tuple[tuple[int, Glyph], ...]:
    """(digit, glyph) for each digit at each weight and size, from pygame's bundled sans font and
    the system's sans fonts."""
    return tuple((digit, glyph) for _, digit, glyph in _templates_by_face())


@functools.cache
def _templates_by_face() -> tuple[tuple[int, int, Glyph], ...]:
    """(font index, digit, glyph) of every template (the index says which font drew it)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.font  # only here: reading a board needs no window

    pygame.font.init()
    found = []
    faces: list[str | None] = [None, *(path for path in SYSTEM_FONTS if Path(path).is_file())]
    for index, face in enumerate(faces):
        for height in TEMPLATE_HEIGHTS:
            found.extend(
                (index, digit, glyph) for digit, glyph in _rendered(pygame.font.Font(face, height), height)
            )
    return tuple(found)


def _rendered(font, height: int) -> list[tuple[int, Glyph]]:
    """(digit, glyph) for each digit drawn in one font, thinned, as drawn and thickened."""
    import pygame.surfarray

    found = []
    for digit in DIGITS:
        surface = font.render(str(digit), True, (255, 255, 255), (0, 0, 0))
        ink = pygame.surfarray.array3d(surface)[:, :, 0].T
        mask = ink > 127
        for weight in (-1, 0, 1):
            shaped = _reweighted(mask, weight, height)
            glyph = glyph_of(shaped)
            if glyph is not None:
                found.append((digit, glyph))
    return found


def _reweighted(mask: np.ndarray, weight: int, height: int) -> np.ndarray:
    """The mask thinned (weight < 0) or thickened (> 0) by a stroke share of its height."""
    if weight == 0:
        return mask.astype(np.uint8)
    size = max(1, round(height / 24))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * size + 1, 2 * size + 1))
    operation = cv2.erode if weight < 0 else cv2.dilate
    return operation(mask.astype(np.uint8), kernel)
