"""A solver that reasons like a person: layers of one kind of deduction each, cheapest kinds first."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from flowbot.model import Cell, Puzzle, cell_name

UNKNOWN, ON, OFF = 0, 1, 2

# Deduction kinds, cheapest first. "uniqueness" is the rule that no path runs alongside itself (which
# real levels keep, so their solution is unique). The contradictions try a move and follow what it
# forces: a short chain, a longer one, a long one (bounded by CHAINS).
KINDS = (
    "forced",
    "stranded",
    "bottleneck",
    "must_pass",
    "uniqueness",
    "contradiction",
    "long_contradiction",
    "deep_contradiction",
)


Links = list[list[tuple[int, int]]]
"""Per cell: its (edge, neighbour) pairs."""


class Contradiction(Exception):
    """The state breaks a rule: no solution goes through it. `why` says which, in a player's words."""

    def __init__(self, why: str = "the flows could not all be finished") -> None:
        super().__init__(why)
        self.why = why


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
    # A classic square board floods its cells a whole row at a time (bit tricks on rows); any other
    # board (hexes, warps, walls, Shapes) floods along its links, one cell at a time.
    grid: bool = True
    # Per cell: its bit in flood-fill masks (grid: rows of cols + 1 bits, the spare bit stops wrapping;
    # else bit n for cell n).
    bit: list[int] = field(default_factory=list)
    stride: int = 0
    down: list[bool] = field(default_factory=list)  # per edge: True when it joins a cell to the one below
    # Per edge: its bit in the masks of edges not ruled out (grid: its left or top cell's; else 1 << e).
    way: list[int] = field(default_factory=list)
    # Per cell, off the grid: the bits of the cell and its neighbours (what a flood of it looks at).
    nearby: list[int] = field(default_factory=list)
    graph_links: Links | None = None  # off the grid: `links`, for flood
    # Per cell, per diagonal: (edge to arm a, edge to arm b, edges from the inner cell to a and to b).
    corners: list[list[tuple[int, int, int, int]]] = field(default_factory=list)
    # Per edge: the 2x2 blocks of cells it lies in, each as its four edges.
    squares: list[list[tuple[int, ...]]] = field(default_factory=list)

    @classmethod
    def of(cls, puzzle: Puzzle) -> Board:
        """Number the cells and edges of a puzzle."""
        board = cls(puzzle)
        board.cells = list(puzzle.cells())
        index = board.index = {cell: i for i, cell in enumerate(board.cells)}
        board.incident = [[] for _ in board.cells]
        board.grid = not puzzle.is_graph
        for i, (row, col) in enumerate(board.cells):
            if board.grid:
                later = [(row, col + 1), (row + 1, col)]
            else:
                later = [other for other in puzzle.neighbors((row, col)) if other > (row, col)]
            for other in later:
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
        corners_of = board._corners_of if board.grid else board._cycles_of
        board.corners = [corners_of(i) for i in range(len(board.cells))]
        board.squares = [[] for _ in board.edges]
        for square in {tuple(sorted(corner)) for corners in board.corners for corner in corners}:
            for e in square:
                board.squares[e].append(square)
        if board.grid:
            board.stride = puzzle.cols + 1
            board.bit = [1 << (row * board.stride + col) for row, col in board.cells]
            board.down = [board.cells[j][0] != board.cells[i][0] for i, j in board.edges]
            board.way = [board.bit[i] for i, _j in board.edges]
        else:
            board.bit = [1 << i for i in range(len(board.cells))]
            board.down = [False] * len(board.edges)
            board.way = [1 << e for e in range(len(board.edges))]
            board.graph_links = board.links
            board.nearby = [
                board.bit[i] | sum(board.bit[j] for _e, j in board.links[i]) for i in range(len(board.cells))
            ]
        return board

    def _corners_of(self, u: int) -> list[tuple[int, int, int, int]]:
        """The turns a path can make at cell u, each with the edges of the cell inside the turn."""
        row, col = self.cells[u]
        found = []
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            a, b = self.index.get((row, col + dc)), self.index.get((row + dr, col))
            d = self.index.get((row + dr, col + dc))
            if a is None or b is None or d is None:
                continue
            edge = self.edge_index
            found.append((edge[(u, a)], edge[(u, b)], edge[(d, a)], edge[(d, b)]))
        return found

    def _cycles_of(self, u: int) -> list[tuple[int, int, int, int]]:
        """_corners_of on any graph: each pair of u's neighbours with another common neighbour d (a
        cycle of four cells u, a, d, b), as the 2x2 blocks of a square board are."""
        edge = self.edge_index
        arms = [j for _e, j in self.links[u]]
        found = []
        for k, a in enumerate(arms):
            for b in arms[k + 1 :]:
                for _e, d in self.links[a]:
                    if d not in (u, b) and (d, b) in edge:
                        found.append((edge[(u, a)], edge[(u, b)], edge[(d, a)], edge[(d, b)]))
        return found

    def ways_cells(self, ways: int) -> int:
        """The cells (as bits) at the edges in a mask of ways: on the grid the mask says it already."""
        if self.grid:
            return ways
        cells = 0
        while ways:
            low = ways & -ways
            i, j = self.edges[low.bit_length() - 1]
            cells |= self.bit[i] | self.bit[j]
            ways ^= low
        return cells

    def beside(self, reached: int) -> int:
        """The cells a flood of `reached` looked at: those reached and their neighbours."""
        if self.grid:
            stride = self.stride
            return reached | reached << 1 | reached >> 1 | reached << stride | reached >> stride
        around = 0
        for i in cells_of(self, reached):
            around |= self.nearby[i]
        return around

    def other(self, e: int, i: int) -> int:
        """The cell at the far end of edge e from cell i."""
        a, b = self.edges[e]
        return b if a == i else a


