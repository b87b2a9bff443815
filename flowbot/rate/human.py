"""A solver that reasons like a person: layers of one kind of deduction each, cheapest kinds first."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from flowbot.model import Puzzle

UNKNOWN, ON, OFF = 0, 1, 2

# Deduction kinds, cheapest first. "uniqueness" holds only because real levels have one solution
# (no path runs alongside itself, so no 2x2 block of one colour); it is reported separately.
KINDS = ("forced", "dead_end", "stranded", "bottleneck", "must_pass", "uniqueness", "contradiction")


class Contradiction(Exception):
    """The state breaks a rule: no solution goes through it."""


@dataclass
class Board:
    """What never changes while solving: cells, their neighbours, edges, endpoint colours."""

    puzzle: Puzzle
    cells: list[tuple[int, int]] = field(default_factory=list)
    edges: list[tuple[int, int]] = field(default_factory=list)
    incident: list[list[int]] = field(default_factory=list)
    edge_index: dict[tuple[int, int], int] = field(default_factory=dict)
    need: list[int] = field(default_factory=list)
    ends: list[tuple[int, int]] = field(default_factory=list)
    index: dict[tuple[int, int], int] = field(default_factory=dict)
    links: list[list[tuple[int, int]]] = field(default_factory=list)

    @classmethod
    def of(cls, puzzle: Puzzle) -> Board:
        """Number the cells and edges of a puzzle."""
        board = cls(puzzle)
        board.cells = list(puzzle.cells())
        index = board.index = {cell: i for i, cell in enumerate(board.cells)}
        board.incident = [[] for _ in board.cells]
        for i, (row, col) in enumerate(board.cells):
            for other in ((row, col + 1), (row + 1, col)):
                j = index.get(other)
                if j is not None:
                    e = len(board.edges)
                    board.edges.append((i, j))
                    board.edge_index[(i, j)] = board.edge_index[(j, i)] = e
                    board.incident[i].append(e)
                    board.incident[j].append(e)
        board.links = [[(e, board.other(e, i)) for e in board.incident[i]] for i in range(len(board.cells))]
        board.need = [1 if puzzle.endpoint_color(cell) is not None else 2 for cell in board.cells]
        board.ends = [(index[a], index[b]) for a, b in puzzle.endpoints]
        return board

    def other(self, e: int, i: int) -> int:
        """The cell at the far end of edge e from cell i."""
        a, b = self.edges[e]
        return b if a == i else a


class State:
    """What is known so far: each edge on, off or unknown, and the colours each cell may still take."""

    __slots__ = ("board", "domain", "edge", "on", "open")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.edge = [UNKNOWN] * len(board.edges)
        every = (1 << len(board.ends)) - 1
        self.domain = [every] * len(board.cells)
        for color, (a, b) in enumerate(board.ends):
            self.domain[a] = self.domain[b] = 1 << color
        # Per cell: how many of its edges are on, and how many still undecided.
        self.on = [0] * len(board.cells)
        self.open = [len(edges) for edges in board.incident]

    def copy(self) -> State:
        """An independent copy for trying a move."""
        twin = State.__new__(State)
        twin.board = self.board
        twin.edge, twin.domain = list(self.edge), list(self.domain)
        twin.on, twin.open = list(self.on), list(self.open)
        return twin

    def solved(self) -> bool:
        """Every edge decided and every cell of one colour."""
        return UNKNOWN not in self.edge and all(d & (d - 1) == 0 for d in self.domain)

    def counts(self, i: int) -> tuple[int, int]:
        """(on, unknown) edges at cell i."""
        return self.on[i], self.open[i]

    def full(self, i: int) -> bool:
        """True when cell i has all the joined edges it needs."""
        return self.on[i] >= self.board.need[i]

    def set_edge(self, e: int, value: int) -> bool:
        """Decide an edge; True if it changed, Contradiction if it was decided the other way."""
        current = self.edge[e]
        if current == value:
            return False
        if current != UNKNOWN:
            raise Contradiction
        self.edge[e] = value
        for cell in self.board.edges[e]:
            self.open[cell] -= 1
            if value == ON:
                self.on[cell] += 1
        return True

    def restrict(self, i: int, mask: int) -> bool:
        """Narrow a cell's colours; True if it changed, Contradiction if none is left."""
        narrowed = self.domain[i] & mask
        if narrowed == self.domain[i]:
            return False
        if narrowed == 0:
            raise Contradiction
        self.domain[i] = narrowed
        return True


Move = tuple[str, int, int]  # ("edge", e, ON|OFF) or ("colour", cell, mask)


