"""`flowbot rate`: rate puzzles with a solver that reasons like a person."""

from __future__ import annotations

import argparse
import sys

NAME = "rate"
HELP = "rate puzzles with a solver that reasons like a person"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot rate`."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files, screenshots or folders")
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    parser.add_argument(
        "--steps", action="store_true", help="also show the solver's record: each step, its moves and why"
    )


def run(args: argparse.Namespace) -> int:
    """Rate every puzzle named."""
    from flowbot.modes.rate import run_rate

    return run_rate(args.paths, as_json=args.json, out=sys.stdout, err=sys.stderr, steps=args.steps)
