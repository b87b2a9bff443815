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
    need, links, corners, edges = board.need, board.links, board.corners, board.edges
    set_edge, restrict = state.set_edge, state.restrict
    queued = bytearray(len(board.cells))
    for i in queue:
        queued[i] = 1
    # Pushing a changed cell (count it, stop past the limit, queue it) is written out in place below:
    # it runs millions of times in a rating, and a call per push cost a tenth of the rater's time.
    done, limit = count
    try:
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
                            set_edge(e, OFF)
                            pushed = (i, j)
                        else:
                            pushed = (i, j, tail[i], tail[j])
                            set_edge(e, ON)
                        for k in pushed:
                            done += 1
                            if limit and done > limit:
                                raise TooLong
                            changed.append(k)
                            if not queued[k]:
                                queued[k] = 1
                                queue.append(k)
            dom = domain[i]
            single = dom & (dom - 1) == 0
            for e, j in links[i]:
                state_e = edge[e]
                other = domain[j]
                if state_e == ON:
                    if other != dom:
                        shared = dom & other
                        for k in (i, j):
                            if restrict(k, shared):
                                done += 1
                                if limit and done > limit:
                                    raise TooLong
                                changed.append(k)
                                if not queued[k]:
                                    queued[k] = 1
                                    queue.append(k)
                        dom = domain[i]
                        single = dom & (dom - 1) == 0
                    continue
                if state_e == UNKNOWN:
                    if not dom & other or tail[i] == j:
                        set_edge(e, OFF)  # different colours, or the join would close a loop
                        pushed = (i, j)
                    elif single and dom == other:
                        pushed = (i, j, tail[i], tail[j])
                        set_edge(e, ON)  # one colour side by side: a path never runs alongside itself
                    else:
                        continue
                elif single and other & dom:
                    if not restrict(j, other & ~dom):
                        continue
                    pushed = (j,)
                elif other & (other - 1) == 0 and dom & other:
                    changed_i = restrict(i, dom & ~other)
                    dom = domain[i]
                    single = dom & (dom - 1) == 0
                    if not changed_i:
                        continue
                    pushed = (i,)
                else:
                    continue
                for k in pushed:
                    done += 1
                    if limit and done > limit:
                        raise TooLong
                    changed.append(k)
                    if not queued[k]:
                        queued[k] = 1
                        queue.append(k)
            if on[i] == 2 and corners[i]:
                for arm_a, arm_b, inner_a, inner_b in corners[i]:
                    if edge[arm_a] == ON and edge[arm_b] == ON:
                        for inner in (inner_a, inner_b):
                            if edge[inner] == UNKNOWN:
                                set_edge(inner, OFF)  # the cell inside a turn would touch it
                                for k in edges[inner]:
                                    done += 1
                                    if limit and done > limit:
                                        raise TooLong
                                    changed.append(k)
                                    if not queued[k]:
                                        queued[k] = 1
                                        queue.append(k)
    finally:
        count[0] = done


def _reach_all(state: State, touched: list[int]) -> list[int]:
    """Drop each colour from the cells it cannot reach; the cells that changed. A colour whose last
    reach holds none of the touched cells reaches the same cells still (reach only shrinks); nor need
    it be flooded again when no cell or way in or beside that reach changed since (a change there is
    often to another colour's cells, or a join, which leaves every colour's reach as it was)."""
    board, cache, cmask, bit = state.board, state.reach, state.cmask, state.board.bit
    across, down = state.across, state.down
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
            moved = (was_across ^ across) | (was_down ^ down)
            if ((allowed ^ cmask[color]) | board.ways_cells(moved)) & around:
                last = None
        if last is None:
            # After the local rules a full cell has no open edges left, so the edges not ruled out are
            # exactly the ways a path may take.
            reached = flood(bit[a], cmask[color], (across, down), board.stride, board.graph_links)
            cache[color] = (reached, board.beside(reached), cmask[color], across, down)
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
            reached = flood(bit[a], cmask[color], ways, board.stride, board.graph_links)
            cache[color] = (reached, board.beside(reached), cmask[color], *ways)