def apply(state: State, moves: list[Move]) -> int:
    """Apply moves; return how many changed something. Contradiction propagates."""
    changed = 0
    for kind, target, value in moves:
        if kind == "edge":
            changed += state.set_edge(target, value)
        else:
            changed += state.restrict(target, value)
    return changed


# --- the rules: each looks at one state and returns every move of its kind it can find ---------


def forced(state: State) -> list[Move]:
    """Moves with no choice: a cell with as many open edges as it needs, colours along joined edges,
    and an edge that would close a loop."""
    board, edge, domain = state.board, state.edge, state.domain
    moves: list[Move] = []
    for i in range(len(board.cells)):
        on, unknown = state.counts(i)
        if on > board.need[i] or on + unknown < board.need[i]:
            raise Contradiction
        if unknown and (on == board.need[i] or on + unknown == board.need[i]):
            value = OFF if on == board.need[i] else ON
            moves.extend(("edge", e, value) for e in board.incident[i] if edge[e] == UNKNOWN)
    roots = _path_pieces(state)
    for e, (i, j) in enumerate(board.edges):
        if edge[e] == ON:
            if domain[i] != domain[j]:
                shared = domain[i] & domain[j]
                moves.append(("colour", i, shared))
                moves.append(("colour", j, shared))
        elif edge[e] == UNKNOWN and (domain[i] & domain[j] == 0 or roots[i] == roots[j]):
            moves.append(("edge", e, OFF))  # different colours, or it would close a loop
    return moves


def dead_ends(state: State) -> list[Move]:
    """An edge is off when joining it would leave a neighbouring cell unable to be passed through."""
    board, edge = state.board, state.edge
    moves: list[Move] = []
    counts = [state.counts(i) for i in range(len(board.cells))]
    for e, (i, j) in enumerate(board.edges):
        if edge[e] != UNKNOWN:
            continue
        lost: dict[int, int] = {}
        for cell in (i, j):
            on, _ = counts[cell]
            if on + 1 == board.need[cell]:  # joining fills this cell: its other open edges close
                for other in board.incident[cell]:
                    if other != e and edge[other] == UNKNOWN:
                        far = board.other(other, cell)
                        lost[far] = lost.get(far, 0) + 1
        for cell, closed in lost.items():
            on, unknown = counts[cell]
            if on + unknown - closed < board.need[cell]:
                moves.append(("edge", e, OFF))
                break
    return moves


def stranded(state: State) -> list[Move]:
    """A colour can only be where a route from both its ends reaches; a colour cut off is a contradiction."""
    board, domain = state.board, state.domain
    moves: list[Move] = []
    for color, (a, b) in enumerate(board.ends):
        bit = 1 << color
        # Reaching is symmetric, so what a reaches is what b reaches once a reaches b.
        reached = _reach(state, a, bit)
        if not reached[b]:
            raise Contradiction
        for i, mask in enumerate(domain):
            if mask & bit and mask != bit and not reached[i]:
                moves.append(("colour", i, mask & ~bit))
    return moves


def bottleneck(state: State) -> list[Move]:
    """A cell that every route between a colour's ends must cross, over all open cells: that colour's."""
    return _must_cross(state, own_colour_only=False)


def must_pass(state: State) -> list[Move]:
    """A cell on every route a colour can still take between its ends belongs to that colour."""
    return _must_cross(state, own_colour_only=True)


def uniqueness(state: State) -> list[Move]:
    """Valid because the solution is unique: two cells of one colour side by side are joined, and a
    cell next to a known colour across an open-for-sure gap is not that colour."""
    board, edge, domain = state.board, state.edge, state.domain
    moves: list[Move] = _inside_corners(state)
    for e, (i, j) in enumerate(board.edges):
        single_i = domain[i] & (domain[i] - 1) == 0
        single_j = domain[j] & (domain[j] - 1) == 0
        if edge[e] == UNKNOWN and single_i and single_j and domain[i] == domain[j]:
            moves.append(("edge", e, ON))
        elif edge[e] == OFF:
            if single_i and domain[j] & domain[i]:
                moves.append(("colour", j, ~domain[i]))
            if single_j and domain[i] & domain[j]:
                moves.append(("colour", i, ~domain[j]))
    return moves


def propagate_cheaply(state: State) -> None:
    """What a person checks after trying a move: forced moves and dead ends until they run out, then
    whether a colour got cut off (Contradiction when one did)."""
    while True:
        while apply(state, forced(state)) or apply(state, dead_ends(state)):
            pass
        if not apply(state, stranded(state)):
            return


def contradiction(state: State) -> list[Move]:
    """Try each open edge at a path's end both ways; a choice that the cheaper rules break is wrong."""
    edge = state.edge
    moves: list[Move] = []
    for e in _frontier(state):
        for value, opposite in ((ON, OFF), (OFF, ON)):
            trial = state.copy()
            try:
                trial.set_edge(e, value)
                propagate_cheaply(trial)
            except Contradiction:
                moves.append(("edge", e, opposite))
                break
    return [move for move in moves if edge[move[1]] == UNKNOWN]


