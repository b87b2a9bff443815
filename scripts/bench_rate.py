"""Time the human-style rater on the real Flow Free levels: seconds per level by size, whether
deduction alone finishes each, and (with --check) that every step agrees with the unique solution.

    .venv/bin/python scripts/bench_rate.py                # the 28 real levels the rater is measured on
    .venv/bin/python scripts/bench_rate.py --all-real     # also the other real Flow levels of the corpus
    .venv/bin/python scripts/bench_rate.py --check --json

Reads ../shared/corpus (the folder beside the repository) unless --corpus says otherwise.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from flowbot.formats import load_puzzles
from flowbot.rate.human import Board
from flowbot.rate.score import rate
from flowbot.rate.truth import Truth
from flowbot.solve.sat import solve

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS, help="the corpus folder (default ../shared/corpus)"
    )
    parser.add_argument(
        "--all-real", action="store_true", help="also rate inputs1 (8x8) and the ksavill levels"
    )
    parser.add_argument("--check", action="store_true", help="check every step against the SAT solution")
    parser.add_argument("--json", action="store_true", help="one JSON line per level, then a summary line")
    return parser.parse_args(argv)


def real_levels(corpus: Path, every: bool) -> list[tuple[str, object]]:
    """(name, puzzle) for the 28 mzucker levels, and with `every` the other real Flow levels."""
    folder = corpus / "mzucker__flow_solver" / "puzzles"
    levels = [(path.stem, load_puzzles(path)[0]) for path in sorted(folder.glob("*.txt"))]
    levels = [(name, puzzle) for name, puzzle in levels if not name.startswith("unsolvable")]
    if every:
        inputs1 = corpus / "thomasahle__numberlink" / "puzzles" / "inputs1"
        if inputs1.exists():
            levels += [(f"inputs1 #{n}", p) for n, p in enumerate(load_puzzles(inputs1))]
        for path in sorted((corpus / "ksavill__flow-free-solver-v2").rglob("*.flow")):
            levels += [(f"ksavill {path.relative_to(corpus).as_posix()}", load_puzzles(path)[0])]
    return levels


def main(argv: list[str] | None = None) -> int:
    """Rate every level and print the figures."""
    args = parse_args(argv)
    if not args.corpus.is_dir():
        print(f"bench_rate: no corpus at {args.corpus}", file=sys.stderr)
        return 2
    by_size: dict[str, list[float]] = defaultdict(list)
    finished, wrong, unsolvable = 0, 0, 0
    levels = real_levels(args.corpus, args.all_real)
    for name, puzzle in levels:
        result = solve(puzzle, unique=False, allow_touching=False) if args.check or args.all_real else None
        if result is not None and result.status != "solved":
            unsolvable += 1  # a few ksavill files were read wrongly from screenshots: no strict solution
            continue
        rating = rate(puzzle)
        by_size[puzzle.size].append(rating.seconds)
        finished += rating.solved
        bad = 0
        if args.check:
            truth = Truth.of(Board.of(puzzle), result.solution)
            bad = sum(not truth.agrees(move) for step in rating.steps for move in step.moves)
            wrong += bad > 0
        record = {
            "level": name,
            "size": puzzle.size,
            "solved": rating.solved,
            "difficulty": round(rating.difficulty, 1),
            "seconds": round(rating.seconds, 3),
            "open_cells": rating.open_cells,
        }
        if args.check:
            record["wrong_moves"] = bad
        if args.json:
            print(json.dumps(record))
        else:
            verdict = "finished" if rating.solved else f"stuck, {rating.open_cells} cells open"
            check = f", {bad} wrong moves" if args.check else ""
            print(
                f"{name:44} {puzzle.size:7} {rating.difficulty:7.1f} {rating.seconds:7.3f}s {verdict}{check}"
            )
    sizes = {
        size: {
            "levels": len(times),
            "median_s": round(statistics.median(times), 3),
            "max_s": round(max(times), 3),
        }
        for size, times in sorted(by_size.items(), key=lambda item: int(item[0].split("x")[0]))
    }
    rated = sum(len(times) for times in by_size.values())
    summary = {"rated": rated, "finished_by_deduction": finished, "by_size": sizes}
    if args.check:
        summary["levels_with_wrong_moves"] = wrong
    if unsolvable:
        summary["skipped_no_strict_solution"] = unsolvable
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"\ndeduction finishes {finished} of {rated}"
            + (f"; levels with a wrong move: {wrong}" if args.check else "")
        )
        print(f"{'size':7} {'levels':>6} {'median s':>9} {'max s':>7}")
        for size, row in sizes.items():
            print(f"{size:7} {row['levels']:6} {row['median_s']:9.3f} {row['max_s']:7.3f}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
