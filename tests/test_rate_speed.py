"""The rater's shortcuts: work skipped only where its result is known, and the same result as doing it."""

from __future__ import annotations

import random

from flowbot.generate.levels import to_puzzle
from flowbot.generate.lines import grow
from flowbot.rate import propagate
from flowbot.rate.human import OFF, UNKNOWN, Board, State, flood


def settled_state(seed: int, size: int = 8, colors: int = 7) -> State:
    """The state of a grown level once the cheap rules have run to the end."""
    paths = grow(size, size, colors, random.Random(seed))
    state = State(Board.of(to_puzzle(paths, size, size)[0]))
    propagate.settle(state)
    return state


def count_floods(monkeypatch) -> list[int]:
    """Count the floods propagate makes from now on."""
    calls = []

    def counted(*args):
        calls.append(1)
        return flood(*args)

    monkeypatch.setattr(propagate, "flood", counted)
    return calls


def fresh_reach(state: State, color: int) -> int:
    """What a colour reaches, flooded from scratch."""
    a = state.board.ends[color][0]
    return flood(state.board.bit[a], state.cmask[color], (state.across, state.down), state.board.stride)


def test_a_reach_is_not_flooded_again_when_nothing_it_looked_at_changed(monkeypatch):
    state = settled_state(1)
    floods = count_floods(monkeypatch)
    every_cell = list(range(len(state.board.cells)))
    assert propagate._reach_all(state, every_cell) == []  # every cell touched, none changed
    assert floods == []


def test_a_reach_is_flooded_again_when_a_way_in_it_closes(monkeypatch):
    tried = 0
    for seed in range(12):
        state = settled_state(seed, 10, 7)
        open_edges = [e for e, value in enumerate(state.edge) if value == UNKNOWN]
        if not open_edges:
            continue  # the cheap rules alone finished this one
        e = random.Random(seed).choice(open_edges)
        i, j = state.board.edges[e]
        floods = count_floods(monkeypatch)
        trial = state.copy()
        trial.set_edge(e, OFF)
        try:
            propagate._reach_all(trial, [i, j])
        except propagate.Contradiction:
            continue
        tried += 1
        assert floods  # the closed way was inside some colour's reach
        for color in range(len(trial.board.ends)):
            assert trial.reach[color][0] == fresh_reach(trial, color)
    assert tried >= 3
