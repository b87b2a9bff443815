"""`flowbot scrape`: save each level on screen as flowbot JSON, then move on."""

from __future__ import annotations

import argparse
import sys

from flowbot.argtypes import LEVELS_RANGE, ranged
from flowbot.commands.pointer_options import add_pointer_options, game_settings

NAME = "scrape"
HELP = "save each level on screen as flowbot JSON, then move on"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot scrape`."""
    parser.add_argument(
        "--count", type=ranged(LEVELS_RANGE), metavar="N", help="levels to save (default: the pack)"
    )
    parser.add_argument("--pack", metavar="NAME", help="the pack's name: saves into captured_puzzles/NAME/")
    parser.add_argument("--out", metavar="DIR", help="the folder to save into instead")
    parser.add_argument("--keep-images", action="store_true", help="save each level's screenshot beside it")
    parser.add_argument("--resume", action="store_true", help="continue a folder where it stopped")
    parser.add_argument("--region", metavar="L,T,W,H", help="the game window's area on screen")
    add_pointer_options(parser)


def run(args: argparse.Namespace) -> int:
    """Save the levels on screen one after another."""
    from flowbot.modes.scrape import run_scrape

    profile, settings, region = game_settings(args)
    return run_scrape(
        count=args.count,
        out_dir=args.out,
        pack=args.pack,
        profile=profile,
        keep_images=args.keep_images,
        resume=args.resume,
        settings=settings,
        region=region,
        out=sys.stdout,
        err=sys.stderr,
    )
