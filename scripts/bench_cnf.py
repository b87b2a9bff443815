"""Where a solve's time goes, stage by stage: building the CNF, loading it, and the search with reading back.

Compares fairly on a busy machine: run the two in turn, in the same minute, and compare medians,
e.g. shared shapes against a CNF per puzzle in this tree, or against an older tree's own script
(whose stages were split around its own solve path):

    PYTHONPATH=$PWD .venv/bin/python scripts/bench_cnf.py --set janko
    PYTHONPATH=$PWD .venv/bin/python scripts/bench_cnf.py --set janko --alone
    PYTHONPATH=$PWD .venv/bin/python scripts/bench_cnf.py --set janko --own-cnf
    PYTHONPATH=/tmp/old .venv/bin/python /tmp/old/scripts/bench_cnf.py --set janko

Each round solves every puzzle of the set in turn as `solve` does in one process (strict rules, binary
colours, SAT only, the batch told to the solver first: a puzzle on a board shape the set brings more
than once is assumptions on that shape's solver, see docs/solving.md); `--alone` solves them as single
calls do (a shape's first puzzle has its own CNF); `--own-cnf` gives every puzzle its own CNF. Build is
the time spent making CNFs (a puzzle's or a shape's), load the time handing them to the SAT solver,
search the rest of the solve (SAT calls, reading models back, cuts). The figure shown is the median
over --repeat rounds. The clock is this process's CPU time by default: on a machine shared with other
work it stays steady where wall time swings 2-3x.

`--profile N` runs one more round under cProfile after the timed ones and prints the N functions with
the most time of their own (glucose's search is `pysolvers.glucose41_solve_lim`, loading
`append_formula`): where the time outside the search goes, function by function. A profiled round runs
2x slower than an unprofiled one; compare its shares, not its seconds.

    PYTHONPATH=$PWD .venv/bin/python scripts/bench_cnf.py --set janko --repeat 3 --profile 25
"""

from __future__ import annotations

import argparse
import statistics
import time

from flowbot.errors import FlowbotError
from flowbot.formats import load_puzzles
from flowbot.modes.bench import CORPUS_SETS, corpus_paths
from flowbot.solve import sat

STAGES = ("build", "load", "search", "total")


def time_stages(
    puzzles: list, clock=time.process_time, own_cnf: bool = False, alone: bool = False
) -> tuple[dict[str, float], int]:
    """Seconds spent in each stage over all `puzzles` (one strict SAT solve each, from no shape seen),
    and the clauses loaded."""
    spent = dict.fromkeys(STAGES, 0.0)
    loaded = [0]
    saved = sat._Encoding.__init__, sat._Shape.__init__, sat._new_solver, sat.SHAPE_MAX_CELLS

    def timed(stage, function):
        """`function`, its time added to `stage`."""

        def run(*args, **options):
            started = clock()
            try:
                return function(*args, **options)
            finally:
                spent[stage] += clock() - started

        return run

    def load(clauses, **options):
        loaded[0] += len(clauses)
        return saved[2](clauses, **options)

    sat.forget_shapes()
    sat._Encoding.__init__ = timed("build", saved[0])
    sat._Shape.__init__ = timed("build", saved[1])
    sat._new_solver = timed("load", load)
    if own_cnf:
        sat.SHAPE_MAX_CELLS = 0
    try:
        started = clock()
        if not alone:
            sat.expect(puzzles)  # as `flowbot solve` tells its batch
        for puzzle in puzzles:
            sat.solve(puzzle, allow_touching=False, search=False)
        spent["total"] = clock() - started
    finally:
        sat._Encoding.__init__, sat._Shape.__init__, sat._new_solver, sat.SHAPE_MAX_CELLS = saved
        sat.forget_shapes()
    spent["search"] = spent["total"] - spent["build"] - spent["load"]
    return spent, loaded[0]


def main() -> None:
    """Time each stage of a strict solve over a corpus set, median of --repeat rounds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=(*CORPUS_SETS, "all"), default="janko")
    parser.add_argument("--file", action="append", help="puzzle files to time instead of a set")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--own-cnf", action="store_true", help="every puzzle its own CNF (no shared shapes)")
    parser.add_argument("--alone", action="store_true", help="each a single call (the batch not told first)")
    parser.add_argument("--profile", type=int, metavar="N", help="then profile a round: top N functions")
    args = parser.parse_args()
    puzzles = []
    for path in args.file or corpus_paths(args.set):
        try:
            puzzles.extend(load_puzzles(path))
        except FlowbotError as error:  # a benchmark skips what it cannot read, and says so
            print(f"skipped: {error}")
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rounds = [time_stages(puzzles, clock, args.own_cnf, args.alone) for _ in range(args.repeat)]
    medians = {stage: statistics.median(spent[stage] for spent, _ in rounds) for stage in STAGES}
    shares = "  ".join(f"{stage} {medians[stage] * 1000:.0f} ms" for stage in STAGES)
    how = "own CNFs" if args.own_cnf else "shared shapes" + (", each alone" if args.alone else "")
    heading = (
        f"{len(puzzles)} puzzles ({'files' if args.file else args.set}, {how}), {rounds[0][1]} clauses loaded"
    )
    print(f"{heading}, {args.clock} median of {args.repeat}: {shares}")
    if args.profile:
        profile_round(puzzles, args.own_cnf, args.alone, args.profile)


def profile_round(puzzles: list, own_cnf: bool, alone: bool, top: int) -> None:
    """One more round of the same solves under cProfile; print the `top` functions by their own time."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.runcall(time_stages, puzzles, time.process_time, own_cnf, alone)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


if __name__ == "__main__":
    main()