class State:
    """What is known so far: each edge on, off or unknown, and the colours each cell may still take."""

    __slots__ = ("across", "board", "cmask", "domain", "down", "edge", "on", "open", "reach", "tail", "tried")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.edge = [UNKNOWN] * len(board.edges)
        every = (1 << len(board.ends)) - 1
        self.domain = [every] * len(board.cells)
        for color, (a, b) in enumerate(board.ends):
            self.domain[a] = self.domain[b] = 1 << color
        # The suppositions last tried on this very state: (chain limit, the trials cut short by it).
        self.tried: tuple[int, list[tuple[int, int]]] | None = None
        # The edges not yet ruled out, as masks of their left (top) cells: across and down.
        self.across = self.down = 0
        for e, way in enumerate(board.way):
            if board.down[e]:
                self.down |= way
            else:
                self.across |= way
        # Per colour: the cells that may still take it, as bits of board.bit (for fast flood fills).
        self.cmask = [0] * len(board.ends)
        for i, mask in enumerate(self.domain):
            for color in range(len(board.ends)):
                if mask >> color & 1:
                    self.cmask[color] |= board.bit[i]
        # Per cell: how many of its edges are on, and how many still undecided.
        self.on = [0] * len(board.cells)
        self.open = [len(edges) for edges in board.incident]
        # Per cell at the end of a piece of path: the cell at the piece's other end (itself when alone).
        self.tail = list(range(len(board.cells)))
        # Per colour: the cells it reached when last looked at (None: look again), with what that flood
        # looked at: (reached, those cells and their neighbours, the colour's cells, across, down).
        # Reach only shrinks, so it stays right until a cell inside it changes; propagate.settle keeps
        # it so.
        self.reach: list[tuple[int, int, int, int, int] | None] = [None] * len(board.ends)

    def copy(self) -> State:
        """An independent copy for trying a move."""
        twin = State.__new__(State)
        twin.board = self.board
        twin.edge, twin.domain = list(self.edge), list(self.domain)
        twin.on, twin.open, twin.tail = list(self.on), list(self.open), list(self.tail)
        twin.reach, twin.cmask = list(self.reach), list(self.cmask)
        twin.across, twin.down = self.across, self.down
        twin.tried = None
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
        i, j = self.board.edges[e]
        if current != UNKNOWN:
            raise Contradiction(
                f"{name(self.board, i)} and {name(self.board, j)} would both be joined and not"
            )
        if value == ON:
            need = self.board.need
            for cell in (i, j):
                if self.on[cell] >= need[cell]:
                    raise Contradiction(
                        f"{name(self.board, cell)} would have more joins than a flow can take"
                    )
            far_i, far_j = self.tail[i], self.tail[j]
            if far_i == j:
                raise Contradiction(f"a flow would close a loop at {name(self.board, i)}")
            self.tail[far_i], self.tail[far_j] = far_j, far_i
            self.on[i] += 1
            self.on[j] += 1
        elif self.board.down[e]:
            self.down &= ~self.board.way[e]
        else:
            self.across &= ~self.board.way[e]
        self.edge[e] = value
        self.open[i] -= 1
        self.open[j] -= 1
        return True

    def restrict(self, i: int, mask: int) -> bool:
        """Narrow a cell's colours; True if it changed, Contradiction if none is left."""
        narrowed = self.domain[i] & mask
        if narrowed == self.domain[i]:
            return False
        if narrowed == 0:
            raise Contradiction(f"{name(self.board, i)} could take no colour")
        removed = self.domain[i] & ~narrowed
        self.domain[i] = narrowed
        keep = ~self.board.bit[i]
        while removed:
            low = removed & -removed
            self.cmask[low.bit_length() - 1] &= keep
            removed ^= low
        return True


