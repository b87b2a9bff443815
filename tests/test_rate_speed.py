"""The rater's shortcuts: work skipped only where its result is known, and the same result as doing it."""

from __future__ import annotations

import random

from flowbot.generate.levels import to_puzzle
from flowbot.generate.lines import grow
from flowbot.model import Puzzle
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
    return count_floods_in(monkeypatch, propagate)


def count_floods_in(monkeypatch, module) -> list[int]:
    """Count the floods a module makes from now on."""
    calls = []

    def counted(*args):
        calls.append(1)
        return flood(*args)

    monkeypatch.setattr(module, "flood", counted)
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


def test_flood_reaches_what_a_step_by_step_search_reaches():
    rng = random.Random(5)
    for _ in range(300):
        rows, cols = rng.randint(2, 12), rng.randint(2, 12)
        stride = cols + 1
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        allowed = sum(1 << (r * stride + c) for r, c in cells if rng.random() < 0.8)
        across = sum(1 << (r * stride + c) for r, c in cells if c + 1 < cols and rng.random() < 0.7)
        down = sum(1 << (r * stride + c) for r, c in cells if r + 1 < rows and rng.random() < 0.7)
        r, c = rng.choice(cells)
        start = 1 << (r * stride + c)
        seen, todo = {(r, c)}, [(r, c)]
        while todo:
            r, c = todo.pop()
            at = r * stride + c
            steps = [
                ((r, c + 1), across >> at & 1),
                ((r, c - 1), c > 0 and across >> (at - 1) & 1),
                ((r + 1, c), down >> at & 1),
                ((r - 1, c), r > 0 and down >> (at - stride) & 1),
            ]
            for (r2, c2), way in steps:
                if way and (r2, c2) not in seen and allowed >> (r2 * stride + c2) & 1:
                    seen.add((r2, c2))
                    todo.append((r2, c2))
        expected = start | sum(1 << (r * stride + c) for r, c in seen)
        assert flood(start, allowed, (across, down), stride) == expected


def test_a_colour_with_a_way_round_its_whole_route_costs_one_flood(monkeypatch):
    # An open 4x4 board: every colour has ways round any one cell, so no cell separates its ends.
    puzzle = Puzzle.from_rows(["A..B", "....", "....", "B..A"])
    state = State(Board.of(puzzle))
    floods = count_floods_in(monkeypatch, human)
    assert human.bottleneck(state) == [] and human.must_pass(state) == []
    assert len(floods) == 2 * len(puzzle.colors)  # one a colour a rule, not one per cell of the route


def test_the_cells_that_separate_a_colours_ends_are_each_found():
    for seed in range(6):
        for state in states_before_a_supposition([seed], size=7, colors=6):
            ways = human.open_ways(state)
            for color, (a, b) in enumerate(state.board.ends):
                allowed = state.cmask[color]
                cells = [i for i in range(len(state.board.cells)) if i not in (a, b)]
                expected = {
                    i for i in cells if not human._reach(state, a, allowed, i, ways) & state.board.bit[b]
                }
                assert human._separating(state, a, b, cells, allowed, ways) == expected
