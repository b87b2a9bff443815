"""Fast propagation of the cheap rules after one change: what a person checks around a trial move."""

from __future__ import annotations

from flowbot.rate.human import (
    OFF,
    ON,
    UNKNOWN,
    Contradiction,
    State,
    cells_of,
    color_name,
    flood,
    name,
    open_ways,
)


class TooLong(Exception):
    """A trial ran past its bound of moves without settling anything."""


def settle(state: State, dirty: list[int] | None = None, *, reach: bool = True, limit: int = 0) -> int:
    """Apply the local rules around the dirty cells (all cells when None) until nothing changes, then
    check what each colour can still reach; Contradiction when the state breaks a rule, TooLong when
    more than `limit` cells or edges changed (no limit when 0). Returns how many changed."""
    board = state.board
    if dirty is None:
        state.reach = [None] * len(board.ends)
        queue = list(range(len(board.cells)))
    else:
        queue = list(dirty)
    count = [0, limit]
    while True:
        changed = list(queue)
        _local(state, queue, count, changed)
        if not reach:
            return count[0]
        queue = _reach_all(state, changed)
        count[0] += len(queue)
        if limit and count[0] > limit:
            raise TooLong
        if not queue:
            return count[0]


def _local(state: State, queue: list[int], count: list[int], changed: list[int]) -> None:
    """The local rules, cell by cell from a work list."""
    board, edge, domain, on, open_, tail = (
        state.board,
        state.edge,
        state.domain,
        state.on,
        state.open,
        state.tail,
    )
    need, links, corners = board.need, board.links, board.corners
    queued = bytearray(len(board.cells))
    for i in queue:
        queued[i] = 1

    def push(i: int) -> None:
        count[0] += 1
        if count[1] and count[0] > count[1]:
            raise TooLong
        changed.append(i)
        if not queued[i]:
            queued[i] = 1
            queue.append(i)

    def join(e: int, i: int, j: int) -> None:
        fi, fj = tail[i], tail[j]
        state.set_edge(e, ON)
        push(i)
        push(j)
        push(fi)
        push(fj)

    def cut(e: int, i: int, j: int) -> None:
        state.set_edge(e, OFF)
        push(i)
        push(j)

    def narrow(j: int, mask: int) -> None:
        if state.restrict(j, mask):
            push(j)

    while queue:
        i = queue.pop()
        queued[i] = 0
        n_on, n_open, n_need = on[i], open_[i], need[i]
        if n_on > n_need:
            raise Contradiction(f"{name(board, i)} would have more joins than a flow can take")
        if n_on + n_open < n_need:
            raise Contradiction(f"{name(board, i)} would be a dead end")
        if n_open and (n_on == n_need or n_on + n_open == n_need):
            for e, j in links[i]:
                if edge[e] == UNKNOWN:
                    if n_on == n_need:
                        cut(e, i, j)
                    else:
                        join(e, i, j)
        dom = domain[i]
        single = dom & (dom - 1) == 0
        for e, j in links[i]:
            state_e = edge[e]
            other = domain[j]
            if state_e == ON:
                if other != dom:
                    shared = dom & other
                    narrow(i, shared)
                    narrow(j, shared)
                    dom = domain[i]
                    single = dom & (dom - 1) == 0
            elif state_e == UNKNOWN:
                if not dom & other or tail[i] == j:
                    cut(e, i, j)  # different colours, or the join would close a loop
                elif single and dom == other:
                    join(e, i, j)  # one colour side by side: a path never runs alongside itself
            else:
                if single and other & dom:
                    narrow(j, other & ~dom)
                elif other & (other - 1) == 0 and dom & other:
                    narrow(i, dom & ~other)
                    dom = domain[i]
                    single = dom & (dom - 1) == 0
        if on[i] == 2 and corners[i]:
            for arm_a, arm_b, inner_a, inner_b in corners[i]:
                if edge[arm_a] == ON and edge[arm_b] == ON:
                    for inner in (inner_a, inner_b):
                        if edge[inner] == UNKNOWN:
                            a, b = board.edges[inner]
                            cut(inner, a, b)  # the cell inside a turn would touch it


def _reach_all(state: State, touched: list[int]) -> list[int]:
    """Drop each colour from the cells it cannot reach; the cells that changed. A colour whose last
    reach holds none of the touched cells reaches the same cells still (reach only shrinks); nor need
    it be flooded again when no cell or way in or beside that reach changed since (a change there is
    often to another colour's cells, or a join, which leaves every colour's reach as it was)."""
    board, cache, cmask, bit = state.board, state.reach, state.cmask, state.board.bit
    across, down, stride = state.across, state.down, board.stride
    touched_mask = 0
    for i in touched:
        touched_mask |= bit[i]
    changed = []
    for color, (a, b) in enumerate(board.ends):
        last = cache[color]
        if last is not None:
            if not last[0] & touched_mask:
                continue
            reached, around, allowed, was_across, was_down = last
            if ((allowed ^ cmask[color]) | (was_across ^ across) | (was_down ^ down)) & around:
                last = None
        if last is None:
            # After the local rules a full cell has no open edges left, so the edges not ruled out are
            # exactly the ways a path may take.
            reached = flood(bit[a], cmask[color], (across, down), stride)
            cache[color] = (reached, _beside(reached, stride), cmask[color], across, down)
        if not reached & bit[b]:
            raise Contradiction(f"{color_name(board, color)} could no longer reach its other end")
        lost = cmask[color] & ~reached
        if lost:
            keep = ~(1 << color)
            for i in cells_of(board, lost):
                state.restrict(i, keep)  # Contradiction when the cell had no other colour
                changed.append(i)
    return changed


def fill_reach(state: State) -> None:
    """Work out what each colour reaches now, where not yet known, without changing anything else."""
    board, cache, cmask, bit = state.board, state.reach, state.cmask, state.board.bit
    ways = open_ways(state)
    for color, (a, _b) in enumerate(board.ends):
        if cache[color] is None:
            reached = flood(bit[a], cmask[color], ways, board.stride)
            cache[color] = (reached, _beside(reached, board.stride), cmask[color], *ways)


def _beside(reached: int, stride: int) -> int:
    """The cells a flood of `reached` looked at: those reached and their neighbours. A flood from the
    same start with the same cells allowed and ways open among these reaches the same cells."""
    return reached | reached << 1 | reached >> 1 | reached << stride | reached >> stride
