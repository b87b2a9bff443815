"""`flowbot hint`: the next reasoning step (which cells, which flow, and why), not the answer."""

from __future__ import annotations

import argparse
import sys

NAME = "hint"
HELP = "show the next reasoning step for a puzzle file or a screenshot, and why"
DESCRIPTION = (
    "Show the next step a person can reason out: which cells it joins or colours, which flow, and why "
    "(e.g. 'the red end at row 1, col 1 has only one way out'). With a screenshot the step is also drawn "
    "on it (--picture). STATE is what is drawn so far: a file of the same grid in the text format, '.' "
    "for an empty cell and a colour's label on every cell its flow covers (endpoints as in the puzzle); "
    "cells of one colour side by side count as joined. A drawn cell that does not fit the level's one "
    "solution is pointed out first."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot hint`."""
    parser.add_argument(
        "path", metavar="FILE|SHOT.png", help="a puzzle file, a screenshot, or a folder of them (see --index)"
    )
    parser.add_argument(
        "--state", metavar="STATE", help="what is drawn so far (grid text file; default: nothing)"
    )
    parser.add_argument(
        "--index", type=int, default=0, metavar="N", help="which puzzle of a file or folder (from 0)"
    )
    parser.add_argument(
        "--picture",
        metavar="PNG",
        help="where to draw the step for a screenshot (default: NAME.hint.png here)",
    )
    parser.add_argument("--json", action="store_true", help="print the step as one JSON object")
    parser.add_argument("--force", action="store_true", help="replace the picture if it exists")


def run(args: argparse.Namespace) -> int:
    """Print (and draw) the next step."""
    from flowbot.modes.hint import run_hint

    return run_hint(
        args.path,
        state=args.state,
        index=args.index,
        picture=args.picture,
        as_json=args.json,
        force=args.force,
        out=sys.stdout,
    )
