"""Solve a puzzle with SAT: edge and colour variables, strict rules first, loops cut lazily."""

from __future__ import annotations

import contextlib
import gc
import signal
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, compress, pairwise
from operator import mul

from flowbot.errors import SolveError
from flowbot.lattice import ACROSS, DOWN, axis_of
from flowbot.model import Cell, Puzzle, Solution
from flowbot.solve.search import Budget, OutOfBudget, OutOfTime, find_solutions, searchable

# typing is for the type checker alone: its import is a few percent of a small solve's start-up.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Status = Literal["solved", "unsolvable", "timeout"]
    ColorEncoding = Literal["binary", "one-hot"]

# glucose4 is incremental (loop cuts are added to the same solver) and can be interrupted.
SOLVER_NAME = "glucose4"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What the solver found: a status, the solution, and how it got there."""

    status: Status
    solution: Solution | None = None
    unique: bool | None = None
    strict: bool = True
    seconds: float = 0.0
    loop_cuts: int = 0
    touch_cuts: int = 0
    variables: int = 0
    clauses: int = 0


class _Deadline:
    """A wall-clock limit for a whole solve; each SAT call is interrupted when it passes."""

    def __init__(self, seconds: float | None) -> None:
        self.end = None if seconds is None else time.perf_counter() + seconds

    def remaining(self) -> float | None:
        """Seconds left, or None when there is no limit."""
        return None if self.end is None else self.end - time.perf_counter()


class _Readback:
    """Reading a model back: the paths, the loops to cut, and the side-by-side pairs to ban.

    Needs `puzzle`, `cells`, `index`, `node_cell`, `edges`, `edge_var`, `width`, `color_base` and
    `side_by_side` (the (edge, node, node) pairs whose touching is banned lazily).
    """

    def read(self, model: list[int]) -> tuple[list[tuple[Cell, ...]], list[list[int]], list[list[int]]]:
        """The paths of a model; the edge variables of every loop that touches no endpoint; and clauses
        banning each side-by-side pair the model gives one colour unjoined.

        One pass gives each node its colour (a path's number, which is the code its bits spell, or a
        loop's code), so the side-by-side pairs compare two numbers, not two slices of bits.
        """
        count, edges = len(self.cells), self.edges
        edge_on = [lit > 0 for lit in model[: len(edges)]]  # by edge variable - 1
        # Each node has at most two links (the degree clauses): kept in two flat lists, not lists of lists.
        first, second = [-1] * count, [-1] * count
        for i, j in compress(edges, edge_on):
            if first[i] < 0:
                first[i] = j
            else:
                second[i] = j
            if first[j] < 0:
                first[j] = i
            else:
                second[j] = i
        color = [-1] * count  # -1: not reached yet
        index = self.index
        self.node_paths = [
            _walk(index[start], first, second, color, number)
            for number, (start, _end) in enumerate(self.puzzle.endpoints)
        ]
        loops = []
        side_by_side = self.side_by_side
        if sum(map(len, self.node_paths)) < count:
            for start, mark in enumerate(color):
                if mark < 0:
                    # A loop's colour is the code its bits spell (only side-by-side pairs compare colours).
                    code = self._code(model, start) if side_by_side else count + len(loops)
                    loops.append(_walk(start, first, second, color, code))
        touching = [
            self._touching_cut(model, e, i, j)
            for e, i, j in side_by_side
            if color[i] == color[j] and not edge_on[e - 1]
        ]
        cell_at = self.node_cell.__getitem__
        paths = [tuple(map(cell_at, path)) for path in self.node_paths]
        edge_var = self.edge_var
        cycles = [[edge_var[pair] for pair in zip(loop, loop[1:] + loop[:1], strict=True)] for loop in loops]
        return paths, cycles, touching

    def _code(self, model: list[int], node: int) -> int:
        """The colour code a model's bits spell at a node."""
        base = self.color_base[node] - 1
        return sum(1 << b for b, lit in enumerate(model[base : base + self.width]) if lit > 0)

    def _touching_cut(self, model: list[int], e: int, i: int, j: int) -> list[int]:
        """The clause banning nodes i and j, side by side, from sharing i's code in the model unjoined."""
        bi, bj = self.color_base[i] - 1, self.color_base[j] - 1
        code_i = model[bi : bi + self.width]
        spelled_j = [bj + 1 + b if lit > 0 else -(bj + 1 + b) for b, lit in enumerate(code_i)]
        return [e, *(-lit for lit in code_i), *(-lit for lit in spelled_j)]


def _walk(start: int, first: list[int], second: list[int], color: list[int], mark: int) -> list[int]:
    """Follow linked nodes from `start` until the path ends or closes, giving each the colour `mark`."""
    order = [start]
    color[start] = mark
    previous, current = -1, start
    while True:
        step = first[current]
        if step == previous:
            step = second[current]
        if step < 0 or color[step] >= 0:
            return order
        color[step] = mark
        order.append(step)
        previous, current = current, step


class _Encoding(_Readback):
    """The CNF of one puzzle under one rule set, and how to read paths back from a model."""

    assumptions: tuple[int, ...] = ()  # the puzzle is in the clauses themselves

    def __init__(self, puzzle: Puzzle, strict: bool, binary: bool) -> None:
        self.puzzle = puzzle
        self.strict = strict
        self.binary = binary
        self.clauses: list[list[int]] = []
        self.side_by_side: list[tuple[int, int, int]] = []
        self.trivially_unsat = False
        with _COLLECTOR.paused():
            self._index_cells()
            self._make_edges()
            self._encode()

    def _index_cells(self) -> None:
        """Number the board's nodes and give each free node K colour variables.

        A node is a cell, except on a bridge: there the flow going across and the flow going down are
        two nodes (the cell with its axis), each with its own links and colour.
        """
        puzzle = self.puzzle
        self.graph = puzzle.is_graph
        if self.graph:
            self.cells = []
            for cell in puzzle.cells():
                self.cells.extend(((*cell, ACROSS), (*cell, DOWN)) if puzzle.is_bridge(cell) else (cell,))
            self.node_cell: list[Cell] = [node[:2] for node in self.cells]
        else:
            self.cells = list(puzzle.cells())
            self.node_cell = self.cells
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        self.owner = [puzzle.endpoint_color(cell) for cell in self.node_cell]
        self.k = len(puzzle.colors)
        # One-hot: one variable per colour; binary: the colour number's bits.
        self.width = max(1, (self.k - 1).bit_length()) if self.binary else self.k
        # Variables 1..E are edges (numbered in _make_edges); colour variables follow.
        self.color_base: list[int] = [0] * len(self.cells)

    def _make_edges(self) -> None:
        """One variable per pair of neighbouring cells that a path could join."""
        self.edges: list[tuple[int, int]] = []
        self.edge_var: dict[tuple[int, int], int] = {}
        self.incident: list[list[int]] = [[] for _ in self.cells]
        owner = self.owner
        for i, j in self._node_links():
            if owner[i] is not None and owner[j] is not None and owner[i] != owner[j]:
                continue  # two endpoints of different colours are never joined
            self.edges.append((i, j))
            var = len(self.edges)
            self.edge_var[(i, j)] = var
            self.edge_var[(j, i)] = var
            self.incident[i].append(var)
            self.incident[j].append(var)
        next_var = len(self.edges) + 1
        for i, owner_i in enumerate(owner):
            if owner_i is None:
                self.color_base[i] = next_var
                next_var += self.width
        self.variables = next_var - 1

    def _node_links(self) -> Iterator[tuple[int, int]]:
        """Pairs of nodes a path could join: right and down on a square board, the puzzle's links else."""
        index = self.index
        if not self.graph:
            for i, (row, col) in enumerate(self.cells):
                for other in ((row, col + 1), (row + 1, col)):
                    j = index.get(other)
                    if j is not None:
                        yield i, j
            return
        puzzle = self.puzzle
        for a, b in puzzle.links():
            axis = axis_of(a, b)
            i = index[(*a, axis)] if puzzle.is_bridge(a) else index[a]
            j = index[(*b, axis)] if puzzle.is_bridge(b) else index[b]
            yield i, j

    def _encode(self) -> None:
        """Build every clause: degrees, colours along edges, strict rules and corners."""
        owner = self.owner
        # Degree: an endpoint has exactly one path neighbour, a free cell exactly two.
        for i, edges in enumerate(self.incident):
            need = 1 if owner[i] is not None else 2
            if len(edges) < need:
                self.trivially_unsat = True
                return
            self._exactly(edges, need)
        if self.binary:
            self._binary_colours()
        else:
            self._one_hot_colours()
        if self.strict:
            if self.graph:
                self._graph_corners()
            else:
                self._corners()

    def _one_hot_colours(self) -> None:
        """Colours as one variable per colour: strong propagation, K clauses per edge and rule."""
        add = self.clauses.append
        k, owner, base = self.k, self.owner, self.color_base
        # Colour: a free cell has at least one colour; an edge carries colour both ways.
        # At-most-one is not needed: every path holds an endpoint whose colour is fixed.
        for i in range(len(self.cells)):
            if owner[i] is None:
                add(list(range(base[i], base[i] + k)))
        for i, j in self.edges:
            e = self.edge_var[(i, j)]
            if owner[i] is not None and owner[j] is not None:
                if self.strict:
                    add([e])  # two endpoints of one colour side by side are always joined
                continue
            if owner[i] is not None or owner[j] is not None:
                end, free = (i, j) if owner[i] is not None else (j, i)
                color = owner[end]
                fb = base[free]
                add([-e, fb + color])
                for c in range(k):
                    if c != color:
                        add([-e, -(fb + c)])
                if self.strict:
                    add([e, -(fb + color)])  # same colour next to each other means joined
                continue
            bi, bj = base[i], base[j]
            for c in range(k):
                add([-e, -(bi + c), bj + c])
                add([-e, bi + c, -(bj + c)])
                if self.strict:
                    add([e, -(bi + c), -(bj + c)])

    def _binary_colours(self) -> None:
        """Colours as bits: about log2(K) clauses per edge and rule instead of K."""
        add = self.clauses.append
        width, owner, base = self.width, self.owner, self.color_base
        bits = range(width)

        def is_code(first: int, code: int) -> list[int]:
            """Literals that are all true exactly when the bits from `first` spell `code`."""
            return [first + b if (code >> b) & 1 else -(first + b) for b in bits]

        unused = _codes_at_least(self.k, width)
        for i in range(len(self.cells)):
            if owner[i] is None:
                for cube in unused:  # no free cell takes a code that no colour has
                    add([-(base[i] + b) if value else base[i] + b for b, value in cube])
        extend, strict, side_by_side = self.clauses.extend, self.strict, self.side_by_side
        for e, (i, j) in enumerate(self.edges, start=1):
            owner_i, owner_j = owner[i], owner[j]
            if owner_i is not None and owner_j is not None:
                if strict:
                    add([e])
                continue
            if owner_i is not None or owner_j is not None:
                color, free = (owner_i, j) if owner_i is not None else (owner_j, i)
                spelled = is_code(base[free], color)
                extend([[-e, lit] for lit in spelled])
                if strict:
                    add([e, *(-lit for lit in spelled)])
                continue
            bi, bj = base[i], base[j]
            # Joined means every bit equal (the per-edge loop written out: it is most of the CNF).
            for b in bits:
                extend(([-e, -bi - b, bj + b], [-e, bi + b, -bj - b]))
            if strict and not self.graph:
                # "Not joined means some bit differs" cost 2 * width + 1 clauses and width variables
                # per pair, most of the CNF; the square corner rule leaves it almost never needed, so
                # it is added only for a pair a model shows touching (touching_cuts).
                side_by_side.append((e, i, j))
            elif strict:
                # Off the square lattice the corner rule is weaker and this rule guides the search:
                # a warps board searched 40x longer without it. One auxiliary "differs" per bit.
                differs = range(self.variables + 1, self.variables + 1 + width)
                self.variables += width
                add([e, *differs])
                for b, d in zip(bits, differs, strict=True):
                    extend(([-d, bi + b, bj + b], [-d, -bi - b, -bj - b]))

    def _exactly(self, lits: list[int], count: int) -> None:
        """Exactly `count` (1 or 2) of the literals are true, as plain clauses."""
        add = self.clauses.append
        n = len(lits)
        if n > 4:
            # Hex cells (six links): any n - count + 1 hold a true one, any count + 1 a false one.
            for chosen in combinations(lits, n - count + 1):
                add(list(chosen))
            for chosen in combinations(lits, count + 1):
                add([-lit for lit in chosen])
            return
        if n == count:
            for lit in lits:
                add([lit])
            return
        if count == 1:
            add(list(lits))
            for a in range(n):
                for b in range(a + 1, n):
                    add([-lits[a], -lits[b]])
            return
        if n == 3:
            # Exactly two of three: any two hold a true one, and not all three are true.
            a, b, c = lits
            self.clauses.extend(([a, b], [a, c], [b, c], [-a, -b, -c]))
            return
        # Exactly two of four: any three hold a true one and a false one.
        a, b, c, d = lits
        self.clauses.extend(
            ([b, c, d], [-b, -c, -d], [a, c, d], [-a, -c, -d],
             [a, b, d], [-a, -b, -d], [a, b, c], [-a, -b, -c])
        )  # fmt: skip

    def _corners(self) -> None:
        """A path turning at a cell forces the free cell inside the turn to turn the same way."""
        add = self.clauses.append
        owner = self.owner
        pad, position, right, down = _edge_grid(self.puzzle.rows, self.puzzle.cols, self.cells, self.edges)
        free = [False] * len(right)
        for u, p in enumerate(position):
            free[p] = owner[u] is None
        for u, p in enumerate(position):
            if owner[u] is not None:
                continue
            for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
                d = p + dr * pad + dc
                if not free[d]:
                    continue
                ua = right[p] if dc == 1 else right[p - 1]
                ub = down[p] if dr == 1 else down[p - pad]
                if not ua or not ub:
                    continue
                # The inside cell differs in colour from both arms, so it leaves the turn outward.
                for dw in (right[d] if dc == 1 else right[d - 1], down[d] if dr == 1 else down[d - pad]):
                    add([-ua, -ub, dw] if dw else [-ua, -ub])

    def _graph_corners(self) -> None:
        """The corner rule on any lattice: a path through a, u, b closes off every other common
        neighbour d of a and b, which then leaves by its other links (and a, b may not be linked).

        Under the strict rule d cannot share the colour of a and b (it would have to join both and
        close a loop), so it is not joined to them. Bridge nodes are left out: their links are one-way.
        """
        add = self.clauses.append
        owner, edge_var, incident = self.owner, self.edge_var, self.incident
        plain = [len(node) == 2 for node in self.cells]
        linked: list[set[int]] = [set() for _ in self.cells]
        for i, j in self.edges:
            if plain[i] and plain[j]:
                linked[i].add(j)
                linked[j].add(i)
        for u, around in enumerate(linked):
            if owner[u] is not None:
                continue
            for a, b in combinations(sorted(around), 2):
                ua, ub = edge_var[(u, a)], edge_var[(u, b)]
                if b in linked[a]:
                    add([-ua, -ub])  # a sharp turn: a and b would be joined too, a loop of three
                    continue
                for d in (linked[a] & linked[b]) - {u}:
                    if owner[d] is not None:
                        continue
                    away = [e for e in incident[d] if e not in (edge_var[(d, a)], edge_var[(d, b)])]
                    add([-ua, -ub, *away])


class _Shape:
    """The strict binary-colour CNF of one square board shape, shared by every puzzle on it.

    Each cell has an "endpoint" variable and colour bits; a puzzle is only assumptions (which cells
    are endpoints, their colours' codes), so puzzles on one shape reuse one loaded solver, and what
    it learnt, instead of building and loading a CNF each (most of a batch's time: docs/benchmarks.md).
    Every clause holds on every puzzle, and so does every loop cut and side-by-side cut added later.
    """

    def __init__(self, puzzle: Puzzle, width: int) -> None:
        self.rows, self.cols, self.width = puzzle.rows, puzzle.cols, width
        self.cells: list[Cell] = list(puzzle.cells())
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        self.edges: list[tuple[int, int]] = []
        self.edge_var: dict[tuple[int, int], int] = {}
        self.incident: list[list[int]] = [[] for _ in self.cells]
        index = self.index
        for i, (row, col) in enumerate(self.cells):
            for other in ((row, col + 1), (row + 1, col)):
                j = index.get(other)
                if j is not None:
                    self.edges.append((i, j))
                    var = len(self.edges)
                    self.edge_var[(i, j)] = self.edge_var[(j, i)] = var
                    self.incident[i].append(var)
                    self.incident[j].append(var)
        count = len(self.cells)
        # Variables: edges 1..E, then one "is an endpoint" per cell, then each cell's colour bits.
        self.end_var = [len(self.edges) + 1 + i for i in range(count)]
        first_bit = len(self.edges) + count + 1
        self.color_base = [first_bit + i * width for i in range(count)]
        self.variables = first_bit - 1 + count * width
        # What a puzzle's assumptions are made of: each cell's bit variables, and "not an endpoint".
        self.bit_vars = [list(range(base, base + width)) for base in self.color_base]
        self.not_end = [-var for var in self.end_var]
        self.side_by_side = [(e, i, j) for e, (i, j) in enumerate(self.edges, start=1)]
        self.clauses: list[list[int]] = []
        self.clause_count = 0  # set once the clauses are loaded (and the list dropped)
        with _COLLECTOR.paused():
            self._degrees()
            self._colours()
            self._corners()

    @staticmethod
    def fits(puzzle: Puzzle) -> bool:
        """Whether a puzzle can share a shape: a square lattice of at most SHAPE_MAX_CELLS cells."""
        return not puzzle.is_graph and puzzle.cell_count <= SHAPE_MAX_CELLS

    def _degrees(self) -> None:
        """An endpoint has exactly one path neighbour, any other cell exactly two."""
        add = self.clauses.append
        self.isolated = not all(self.incident)  # a cell no path can enter: no puzzle here is solvable
        for end, lits in zip(self.end_var, self.incident, strict=True):
            if not lits:
                continue
            add(list(lits))  # at least one, either way
            for chosen in combinations(lits, 3):
                add([-lit for lit in chosen])  # at most two
            for a, b in combinations(lits, 2):
                add([-end, -a, -b])  # an endpoint: at most one
            for lit in lits:
                add([end, *(other for other in lits if other != lit)])  # a free cell: at least two

    def _colours(self) -> None:
        """Joined cells have the same code, bit by bit."""
        extend, bits, base = self.clauses.extend, range(self.width), self.color_base
        for e, (i, j) in enumerate(self.edges, start=1):
            bi, bj = base[i], base[j]
            for b in bits:
                extend(([-e, -bi - b, bj + b], [-e, bi + b, -bj - b]))

    def _corners(self) -> None:
        """_Encoding._corners on every puzzle: the inside cell of a turn turns the same way, unless it
        is an endpoint (a turning cell is never one: it has two path neighbours)."""
        add = self.clauses.append
        pad, position, right, down = _edge_grid(self.rows, self.cols, self.cells, self.edges)
        at = [-1] * len(right)
        for u, p in enumerate(position):
            at[p] = u
        for p in position:
            for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
                d = p + dr * pad + dc
                if at[d] < 0:
                    continue
                ua = right[p] if dc == 1 else right[p - 1]
                ub = down[p] if dr == 1 else down[p - pad]
                if not ua or not ub:
                    continue
                end = self.end_var[at[d]]
                for dw in (right[d] if dc == 1 else right[d - 1], down[d] if dr == 1 else down[d - pad]):
                    add([-ua, -ub, end, dw] if dw else [-ua, -ub, end])

    def new_variable(self) -> int:
        """A fresh variable (a guard for one puzzle's clauses)."""
        self.variables += 1
        return self.variables


class _ShapeView(_Readback):
    """One puzzle on a shared shape: its assumptions, and the model read back for it."""

    def __init__(self, shape: _Shape, puzzle: Puzzle) -> None:
        self.shape = shape
        self.puzzle = puzzle
        self.cells = self.node_cell = shape.cells
        self.index, self.edges, self.edge_var = shape.index, shape.edges, shape.edge_var
        self.width, self.color_base, self.side_by_side = shape.width, shape.color_base, shape.side_by_side
        index, end_var, bit_vars = shape.index, shape.end_var, shape.bit_vars
        # The endpoints first, then every other cell is no endpoint (measured a little faster).
        assumptions, free = [], [True] * len(shape.cells)
        for color, pair in enumerate(puzzle.endpoints):
            signs = [1 if (color >> b) & 1 else -1 for b in range(shape.width)]  # the colour's code
            first, second = index[pair[0]], index[pair[1]]
            for i in (first, second):
                free[i] = False
                assumptions.append(end_var[i])
                assumptions.extend(map(mul, bit_vars[i], signs))
            joined = shape.edge_var.get((first, second))
            if joined is not None:
                assumptions.append(joined)  # one colour's endpoints side by side are joined (strict)
        assumptions.extend(compress(shape.not_end, free))
        self.assumptions = assumptions


class _ShapeCache:
    """Loaded solvers of board shapes seen more than once, each used by one solve at a time.

    A shape's first puzzle is solved alone (its own CNF is smaller, and a single solve should not pay
    for a shape it never sees again); from its second, the shape's solver is built and kept. A solver
    is taken out while a solve uses it, so threads never share one, and one whose solve failed or
    timed out is freed, not put back.
    """

    def __init__(self, keep: int) -> None:
        self._lock = threading.Lock()
        self._keep = keep
        self._seen: dict[tuple, int] = {}  # shape key: the widest colour code a puzzle on it needed
        self._exact: set[tuple] = set()  # shapes whose widest code a batch has told (see expect)
        self._ready: dict[tuple, tuple[_Shape, object]] = {}

    def take(self, puzzle: Puzzle) -> tuple[tuple, _Shape | None, object]:
        """The puzzle's shape key, and the shape with its solver taken out of the cache (None, None
        the first time the shape is seen). A shape's colour codes have a bit more than the most
        colours any puzzle on it had, so a puzzle with a few more needs no new build (janko built 17
        shapes without the spare bit, 10 with it; the bit measured no slower to search)."""
        need, key = _code_bits(puzzle), _shape_key(puzzle)
        with self._lock:
            ready = self._ready.pop(key, None)
            if ready is not None and ready[0].width >= need:
                return key, *ready
            width = self._seen.pop(key, None)
            self._seen[key] = max(need, width or 0)  # the most recently seen last
            spare = 0 if key in self._exact else 1  # told by a batch: no bit to spare
            self._exact.discard(key)
            self._forget_oldest()
        if ready is not None:
            _free(ready[1])  # too narrow for this puzzle's colours: built again below
        if width is None:
            return key, None, None
        shape = _Shape(puzzle, max(need, width) + spare)
        solver = _new_solver(shape.clauses, incremental=True)
        shape.clause_count = len(shape.clauses)
        shape.clauses = []  # in the solver now: 16 kept shapes' clause lists would hold tens of MB
        return key, shape, solver

    def expect(self, puzzles: Iterable[Puzzle]) -> None:
        """Count the shapes a batch brings more than once as seen already, at the widest colour code
        of their puzzles: the first of them is solved on the shape, with no CNF of its own to build and
        load (the real levels' solves took 20% less CPU in-process; janko's the same), and the shape's
        codes have no bit to spare (janko 5% less; a later puzzle with more colours rebuilds it)."""
        widths: dict[tuple, list[int]] = {}
        for puzzle in puzzles:
            if _Shape.fits(puzzle):
                widths.setdefault(_shape_key(puzzle), []).append(_code_bits(puzzle))
        with self._lock:
            for key, needs in widths.items():
                if len(needs) > 1:
                    self._seen[key] = max(*needs, self._seen.pop(key, 0))
                    self._exact.add(key)
            self._forget_oldest()

    def _forget_oldest(self) -> None:
        """Keep the shapes seen to a bound, dropping the least recently seen (under the lock)."""
        while len(self._seen) > 64 * self._keep:
            oldest = next(iter(self._seen))
            del self._seen[oldest]
            self._exact.discard(oldest)

    def give_back(self, key: tuple, shape: _Shape, solver) -> None:
        """Keep a shape's solver for the next puzzle on it; the least recently used goes past `keep`."""
        with self._lock:
            old = self._ready.pop(key, None)
            self._ready[key] = (shape, solver)
            dropped = [old[1]] if old is not None else []
            while len(self._ready) > self._keep:
                dropped.append(self._ready.pop(next(iter(self._ready)))[1])
        for each in dropped:
            _free(each)

    def clear(self) -> None:
        """Free every kept solver."""
        with self._lock:
            ready, self._ready = self._ready, {}
            self._seen.clear()
            self._exact.clear()
        for _shape, solver in ready.values():
            _free(solver)


# Shapes up to this many cells share a solver: on 50x50 (2500 cells) the search under a puzzle's
# assumptions took 2.4x as long as with the same facts as units, while a 36x20 still gained overall
# (docs/benchmarks.md).
SHAPE_MAX_CELLS = 1000
# Shapes whose solvers are kept (a 36x20 solver is a few MB).
SHAPES_KEPT = 16
_SHAPES = _ShapeCache(SHAPES_KEPT)


def _shape_key(puzzle: Puzzle) -> tuple:
    """What puzzles sharing a shape have in common: the board's size and holes."""
    return (puzzle.rows, puzzle.cols, puzzle.walls)


def _code_bits(puzzle: Puzzle) -> int:
    """Bits of a colour code that number every colour of the puzzle."""
    return max(1, (len(puzzle.colors) - 1).bit_length())


def expect(puzzles: Iterable[Puzzle]) -> None:
    """Tell the solver the puzzles a batch will bring, before solving them one by one: a board shape
    that comes more than once shares one solver from its first puzzle on (see _ShapeCache.expect)."""
    _SHAPES.expect(puzzles)


def forget_shapes() -> None:
    """Free every kept shape solver and forget the shapes seen: the next solve is a lone one again
    (a benchmark timing single solves, a long-lived caller done with a batch)."""
    _SHAPES.clear()


class _CollectorPause:
    """Pauses Python's cycle collector while any thread builds a CNF, and restores it after the last.

    Building makes ~10^4-10^6 small lists that hold no cycle, and the collector's passes over them
    took a fifth of the build. Threads may build at once (the phone page, tests), so one count under
    a lock decides when the collector comes back, and only if it was on before the first pause.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._builders = 0
        self._was_on = False

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The collector is off inside the block (unless a caller had it off, it is on again after)."""
        with self._lock:
            if self._builders == 0:
                self._was_on = gc.isenabled()
                gc.disable()
            self._builders += 1
        try:
            yield
        finally:
            with self._lock:
                self._builders -= 1
                if self._builders == 0 and self._was_on:
                    gc.enable()


_COLLECTOR = _CollectorPause()


def _codes_at_least(k: int, width: int) -> list[list[tuple[int, int]]]:
    """Cubes (bit, value) covering every code from k up to 2**width - 1: the codes no colour has."""
    if k >= 1 << width:
        return []
    cubes = [[(b, (k >> b) & 1) for b in range(width)]]  # k itself
    for b in range(width):
        if not (k >> b) & 1:
            # Same bits as k above b, a 1 where k has 0: every such code is larger than k.
            cubes.append([(b, 1)] + [(high, (k >> high) & 1) for high in range(b + 1, width)])
    return cubes


def solve(
    puzzle: Puzzle,
    *,
    unique: bool = False,
    timeout: float | None = None,
    allow_touching: bool = True,
    colors: ColorEncoding = "binary",
    search: bool = True,
) -> SolveResult:
    """Solve a puzzle: strict Flow rules first, then (if allowed) paths that touch themselves.

    `colors` picks how cell colours are encoded; binary (the default) measured faster on every
    corpus set (`flowbot bench --colors one-hot` reruns the comparison). A small square board is
    first searched exactly (flowbot.solve.search) unless `search` is False; the SAT solver takes it
    when that search runs out of steps.
    """
    if timeout is not None and timeout <= 0:
        raise SolveError(f"timeout must be positive, got {timeout}")
    if colors not in ("binary", "one-hot"):
        raise SolveError(f"unknown colour encoding {colors!r} (binary or one-hot)")
    spent = 0.0
    if search and searchable(puzzle):
        searched_at = time.perf_counter()
        result = _searched(puzzle, unique=unique, allow_touching=allow_touching, timeout=timeout)
        spent = time.perf_counter() - searched_at
        if result is not None:
            return replace(result, seconds=spent)
    _backend()  # loaded before the clock starts: solve time should not include the import
    started = time.perf_counter() - spent
    deadline = _Deadline(None if timeout is None else timeout - spent)
    binary = colors == "binary"
    result = _solve_with(puzzle, strict=True, unique=unique, deadline=deadline, binary=binary)
    if result.status == "unsolvable" and allow_touching:
        relaxed = _solve_with(puzzle, strict=False, unique=unique, deadline=deadline, binary=binary)
        if relaxed.status != "unsolvable":
            result = relaxed
    return replace(result, seconds=time.perf_counter() - started)


def _searched(
    puzzle: Puzzle, *, unique: bool, allow_touching: bool, timeout: float | None
) -> SolveResult | None:
    """The exact search's answer under the SAT solve's rules (strict first, then paths that touch
    themselves if allowed), or None when it ran out of steps and proved nothing."""
    budget = Budget(end=None if timeout is None else time.perf_counter() + timeout)
    for strict in (True, False) if allow_touching else (True,):
        try:
            found = find_solutions(puzzle, strict=strict, limit=2 if unique else 1, budget=budget)
        except OutOfBudget:
            return None
        except OutOfTime:
            return SolveResult("timeout", strict=strict)
        if found:
            is_unique = len(found) == 1 if unique else None
            return SolveResult("solved", Solution(puzzle, found[0]), is_unique, strict)
    return SolveResult("unsolvable", strict=True)


def _backend():
    """The glucose4 solver class, imported on first use (flowbot.solve.glucose, or pysat's Solver)."""
    from flowbot.solve.glucose import solver_class

    return solver_class()


def _solve_with(
    puzzle: Puzzle, *, strict: bool, unique: bool, deadline: _Deadline, binary: bool
) -> SolveResult:
    """Solve under one rule set; with `unique`, block the first solution and look for another."""
    # The collector stays paused while the clause lists live (loading and searching make few
    # objects, but each pass of the collector would walk every clause list).
    with _COLLECTOR.paused():
        return _solve_paused(puzzle, strict=strict, unique=unique, deadline=deadline, binary=binary)


def _solve_paused(
    puzzle: Puzzle, *, strict: bool, unique: bool, deadline: _Deadline, binary: bool
) -> SolveResult:
    """_solve_with's work, with the cycle collector paused."""
    if strict and binary and _Shape.fits(puzzle):
        key, shape, solver = _SHAPES.take(puzzle)
        if shape is not None:
            return _solve_on_shape(puzzle, key, shape, solver, unique=unique, deadline=deadline)
    encoding = _Encoding(puzzle, strict, binary)
    sizes = {"variables": encoding.variables, "clauses": len(encoding.clauses)}
    if encoding.trivially_unsat:
        return SolveResult("unsolvable", strict=strict, **sizes)
    with _solver(encoding.clauses) as solver:
        return _answer(_Search(solver, encoding, deadline), puzzle, strict, unique, sizes)


def _solve_on_shape(
    puzzle: Puzzle, key: tuple, shape: _Shape, solver, *, unique: bool, deadline: _Deadline
) -> SolveResult:
    """Solve strictly on a shape's shared solver, and give the solver back unless the solve failed."""
    sizes = {"variables": shape.variables, "clauses": shape.clause_count}
    if shape.isolated:
        _SHAPES.give_back(key, shape, solver)
        return SolveResult("unsolvable", strict=True, **sizes)
    search = _Search(solver, _ShapeView(shape, puzzle), deadline)
    try:
        result = _answer(search, puzzle, True, unique, sizes)
    except BaseException:
        _free(solver)  # stopped part-way (Ctrl-C, an error): never reused
        raise
    if result.status == "timeout":
        _free(solver)  # interrupted: a fresh one is built next time rather than trust this one
    else:
        _SHAPES.give_back(key, shape, solver)
    return result


def _answer(
    search: _Search, puzzle: Puzzle, strict: bool, unique: bool, sizes: dict[str, int]
) -> SolveResult:
    """The first solution, and with `unique` whether another exists, as a SolveResult."""
    solution = None
    try:
        paths = search.next_solution()
        if paths is None:
            return SolveResult("unsolvable", strict=strict, **search.counts(), **sizes)
        solution = Solution(puzzle, tuple(paths))
        is_unique = None
        if unique:
            search.block_last()
            is_unique = search.next_solution() is None
            search.unblock()
    except _TimedOut:
        # A solution found before the deadline is kept; only the uniqueness check ran out.
        return SolveResult("timeout", solution, None, strict, **search.counts(), **sizes)
    return SolveResult("solved", solution, is_unique, strict, **search.counts(), **sizes)


# Clauses handed to the solver at once while Ctrl-C is held back: small enough to answer it quickly.
_CLAUSE_CHUNK = 20_000


@contextlib.contextmanager
def _solver(clauses: Sequence[list[int]]) -> Iterator:
    """A solver holding `clauses` (see _new_solver), freed on the way out."""
    solver = _new_solver(clauses)
    try:
        yield solver
    finally:
        _free(solver)


def _new_solver(clauses: Sequence[list[int]], incremental: bool = False):
    """A pysat solver holding `clauses`, never changed while Ctrl-C lands; `incremental` for one that
    answers many calls under assumptions (a shape's: 24% less search on janko, none gained on a
    puzzle's own CNF).

    pysat's C code is not safe to leave half-way (a solver interrupted while being filled crashed
    when freed), so each change runs with Ctrl-C held back and raised right after, between changes.
    """
    with _interrupts_held():
        solver = _backend()(name=SOLVER_NAME, incr=incremental)
    try:
        for start in range(0, len(clauses), _CLAUSE_CHUNK):
            with _interrupts_held():
                solver.append_formula(clauses[start : start + _CLAUSE_CHUNK])
    except BaseException:
        _free(solver)
        raise
    return solver


def _free(solver) -> None:
    """Free a solver's C memory, with Ctrl-C held back."""
    with _interrupts_held():
        solver.delete()


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) for the block and raise KeyboardInterrupt after it, if one came.

    Only the main thread receives Python signal handlers; elsewhere the block simply runs.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        yield  # someone else (a test runner, the terminal game) handles Ctrl-C: leave it to them
        return
    came: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if came:
        raise KeyboardInterrupt


