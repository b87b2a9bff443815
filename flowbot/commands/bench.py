"""`flowbot bench`: time the solver, the screenshot reader or the generator."""

from __future__ import annotations

import argparse

from flowbot.argtypes import REPEAT_RANGE, positive_float, ranged

NAME = "bench"
HELP = "time the solver over puzzle files (default: the shared corpus)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot bench`."""
    parser.add_argument("paths", nargs="*", metavar="PATH", help="puzzle files; default: the corpus sets")
    parser.add_argument(
        "--repeat", type=ranged(REPEAT_RANGE), default=3, help="runs per puzzle (median taken; 1 to 1000)"
    )
    parser.add_argument(
        "--set",
        choices=("levels", "janko", "variants", "all", "screenshots", "generate"),
        default="levels",
        help="what to time when no PATH is given: solver corpus sets (variants: Bridges, Hexes and Warps "
        "levels), screenshot reading, or generation",
    )
    parser.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="per-puzzle limit")
    parser.add_argument(
        "--colors", choices=("binary", "one-hot"), default="binary", help="colour encoding to time"
    )


def run(args: argparse.Namespace) -> int:
    """Run the chosen benchmark and print its figures."""
    from flowbot.modes.bench import run_bench

    return run_bench(
        args.paths, corpus_set=args.set, repeat=args.repeat, timeout=args.timeout, colors=args.colors
    )
