"""`flowbot calibrate`: make a profile for a game window, or check what flowbot sees."""

from __future__ import annotations

import argparse
import sys

from flowbot.commands.pointer_options import add_pointer_options, game_settings

NAME = "calibrate"
HELP = "make a profile for a game window, or check what flowbot sees"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot calibrate`."""
    parser.add_argument("--name", metavar="NAME", help="save calibration/NAME.json (a new one; see --force)")
    parser.add_argument("--check", action="store_true", help="save a picture of what flowbot sees instead")
    parser.add_argument(
        "--picture",
        metavar="FILE.png",
        help="where --check saves (default flowbot-check.png, replaced each time; a FILE given needs --force "
        "to replace it)",
    )
    parser.add_argument("--manual", action="store_true", help="point at the board instead of detecting it")
    parser.add_argument("--region", metavar="L,T,W,H", help="look only at this area of the screen")
    parser.add_argument("--folder", default="calibration", metavar="DIR", help="where profiles are saved")
    parser.add_argument("--force", action="store_true", help="replace an existing profile or --picture file")
    add_pointer_options(parser)


def run(args: argparse.Namespace) -> int:
    """Calibrate on the game on screen (or save what flowbot sees)."""
    from pathlib import Path

    from flowbot.modes.calibrate import run_calibrate

    profile, settings, region = game_settings(args)
    return run_calibrate(
        name=args.name,
        check=args.check,
        picture=args.picture,
        manual=args.manual,
        region=region or (profile.region if profile else None),
        settings=settings,
        folder=Path(args.folder),
        out=sys.stdout,
        force=args.force,
    )
