"""`flowbot numbermatch`: solve Number Match boards."""

from __future__ import annotations

import argparse
import sys

from flowbot.argtypes import positive_float

NAME = "numbermatch"
HELP = "solve Number Match boards: moves to replay on the phone, or a proof that none wins"
DESCRIPTION = (
    "Text boards: one row per line, up to 9 slots of digits 1-9 and '.' or '0' for a cleared slot; "
    "several boards in one file are separated by blank lines; '#' starts a comment. JSON boards: a "
    'list of rows (strings, or lists of digits with 0 or null), {"rows": [...]}, or a list of boards. '
    "Screenshots (and photos of a phone's screen) are read by their content; a folder gives its images. "
    'A screenshot\'s "+" badge, when it reads, sets the adds left in place of --adds.'
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot numbermatch`."""
    parser.add_argument(
        "paths", nargs="+", metavar="FILE", help="board files (text or JSON), screenshots, or folders of them"
    )
    parser.add_argument(
        "--adds", type=int, choices=range(10), default=4, metavar="N",
        help="how many times 'add numbers' may be used, 0-9 (default 4; 5 in some versions)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="one JSON object per board per line")
    parser.add_argument("--best", action="store_true", help="the highest score instead of any win")
    parser.add_argument("--timeout", type=positive_float, default=10.0, metavar="S", help="seconds per board")
    parser.add_argument("--no-wrap", action="store_true", help="a row's end does not run on to the next row")
    parser.add_argument("--no-diagonals", action="store_true", help="digits on a diagonal do not pair")


def run(args: argparse.Namespace) -> int:
    """Solve every board named."""
    from flowbot.numbermatch.cli import run_numbermatch
    from flowbot.render import terminal_colors

    return run_numbermatch(
        args.paths,
        adds=args.adds,
        as_json=args.json,
        best=args.best,
        timeout=args.timeout,
        out=sys.stdout,
        err=sys.stderr,
        colors=terminal_colors(sys.stdout) > 0,
        wrap=not args.no_wrap,
        diagonals=not args.no_diagonals,
    )