Move = tuple[str, int, int, str]
"""("edge", e, ON|OFF, why) or ("colour", cell, mask, why): a deduction and, in a player's words, why."""


def apply(state: State, moves: list[Move]) -> int:
    """Apply moves; return how many changed something. Contradiction propagates."""
    changed = 0
    for kind, target, value, _why in moves:
        if kind == "edge":
            changed += state.set_edge(target, value)
        else:
            changed += state.restrict(target, value)
    if changed:
        state.reach = [None] * len(state.reach)
        state.tried = None
    return changed


def name(board: Board, i: int) -> str:
    """A cell as a player reads it."""
    return place(board.puzzle, board.cells[i])


def place(puzzle: Puzzle, cell: Cell) -> str:
    """A cell as a player finds it: row and column on a lattice; on a Shapes board its number, as
    `flowbot solve` and the overlays number the cells."""
    return f"cell {cell[1]}" if puzzle.kind == "shapes" else cell_name(cell)


def color_name(board: Board, color: int) -> str:
    """A colour as a player reads it: its palette name, else its label."""
    known = board.puzzle.colors[color]
    return known.name or f"colour {known.label}"


def colors_of(board: Board, mask: int) -> str:
    """The colours in a bit mask, as words."""
    names = [color_name(board, c) for c in range(len(board.ends)) if mask >> c & 1]
    return " or ".join(names) if names else "no colour"


# --- the rules: each looks at one state and returns every move of its kind it can find ---------


