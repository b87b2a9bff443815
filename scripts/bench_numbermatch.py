"""Time the Number Match solver on random boards: median and max seconds and nodes, and the outcomes.

    .venv/bin/python scripts/bench_numbermatch.py --boards 300 --seed 1 --adds 4

Each board is `--digits` digits 1-9 drawn uniformly (27 = the game's usual three rows).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys

from flowbot.numbermatch import Rules, solve
from flowbot.progress import Progress


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=300, help="how many random boards (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--adds", type=int, default=4, help="adds allowed (default 4)")
    parser.add_argument("--digits", type=int, default=27, help="digits per board (default 27)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per board (default 10)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Solve the boards and print the figures."""
    args = parse_args(argv)
    rng = random.Random(args.seed)
    rules = Rules(adds=args.adds)
    progress = Progress(args.boards, "boards", sys.stderr)
    answers = []
    for _ in range(args.boards):
        cells = [rng.randint(1, 9) for _ in range(args.digits)]
        answers.append(solve(cells, rules, timeout=args.timeout))
        progress.advance(answers[-1].status)
    progress.close()
    seconds = [answer.seconds for answer in answers]
    nodes = [answer.nodes for answer in answers]
    summary = {
        "boards": args.boards,
        "seed": args.seed,
        "adds": args.adds,
        "digits": args.digits,
        "timeout": args.timeout,
        "median_seconds": round(statistics.median(seconds), 6),
        "p99_seconds": round(sorted(seconds)[int(0.99 * (len(seconds) - 1))], 6),
        "max_seconds": round(max(seconds), 6),
        "median_nodes": statistics.median(nodes),
        "max_nodes": max(nodes),
        **{
            status: sum(answer.status == status for answer in answers)
            for status in ("won", "no-win", "timeout")
        },
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    share = {status: f"{100 * summary[status] / args.boards:.1f}%" for status in ("won", "no-win", "timeout")}
    limit = f"{args.timeout:g} s limit"
    print(f"{args.boards} boards of {args.digits} digits, {args.adds} adds, seed {args.seed}, {limit}")
    print(
        f"seconds: median {summary['median_seconds']:.4f}, p99 {summary['p99_seconds']:.4f}, "
        f"max {summary['max_seconds']:.4f}"
    )
    print(f"nodes:   median {summary['median_nodes']:g}, max {summary['max_nodes']}")
    print(f"won {summary['won']} ({share['won']}), no-win {summary['no-win']} ({share['no-win']}), "
          f"timeout {summary['timeout']} ({share['timeout']})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
