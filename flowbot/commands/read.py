"""`flowbot read`: read the board of each screenshot and save it as flowbot JSON."""

from __future__ import annotations

import argparse
import sys

NAME = "read"
HELP = "read the board of each screenshot and save it as flowbot JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot read`."""
    parser.add_argument(
        "paths", nargs="+", metavar="IMAGE", help="screenshots (PNG, JPEG) or folders of them"
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write the JSON files into")
    parser.add_argument("--force", action="store_true", help="replace files that already exist")


def run(args: argparse.Namespace) -> int:
    """Read every screenshot named and write one JSON file each."""
    from flowbot.modes.convert import run_convert

    return run_convert(
        args.paths, out_dir=args.out, to="json", force=args.force, err=sys.stderr, images_only=True
    )
