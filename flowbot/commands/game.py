"""`flowbot game`: the bundled game in a window; it parses its own options (packs, looks, variants)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

NAME = "game"
HELP = "play Flow in a window (see flowbot game --help)"
# argparse would take a leading option such as --help: everything after `game` goes to the game.
RAW = True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Only a catch-all: the game's own parser reads the arguments."""
    parser.add_argument("game_args", nargs=argparse.REMAINDER)


def build_parser() -> argparse.ArgumentParser:
    """The game's own parser: what `flowbot game --help` shows and the manual's flag check reads."""
    from flowbot.game.app import build_parser as game_parser

    return game_parser()


def run_raw(argv: Sequence[str]) -> int:
    """Start the game with the arguments after `game`, untouched."""
    from flowbot.game.app import main as game_main

    return game_main(list(argv))


def run(args: argparse.Namespace) -> int:
    """Start the game with what argparse gathered (only when called through the parser)."""
    return run_raw(args.game_args)
