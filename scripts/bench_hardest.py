"""How hard --hardest levels are and how fast the optimizer runs: the rating of the best level of each
run against the real Flow Free levels, and candidates rated per second per core.

    .venv/bin/python scripts/bench_hardest.py                       # 9x9, 3 runs of 2000 candidates
    .venv/bin/python scripts/bench_hardest.py --runs 5 --iterations 500 --size 9x9 --json

The real levels are the corpus's (../shared/corpus): mzucker's 28 (regular, extreme, jumbo) and
thomasahle's inputs1 (ten 8x8 regular levels); without the corpus only the generated side is shown.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from flowbot.formats import load_puzzles
from flowbot.generate.lines import default_colors
from flowbot.generate.optimize import DEFAULT_ITERATIONS, hardest
from flowbot.modes.generate import level_rng, parse_size
from flowbot.rate.score import rate

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="9x9", help="board size (default 9x9)")
    parser.add_argument("--runs", type=int, default=3, help="optimizer runs, seeds 1..N (default 3)")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, help="candidates per run")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the corpus folder")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    return parser.parse_args(argv)


def real_packs(corpus: Path) -> dict[str, list[tuple[str, float]]]:
    """(level, difficulty) of the real levels by pack: regular, extreme, jumbo."""
    packs: dict[str, list[tuple[str, float]]] = {"regular": [], "extreme": [], "jumbo": []}
    folder = corpus / "mzucker__flow_solver" / "puzzles"
    for path in sorted(folder.glob("*.txt")):
        pack = path.stem.split("_")[0]
        if pack in packs:
            packs[pack].append((path.stem, rate(load_puzzles(path)[0]).difficulty))
    inputs1 = corpus / "thomasahle__numberlink" / "puzzles" / "inputs1"
    if inputs1.exists():
        for number, puzzle in enumerate(load_puzzles(inputs1)):
            packs["regular"].append((f"inputs1_8x8_{number}", rate(puzzle).difficulty))
    return packs


def main(argv: list[str] | None = None) -> int:
    """Run the optimizer and print the comparison."""
    args = parse_args(argv)
    rows, cols = parse_size(args.size)
    runs = []
    for seed in range(1, args.runs + 1):
        colors = default_colors(rows, cols, level_rng(seed, 0))
        outcome = hardest(rows, cols, colors, seed, args.iterations, args.workers)
        rating = outcome.level.rating
        runs.append(
            {
                "seed": seed,
                "colors": colors,
                "difficulty": round(rating.difficulty, 1),
                "solved_by_deduction": rating.solved,
                "iterations": outcome.iterations,
                "puzzles_rated": outcome.puzzles,
                "seconds": round(outcome.seconds, 1),
                "workers": outcome.workers,
                "per_second_per_core": round(outcome.per_second_per_core, 2),
                "pool": [round(d, 1) for d in outcome.pool],
                "puzzle": outcome.level.puzzle.to_rows(),
            }
        )
        print(
            f"run {seed}: difficulty {runs[-1]['difficulty']} ({colors} colours), "
            f"{runs[-1]['per_second_per_core']} per second per core "
            f"({outcome.puzzles} of {outcome.iterations} candidates' puzzles rated, the rest repeats)",
            file=sys.stderr,
        )
    packs = real_packs(args.corpus) if args.corpus.is_dir() else {}
    size = f"{rows}x{cols}"
    regular_same_size = [d for name, d in packs.get("regular", []) if size in name]
    extreme = [d for _name, d in packs.get("extreme", [])]
    generated = [run["difficulty"] for run in runs]
    summary = {
        "size": size,
        "generated": generated,
        "per_second_per_core": round(statistics.median(run["per_second_per_core"] for run in runs), 2),
        "real": {pack: sorted(round(d, 1) for _n, d in levels) for pack, levels in packs.items()},
        "hardest_real_regular_same_size": max(regular_same_size, default=None),
        "easiest_real_extreme": min(extreme, default=None),
    }
    if regular_same_size and extreme:
        summary["all_above_regular_and_at_least_easiest_extreme"] = all(
            d > max(regular_same_size) and d >= min(extreme) for d in generated
        )
    if args.json:
        print(json.dumps({"runs": runs, "summary": summary}))
        return 0
    print(f"--hardest {size}: difficulties {generated}; {summary['per_second_per_core']} candidates/s/core")
    for pack, values in summary["real"].items():
        if values:
            middle = statistics.median(values)
            print(f"real {pack:8} ({len(values):2}): min {values[0]}, median {middle}, max {values[-1]}")
    if "all_above_regular_and_at_least_easiest_extreme" in summary:
        print(
            f"hardest real regular {size}: {summary['hardest_real_regular_same_size']}; "
            f"easiest real extreme: {summary['easiest_real_extreme']}; every --hardest level above both: "
            f"{summary['all_above_regular_and_at_least_easiest_extreme']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
