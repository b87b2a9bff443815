"""Plane geometry on polygons given as (x, y) points: areas, middles, insideness, shared borders."""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
Polygon = tuple[Point, ...]

# Two edges lie on one line when each end of one is this close to the other's line (in cell units).
ON_LINE = 1e-6


def area(polygon: Sequence[Point]) -> float:
    """The polygon's signed area (positive when its points run anticlockwise with y up)."""
    total = 0.0
    for (x1, y1), (x2, y2) in _edges(polygon):
        total += x1 * y2 - x2 * y1
    return total / 2


def centroid(polygon: Sequence[Point]) -> Point:
    """The polygon's centre of area."""
    twice = 0.0
    cx = cy = 0.0
    for (x1, y1), (x2, y2) in _edges(polygon):
        cross = x1 * y2 - x2 * y1
        twice += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    return cx / (3 * twice), cy / (3 * twice)


def contains(polygon: Sequence[Point], x: float, y: float) -> bool:
    """True when the point lies inside the polygon (even-odd rule; a point on an edge may go either way)."""
    inside = False
    for (x1, y1), (x2, y2) in _edges(polygon):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def edge_distance(polygon: Sequence[Point], x: float, y: float) -> float:
    """How far the point is from the polygon's nearest edge."""
    return min(_to_segment(x, y, a, b) for a, b in _edges(polygon))


def box(polygon: Sequence[Point]) -> tuple[float, float, float, float]:
    """The polygon's left, top, right and bottom."""
    xs = [x for x, _ in polygon]
    ys = [y for _, y in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def shared_pieces(first: Sequence[Point], second: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The stretches of border the two polygons share: where an edge of one runs along an edge of the
    other. Polygons that only touch at a corner share none."""
    return [piece for a, b in _edges(first) for piece in along(a, b, second)]


def along(a: Point, b: Point, polygon: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The stretches of the segment a-b that edges of the polygon run along."""
    length = math.dist(a, b)
    if length == 0:
        return []
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    pieces = []
    for c, d in _edges(polygon):
        # Both ends of the other edge on this segment's line, then the overlap of the two along it.
        if abs(_cross(ux, uy, c, a)) > ON_LINE or abs(_cross(ux, uy, d, a)) > ON_LINE:
            continue
        tc = (c[0] - a[0]) * ux + (c[1] - a[1]) * uy
        td = (d[0] - a[0]) * ux + (d[1] - a[1]) * uy
        low, high = max(0.0, min(tc, td)), min(length, max(tc, td))
        if high - low > ON_LINE:
            pieces.append(((a[0] + ux * low, a[1] + uy * low), (a[0] + ux * high, a[1] + uy * high)))
    return pieces


def piece_length(pieces: Sequence[tuple[Point, Point]]) -> float:
    """The total length of stretches of border."""
    return sum(math.dist(a, b) for a, b in pieces)


def middle_of(pieces: Sequence[tuple[Point, Point]]) -> Point:
    """The point halfway along stretches of border, taken in order (on a curve, on the curve)."""
    # A curved border is many short pieces in no set order: walk them from one end of the chain.
    ordered = _chained(pieces)
    half = piece_length(ordered) / 2
    for a, b in ordered:
        step = math.dist(a, b)
        if step >= half:
            share = half / step
            return a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share
        half -= step
    return ordered[-1][1]


def _chained(pieces: Sequence[tuple[Point, Point]]) -> list[tuple[Point, Point]]:
    """Pieces put end to end, from the piece whose start no other piece reaches."""
    left = list(pieces)
    ends = [p for piece in left for p in piece]

    def lone(point: Point) -> bool:
        return sum(math.dist(point, other) < 1e-6 for other in ends) == 1

    start = next((piece for piece in left if lone(piece[0]) or lone(piece[1])), left[0])
    left.remove(start)
    chain = [start if lone(start[0]) or not lone(start[1]) else (start[1], start[0])]
    while left:
        tail = chain[-1][1]
        following = next(
            (p for p in left if math.dist(p[0], tail) < 1e-6 or math.dist(p[1], tail) < 1e-6), None
        )
        if following is None:
            following = left[0]  # apart: carry on from the next one
        left.remove(following)
        chain.append(following if math.dist(following[0], tail) < 1e-6 else (following[1], following[0]))
    return chain


def _edges(polygon: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The polygon's edges, the last closing it."""
    return [(polygon[index - 1], polygon[index]) for index in range(len(polygon))]


def _cross(ux: float, uy: float, point: Point, origin: Point) -> float:
    """How far `point` lies off the line through `origin` along the unit direction (ux, uy)."""
    return ux * (point[1] - origin[1]) - uy * (point[0] - origin[0])


def _to_segment(x: float, y: float, a: Point, b: Point) -> float:
    """The distance from a point to a segment."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((x - a[0]) * dx + (y - a[1]) * dy) / span))
    return math.hypot(x - a[0] - t * dx, y - a[1] - t * dy)
