"""Where a solve's time goes, stage by stage: building the CNF, loading it, the SAT search, reading back.

Compares branches fairly on a busy machine: run the old and the new tree in turn, in the same minute,
and compare medians (the first line of each report), e.g.

    PYTHONPATH=/tmp/old .venv/bin/python scripts/bench_cnf.py --set janko
    PYTHONPATH=$PWD .venv/bin/python scripts/bench_cnf.py --set janko

Each stage is summed over every puzzle of the set (strict rules, binary colours, as `solve` runs
first); the figure shown is the median over --repeat rounds. The clock is this process's CPU time by
default: on a machine shared with other work it stays steady where wall time swings 2-3x.
"""

from __future__ import annotations

import argparse
import statistics
import time

from flowbot.errors import FlowbotError
from flowbot.formats import load_puzzles
from flowbot.modes.bench import CORPUS_SETS, corpus_paths
from flowbot.solve.sat import _Deadline, _Encoding, _Search, _solver

STAGES = ("build", "load", "search", "total")


def time_stages(puzzles: list, clock=time.process_time) -> dict[str, float]:
    """Seconds spent in each stage over all `puzzles`, one strict solve each."""
    spent = dict.fromkeys(STAGES, 0.0)
    for puzzle in puzzles:
        started = clock()
        encoding = _Encoding(puzzle, True, True)
        built = clock()
        spent["build"] += built - started
        if encoding.trivially_unsat:
            continue
        with _solver(encoding.clauses) as solver:
            loaded = clock()
            spent["load"] += loaded - built
            _Search(solver, encoding, _Deadline(None)).next_solution()
            spent["search"] += clock() - loaded
    spent["total"] = sum(spent[stage] for stage in STAGES[:-1])
    return spent


def main() -> None:
    """Time each stage of a strict solve over a corpus set, median of --repeat rounds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=(*CORPUS_SETS, "all"), default="janko")
    parser.add_argument("--file", action="append", help="puzzle files to time instead of a set")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    puzzles = []
    for path in args.file or corpus_paths(args.set):
        try:
            puzzles.extend(load_puzzles(path))
        except FlowbotError as error:  # a benchmark skips what it cannot read, and says so
            print(f"skipped: {error}")
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rounds = [time_stages(puzzles, clock) for _ in range(args.repeat)]
    clauses = sum(len(_Encoding(puzzle, True, True).clauses) for puzzle in puzzles)
    medians = {stage: statistics.median(r[stage] for r in rounds) for stage in STAGES}
    shares = "  ".join(f"{stage} {medians[stage] * 1000:.0f} ms" for stage in STAGES)
    heading = f"{len(puzzles)} puzzles ({'files' if args.file else args.set}), {clauses} clauses"
    print(f"{heading}, {args.clock} median of {args.repeat}: {shares}")


if __name__ == "__main__":
    main()
