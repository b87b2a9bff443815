"""Check deductions against a known solution: every move a sound rule makes must agree with it."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from flowbot.model import Solution
from flowbot.rate.human import OFF, ON, Board, Move


@dataclass(frozen=True, slots=True)
class Truth:
    """The solution seen as the solver sees a board: each edge on or off, each cell's colour."""

    edge: tuple[int, ...]
    color: tuple[int, ...]

    @classmethod
    def of(cls, board: Board, solution: Solution) -> Truth:
        """Edges and colours of a solution on a numbered board."""
        joined = set()
        color = [-1] * len(board.cells)
        for index, path in enumerate(solution.paths):
            cells = [board.index[cell] for cell in path]
            for i in cells:
                color[i] = index
            joined.update(board.edge_index[(a, b)] for a, b in pairwise(cells))
        edge = tuple(ON if e in joined else OFF for e in range(len(board.edges)))
        return cls(edge, tuple(color))

    def agrees(self, move: Move) -> bool:
        """True when the move says nothing the solution contradicts."""
        kind, target, value, _why = move
        if kind == "edge":
            return self.edge[target] == value
        return bool(value >> self.color[target] & 1)
