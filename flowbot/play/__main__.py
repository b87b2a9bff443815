"""`python -m flowbot.play [PATH] [--size RxC] [--seed S]`: the terminal game without the flowbot CLI."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from flowbot.errors import FlowbotError
from flowbot.play.app import run_play


def build_parser() -> argparse.ArgumentParser:
    """The game's command line."""
    parser = argparse.ArgumentParser(prog="python -m flowbot.play", description="Play Flow in the terminal.")
    parser.add_argument("path", nargs="?", metavar="PATH", help="puzzle file, screenshot or folder")
    parser.add_argument("--size", metavar="RxC", help="size of generated levels (no PATH), default 7x7")
    parser.add_argument("--seed", type=int, metavar="S", help="random seed of generated levels")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse, play, and turn a FlowbotError into one line on stderr and its exit code."""
    args = build_parser().parse_args(argv)
    try:
        return run_play(args.path, size=args.size, seed=args.seed)
    except FlowbotError as error:
        print(f"flowbot play: {error}", file=sys.stderr)
        return error.exit_code


if __name__ == "__main__":
    sys.exit(main())