class _TimedOut(Exception):
    """The deadline passed during a SAT call."""


class _Search:
    """Repeated SAT calls on one incremental solver: loop cuts and blocked solutions accumulate."""

    def __init__(self, solver, encoding: _Encoding | _ShapeView, deadline: _Deadline) -> None:
        self.solver = solver
        self.encoding = encoding
        self.deadline = deadline
        self.cuts = 0
        self.touch_cuts = 0
        # A puzzle on a shared shape is assumptions; its blocking clause is kept to it by a guard.
        self.assumptions: list[int] = list(encoding.assumptions)
        self.guard = 0

    def next_solution(self) -> list[tuple[Cell, ...]] | None:
        """The paths of the next loop-free model, or None when there is none; raises _TimedOut."""
        while True:
            satisfiable = self._run()
            if not satisfiable:
                return None
            paths, cycles, touching = self.encoding.read(self.solver.get_model())
            if touching:
                with _interrupts_held():
                    self.solver.append_formula(touching)  # these cells never touch this way again
                self.touch_cuts += len(touching)
                continue
            if not cycles:
                return paths
            for cycle in cycles:
                with _interrupts_held():
                    self.solver.add_clause([-var for var in cycle])  # this loop never comes back
                self.cuts += 1

    def counts(self) -> dict[str, int]:
        """The clauses added while searching: loops cut and side-by-side pairs banned."""
        return {"loop_cuts": self.cuts, "touch_cuts": self.touch_cuts}

    def block_last(self) -> None:
        """Rule out the paths found last: any other solution leaves out at least one of their edges."""
        edge_var = self.encoding.edge_var
        used = [edge_var[pair] for path in self.encoding.node_paths for pair in pairwise(path)]
        clause = [-var for var in used]
        if self.assumptions:
            # On a shared solver the clause holds only while its guard is assumed (see unblock).
            self.guard = self.encoding.shape.new_variable()
            clause.append(-self.guard)
            self.assumptions = [*self.assumptions, self.guard]
        with _interrupts_held():
            self.solver.add_clause(clause)

    def unblock(self) -> None:
        """Retire block_last's clause on a shared solver: its guard is false from now on."""
        if self.guard:
            self.assumptions = self.assumptions[:-1]
            with _interrupts_held():
                self.solver.add_clause([-self.guard])
            self.guard = 0

    def _run(self) -> bool:
        """One SAT call that stops at the deadline, or at Ctrl-C, by interrupting the solver."""
        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            raise _TimedOut
        # Most calls end within a small budget: made right here they cost no thread (about 700 us a
        # call on a busy machine), and a Ctrl-C meanwhile is raised the moment the budget runs out.
        self.solver.conf_budget(_QUICK_CONFLICTS)
        self.solver.prop_budget(_QUICK_PROPAGATIONS)
        try:
            satisfiable = _limited(self.solver, self.assumptions)
        finally:
            self.solver.conf_budget(-1)  # -1: no budget
            self.solver.prop_budget(-1)
        if satisfiable is not None:
            return satisfiable
        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            raise _TimedOut
        satisfiable = interruptible_call(self.solver, remaining, self.assumptions)
        if satisfiable is None:
            raise _TimedOut
        return satisfiable


