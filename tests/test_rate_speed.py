"""The rater's shortcuts: work skipped only where its result is known, and the same result as doing it."""

from __future__ import annotations

import random

from flowbot.generate.levels import to_puzzle
from flowbot.generate.lines import grow
from flowbot.rate import human, propagate
from flowbot.rate.human import (
    CHAINS,
    KINDS,
    OFF,
    ON,
    RULES,
    UNKNOWN,
    Board,
    Contradiction,
    State,
    apply,
    flood,
)
from flowbot.rate.score import rate


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


def states_before_a_supposition(seeds, size=9, colors=8):
    """States on which the rater tries suppositions: every cheaper kind of deduction found nothing."""
    for seed in seeds:
        paths = grow(size, size, colors, random.Random(seed))
        state = State(Board.of(to_puzzle(paths, size, size)[0]))
        for _ in range(200):
            for kind in KINDS:
                if kind in CHAINS:
                    yield state.copy()
                moves = RULES[kind](state)
                if moves and apply(state, moves):
                    break
            else:
                break
            if state.solved():
                break


def test_a_supposition_an_earlier_one_implied_never_breaks_a_rule():
    checked = 0
    for state in states_before_a_supposition(range(4)):
        propagate.fill_reach(state)
        known = human._Implied(state, propagate.settle)
        assert known.usable  # the rater's own states are closed under the propagator's rules
        for e in known.open:
            for value in (ON, OFF):
                trial = state.copy()
                try:
                    trial.set_edge(e, value)
                    propagate.settle(trial, list(state.board.edges[e]), limit=CHAINS["contradiction"])
                except (Contradiction, propagate.TooLong):
                    continue
                known.add(trial)
        for e, value in sorted(known.holds):
            trial = state.copy()
            trial.set_edge(e, value)
            propagate.settle(trial, list(state.board.edges[e]))  # no bound: never a Contradiction
            checked += 1
    assert checked > 100


def test_suppositions_an_earlier_one_implied_are_not_tried(monkeypatch):
    paths = grow(9, 9, 8, random.Random(7))
    puzzle = to_puzzle(paths, 9, 9)[0]
    trials = []
    real = propagate.settle

    def counted(state, dirty=None, **options):
        trials.append(dirty)
        return real(state, dirty, **options)

    monkeypatch.setattr(propagate, "settle", counted)
    fast = rate(puzzle)
    tried_fast = len(trials)
    trials.clear()
    monkeypatch.setattr(human._Implied, "add", lambda self, trial: None)
    slow = rate(puzzle)
    assert (fast.difficulty, fast.steps) == (slow.difficulty, slow.steps)
    assert tried_fast < 0.95 * len(trials)