def forced(state: State) -> list[Move]:
    """Moves with no choice: a cell with as many open edges as it needs, colours along joined edges,
    and an edge that would close a loop."""
    board, edge, domain, tail = state.board, state.edge, state.domain, state.tail
    moves: list[Move] = []
    for i, (on, unknown, need) in enumerate(zip(state.on, state.open, board.need, strict=True)):
        if on > need or on + unknown < need:
            raise Contradiction(f"{name(board, i)} cannot be joined as it must")
        if unknown and (on == need or on + unknown == need):
            if on == need:
                why = f"{name(board, i)} already has its {'end' if need == 1 else 'two joins'}"
                moves.extend(("edge", e, OFF, why) for e in board.incident[i] if edge[e] == UNKNOWN)
            else:
                why = _no_choice(state, i)
                moves.extend(("edge", e, ON, why) for e in board.incident[i] if edge[e] == UNKNOWN)
    for e, (value, (i, j)) in enumerate(zip(edge, board.edges, strict=True)):
        if value == ON:
            if domain[i] != domain[j]:
                shared = domain[i] & domain[j]
                both = colors_of(board, shared)
                if shared & (shared - 1):
                    both = "one of " + both.replace(" or ", ", ")
                why = f"{name(board, i)} and {name(board, j)} are joined: both {both}"
                moves.append(("colour", i, shared, why))
                moves.append(("colour", j, shared, why))
        elif value == UNKNOWN:
            if domain[i] & domain[j] == 0:
                why = f"{name(board, i)} and {name(board, j)} cannot share a colour"
                moves.append(("edge", e, OFF, why))
            elif tail[i] == j:
                why = f"joining {name(board, i)} to {name(board, j)} would close a loop"
                moves.append(("edge", e, OFF, why))
    return moves


def _no_choice(state: State, i: int) -> str:
    """Why a cell must take every open side it has left, in a player's words."""
    board = state.board
    if board.need[i] == 1:
        return f"the {colors_of(board, state.domain[i])} end at {name(board, i)} has only one way out"
    if state.on[i] == 0:
        return f"{name(board, i)} has only two open sides, so the flow through it uses both"
    return f"the flow at {name(board, i)} has only one way to go on"


def stranded(state: State) -> list[Move]:
    """A colour can only be where a route from both its ends reaches; a colour cut off is a contradiction."""
    board, domain = state.board, state.domain
    moves: list[Move] = []
    for color, (a, b) in enumerate(board.ends):
        bit = 1 << color
        # Reaching is symmetric, so what a reaches is what b reaches once a reaches b.
        reached = _reach(state, a, state.cmask[color])
        if not reached & board.bit[b]:
            raise Contradiction(f"{color_name(board, color)} cannot reach its other end")
        for i in cells_of(board, state.cmask[color] & ~reached):
            if domain[i] == bit:
                raise Contradiction(f"{color_name(board, color)} cannot reach {name(board, i)}")
            why = f"{color_name(board, color)} cannot reach {name(board, i)}"
            moves.append(("colour", i, domain[i] & ~bit, why))
    return moves


def bottleneck(state: State) -> list[Move]:
    """A cell that every route between a colour's ends must cross, over all open cells: that colour's."""
    return _must_cross(state, own_colour_only=False)


def must_pass(state: State) -> list[Move]:
    """A cell on every route a colour can still take between its ends belongs to that colour."""
    return _must_cross(state, own_colour_only=True)


def uniqueness(state: State) -> list[Move]:
    """A path never runs alongside itself: two cells of one colour side by side are joined, a cell next
    to a known colour across a gap is not that colour, and the cell inside a turn takes neither arm."""
    board, edge, domain = state.board, state.edge, state.domain
    moves: list[Move] = _inside_corners(state)
    for e, (i, j) in enumerate(board.edges):
        single_i = domain[i] & (domain[i] - 1) == 0
        single_j = domain[j] & (domain[j] - 1) == 0
        if edge[e] == UNKNOWN and single_i and single_j and domain[i] == domain[j]:
            why = (
                f"{name(board, i)} and {name(board, j)} are both {colors_of(board, domain[i])} side by side: "
                "a flow never runs alongside itself, so they are joined"
            )
            moves.append(("edge", e, ON, why))
        elif edge[e] == OFF:
            for one, two in ((i, j), (j, i)):
                if domain[one] & (domain[one] - 1) == 0 and domain[two] & domain[one]:
                    color = colors_of(board, domain[one])
                    why = (
                        f"{name(board, two)} is not joined to the {color} {name(board, one)}, "
                        f"so it cannot be {color} (the flow would touch itself)"
                    )
                    moves.append(("colour", two, ~domain[one], why))
    return moves