RULES = {
    "forced": forced,
    "dead_end": dead_ends,
    "stranded": stranded,
    "bottleneck": bottleneck,
    "must_pass": must_pass,
    "uniqueness": uniqueness,
    "contradiction": contradiction,
}


# --- helpers --------------------------------------------------------------------------------------


def _path_pieces(state: State) -> list[int]:
    """A label per cell: cells joined by on-edges share it (each piece of a path)."""
    board = state.board
    parent = list(range(len(board.cells)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for e, (i, j) in enumerate(board.edges):
        if state.edge[e] == ON:
            parent[find(i)] = find(j)
    return [find(i) for i in range(len(board.cells))]


def _reach(state: State, start: int, bit: int, avoid: int = -1) -> bytearray:
    """Cells a path of one colour can reach from `start` (as a 0/1 array): along on-edges, or through
    open edges between cells that may take the colour and still have room."""
    board, edge, domain, on, need = state.board, state.edge, state.domain, state.on, state.board.need
    links = board.links
    seen = bytearray(len(domain))
    seen[start] = 1
    if avoid >= 0:
        seen[avoid] = 1  # never entered
    stack = [start]
    while stack:
        i = stack.pop()
        room = on[i] < need[i]
        for e, j in links[i]:
            if seen[j] or not domain[j] & bit:
                continue
            state_e = edge[e]
            if state_e == OFF or (state_e == UNKNOWN and not (room and on[j] < need[j])):
                continue
            seen[j] = 1
            stack.append(j)
    if avoid >= 0:
        seen[avoid] = 0
    return seen


def _must_cross(state: State, own_colour_only: bool) -> list[Move]:
    """Cells that separate a colour's two ends: in the colour's own reach, or among all open cells."""
    board, domain = state.board, state.domain
    every = (1 << len(board.ends)) - 1
    moves: list[Move] = []
    for color, (a, b) in enumerate(board.ends):
        bit = 1 << color
        if _pieces_joined(state, a, b):
            continue
        mask = bit if own_colour_only else every
        route = _route(state, a, b, mask)
        if route is None:
            raise Contradiction
        for i in route[1:-1]:
            if domain[i] == bit:
                continue
            if not _reach(state, a, mask, avoid=i)[b]:
                moves.append(("colour", i, bit))
    return moves


def _pieces_joined(state: State, a: int, b: int) -> bool:
    """True when on-edges already join the two cells."""
    pieces = _path_pieces(state)
    return pieces[a] == pieces[b]


def _route(state: State, a: int, b: int, mask: int) -> list[int] | None:
    """A shortest route from a to b through cells reachable as in `_reach`, or None."""
    board, edge, domain = state.board, state.edge, state.domain
    previous = {a: -1}
    queue = deque([a])
    while queue:
        i = queue.popleft()
        if i == b:
            path = []
            while i != -1:
                path.append(i)
                i = previous[i]
            return path[::-1]
        for e in board.incident[i]:
            if edge[e] == OFF:
                continue
            j = board.other(e, i)
            if j in previous or not domain[j] & mask:
                continue
            if edge[e] == UNKNOWN and (state.full(j) or state.full(i)):
                continue
            previous[j] = i
            queue.append(j)
    return None


def _inside_corners(state: State) -> list[Move]:
    """A path turning at a cell: the cell inside the turn would touch it, so it takes neither arm."""
    board, edge = state.board, state.edge
    index = board.index
    moves: list[Move] = []
    for u, (row, col) in enumerate(board.cells):
        if state.on[u] != 2:
            continue
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            a, b, d = index.get((row, col + dc)), index.get((row + dr, col)), index.get((row + dr, col + dc))
            if a is None or b is None or d is None:
                continue
            if edge[board.edge_index[(u, a)]] == ON and edge[board.edge_index[(u, b)]] == ON:
                for arm in (a, b):
                    e = board.edge_index[(d, arm)]
                    if edge[e] == UNKNOWN:
                        moves.append(("edge", e, OFF))
    return moves


def _frontier(state: State) -> list[int]:
    """Open edges at cells that are part-way joined: where a person would try a move first."""
    board, edge = state.board, state.edge
    seen = []
    marked = set()
    for i in range(len(board.cells)):
        on, unknown = state.counts(i)
        if unknown and (on or board.need[i] == 1):
            for e in board.incident[i]:
                if edge[e] == UNKNOWN and e not in marked:
                    marked.add(e)
                    seen.append(e)
    return seen
