"""`flowbot convert`: rewrite puzzle files as flowbot JSON, text grids or format E graph text."""

from __future__ import annotations

import argparse
import sys

NAME = "convert"
HELP = "rewrite puzzle files as flowbot JSON, text grids or format E graph text"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot convert`."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files or folders (any format)")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    parser.add_argument(
        "--to",
        choices=("json", "grid", "graph"),
        default="json",
        help="output format: flowbot JSON (any kind of board), a text grid (square boards), or format E "
        "(cells and links: square, hex, bridges, warps, walls; a Shapes board only as JSON)",
    )
    parser.add_argument("--force", action="store_true", help="replace files that already exist")


def run(args: argparse.Namespace) -> int:
    """Convert every file named into the output folder."""
    from flowbot.modes.convert import run_convert

    return run_convert(args.paths, out_dir=args.out, to=args.to, force=args.force, err=sys.stderr)