# How many cells or edges a supposition may change before a player would give up following it.
CHAINS = {"contradiction": 24, "long_contradiction": 96, "deep_contradiction": 400}


def _suppose(state: State, limit: int) -> list[Move]:
    """Try each open edge both ways (frontier first); a choice whose consequences break a rule within
    `limit` changes is wrong, so the other holds."""
    # propagate builds on this module's State, so it comes in here, when first needed.
    from flowbot.rate.propagate import TooLong, fill_reach, settle

    edge = state.edge
    fill_reach(state)  # every trial's copy shares these until a cell it reached changes
    known = _Implied(state, settle)
    if state.tried is not None and state.tried[0] < limit:
        # Same state, a longer chain allowed: only trials cut short last time can end differently.
        moves, cut_short = _trials(state, state.tried[1], limit, TooLong, settle, known)
    else:
        # A player tries moves at the ends of the flows first, and looks elsewhere only when none fails.
        frontier = _frontier(state)
        marked = set(frontier)
        moves, cut_short = _trials(
            state, [(e, v) for e in frontier for v in (ON, OFF)], limit, TooLong, settle, known
        )
        if moves:
            return moves
        rest = [(e, v) for e in range(len(edge)) if edge[e] == UNKNOWN and e not in marked for v in (ON, OFF)]
        moves, more = _trials(state, rest, limit, TooLong, settle, known)
        cut_short += more
    state.tried = (limit, cut_short)
    return moves


def _trials(
    state: State, order: list[tuple[int, int]], limit: int, too_long, settle, known: _Implied
) -> tuple[list, list]:
    """Suppose each (edge, value) in turn: the moves its contradictions prove, and the trials cut short.
    A supposition that an earlier one's consequences hold is skipped (see _Implied): it breaks no rule."""
    board = state.board
    moves: list[Move] = []
    cut_short: list[tuple[int, int]] = []
    decided = set()
    for e, value in order:
        if e in decided or (e, value) in known.holds:
            continue
        i, j = board.edges[e]
        trial = state.copy()
        try:
            trial.set_edge(e, value)
            settle(trial, [i, j], limit=limit)
        except Contradiction as broken:
            tried = "joined" if value == ON else "kept apart"
            why = f"if {name(board, i)} and {name(board, j)} were {tried}, {broken.why}"
            moves.append(("edge", e, OFF if value == ON else ON, why))
            decided.add(e)
        except too_long:
            cut_short.append((e, value))
        else:
            known.add(trial)
    return moves, cut_short


class _Implied:
    """The suppositions known to break no rule on a state: the edges an earlier supposition decided,
    when it ran to the end without breaking a rule.

    Why that holds: on a state the rules leave as it is, the rules only ever conclude what holds in
    every state that is closed under them, holds more, and breaks none of them (each rule is
    monotone). A supposition that settled without breaking a rule ends in such a state T; any
    supposition of a choice T made starts inside T, so all it concludes holds in T and it can never
    break a rule, however long its chain (cut short, it would be retried to the same end). The one
    rule that can be broken unseen is the turn: a cell inside a turn joined to an arm (the rule only
    cuts an undecided edge), so a T holding three joins around a 2x2 block of cells is not used."""

    def __init__(self, state: State, settle) -> None:
        self.state, self.holds = state, set()
        self.open = [e for e, value in enumerate(state.edge) if value == UNKNOWN]
        self.usable = not _turned_inside(state, range(len(state.edge))) and _closed(state, settle)

    def add(self, trial: State) -> None:
        """Learn what a supposition that broke no rule decided."""
        if not self.usable:
            return
        edge = trial.edge
        decided = [(e, edge[e]) for e in self.open if edge[e] != UNKNOWN]
        if not _turned_inside(trial, [e for e, value in decided if value == ON]):
            self.holds.update(decided)