# The budget of a SAT call made on the calling thread before a long one moves to a worker thread:
# a few milliseconds of search on any board.
_QUICK_CONFLICTS = 2_000
_QUICK_PROPAGATIONS = 1_000_000

# How often the waiting thread wakes while a SAT call runs: signal handlers run only between waits.
_WAKE_SECONDS = 0.25


def _limited(solver, assumptions: list[int]) -> bool | None:
    """`solver.solve_limited` under the assumptions, interruptible (no keyword for none: test doubles)."""
    if assumptions:
        return solver.solve_limited(assumptions, expect_interrupt=True)
    return solver.solve_limited(expect_interrupt=True)


def interruptible_call(solver, seconds: float | None, assumptions: list[int] = ()) -> bool | None:
    """`solver.solve_limited()` in a worker thread, interrupted after `seconds` (None: no limit).

    The calling thread only waits, so Ctrl-C reaches it at once: the solver is interrupted, the worker
    is waited for, and KeyboardInterrupt goes on up (pysat's own SIGINT handling, used by a plain
    solve() on the main thread, raises its internal `pysolvers.error` instead). None when interrupted
    at the deadline.
    """
    call = _SatCall(solver, list(assumptions))
    end = None if seconds is None else time.perf_counter() + seconds
    worker = threading.Thread(target=call.work, name="flowbot-sat", daemon=True)
    try:
        # start() waits for the thread and can itself be interrupted: it is inside the try too.
        worker.start()
        while not call.done.is_set():
            wait = _WAKE_SECONDS if end is None else min(_WAKE_SECONDS, end - time.perf_counter())
            if wait <= 0:
                solver.interrupt()
                call.done.wait()
                break
            call.done.wait(wait)
    except BaseException:
        # Ctrl-C (or any other exception) while waiting: the solver must not be freed while the
        # worker is inside it, so stop it and wait for it.
        call.cancel()
        raise
    finally:
        if call.done.is_set():
            solver.clear_interrupt()
    if call.error is not None:
        raise call.error
    return call.value


