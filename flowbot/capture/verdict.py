"""After drawing: which cells of the board show the flow the solution puts there, in any look.

A cell is taken when the colour at its centre is nearer its own flow's colour than any other
flow's and than the cell's own look before drawing (dark, light, a faint marker: whatever the game
draws for an empty cell). No brightness threshold, so light and dark themes are judged alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np

from flowbot.cellmap import CellMap
from flowbot.model import Cell, Geometry, Solution

# The centre sample: a square a tenth of a cell across (pipes are about a third of a cell wide).
SAMPLE = 0.1
# A cell whose centre moved less than this (CIE76) from its look before drawing is unchanged: the
# game did not take it. Screen captures of one picture differ by less than 2.
UNCHANGED = 8.0
# A pipe's centre is within this of its flow's dot colour (antialiasing and tints stay well inside).
FLOW_DISTANCE = 25.0
# While self-tuning, a fast try is judged before the game has settled, so looser: a dot within this
# of its look before drawing still shows, and a cell within OTHER_FLOW of another flow's colour got
# a pipe drawn wrong.
SAME_DOT = 15.0
OTHER_FLOW = 20.0
# The share of a level's dots that must look the same for the level to be still showing.
SAME_LEVEL = 0.75
# Where a join is looked at, as fractions of the way from one cell's centre to the next: just short
# of the edge on each side and on it. A pipe stopping at a cell's centre (its round head reaches a
# sixth of a cell) leaves the first two bare; a dot (under half a cell across) covers at most the last.
JOIN_AT = (0.4, 0.5, 0.6)
# Half the side of the squares looked at on a join, of a cell: the median's (wide enough to see past
# a grid line drawn over a pipe) and the one searched for a pixel of the flow's colour (narrow enough
# that a dot next door, under 0.46 of a cell in radius, stays out of it at the edge).
MEDIAN_SQUARE, NEAREST_SQUARE = 0.06, 0.03
# A pixel within this (CIE76) of the flow's colour is the flow's: a thin pipe's core.
THIN_PIPE_DISTANCE = 12.0
# Cells further apart than this many cell sizes are not neighbours on screen (a warp): no join to see.
JOIN_REACH = 1.6
# Where a cell is looked at for a mark of its flow (a tint or a fill), as fractions of a cell from its
# centre along both axes: off any pipe through the centre (a third of a cell wide), inside the cell's
# lines, beside a dot's edge.
MARK_AT = 0.3
# A point whose colour moved this much (CIE76) from before drawing is marked: a dark tint of a deep
# colour on a black page moves it about 10, two captures of one picture under 2.
MARKED = 5.0


def centre_colours(frame: np.ndarray, geometry: Geometry) -> np.ndarray:
    """The Lab colour at the middle of every cell of a grid (median of a small square).

    frame : (H, W, 3) uint8 ndarray, BGR; geometry in the frame's pixels
    returns : (rows, cols, 3) float ndarray, Lab; NaN where the cell lies off the frame
    """
    half = max(1, round(SAMPLE * geometry.cell_size / 2))
    cells = [(row, col) for row in range(geometry.rows) for col in range(geometry.cols)]
    points = np.array([geometry.center(cell) for cell in cells], dtype=np.float64).reshape(-1, 2)
    return _median_labs(frame, np.round(points), half).reshape(geometry.rows, geometry.cols, 3)


def _patches(frame: np.ndarray, points: np.ndarray, half: int) -> tuple[np.ndarray, np.ndarray]:
    """The squares of side 2 * half + 1 around whole-pixel points (x, y), all at once, and which points
    have theirs wholly on the frame (the others' squares are left out).

    points : (N, 2) ndarray of whole numbers; returns : (M, (2 * half + 1) ** 2, 3) uint8, (N,) bool
    """
    height, width = frame.shape[:2]
    xs, ys = points[:, 0].astype(np.int64), points[:, 1].astype(np.int64)
    inside = (half <= xs) & (xs < width - half) & (half <= ys) & (ys < height - half)
    offsets = np.arange(-half, half + 1)
    rows = ys[inside, None, None] + offsets[None, :, None]
    cols = xs[inside, None, None] + offsets[None, None, :]
    return frame[rows, cols].reshape(int(inside.sum()), len(offsets) ** 2, 3), inside


def _median_labs(frame: np.ndarray, points: np.ndarray, half: int) -> np.ndarray:
    """The Lab colour of the median of the square around each point, as `_lab` of the median, in one
    pass (a 9x9 board's verdict looks at over a thousand squares).

    points : (N, 2) ndarray of whole numbers (x, y); returns : (N, 3) float ndarray, NaN off the frame
    """
    out = np.full((len(points), 3), np.nan)
    patches, inside = _patches(frame, points, half)
    if len(patches):
        out[inside] = _labs(np.median(patches, axis=1))
    return out


def _labs(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0-100) of many BGR colours, each as `_lab` gives it.

    bgr : (N, 3) ndarray of values 0-255; returns : (N, 3) float ndarray
    """
    pixels = np.asarray(bgr, dtype=np.float32).reshape(-1, 1, 3) / 255.0
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float64)


def missing_cells(
    frame: np.ndarray,
    geometry: Geometry,
    solution: Solution,
    flow_rgb: tuple[tuple[int, int, int], ...],
    before: np.ndarray,
) -> list[Cell]:
    """The cells of the solution that do not show their flow yet (endpoints are not judged: a dot may
    hold a glyph or a check mark).

    A cell still empty looks as it did before drawing; a cell that shows neither its flow, nor
    another flow, nor its old self is hidden by something the game put over the board (a "Next
    Level" button, a banner): not judged, as long as most of the board can be seen.

    frame : (H, W, 3) uint8 ndarray, BGR; geometry in the frame's pixels
    flow_rgb : each flow's colour as seen on its dots, in the puzzle's colour order
    before : centre_colours of the board before drawing
    """
    missing, hidden = _judge_cells(frame, geometry, solution, flow_rgb, before)
    cells = inner_cells(solution)
    # Most of the board out of sight (a window over it, the board gone): nothing can be judged.
    return missing + hidden if 2 * len(hidden) > cells else missing


def undrawn_cells(
    frame: np.ndarray,
    geometry: Geometry,
    before: np.ndarray,
    before_geometry: Geometry,
    solution: Solution,
    tolerance: float = 6.0,
) -> list[Cell]:
    """The solution's inner cells that show exactly as before drawing, grid lines and all (mean
    difference under `tolerance` per channel): cells the game never took, so the level is not won
    whatever else shows (a "halfway done" box once stood beside three empty cells). A box over the
    board changes what it covers (no grid lines, its own edges), so it never looks like this.

    frame, before : (H, W, 3) uint8 ndarrays, BGR; each geometry in its own frame's pixels
    """
    inner = [cell for path in solution.paths for cell in path[1:-1]]
    return unchanged_cells(frame, geometry, before, before_geometry, inner, tolerance)


def unchanged_cells(
    frame: np.ndarray,
    geometry: Geometry,
    before: np.ndarray,
    before_geometry: Geometry,
    cells: Iterable[Cell],
    tolerance: float = 6.0,
) -> list[Cell]:
    """The cells among `cells` that show exactly as on `before`, edges and all (none when the two
    boards differ in size).

    frame, before : (H, W, 3) uint8 ndarrays, BGR; each geometry in its own frame's pixels
    """
    if geometry.rows != before_geometry.rows or geometry.cols != before_geometry.cols:
        return []
    return [cell for cell in cells if _same_patch(frame, geometry, before, before_geometry, cell, tolerance)]


def bare_start_dots(
    frame: np.ndarray,
    geometry: Geometry,
    before: np.ndarray,
    before_geometry: Geometry,
    solution: Solution,
    starts: dict[int, Cell],
) -> frozenset[Cell]:
    """The dots a flow's stroke started on whose cell the game left as it was, while it marked the
    cell of the flow's other dot (see MARK_AT): a game that fills every cell of a path but the one it
    starts on. A join into such a dot is judged outside its cell (missing_joins). The dot a stroke
    ends on must be marked: a flow one step short of it leaves both dots' cells bare.

    frame, before : (H, W, 3) uint8 ndarrays, BGR; starts : the cell each flow's last stroke began on
    """
    if geometry.rows != before_geometry.rows or geometry.cols != before_geometry.cols:
        return frozenset()
    moved = np.linalg.norm(_mark_colours(frame, geometry) - _mark_colours(before, before_geometry), axis=-1)

    def marked(cell: Cell) -> bool:
        """True when at least two of the cell's four points changed since before drawing."""
        return int(np.sum(moved[cell[0], cell[1]] > MARKED)) >= 2

    bare = set()
    for color, path in enumerate(solution.paths):
        start = starts.get(color)
        if len(path) < 2 or start not in (path[0], path[-1]):
            continue
        end = path[-1] if start == path[0] else path[0]
        if not marked(start) and marked(end):
            bare.add(start)
    return frozenset(bare)


def _mark_colours(frame: np.ndarray, geometry: Geometry) -> np.ndarray:
    """The Lab colour at the four points of every cell looked at for a mark (median of a small square).

    returns : (rows, cols, 4, 3) float ndarray; NaN where a point lies off the frame
    """
    size = geometry.cell_size
    half = max(1, round(SAMPLE * size / 2))
    offsets = [(dx * MARK_AT * size, dy * MARK_AT * size) for dx in (-1, 1) for dy in (-1, 1)]
    points = []
    for row in range(geometry.rows):
        for col in range(geometry.cols):
            cx, cy = geometry.center((row, col))
            points.extend((round(cx + dx), round(cy + dy)) for dx, dy in offsets)
    labs = _median_labs(frame, np.array(points, dtype=np.float64).reshape(-1, 2), half)
    return labs.reshape(geometry.rows, geometry.cols, 4, 3)


def _same_patch(
    frame: np.ndarray,
    geometry: Geometry,
    before: np.ndarray,
    before_geometry: Geometry,
    cell: Cell,
    tolerance: float,
) -> bool:
    """True when the cell, with its edges, looks as it did before (False when off either frame)."""
    now, was = _cell_patch(frame, geometry, cell), _cell_patch(before, before_geometry, cell)
    if now is None or was is None or now.shape != was.shape:
        return False
    return float(np.abs(now.astype(np.int16) - was.astype(np.int16)).mean()) < tolerance


def _cell_patch(frame: np.ndarray, geometry: Geometry, cell: Cell) -> np.ndarray | None:
    """The pixels of a cell and its edges (those of a cell at the frame's border cut there), or None
    when the cell itself is off the frame."""
    row, col = cell
    pad = 2
    left, right = round(geometry.xs[col]), round(geometry.xs[col + 1])
    top, bottom = round(geometry.ys[row]), round(geometry.ys[row + 1])
    if left < 0 or top < 0 or bottom > frame.shape[0] or right > frame.shape[1]:
        return None
    height, width = frame.shape[:2]
    return frame[max(0, top - pad) : min(height, bottom + pad), max(0, left - pad) : min(width, right + pad)]


def _judge_cells(
    frame: np.ndarray,
    geometry: Geometry,
    solution: Solution,
    flow_rgb: tuple[tuple[int, int, int], ...],
    before: np.ndarray,
) -> tuple[list[Cell], list[Cell]]:
    """The solution's inner cells that are missing (empty as before, or another flow) and hidden."""
    now = centre_colours(frame, geometry)
    flows = np.array([rgb_to_lab(rgb) for rgb in flow_rgb])
    missing, hidden = [], []
    for color, path in enumerate(solution.paths):
        for row, col in path[1:-1]:
            seen = now[row, col]
            if np.isnan(seen).any():
                missing.append((row, col))
                continue
            to_flows = np.linalg.norm(flows - seen, axis=1)
            own = to_flows[color]
            others = np.delete(to_flows, color)
            empty = float(np.linalg.norm(before[row, col] - seen))  # NaN (never seen) compares False
            if (own < empty or np.isnan(empty)) and (others.size == 0 or own < others.min()):
                continue
            near_a_flow = min(own, others.min() if others.size else np.inf) <= FLOW_DISTANCE
            if empty > UNCHANGED and not near_a_flow:
                hidden.append((row, col))
            else:
                missing.append((row, col))
    return missing, hidden


def inner_cells(solution: Solution) -> int:
    """How many cells of the solution lie between endpoints: the cells a verdict judges."""
    return sum(max(0, len(path) - 2) for path in solution.paths)


def same_level_showing(now: np.ndarray, before: np.ndarray, dots: list[Cell]) -> bool:
    """True when most of the level's dots still show at their cells as before drawing: the level is
    still there (not taken, whatever else was read), not a new one in its place.

    now, before : centre_colours of the board (rows, cols, 3), Lab
    """
    if not dots:
        return False
    same = sum(
        1
        for row, col in dots
        if not np.isnan(now[row, col]).any()
        and float(np.linalg.norm(now[row, col] - before[row, col])) < SAME_DOT
    )
    return same >= SAME_LEVEL * len(dots)


def not_taken(
    now: np.ndarray,
    before: np.ndarray,
    flow_rgb: tuple[tuple[int, int, int], ...],
    owner: dict[Cell, int],
    cells: list[Cell],
) -> list[Cell]:
    """Of cells that do not show their own flow, those the game did not take: still looking as before
    drawing (empty) or showing another flow's colour. Cells merely covered (a button or a message over
    a won board) are left out.

    now, before : centre_colours of the board (rows, cols, 3), Lab; owner : each cell's flow
    """
    flows = [rgb_to_lab(rgb) for rgb in flow_rgb]
    kept = []
    for row, col in cells:
        seen = now[row, col]
        if np.isnan(seen).any():
            continue
        if float(np.linalg.norm(seen - before[row, col])) < SAME_DOT or any(
            float(np.linalg.norm(seen - lab)) < OTHER_FLOW
            for color, lab in enumerate(flows)
            if color != owner.get((row, col))
        ):
            kept.append((row, col))
    return kept


Join = tuple[Cell, Cell]


def solution_joins(solution: Solution) -> list[tuple[int, Join]]:
    """Every pair of consecutive cells of every path, with its flow: what a won board shows joined."""
    return [(color, (a, b)) for color, path in enumerate(solution.paths) for a, b in pairwise(path)]


@dataclass(frozen=True, slots=True)
class JoinLooks:
    """How the joins of a solution look on a frame, at each point of each join (see join_colours).

    median : (joins, len(JOIN_AT), 3) float ndarray, Lab: the median of a small square
    nearest : (joins, len(JOIN_AT)) float ndarray: how far (CIE76) the pixel nearest the join's own
        flow colour, in a tinier square, is from it (a pipe thinner than the square shows so)
    Both NaN where a point lies off the frame or the two cells are not neighbours on screen.
    """

    median: np.ndarray
    nearest: np.ndarray


def join_colours(
    frame: np.ndarray, geometry: CellMap, solution: Solution, flow_rgb: tuple[tuple[int, int, int], ...]
) -> JoinLooks:
    """How each join of a solution looks: where the pipe crosses the edge between two consecutive
    cells, and just short of it on both sides.

    frame : (H, W, 3) uint8 ndarray, BGR; geometry in the frame's pixels; flow_rgb : each flow's
    colour as seen on its dots, in the solution's order
    """
    size = geometry.cell_size
    half = max(1, round(MEDIAN_SQUARE * size))
    tiny = max(1, round(NEAREST_SQUARE * size))
    flows = np.array([rgb_to_lab(rgb) for rgb in flow_rgb])
    joins = solution_joins(solution)
    median = np.full((len(joins), len(JOIN_AT), 3), np.nan)
    nearest = np.full((len(joins), len(JOIN_AT)), np.nan)
    points, where, colors = [], [], []
    for index, (color, (a, b)) in enumerate(joins):
        (xa, ya), (xb, yb) = geometry.center(a), geometry.center(b)
        if np.hypot(xb - xa, yb - ya) > JOIN_REACH * size:
            continue
        for step, share in enumerate(JOIN_AT):
            points.append((round(xa + share * (xb - xa)), round(ya + share * (yb - ya))))
            where.append((index, step))
            colors.append(color)
    if not points:
        return JoinLooks(median, nearest)
    at = np.array(points, dtype=np.float64)
    joined, step = np.array(where).T
    labs = _median_labs(frame, at, half)
    # The tiny square is inside the frame wherever the median's is (tiny <= half).
    shown = ~np.isnan(labs).any(axis=1)
    median[joined[shown], step[shown]] = labs[shown]
    small, _ = _patches(frame, at[shown], tiny)
    pixels = cv2.cvtColor(small.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    own = flows[np.array(colors)[shown]]
    nearest[joined[shown], step[shown]] = np.linalg.norm(pixels - own[:, None, :], axis=-1).min(axis=1)
    return JoinLooks(median, nearest)


def missing_joins(
    now: JoinLooks,
    before: JoinLooks | None,
    solution: Solution,
    flow_rgb: tuple[tuple[int, int, int], ...],
    bare_dots: frozenset[Cell] = frozenset(),
) -> list[Join]:
    """The joins of a solution that the screen does not show. A point of a join shows its flow when
    its median colour is nearer its own flow's colour than any other flow's, and either moved towards
    it since before drawing or already was that colour (a dot); or when a pixel of its own flow's
    colour lies right at the point (a pipe thinner than the median's square). A join shows when all
    its points do. A flow one step short of its far dot leaves the point on the edge and the one
    before it bare, so its last join is missing.

    now, before : join_colours after and before drawing (before None: judged on the colours alone,
    for a board found already drawn); flow_rgb : each flow's colour as seen on its dots;
    bare_dots : dots whose cell the game leaves as it was (bare_start_dots): their points inside
    that cell are not judged
    """
    flows = np.array([rgb_to_lab(rgb) for rgb in flow_rgb])
    missing = []
    for index, (color, join) in enumerate(solution_joins(solution)):
        seen = now.median[index]
        if np.isnan(seen).all():
            continue  # not neighbours on screen (a warp): nothing to see
        steps = [
            step
            for step, share in enumerate(JOIN_AT)
            if not (share < 0.5 and join[0] in bare_dots) and not (share > 0.5 and join[1] in bare_dots)
        ]
        shown = all(
            now.nearest[index, step] <= THIN_PIPE_DISTANCE
            or _shows(seen[step], None if before is None else before.median[index, step], flows, color)
            for step in steps
        )
        if not shown:
            missing.append(join)
    return missing


def empty_joins(now: JoinLooks, before: JoinLooks) -> int:
    """How many joins show no pipe where it would cross the edge between their two cells: the colour
    there is as before drawing and no pixel of the flow's colour lies at the point. A level's pipes
    cross those edges; the dots of a new level in its place lie inside cells, never on their edges.

    now, before : join_colours of the same solution on the same board, now and before drawing
    """
    edge = JOIN_AT.index(0.5)
    seen, was = now.median[:, edge], before.median[:, edge]
    looked = ~np.isnan(seen).any(axis=1) & ~np.isnan(was).any(axis=1)
    unchanged = np.linalg.norm(seen - was, axis=1) < UNCHANGED
    no_pipe = ~(now.nearest[:, edge] <= THIN_PIPE_DISTANCE)  # NaN (not looked at) is no pipe
    return int(np.count_nonzero(looked & unchanged & no_pipe))


def _shows(seen: np.ndarray, before: np.ndarray | None, flows: np.ndarray, color: int) -> bool:
    """True when the median colour at one point of a join shows its flow (see missing_joins)."""
    if np.isnan(seen).any():
        return False
    to_flows = np.linalg.norm(flows - seen, axis=1)
    own = to_flows[color]
    if np.delete(to_flows, color).min(initial=np.inf) <= own:
        return False
    if before is None or np.isnan(before).any():
        return own <= FLOW_DISTANCE
    was_own = float(np.linalg.norm(flows[color] - before)) <= FLOW_DISTANCE
    return own < float(np.linalg.norm(seen - before)) or (was_own and own <= FLOW_DISTANCE)


def rgb_to_lab(rgb: tuple[int, int, int]) -> np.ndarray:
    """CIE Lab (L 0-100) of an RGB colour, as cells are measured."""
    return _lab(np.array(rgb[::-1], dtype=np.float64))


def _lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0-100) of one BGR colour given as three numbers 0-255."""
    return _labs(bgr)[0]