def _closed(state: State, settle) -> bool:
    """True when the propagator's rules change nothing in the state and find no broken rule."""
    try:
        return settle(state.copy()) == 0
    except Contradiction:
        return False


def _turned_inside(state: State, edges) -> bool:
    """True when some 2x2 block holding one of the edges has three of its four edges joined."""
    edge = state.edge
    for e in edges:
        if edge[e] == ON:
            for square in state.board.squares[e]:
                if sum(edge[f] == ON for f in square) >= 3:
                    return True
    return False


def contradiction(state: State) -> list[Move]:
    """A supposition that breaks a rule within a few forced moves."""
    return _suppose(state, CHAINS["contradiction"])


def long_contradiction(state: State) -> list[Move]:
    """A supposition that breaks a rule within a longer chain of forced moves."""
    return _suppose(state, CHAINS["long_contradiction"])


def deep_contradiction(state: State) -> list[Move]:
    """A supposition that breaks a rule only after a long chain: the hardest step a player takes."""
    return _suppose(state, CHAINS["deep_contradiction"])


RULES = {
    "forced": forced,
    "stranded": stranded,
    "bottleneck": bottleneck,
    "must_pass": must_pass,
    "uniqueness": uniqueness,
    "contradiction": contradiction,
    "long_contradiction": long_contradiction,
    "deep_contradiction": deep_contradiction,
}


# --- helpers --------------------------------------------------------------------------------------


def _reach(
    state: State, start: int, allowed: int, avoid: int = -1, ways: tuple[int, int] | None = None
) -> int:
    """Cells (as a mask of board.bit) a path can reach from `start` through allowed cells: along
    on-edges, or open edges between cells that both still have room."""
    if avoid >= 0:
        allowed &= ~state.board.bit[avoid]
    board = state.board
    return flood(board.bit[start], allowed, ways or open_ways(state), board.stride, board.graph_links)


def open_ways(state: State) -> tuple[int, int]:
    """Edges a path may still take, as masks of their left (top) cells: (across, down)."""
    board, edge = state.board, state.edge
    way, is_down = board.way, board.down
    across, down = state.across, state.down
    # Only a full cell's undecided edges are closed here: looking from the cells (few are full with an
    # edge undecided) is cheaper than looking at every edge.
    for i, (n_on, n_need) in enumerate(zip(state.on, board.need, strict=True)):
        if n_on >= n_need:
            for e in board.incident[i]:
                if edge[e] == UNKNOWN:
                    if is_down[e]:
                        down &= ~way[e]
                    else:
                        across &= ~way[e]
    return across, down


def flood(start: int, allowed: int, ways: tuple[int, int], stride: int, links: Links | None = None) -> int:
    """The cells reached from start through allowed cells along the open ways (off the grid, `links`:
    each cell's (edge, cell) links, followed where the edge's bit is set in ways[0])."""
    across, down = ways
    if links is not None:
        return _flood_links(links, start, allowed, across)
    # The cells each step may enter: from the left (right), from the right (left), from above, below.
    right, left = (across << 1) & allowed, across & allowed
    below, above = (down << stride) & allowed, down & allowed
    reached = start
    while True:
        # A whole run of cells to the right in one addition: the carry from a reached cell ripples
        # through the run of enterable cells above it and stops at the first one that is not (the spare
        # bit of each row is never enterable, so no run wraps).
        runs = right | reached
        grown = (((runs + reached) ^ runs) | reached) & runs
        grown |= (grown >> 1) & left
        grown |= ((grown << stride) & below) | ((grown >> stride) & above)
        if grown == reached:
            return reached
        reached = grown


def _flood_links(links: Links, start: int, allowed: int, ways: int) -> int:
    """flood off the grid, where cell n is bit n: along each cell's links whose bit in `ways` is set."""
    reached = start
    todo = [n for n in range(start.bit_length()) if start >> n & 1]
    while todo:
        i = todo.pop()
        for e, j in links[i]:
            bit = 1 << j
            if ways >> e & 1 and allowed & bit and not reached & bit:
                reached |= bit
                todo.append(j)
    return reached


