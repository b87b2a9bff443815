"""Before drawing a level again: which flows of a failed try to clear first, by tapping their dots.

A game that steps its own cursor toward the pointer and never cuts another flow's pipe leaves the
pipes of an earlier try in the way: a stroke drawn over them stops at the first cell of another
colour. Clearing those flows first (a tap on a dot clears its flow in Flow games) lets the next try
through. Pure: cells read on the board now in, taps out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from flowbot.capture.verdict import FLOW_DISTANCE, UNCHANGED, centre_colours, rgb_to_lab
from flowbot.model import Cell, Geometry, Solution

Seen = Sequence[Sequence[int | None]]  # per cell, row by row: the flow whose colour it shows, or None

__all__ = ["Seen", "blocked_cells", "clearing_taps", "flows_in_the_way", "read_seen", "seen_flows"]


def read_seen(
    frame: np.ndarray, geometry: Geometry, flow_rgb: Sequence[tuple[int, int, int]], before: np.ndarray
) -> list[list[int | None]]:
    """The flow each cell of a frame shows (seen_flows of its centre colours).

    frame : (H, W, 3) uint8 ndarray, BGR; geometry in the frame's pixels
    flow_rgb : each flow's colour as seen on its dots, in the puzzle's colour order
    before : centre_colours of the board before drawing
    """
    labs = np.array([rgb_to_lab(rgb) for rgb in flow_rgb]).reshape(-1, 3)
    return seen_flows(centre_colours(frame, geometry), labs, before)


def seen_flows(now: np.ndarray, flow_labs: np.ndarray, before: np.ndarray) -> list[list[int | None]]:
    """The flow each cell shows, from the colours at the cells' centres: the nearest flow's colour
    within FLOW_DISTANCE when the cell no longer looks as it did before drawing; None for a cell
    empty as before, hidden, off the frame, or of no flow's colour.

    now, before : (rows, cols, 3) float ndarrays, Lab (flowbot.capture.verdict.centre_colours), NaN unseen
    flow_labs : (flows, 3) float ndarray, Lab, each flow's colour as seen on its dots
    """
    rows, cols = now.shape[:2]
    seen: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    for row in range(rows):
        for col in range(cols):
            colour = now[row, col]
            if np.isnan(colour).any() or len(flow_labs) == 0:
                continue
            moved = float(np.linalg.norm(before[row, col] - colour))
            if moved <= UNCHANGED:  # NaN (never seen before) compares False: judged by colour alone
                continue
            distances = np.linalg.norm(flow_labs - colour, axis=1)
            nearest = int(np.argmin(distances))
            if distances[nearest] <= FLOW_DISTANCE:
                seen[row][col] = nearest
    return seen


def blocked_cells(seen: Seen, solution: Solution) -> list[Cell]:
    """The solution's cells that show another flow than the solution's: a stroke through them stops
    there in a game that does not cut pipes. A sign of pipes in the way, not of drawing too fast
    (a dropped cell shows no flow at all). Dots and bridges are not judged (a dot always shows its
    own flow; two flows share a bridge)."""
    bridges = solution.puzzle.bridges
    blocked = []
    for color, path in enumerate(solution.paths):
        for cell in path[1:-1]:
            if cell in bridges:
                continue
            shown = _shown(seen, cell)
            if shown is not None and shown != color:
                blocked.append(cell)
    return blocked


def flows_in_the_way(seen: Seen, solution: Solution) -> list[int]:
    """The flows to clear before drawing again: each flow whose pipe shows on a cell the solution gives
    another flow (a stray pipe, in the way), then each flow whose cells show another colour (its own
    pipe went astray or was stopped short). Strays first, most cells in the way first; each once."""
    owner = _owners(solution)
    strays: dict[int, int] = {}  # flow -> cells of others it covers
    victims: dict[int, int] = {}  # flow -> its cells covered by others
    for cell in blocked_cells(seen, solution):
        shown = _shown(seen, cell)
        assert shown is not None
        strays[shown] = strays.get(shown, 0) + 1
        victims[owner[cell]] = victims.get(owner[cell], 0) + 1
    ordered = sorted(strays, key=lambda flow: (-strays[flow], flow))
    ordered += [
        flow for flow in sorted(victims, key=lambda flow: (-victims[flow], flow)) if flow not in strays
    ]
    return ordered


def clearing_taps(seen: Seen, solution: Solution) -> list[Cell]:
    """The dots to tap, in order, before drawing the solution again: one dot of each flow in the way
    (flows_in_the_way), the one its stroke starts from. Empty when nothing is in the way: the board
    is clear enough to draw on."""
    return [solution.paths[flow][0] for flow in flows_in_the_way(seen, solution)]


def _owners(solution: Solution) -> dict[Cell, int]:
    """The solution's flow on each cell it covers (a bridge's last one: bridges are never judged)."""
    return {cell: color for color, path in enumerate(solution.paths) for cell in path}


def _shown(seen: Seen, cell: Cell) -> int | None:
    """The flow a cell shows, or None (a cell outside what was read included)."""
    row, col = cell
    if not 0 <= row < len(seen) or not 0 <= col < len(seen[row]):
        return None
    return seen[row][col]
