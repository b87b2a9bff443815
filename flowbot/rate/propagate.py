"""Fast propagation of the cheap rules after one change: what a person checks around a trial move."""

from __future__ import annotations

from flowbot.rate.human import OFF, ON, UNKNOWN, Contradiction, State, _reach, color_name, name


class TooLong(Exception):
    """A trial ran past its bound of moves without settling anything."""


def settle(state: State, dirty: list[int] | None = None, *, reach: bool = True, limit: int = 0) -> int:
    """Apply the local rules around the dirty cells (all cells when None) until nothing changes, then
    check what each colour can still reach; Contradiction when the state breaks a rule, TooLong when
    more than `limit` cells or edges changed (no limit when 0). Returns how many changed."""
    board = state.board
    queue = list(range(len(board.cells))) if dirty is None else list(dirty)
    count = [0, limit]
    while True:
        _local(state, queue, count)
        if not reach:
            return
        queue = _reach_all(state)
        count[0] += len(queue)
        if limit and count[0] > limit:
            raise TooLong
        if not queue:
            return count[0]


def _local(state: State, queue: list[int], count: list[int]) -> None:
    """The local rules, cell by cell from a work list."""
    board, edge, domain, on, open_, tail = state.board, state.edge, state.domain, state.on, state.open, state.tail
    need, links, corners = board.need, board.links, board.corners
    queued = bytearray(len(board.cells))
    for i in queue:
        queued[i] = 1

    def push(i: int) -> None:
        count[0] += 1
        if count[1] and count[0] > count[1]:
            raise TooLong
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


def _reach_all(state: State) -> list[int]:
    """Drop each colour from the cells it cannot reach; the cells that changed."""
    board, domain = state.board, state.domain
    changed = []
    for color, (a, b) in enumerate(board.ends):
        bit = 1 << color
        reached = _reach(state, a, bit)
        if not reached[b]:
            raise Contradiction(f"{color_name(board, color)} could no longer reach its other end")
        for i, mask in enumerate(domain):
            if mask & bit and not reached[i]:
                if mask == bit:
                    raise Contradiction(f"{color_name(board, color)} could no longer reach {name(board, i)}")
                domain[i] = mask & ~bit
                changed.append(i)
    return changed