def cells_of(board: Board, mask: int) -> list[int]:
    """The cell numbers whose bits are set in a mask."""
    index, stride = board.index, board.stride
    cells = []
    while mask:
        low = mask & -mask
        at = low.bit_length() - 1
        cells.append(index[divmod(at, stride)] if stride else at)
        mask ^= low
    return cells


def _must_cross(state: State, own_colour_only: bool) -> list[Move]:
    """Cells that separate a colour's two ends: in the colour's own reach, or among all open cells."""
    board, domain = state.board, state.domain
    every = (1 << len(board.ends)) - 1
    everywhere = sum(board.bit)
    ways = open_ways(state)
    moves: list[Move] = []
    for color, (a, b) in enumerate(board.ends):
        bit = 1 << color
        if state.tail[a] == b:
            continue  # already one path from end to end
        mask = bit if own_colour_only else every
        allowed = state.cmask[color] if own_colour_only else everywhere
        route = _route(state, a, b, mask)
        if route is None:
            raise Contradiction(f"{color_name(board, color)} cannot reach its other end")
        separating = _separating(state, a, b, [i for i in route[1:-1] if domain[i] != bit], allowed, ways)
        for i in route[1:-1]:
            if i in separating:
                why = (
                    f"every way {color_name(board, color)} can still go passes {name(board, i)}"
                    if own_colour_only
                    else f"{name(board, i)} is the only way through for {color_name(board, color)}"
                )
                moves.append(("colour", i, bit, why))
    return moves


def _separating(
    state: State, a: int, b: int, cells: list[int], allowed: int, ways: tuple[int, int]
) -> set[int]:
    """The cells, each of which alone cuts every way from a to b. A group with a way round all of it at
    once holds none (one flood for many cells); a group without is halved until single cells."""
    board = state.board
    if not cells:
        return set()
    group = 0
    for i in cells:
        group |= board.bit[i]
    if flood(board.bit[a], allowed & ~group, ways, board.stride, board.graph_links) & board.bit[b]:
        return set()
    if len(cells) == 1:
        return set(cells)
    half = len(cells) // 2
    return _separating(state, a, b, cells[:half], allowed, ways) | _separating(
        state, a, b, cells[half:], allowed, ways
    )


def _route(state: State, a: int, b: int, mask: int) -> list[int] | None:
    """A shortest route from a to b through cells reachable as in `_reach`, or None."""
    board, edge, domain, on, need = state.board, state.edge, state.domain, state.on, state.board.need
    links = board.links
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
        full_i = on[i] >= need[i]
        for e, j in links[i]:
            way = edge[e]
            if way == OFF or j in previous or not domain[j] & mask:
                continue
            if way == UNKNOWN and (full_i or on[j] >= need[j]):
                continue
            previous[j] = i
            queue.append(j)
    return None


def _inside_corners(state: State) -> list[Move]:
    """A path turning at a cell: the cell inside the turn would touch it, so it takes neither arm."""
    board, edge = state.board, state.edge
    moves: list[Move] = []
    for u in range(len(board.cells)):
        if state.on[u] != 2:
            continue
        for arm_a, arm_b, inner_a, inner_b in board.corners[u]:
            if edge[arm_a] == ON and edge[arm_b] == ON:
                for e in (inner_a, inner_b):
                    arm = board.other(arm_a if e == inner_a else arm_b, u)
                    d = board.other(e, arm)
                    if edge[e] == UNKNOWN:
                        why = (
                            f"the flow turns at {name(board, u)}: {name(board, d)}, inside the turn, "
                            f"cannot join {name(board, arm)} without the flow touching itself"
                        )
                        moves.append(("edge", e, OFF, why))
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
