"""Find the endpoint dots on a board, group them by colour within the image, and name the groups."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from flowbot.errors import CaptureError
from flowbot.model import PALETTE, Cell, Geometry, cell_name
from flowbot.palette import PALETTES

# Seen on real screenshots: dots differ from the cell's dark corners by 50-90 (CIE76 delta E) and
# are flat to within 8; empty cells, glows and tints included, stay within 11 of their corners.
DOT_CONTRAST = 20.0
DOT_FLATNESS = 20.0
DOT_BRIGHTNESS = 70
# A cell whose corners are at least this light (Lab L) is on a light board.
LIGHT_BOARD = 60.0
# Two dots of one colour differ by under 2; two colours of one palette by over 28.
SAME_COLOR = 14.0
# Dots are 0.7 of a cell across: the ring at 0.25 lies inside one, corners at 0.4 lie outside.
RING_RADIUS = 0.25
CORNER_OFFSET = 0.4
SAMPLE_SIZE = 0.15
# Colour runs through a cell's side when it shows at both these distances from its centre (of a cell:
# inside, and past the line in the cell beyond), sampled in boxes this big.
SIDE_OFFSETS = (0.42, 0.6)
# ...or is the very colour of the dot (CIE76 delta E) at both sides.
SAME_AT_SIDES = 4.0
SIDE_SAMPLE = 0.06
# Half the width (of a cell) of colour that leaves a dot's cell as a band, not a pipe: a pipe is about
# a third of a cell wide, a band drifting over the board as wide as a dot.
BAND_HALF_WIDTH = 0.3
# The outer ring, for dots with a white shape inside: 0.8 of a big dot's radius, sampled finely.
OUTER_RADIUS = 0.31
OUTER_SAMPLE_SIZE = 0.08
# A glyph's white: every channel at least this bright, and channels this close together.
WHITE_LEVEL = 200
WHITE_SPREAD = 40
# A ring washed with a glyph's white is at least this much greyer (Lab chroma) than the dot.
WASHED_CHROMA = 4.0
# Of a small dot's samples not white from its glyph, this share agree on its colour.
RIM_AGREEMENT = 0.6
# ...and some lie within 30 degrees (this cosine) of each of the four ways out of the cell.
RIM_SIDE = 0.85


@dataclass(frozen=True, slots=True)
class Dot:
    """An endpoint seen on the board: its cell, and its colour as RGB and as CIE Lab."""

    cell: Cell
    rgb: tuple[int, int, int]
    lab: tuple[float, float, float]


def find_dots(frame: np.ndarray, geometry: Geometry, holes: frozenset[Cell]) -> list[Dot]:
    """The endpoint dots, in reading order: flat, bright discs that stand out from their cell's corners.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    every = [(row, col) for row in range(geometry.rows) for col in range(geometry.cols)]
    cells = [cell for cell in every if cell not in holes]
    size = geometry.cell_size
    centres = np.array([geometry.center(cell) for cell in cells])
    # In small cells the corners keep clear of the grid lines: two pixels and half a sample box.
    corner = min(CORNER_OFFSET, 0.5 - (max(3, int(SAMPLE_SIZE * size)) // 2 + 2) / size)
    corners = [(dx * corner, dy * corner) for dx in (-1, 1) for dy in (-1, 1)]
    # Only the board and a cell around it are sampled: the rest of the frame is left alone.
    bounds = (geometry.xs[0] - size, geometry.ys[0] - size, geometry.xs[-1] + size, geometry.ys[-1] + size)
    dots = dots_at(frame, cells, centres, size, corners, bounds)
    return [dot for dot in dots if not _runs_through(frame, geometry, dot)]


def _runs_through(frame: np.ndarray, geometry: Geometry, dot: Dot) -> bool:
    """Whether the dot's colour is a band running through its cell: it reaches two opposite sides of
    the cell and not the two others (a dot is round: it reaches all four sides or none; a pipe leaves
    it by one), and runs on past the line into a cell beyond or is unchanged at both sides.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    size = geometry.cell_size
    x, y = geometry.center(dot.cell)
    reach = max(1, round(SIDE_SAMPLE * size / 2))
    height, width = frame.shape[:2]
    colour = np.array(dot.lab)

    def distance(dx: float, dy: float, offset: float) -> float:
        """How far from the dot's colour the frame is at `offset` (of a cell) towards a side."""
        px, py = round(x + dx * offset * size), round(y + dy * offset * size)
        rows = slice(max(0, py - reach), min(height, py + reach + 1))
        box = frame[rows, max(0, px - reach) : min(width, px + reach + 1)]
        if box.size == 0:
            return float("inf")
        blue, green, red = (int(value) for value in box.reshape(-1, 3).mean(axis=0).round())
        return float(np.linalg.norm(np.subtract(_lab_of(blue, green, red), colour)))

    inner, outer = SIDE_OFFSETS
    for along, across in (((1, 0), (0, 1)), ((0, 1), (1, 0))):
        sides = [(along[0] * sign, along[1] * sign) for sign in (-1, 1)]
        others = [(across[0] * sign, across[1] * sign) for sign in (-1, 1)]
        if not all(distance(*side, inner) <= DOT_FLATNESS for side in sides):
            continue
        if not all(distance(*side, inner) > DOT_FLATNESS for side in others):
            continue
        # Past the line into a cell beyond (unless a dot sits there), or the very colour at both
        # sides (a dot's rim, sampled in a tiny cell, is blended with what is around it).
        if any(distance(*side, outer) <= DOT_FLATNESS for side in sides):
            return True
        if all(distance(*side, inner) <= SAME_AT_SIDES for side in sides):
            return True
    # A band's rounded end: the colour leaves the cell by one side as wide as a dot, on past the line
    # (a pipe leaving a dot is half as wide, and a dot's own rim never reaches that far off its axis).
    for along in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        across = (along[1], along[0])
        if all(
            distance(along[0] * offset + across[0] * side, along[1] * offset + across[1] * side, 1.0)
            <= DOT_FLATNESS
            for offset in SIDE_OFFSETS
            for side in (-BAND_HALF_WIDTH, BAND_HALF_WIDTH)
        ):
            return True
    return False


def dots_at(
    frame: np.ndarray,
    cells: list[Cell],
    centres: np.ndarray,
    size: float,
    corners: list[tuple[float, float]],
    bounds: tuple[float, float, float, float] | None = None,
    spare: int = 0,
) -> list[Dot]:
    """The dots among cells of any shape: `centres` (N, 2) pixels (x, y); `size` is the cell a dot of
    0.7 of it fills; `corners` are offsets (of size) inside the cell and clear of its dot, where its
    background shows; `bounds` (left, top, right, bottom) the part of the frame sampled.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    if not cells:
        return []
    if bounds is None:
        bounds = (
            centres[:, 0].min() - 1.5 * size,
            centres[:, 1].min() - 1.5 * size,
            centres[:, 0].max() + 1.5 * size,
            centres[:, 1].max() + 1.5 * size,
        )
    sums = _BoxSums(frame, max(_box(SAMPLE_SIZE, size), _box(OUTER_SAMPLE_SIZE, size)), bounds)
    inner_bgr, inner_lab = _samples(sums, centres, size, SAMPLE_SIZE, [*_ring(RING_RADIUS), *corners])
    outer_bgr, outer_lab = _samples(sums, centres, size, OUTER_SAMPLE_SIZE, _ring(OUTER_RADIUS))
    centre_bgr, _ = _samples(sums, centres, size, OUTER_SAMPLE_SIZE, [(0.0, 0.0)])
    corner_lab = inner_lab[:, 8:]
    colour_bgr, colour_lab, flat = _ring_colour(inner_bgr[:, :8], inner_lab[:, :8])
    # A white shape inside a dot (colour-blind modes) can spoil the inner ring; the outer ring, just
    # inside a big dot's edge, is clear of it. It gives the colour where the inner ring is not flat,
    # or where the dot's middle is white and the inner ring looks washed with white: lighter and
    # greyer than the outer ring (a small dot's outer ring, on its edge, is darker instead).
    outer = _ring_colour(outer_bgr, outer_lab)
    washed = (colour_lab[:, 0] > outer[1][:, 0]) & (_chroma(outer[1]) - _chroma(colour_lab) >= WASHED_CHROMA)
    use_outer = outer[2] & (~flat | (_whitish(centre_bgr[:, 0]) & washed))
    colour_bgr = np.where(use_outer[:, None], outer[0], colour_bgr)
    colour_lab = np.where(use_outer[:, None], outer[1], colour_lab)
    flat = flat | use_outer
    # A small dot with a square inside: its corners cross the inner ring at four of eight points and
    # the outer ring lies on the dot's edge. Sixteen fine samples on the inner ring, 12 of them flat.
    fine_bgr, fine_lab = _samples(sums, centres, size, OUTER_SAMPLE_SIZE, _ring(RING_RADIUS, 16))
    fine = _ring_colour(fine_bgr, fine_lab)
    use_fine = ~flat & fine[2]
    colour_bgr = np.where(use_fine[:, None], fine[0], colour_bgr)
    colour_lab = np.where(use_fine[:, None], fine[1], colour_lab)
    flat = flat | use_fine
    # Last, a big glyph in a small dot leaves only a thin coloured rim: of all samples, those not
    # white from the glyph, most of them agreeing, and all round the middle.
    for index in np.flatnonzero(~flat):
        every_bgr = np.concatenate([inner_bgr[index, :8], outer_bgr[index], fine_bgr[index]])
        every_lab = np.concatenate([inner_lab[index, :8], outer_lab[index], fine_lab[index]])
        coloured = ~_whitish(every_bgr)
        if coloured.sum() < len(coloured) / 3:
            continue
        rim = _ring_colour(every_bgr[None, coloured], every_lab[None, coloured], RIM_AGREEMENT)
        agreeing = np.linalg.norm(every_lab[coloured] - rim[1][0], axis=1) <= DOT_FLATNESS
        if rim[2][0] and _all_round(RIM_DIRECTIONS[coloured][agreeing]):
            colour_bgr[index], colour_lab[index], flat[index] = rim[0][0], rim[1][0], True
    # A dot stands out from every corner, or from all but `spare` of them (tight cells, where a
    # corner may catch the dot's blurred rim).
    contrast = np.sort(np.linalg.norm(corner_lab - colour_lab[:, None], axis=2), axis=1)[:, spare]
    # On a dark board, dots are bright (a tint under a pipe is dark); on a light board (light
    # corners) a dot may be dark: black stands in for white there.
    light_board = np.median(corner_lab[..., 0], axis=1) >= LIGHT_BOARD
    bright = (colour_bgr.max(axis=1) >= DOT_BRIGHTNESS) | light_board
    dots = []
    for index in np.flatnonzero(flat & bright & (contrast >= DOT_CONTRAST)):
        blue, green, red = (int(value) for value in colour_bgr[index])
        dots.append(Dot(cells[index], (red, green, blue), tuple(float(v) for v in colour_lab[index])))
    return dots


def _ring(radius: float, count: int = 8) -> list[tuple[float, float]]:
    """Offsets (of a cell) evenly around a circle about a cell's centre."""
    angles = np.linspace(0, 2 * np.pi, count, endpoint=False)
    return [(radius * np.cos(angle), radius * np.sin(angle)) for angle in angles]


# Which way from the centre each of a small dot's samples lies (inner ring, outer ring, fine ring).
RIM_DIRECTIONS = np.array([*_ring(1.0), *_ring(1.0), *_ring(1.0, 16)])


def _all_round(directions: np.ndarray) -> bool:
    """Whether samples lying these ways (N, 2) from a centre reach out to all four sides of it, each
    within RIM_SIDE: a dot's rim goes all round its glyph, while a pipe's rounded end or bend (a
    white panel about it) leaves the cell by one side, or two."""
    return all(bool((directions @ side >= RIM_SIDE).any()) for side in ((1, 0), (0, 1), (-1, 0), (0, -1)))


def _whitish(bgr: np.ndarray) -> np.ndarray:
    """Per colour (..., 3) BGR: near white, bright and grey."""
    bgr = bgr.astype(np.int16)
    return (bgr.min(axis=-1) >= WHITE_LEVEL) & (bgr.max(axis=-1) - bgr.min(axis=-1) <= WHITE_SPREAD)


def _chroma(lab: np.ndarray) -> np.ndarray:
    """Per Lab colour (..., 3): how far from grey it is."""
    return np.hypot(lab[..., 1], lab[..., 2])


def _samples(sums, centres, size, box_share, offsets) -> tuple[np.ndarray, np.ndarray]:
    """BGR and Lab colours, (cells, len(offsets), 3), of small boxes at offsets (of a cell) from centres."""
    box = _box(box_share, size)
    points = centres[:, None, :] + np.array(offsets)[None, :, :] * size
    xs = np.clip(np.rint(points[..., 0]).astype(int), 0, sums.width - 1)
    ys = np.clip(np.rint(points[..., 1]).astype(int), 0, sums.height - 1)
    bgr = sums.means(xs, ys, box)
    return bgr, _lab(bgr)


def _box(box_share: float, size: float) -> int:
    """A sample box's side in pixels: odd, at least 3."""
    return max(3, int(box_share * size)) | 1


class _BoxSums:
    """Means of boxes anywhere in a frame from one integral image: what cv2.blur(frame, (box, box))
    holds at a pixel (uint8, the same border), computed only where asked."""

    def __init__(self, frame: np.ndarray, largest: int, bounds: tuple[float, float, float, float]) -> None:
        self.height, self.width = frame.shape[:2]
        self.pad = largest // 2
        left, top, right, bottom = bounds
        self.left = max(0, int(left))
        self.top = max(0, int(top))
        right = min(self.width, max(self.left + 1, int(right) + 1))
        bottom = min(self.height, max(self.top + 1, int(bottom) + 1))
        crop = frame[self.top : bottom, self.left : right]
        padded = cv2.copyMakeBorder(crop, *[self.pad] * 4, cv2.BORDER_REFLECT_101)
        self.integral = cv2.integral(padded)

    def means(self, xs: np.ndarray, ys: np.ndarray, box: int) -> np.ndarray:
        """The mean colour of the box x box square centred on each (ys, xs), rounded as OpenCV does."""
        reach = box // 2
        xs, ys = xs - self.left, ys - self.top
        low_x, high_x = xs + self.pad - reach, xs + self.pad + reach + 1
        low_y, high_y = ys + self.pad - reach, ys + self.pad + reach + 1
        table = self.integral
        sums = table[high_y, high_x] - table[low_y, high_x] - table[high_y, low_x] + table[low_y, low_x]
        return np.rint(sums / (box * box)).astype(np.uint8)


def _ring_colour(
    ring_bgr: np.ndarray, ring_lab: np.ndarray, agreement: float = 0.75
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell, the ring sample nearest the ring's median (BGR, Lab), and whether the ring is flat.

    The ring, not the centre, gives a dot's colour: a finished flow draws a check mark in the middle.
    Flat: a whole disc of one colour (a pipe through an empty cell covers at most 3 of 8 ring points):
    three quarters of the ring (or `agreement`) agree.
    """
    rows = np.arange(len(ring_lab))
    spread = np.linalg.norm(ring_lab - np.median(ring_lab, axis=1, keepdims=True), axis=2)
    chosen = np.argmin(spread, axis=1)
    colour_lab, colour_bgr = ring_lab[rows, chosen], ring_bgr[rows, chosen]
    agree = (np.linalg.norm(ring_lab - colour_lab[:, None], axis=2) <= DOT_FLATNESS).sum(axis=1)
    flat = agree >= agreement * ring_lab.shape[1]
    return colour_bgr, colour_lab, flat


def group_dots(dots: list[Dot]) -> list[list[Dot]]:
    """Pairs of dots of one colour, in order of first appearance; anything but pairs is an error."""
    if not dots:
        raise CaptureError("no endpoint dots found on the board")
    groups: list[list[Dot]] = []
    for dot in dots:
        near = [group for group in groups if min(_distance(dot, other) for other in group) <= SAME_COLOR]
        if not near:
            groups.append([dot])
            continue
        merged = near[0]
        merged.append(dot)
        for group in near[1:]:  # the dot links groups that were apart: one colour after all
            merged.extend(group)
            groups.remove(group)
    problems = [group for group in groups if len(group) != 2]
    if problems:
        raise CaptureError("; ".join(_describe(group) for group in problems[:4]))
    return groups


def name_groups(groups: list[list[Dot]]) -> list[str | None]:
    """A palette name per group: the palette that fits best, each name used once."""
    if len(groups) > len(PALETTE):
        return [None] * len(groups)
    seen = np.array([np.mean([dot.lab for dot in group], axis=0) for group in groups])
    best_names: list[str | None] = [None] * len(groups)
    best_cost = float("inf")
    for palette in PALETTES.values():
        reference = _lab(np.array([[rgb[::-1] for rgb in palette]], dtype=np.uint8))[0]
        distance = np.linalg.norm(seen[:, None, :] - reference[None, :, :], axis=2)
        names, cost = _assign(distance)
        if cost < best_cost:
            best_names, best_cost = names, cost
    return best_names


def _assign(distance: np.ndarray) -> tuple[list[str | None], float]:
    """Greedy one-to-one matching of groups to palette names, closest pairs first; total distance."""
    names: list[str | None] = [None] * distance.shape[0]
    used: set[int] = set()
    cost = 0.0
    for flat in np.argsort(distance, axis=None):
        group, name = divmod(int(flat), distance.shape[1])
        if names[group] is None and name not in used:
            names[group] = PALETTE[name]
            used.add(name)
            cost += float(distance[group, name])
    return names, cost


def _lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0-100) of BGR uint8 colours of any shape (..., 3)."""
    flat = (bgr.reshape(1, -1, 3).astype(np.float32)) / 255.0
    return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape((*bgr.shape[:-1], 3))


@lru_cache(maxsize=4096)
def _lab_of(blue: int, green: int, red: int) -> tuple[float, float, float]:
    """CIE Lab of one BGR colour, remembered: a dot's sides are sampled many times a read, and one
    conversion costs more than the rest of a sample."""
    return tuple(float(value) for value in _lab(np.array([blue, green, red], dtype=np.uint8)))


def _distance(first: Dot, second: Dot) -> float:
    """CIE76 colour difference of two dots."""
    return float(np.linalg.norm(np.subtract(first.lab, second.lab)))


def _describe(group: list[Dot]) -> str:
    """What is wrong with a colour group, naming the colour and where its dots are."""
    rgb = "#{:02x}{:02x}{:02x}".format(*group[0].rgb)
    places = "; ".join(cell_name(dot.cell) for dot in group[:4])
    count = len(group)
    plural = "s" if count != 1 else ""
    return f"colour {rgb} has {count} endpoint{plural} ({places}); every colour needs exactly 2"
