"""`flowbot generate`: new levels with one solution, rated by difficulty."""

from __future__ import annotations

import argparse
import sys

from flowbot.argtypes import ITERATIONS_RANGE, LEVELS_RANGE, WORKERS_RANGE, positive_int, ranged

NAME = "generate"
HELP = "generate fair levels (solvable by reasoning alone), rated by difficulty"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot generate`."""
    parser.add_argument("--size", required=True, metavar="RxC", help="board size, e.g. 8x8 or 10x8")
    parser.add_argument("--colors", type=positive_int, metavar="K", help="number of flows (default: typical)")
    parser.add_argument(
        "--count", type=ranged(LEVELS_RANGE), default=1, metavar="N", help="how many levels (1 to 100000)"
    )
    parser.add_argument(
        "--seed", type=int, metavar="S", help="random seed (printed, so a run can be repeated)"
    )
    steer = parser.add_mutually_exclusive_group()
    steer.add_argument("--difficulty", choices=("easy", "medium", "hard"), help="steer levels to a band")
    steer.add_argument(
        "--hardest",
        action="store_true",
        help="optimize for the hardest fair level: a pool of 10, one mutated and re-rated at a time",
    )
    parser.add_argument(
        "--iterations",
        type=ranged(ITERATIONS_RANGE),
        metavar="N",
        help="candidates --hardest rates per level (default 2000)",
    )
    parser.add_argument(
        "--workers",
        type=ranged(WORKERS_RANGE),
        metavar="W",
        help="processes --hardest rates in (default: every core)",
    )
    parser.add_argument(
        "--variant",
        choices=("bridges", "hexes", "warps"),
        help="a sister game's level: Flow Free Bridges, Hexes or Warps (not rated)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per level per line")
    parser.add_argument("--out", metavar="DIR", help="also write each level as flowbot JSON into DIR")
    parser.add_argument("--force", action="store_true", help="replace files that already exist")


def run(args: argparse.Namespace) -> int:
    """Generate the levels asked for and print (and save) them."""
    from flowbot.modes.generate import run_generate
    from flowbot.render import terminal_colors

    return run_generate(
        size=args.size,
        colors=args.colors,
        count=args.count,
        seed=args.seed,
        difficulty=args.difficulty,
        variant=args.variant,
        hardest=args.hardest,
        iterations=args.iterations,
        workers=args.workers,
        as_json=args.json,
        out_dir=args.out,
        force=args.force,
        out=sys.stdout,
        err=sys.stderr,
        terminal_colors=terminal_colors(sys.stdout),
    )
