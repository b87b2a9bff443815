"""Time the Number Match solver on random boards: median and max seconds and nodes, and the outcomes.

    .venv/bin/python scripts/bench_numbermatch.py --boards 300 --seed 1 --adds 4
    .venv/bin/python scripts/bench_numbermatch.py --boards 30 --no-diagonals --keep-a-pair --nodes 1500000

`--nodes` limits each search by positions (as the live bot and the bundled game do) and prints the
positions the won boards took, the figures their node budgets are chosen from; `--no-diagonals` and
`--keep-a-pair` (a game that may end a board left with no pair) are the hardest rules the bot plays.

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
    parser.add_argument("--nodes", type=int, default=None, help="positions per board (default: no limit)")
    parser.add_argument("--no-diagonals", action="store_true", help="pairs only along rows and columns")
    parser.add_argument(
        "--keep-a-pair", action="store_true", help="never leave a board with no pair while an add is left"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Solve the boards and print the figures."""
    args = parse_args(argv)
    rng = random.Random(args.seed)
    rules = Rules(
        adds=args.adds,
        diagonals=not args.no_diagonals,
        ends_without_pairs=None if args.keep_a_pair else False,
    )
    progress = Progress(args.boards, "boards", sys.stderr)
    answers = []
    for _ in range(args.boards):
        cells = [rng.randint(1, 9) for _ in range(args.digits)]
        answers.append(solve(cells, rules, timeout=args.timeout, nodes=args.nodes))
        progress.advance(answers[-1].status)
    progress.close()
    seconds = [answer.seconds for answer in answers]
    nodes = [answer.nodes for answer in answers]
    won_nodes = sorted(answer.nodes for answer in answers if answer.status == "won")
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
        "node_limit": args.nodes,
        "won_nodes": {f"p{q}": _quantile(won_nodes, q / 100) for q in (50, 90, 95, 99, 100)}
        if won_nodes
        else {},
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
    if won_nodes:
        print("nodes of the won boards: " + ", ".join(f"{q} {n}" for q, n in summary["won_nodes"].items()))
    print(f"won {summary['won']} ({share['won']}), no-win {summary['no-win']} ({share['no-win']}), "
          f"timeout {summary['timeout']} ({share['timeout']})")  # fmt: skip
    return 0


def _quantile(values: list[int], share: float) -> int:
    """The value below which `share` of the sorted values lie (the nearest rank)."""
    return values[min(len(values) - 1, int(share * len(values)))]


if __name__ == "__main__":
    sys.exit(main())
