"""Plan and replay strokes: one press-drag-release per flow, paced for the game at hand."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from itertools import pairwise

from flowbot.act.pointer import Pointer
from flowbot.cellmap import CellMap
from flowbot.model import Cell, Solution

Point = tuple[float, float]
# Two cells of a path further apart than this many cells are joined by a warp, not side by side.
WARP_GAP = 1.5
# How far, in cells, the first move after a press goes toward the next cell while staying in the first:
# far enough past a drag threshold (many games start a drag only once the pointer has moved a few
# pixels, from the cell under it then), well short of the next cell.
LEAD_IN = 0.3
# Pixels off a stroke's first dot of the first of the two moves onto it (when the settings pause
# between flows): inside the dot's cell on any board.
APPROACH = 2
# A tap before a stroke drawn again: held this long, then this long before the press, longer than a
# double-click's span (so the press is no double-click, which some pages and games read otherwise).
# Taps on different dots wait as long: a browser counted 14 taps 0.05 s apart on different dots of a
# page (dom111-flow's 15x15) as one many-fold click, and no drag drew anything after it.
TAP_HOLD, TAP_GAP = 0.05, 0.6


@dataclass(frozen=True, slots=True)
class PointerSettings:
    """How to move for a given game. The defaults are safe for a game that samples input once per
    frame: a pause of a frame after every move, and every cell entered on its own."""

    moves_per_cell: int = 2  # points per cell step; games that drop jumps need at least 1
    corners_only: bool = False  # jumps: only the path's turns, for games that fill straight drags
    move_delay: float = 0.02  # seconds after each move: one frame at 50 fps
    release_pause: float = 0.05  # before releasing, so the last cell is registered
    flow_pause: float = 0.05  # between flows (half after a release, half before the next press)
    settle: bool = True  # onto each flow's first dot in two resting moves (see draw_strokes)
    # For a game that reads the pointer once a frame (where it rests, whether the button is down), to
    # which what happens within a frame is one look: the first move (still in the first cell) goes with
    # the press, in its frame, and the pause between flows is one frame clocked from the release, the
    # board's check and the move onto the next dot inside it.
    per_frame: bool = False

    @property
    def jumps(self) -> bool:
        """True when straight runs are one move each (the game fills the cells between)."""
        return self.corners_only


@dataclass(frozen=True, slots=True)
class Stroke:
    """One flow's drag: press at the first point, move through the rest, release at the last.

    `lifts` are indices of points where the button is released and pressed again (after the pointer
    went out through a warp's opening, the drag goes on from the pipe's end on the other side).
    """

    color: int
    cells: tuple[Cell, ...]
    points: tuple[Point, ...]
    lifts: tuple[int, ...] = ()


def plan_strokes(
    solution: Solution,
    geometry: CellMap,
    settings: PointerSettings,
    start: Point | None = None,
    avoid: Mapping[int, Cell] | None = None,
) -> list[Stroke]:
    """A stroke per flow, from one endpoint to the other through every cell's centre (or only its
    turns, with jumps, on square boards), the flows ordered and oriented to shorten the pointer's
    travel between them from `start` (default: the board's top-left corner). A flow in `avoid` (colour
    to dot) starts from its other dot.

    Any board: `geometry` gives the cells' centres in pixels (square, hexagons, or read from a
    screen). A bridge is crossed straight, as any cell. Two cells of a path whose centres are far apart
    are joined by a warp: the pointer drags out of the board beyond the first, one cell past its centre
    (the warp's opening), releases there, and presses again on the second to go on.
    """
    strokes = []
    size = geometry.cell_size
    for color, path in _ordered(solution.paths, geometry, start, avoid or {}):
        centres = [geometry.center(cell) for cell in path]
        jumps = settings.corners_only and _square(centres)
        moves = 1 if jumps else settings.moves_per_cell
        points: list[Point] = [centres[0]]
        lifts: list[int] = []
        for index in range(1, len(centres)):
            before, here = centres[index - 1], centres[index]
            away = math.dist(before, here)
            if away > WARP_GAP * size:
                # One cell out of the board beyond `before`, straight away from where the warp leads.
                out = (
                    before[0] + (before[0] - here[0]) / away * size,
                    before[1] + (before[1] - here[1]) / away * size,
                )
                points.extend(_between(points[-1], out, moves))
                if index == len(centres) - 1:
                    break  # out through the opening onto the last dot: the stroke ends there
                lifts.append(len(points))
                points.append(here)
                continue
            if jumps and index < len(centres) - 1 and not _turns(centres, index, size):
                continue
            points.extend(_into(points[-1], here, moves))
        # The first move stays in the first cell: a game that starts the drag only once the pointer has
        # moved past a threshold takes the cell under it then as the start.
        points.insert(1, _toward(points[0], points[1], LEAD_IN * size))
        lifts = [lift + 1 for lift in lifts]
        # Every stroke, on every rung, nudges inside its last cell and comes back with the button held:
        # some games add the cell under the pointer (and run their win check) one motion late, so a
        # stroke released right after reaching its last cell leaves the level a cell short while the
        # screen shows it joined.
        x, y = points[-1]
        nudge = size * 0.15
        points.extend([(x + nudge, y), (x, y)])
        strokes.append(Stroke(color, tuple(path), tuple(points), tuple(lifts)))
    return strokes


def travel(strokes: list[Stroke], start: Point) -> float:
    """Pixels the pointer moves with the button up: from `start` to the first stroke, then between strokes."""
    total, here = 0.0, start
    for stroke in strokes:
        total += math.dist(here, stroke.points[0])
        here = stroke.points[-1]
    return total


def _ordered(
    paths: tuple[tuple[Cell, ...], ...], geometry: CellMap, start: Point | None, avoid: Mapping[int, Cell]
) -> list[tuple[int, tuple[Cell, ...]]]:
    """The flows as (colour, path) in drawing order: greedy nearest endpoint from `start`, each flow
    started from its nearer end (never from its dot in `avoid`); the solution's own order when that is
    no longer (it rarely is)."""
    here = start if start is not None else geometry.bounds[:2]
    naive = [
        (color, tuple(path[::-1] if avoid.get(color) == path[0] else path))
        for color, path in enumerate(paths)
    ]
    left = dict(enumerate(tuple(path) for path in paths))
    greedy = []
    position = here
    while left:
        _, color, flipped = min(
            (math.dist(position, geometry.center(path[-1 if flip else 0])), color, flip)
            for color, path in left.items()
            for flip in (False, True)
            if avoid.get(color) != path[-1 if flip else 0]
        )
        path = left.pop(color)
        path = path[::-1] if flipped else path
        greedy.append((color, path))
        position = geometry.center(path[-1])

    def cost(order: list[tuple[int, tuple[Cell, ...]]]) -> float:
        """Travel between the flows' ends in this order."""
        total, position = 0.0, here
        for _, path in order:
            total += math.dist(position, geometry.center(path[0]))
            position = geometry.center(path[-1])
        return total

    return greedy if cost(greedy) <= cost(naive) else naive


def draw_strokes(
    pointer: Pointer,
    strokes: list[Stroke],
    settings: PointerSettings,
    should_stop: Callable[[], bool] = lambda: False,
    sleep: Callable[[float], None] = time.sleep,
    tap_first: Collection[int] = (),
) -> int:
    """Replay strokes with the pointer; stop between strokes when asked. Returns how many were drawn.
    The first dot of each stroke whose colour is in `tap_first` is clicked before it is pressed.

    A pointer may carry a guard (act/guard.py, set where the board is read): it is asked before each
    press whether the board is still there, and raises to stop the run when it is not."""
    drawn = 0
    guard = getattr(pointer, "guard", None)
    released: float | None = None  # when the last stroke's button went up (per_frame settings)
    for stroke in strokes:
        if should_stop():
            break
        if guard is not None:
            guard.check(*stroke.points[0])
        x, y = stroke.points[0]
        if settings.flow_pause > 0 and settings.settle:
            # Onto the dot in two moves, both inside its cell, resting after each: a game that learns
            # where the pointer is from motion events, and drops events queued behind another, may lose
            # one; pressed where it still thinks the pointer is (the last flow's end dot), such a game
            # picks that flow up (and may clear it). Not on the fast rungs (no settle nudge either),
            # made for games that take every event or read the pointer each frame: a Time Trial's
            # every flow would pay the rest.
            pointer.move(x - APPROACH, y - APPROACH)
            sleep(settings.flow_pause / 2)
        pointer.move(x, y)
        if settings.per_frame:
            # A frame must see the button up between two flows; where the pointer is then does not
            # matter, nor where it went within the frame that sees the press. Before the first stroke
            # the button has been up since before the board was read.
            if released is not None:
                sleep(max(0.0, settings.flow_pause - (time.perf_counter() - released)))
        else:
            # Half the pause between flows on the dot before pressing: such a game must see it there first.
            sleep(settings.flow_pause / 2)
        if stroke.color in tap_first:
            _tap(pointer, sleep)
        pointer.down()
        try:
            first = 1
            if settings.per_frame and len(stroke.points) > 1:
                # The lead-in (inside the first cell) with the press: a game that reads once a frame
                # takes the press there, one that takes every event sees the press, then the move.
                pointer.move(*stroke.points[1])
                first = 2
            sleep(settings.move_delay)
            for index in range(first, len(stroke.points)):
                point = stroke.points[index]
                if index in stroke.lifts:  # through a warp: lift, and press again on the far side
                    sleep(settings.release_pause)
                    pointer.up()
                    sleep(settings.move_delay)  # each event alone in its frame (see above)
                    if guard is not None:
                        guard.check(*point)
                    pointer.move(*point)
                    sleep(settings.move_delay)
                    pointer.down()
                    sleep(settings.move_delay)
                    continue  # a move to where the pointer is would still be a motion event, after the press
                pointer.move(*point)
                sleep(settings.move_delay)
            sleep(settings.release_pause)
        finally:
            pointer.up()  # never leave the button held, even when interrupted mid-stroke
        drawn += 1
        if settings.per_frame:
            released = time.perf_counter()
        else:
            sleep(settings.flow_pause / 2)
    return drawn


def tap_dots(pointer: Pointer, points: list[Point], sleep: Callable[[float], None] = time.sleep) -> None:
    """A tap on each point in turn (a dot, to clear its flow), each asked of the pointer's guard first
    as a stroke's press is (see draw_strokes)."""
    guard = getattr(pointer, "guard", None)
    for x, y in points:
        if guard is not None:
            guard.check(x, y)
        pointer.move(x, y)
        _tap(pointer, sleep)


def _tap(pointer: Pointer, sleep: Callable[[float], None]) -> None:
    """A click where the pointer is. On a web page an earlier drag can leave some of the page selected,
    and a drag that starts inside a selection is the browser's drag-and-drop: the page then gets no
    moves (a game in a browser never saw a flow drawn, try after try). A click collapses the selection;
    in a Flow game a tap on a dot at most clears that dot's flow, which is drawn next anyway."""
    pointer.down()
    try:
        sleep(TAP_HOLD)
    finally:
        pointer.up()
    sleep(TAP_GAP)


def _between(start: Point, end: Point, steps: int) -> list[Point]:
    """`steps` evenly spaced points from just after `start` to `end` (inclusive)."""
    return [
        (start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps)
        for k in range(1, steps + 1)
    ]


def _into(start: Point, end: Point, steps: int) -> list[Point]:
    """`steps` points from `start` (a cell's centre) to `end` (the next cell's centre), all inside the
    cell entered and the last on its centre: a point on the border between two cells is either cell by
    the game's rounding, and a game that merges the moves of one frame must still see each cell."""
    return [
        (start[0] + (end[0] - start[0]) * fraction, start[1] + (end[1] - start[1]) * fraction)
        for fraction in (0.5 + 0.5 * k / steps for k in range(1, steps + 1))
    ]


def _toward(start: Point, end: Point, distance: float) -> Point:
    """The point `distance` pixels from `start` toward `end` (at most half way there)."""
    away = math.dist(start, end)
    if away == 0:
        return start
    share = min(distance / away, 0.5)
    return (start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share)


def _square(centres: list[Point]) -> bool:
    """True when every step runs along a row or a column of pixels (a square board, where a game that
    fills straight jumps can be given only the turns)."""
    return all(a[0] == b[0] or a[1] == b[1] for a, b in pairwise(centres))


def _turns(centres: list[Point], index: int, size: float) -> bool:
    """True when the path turns at this cell, or leaves it through a warp."""
    before, here, after = centres[index - 1], centres[index], centres[index + 1]
    if math.dist(here, after) > WARP_GAP * size:
        return True
    return (here[0] - before[0], here[1] - before[1]) != (after[0] - here[0], after[1] - here[1])
