"""The kinds of Shapes board the bundled game plays, each built as cell polygons: cubes and a stack of
cubes seen from a corner, a ring and a figure-eight of curved sectors, a triangle and a star of
triangles, and a hexagon of hexagons."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import cache

from flowbot.shapes.board import ShapeBoard, board_of
from flowbot.shapes.geometry import Point, centroid, contains

Voxel = tuple[int, int, int]

COS30 = math.sqrt(3) / 2
ARC_STEP = 5  # degrees between the points of a curved edge; every ring's sector angles are multiples
CUBE_SIDE = 4  # cells along a cube's edge
STACK_SIDE = 3
STACK = ((0, 0, 0), (0, 0, 1), (0, 1, 0))  # a cube with one on top and one in front of it, on the right
RING_RADII = (1.0, 1.7, 2.4, 3.1)
RING_SECTORS = (12, 18, 24)
EIGHT_RADII = (1.0, 1.7, 2.4)
EIGHT_SECTORS = (12, 18)
# The two rings of the eight overlap so that the outer band's two sectors either side of the joint are
# cut off straight by the line between the rings, from the outer corners of those two sectors.
EIGHT_JOINT = 20  # degrees: half the joint's width, seen from a ring's centre (a sector of 18)
TRIANGLE_SIDE = 6
STAR_SIDE = 6  # each of the star's two big triangles; the star has 48 cells
HEX_RADIUS = 3  # cells from the middle cell to the edge: 37 cells
# Triangles have at most three neighbours: flows on them stay short and will not merge into fewer,
# so the generator is asked for at least this many colours there.
FEWEST_COLORS = {"star": 7, "triangle": 7}


def cube_polygons(voxels: Iterable[Voxel], side: int) -> list[list[Point]]:
    """Unit cubes at integer places seen from above front (x to the lower left, y to the lower right,
    z up): every face no other cube covers, cut into side x side parallelograms."""
    solid = set(voxels)
    cells = []
    for x, y, z in sorted(solid):
        faces = (
            ((0, 0, 1), (x, y, z + 1), (1, 0, 0), (0, 1, 0)),  # the top
            ((1, 0, 0), (x + 1, y, z), (0, 1, 0), (0, 0, 1)),  # the left face
            ((0, 1, 0), (x, y + 1, z), (1, 0, 0), (0, 0, 1)),  # the right face
        )
        for normal, origin, u, v in faces:
            if (x + normal[0], y + normal[1], z + normal[2]) in solid:
                continue  # another cube sits against this face
            for i in range(side):
                for j in range(side):
                    corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
                    cells.append([_iso(origin, u, v, a / side, b / side) for a, b in corners])
    return cells


def _iso(origin: Voxel, u: Voxel, v: Voxel, a: float, b: float) -> Point:
    """The picture point of origin + a u + b v, seen from the (1, 1, 1) corner, y down the picture."""
    x, y, z = (origin[k] + a * u[k] + b * v[k] for k in range(3))
    return (x - y) * -COS30, (x + y) / 2 - z


def ring_polygons(radii: tuple[float, ...], sectors: tuple[int, ...], turn: int = -90) -> list[list[Point]]:
    """Bands of curved sectors around (0, 0): band k between radii[k] and radii[k + 1] cut into
    sectors[k] sectors, the first starting at `turn` degrees (y down, so -90 is straight up)."""
    cells = []
    for band, count in enumerate(sectors):
        inner, outer = radii[band], radii[band + 1]
        span = 360 // count
        for sector in range(count):
            start = turn + sector * span
            steps = range(start, start + span + 1, ARC_STEP)
            cells.append([_polar(outer, a) for a in steps] + [_polar(inner, a) for a in reversed(steps)])
    return cells


def _polar(radius: float, degrees: int) -> Point:
    """The point at this radius and angle from (0, 0)."""
    angle = math.radians(degrees)
    return radius * math.cos(angle), radius * math.sin(angle)


def eight_polygons() -> list[list[Point]]:
    """Two rings, one above the other, overlapping so that the sectors at the joint are cut straight
    along the line between them and share that cut."""
    outer = EIGHT_RADII[-1]
    apart = outer * math.cos(math.radians(EIGHT_JOINT))  # each centre's distance from the joint line
    # A sector boundary straight down, at the joint (sectors of 2 * EIGHT_JOINT degrees).
    upper = [[(x, y - apart) for x, y in cell] for cell in ring_polygons(EIGHT_RADII, EIGHT_SECTORS, 90)]
    clipped = [_above(cell) for cell in upper]
    kept = [cell for cell in clipped if len(cell) >= 3]
    # The lower ring is the upper one's mirror image, so the two sides of the joint match exactly.
    return kept + [[(x, -y) for x, y in reversed(cell)] for cell in kept]


def _above(cell: list[Point]) -> list[Point]:
    """The part of a polygon at y <= 0 (Sutherland-Hodgman against one line), without repeated points."""
    kept: list[Point] = []
    for index, point in enumerate(cell):
        before = cell[index - 1]
        if (point[1] <= 0) != (before[1] <= 0):
            share = before[1] / (before[1] - point[1])
            kept.append((before[0] + (point[0] - before[0]) * share, 0.0))
        if point[1] <= 0:
            kept.append(point)
    return [p for index, p in enumerate(kept) if math.dist(p, kept[index - 1]) > 1e-9]


def triangle_polygons(inside: Callable[[Point], bool], reach: int) -> list[list[Point]]:
    """The triangles of the triangular lattice (side 1, one side level) whose middles are inside."""

    cells = []
    for j in range(-reach, reach):
        for i in range(-reach, reach):
            for triangle in (
                [_lattice(i, j), _lattice(i + 1, j), _lattice(i, j + 1)],
                [_lattice(i + 1, j), _lattice(i + 1, j + 1), _lattice(i, j + 1)],
            ):
                if inside(centroid(triangle)):
                    cells.append(triangle)
    return cells


def _lattice(i: float, j: float) -> Point:
    """A point of the triangular lattice (corners where i and j are whole)."""
    return i + j / 2, -COS30 * j


def triangle_board_polygons(side: int) -> list[list[Point]]:
    """A big triangle, point up, of side x side small triangles."""
    big = [_lattice(0, 0), _lattice(side, 0), _lattice(0, side)]
    return triangle_polygons(lambda p: contains(big, *p), side + 1)


def star_polygons(side: int) -> list[list[Point]]:
    """A six-pointed star: two big triangles of `side` (a multiple of 3), one point up, one down."""
    third = side // 3
    up = [_lattice(0, 0), _lattice(side, 0), _lattice(0, side)]
    # The other triangle: each corner mirrored through the first one's middle, (third, third).
    down = [_lattice(2 * third - i, 2 * third - j) for i, j in ((0, 0), (side, 0), (0, side))]
    return triangle_polygons(lambda p: contains(up, *p) or contains(down, *p), 2 * side)


def hexagon_polygons(radius: int) -> list[list[Point]]:
    """A hexagon of flat-topped hexagons, `radius` cells from the middle one to each edge."""
    cells = []
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if abs(q + r) > radius:
                continue
            x, y = 1.5 * q, 2 * COS30 * (r + q / 2)
            cells.append([_polar_float(x, y, 60 * k) for k in range(6)])
    return cells


def _polar_float(x: float, y: float, degrees: int) -> Point:
    """A hexagon's corner: one unit from its middle (x, y) at this angle."""
    angle = math.radians(degrees)
    return x + math.cos(angle), y + math.sin(angle)


BUILDERS: dict[str, Callable[[], list[list[Point]]]] = {
    "cube": lambda: cube_polygons([(0, 0, 0)], CUBE_SIDE),
    "stack": lambda: cube_polygons(STACK, STACK_SIDE),
    "ring": lambda: ring_polygons(RING_RADII, RING_SECTORS),
    "eight": eight_polygons,
    "star": lambda: star_polygons(STAR_SIDE),
    "triangle": lambda: triangle_board_polygons(TRIANGLE_SIDE),
    "hexhex": lambda: hexagon_polygons(HEX_RADIUS),
}
SHAPES = tuple(BUILDERS)


@cache
def shape_board(name: str) -> ShapeBoard:
    """The board of a kind, built once."""
    if name not in BUILDERS:
        raise ValueError(f"unknown shape {name!r} (one of {', '.join(SHAPES)})")
    return board_of(name, BUILDERS[name]())
