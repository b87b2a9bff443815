"""`flowbot screens`: the monitors, their scales, where the game is, and whether the mouse agrees."""

from __future__ import annotations

import argparse
import sys

NAME = "screens"
HELP = "show the monitors, their scales and the game's monitor; check that the mouse agrees"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot screens`."""
    parser.add_argument("--no-probe", action="store_true", help="do not move the pointer to check it")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Measure the desktop as a live run would, and say what was found."""
    from flowbot.modes.screens import run_screens

    return run_screens(probe=not args.no_probe, as_json=args.json, out=sys.stdout)
