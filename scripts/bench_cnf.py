"""Time building the SAT encoding (no solving): the deterministic part of a solve, steadier than SAT.

Compares branches fairly on a busy machine, e.g. before and after a change to the model or encoding:

    cd /work/main && PYTHONPATH=$PWD .venv/bin/python scripts/bench_cnf.py
    cd /work/wt-X && PYTHONPATH=$PWD /work/main/.venv/bin/python scripts/bench_cnf.py [--set variants]
"""

from __future__ import annotations

import argparse
import time

from flowbot.errors import FlowbotError
from flowbot.formats import load_puzzles
from flowbot.modes.bench import CORPUS_SETS, corpus_paths
from flowbot.solve.sat import _Encoding


def main() -> None:
    """Build every puzzle's strict binary-colour CNF, best of --repeat rounds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=(*CORPUS_SETS, "all"), default="janko")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    puzzles = []
    for path in corpus_paths(args.set):
        try:
            puzzles.extend(load_puzzles(path))
        except FlowbotError as error:  # a benchmark skips what it cannot read, and says so
            print(f"skipped: {error}")
    best = float("inf")
    for _ in range(args.repeat):
        started = time.perf_counter()
        for puzzle in puzzles:
            _Encoding(puzzle, True, True)
        best = min(best, time.perf_counter() - started)
    print(f"{len(puzzles)} puzzles ({args.set}): CNF build, best of {args.repeat}: {best * 1000:.0f} ms")


if __name__ == "__main__":
    main()
