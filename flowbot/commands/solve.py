"""`flowbot solve`: solve puzzle files (or one screenshot) and print the solutions."""

from __future__ import annotations

import argparse
import sys

from flowbot.argtypes import positive_float

NAME = "solve"
HELP = "solve puzzle files and print the solutions"
# A huge board otherwise runs for minutes without a word.
DEFAULT_SOLVE_TIMEOUT = 60.0
# Reading files and screenshots and solving them make no log records (tests/test_startup.py looks
# at every kind of input): the logging module is loaded only for -v.
LOGS = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot solve`."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files (any supported format)")
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    parser.add_argument("--unique", action="store_true", help="also tell whether the solution is unique")
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=DEFAULT_SOLVE_TIMEOUT,
        metavar="S",
        help=f"give up on a puzzle after S seconds (default {DEFAULT_SOLVE_TIMEOUT:g})",
    )
    parser.add_argument(
        "--overlay",
        metavar="FILE.png",
        help="with one screenshot: save it with the solution drawn over it (never over the screenshot)",
    )
    parser.add_argument("--force", action="store_true", help="replace an existing --overlay file")


def run(args: argparse.Namespace) -> int:
    """Solve every file named and print the solutions."""
    from flowbot.modes.solve_files import run_solve
    from flowbot.render import terminal_colors

    return run_solve(
        args.paths,
        as_json=args.json,
        unique=args.unique,
        timeout=args.timeout,
        out=sys.stdout,
        err=sys.stderr,
        colors=terminal_colors(sys.stdout),
        overlay=args.overlay,
        force=args.force,
    )
