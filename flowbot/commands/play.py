"""`flowbot play`: play Flow in the terminal."""

from __future__ import annotations

import argparse

NAME = "play"
HELP = "play Flow in the terminal: a file, a screenshot, a folder or new levels"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot play`."""
    parser.add_argument(
        "path", nargs="?", metavar="PATH", help="puzzle file, screenshot or folder (default: new levels)"
    )
    parser.add_argument("--size", metavar="RxC", help="size of generated levels (default 7x7)")
    parser.add_argument("--seed", type=int, metavar="S", help="seed of generated levels")


def run(args: argparse.Namespace) -> int:
    """Start the terminal game."""
    from flowbot.play import run_play

    return run_play(args.path, size=args.size, seed=args.seed)