class _SatCall:
    """One SAT call shared by the worker that makes it and the thread that waits for it."""

    def __init__(self, solver, assumptions: list[int] | None = None) -> None:
        self.solver = solver
        self.assumptions = assumptions or []
        self.done = threading.Event()
        self.value: bool | None = None
        self.error: BaseException | None = None
        self._lock = threading.Lock()
        self._cancelled = False
        self._entered = False

    def work(self) -> None:
        """Run the SAT call (unless cancelled first) and note its answer or error."""
        with self._lock:
            if self._cancelled:
                self.done.set()
                return
            self._entered = True
        try:
            self.value = _limited(self.solver, self.assumptions)
        except BaseException as error:  # handed to the waiting thread, which raises it
            self.error = error
        finally:
            self.done.set()

    def cancel(self) -> None:
        """Make sure the worker is out of the solver: it never enters, or it is interrupted and waited for.

        A worker may not have run yet when the wait is cut short (even inside Thread.start()), so
        whether it is inside the solver is decided under the lock, not by Thread.is_alive().
        """
        with self._lock:
            self._cancelled = True
            entered = self._entered
        if not entered:
            return
        self.solver.interrupt()
        while not self.done.is_set():
            try:
                self.done.wait(_WAKE_SECONDS)
            except KeyboardInterrupt:  # pressed again: keep waiting, the solver stops within moments
                self.solver.interrupt()


def _edge_grid(rows: int, cols: int, cells, edges) -> tuple[int, list[int], list[int], list[int]]:
    """Cells by position on a grid with a border two cells wide (so every step stays inside it: list
    lookups instead of dict lookups of (row, col) tuples, in the hot loops of the corner clauses):
    the row length, each cell's position, and right[p] / down[p], the edge (numbered from 1) from p to
    p + 1 / p + pad (0: none)."""
    pad = cols + 4
    size = (rows + 4) * pad
    position = [(row + 2) * pad + col + 2 for row, col in cells]
    right, down = [0] * size, [0] * size
    for e, (i, j) in enumerate(edges, start=1):
        p = position[i]
        if position[j] == p + 1:
            right[p] = e
        else:
            down[p] = e
    return pad, position, right, down
