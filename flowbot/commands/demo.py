"""`flowbot demo`: the bundled game played by the bot."""

from __future__ import annotations

import argparse
import sys

from flowbot.argtypes import LEVELS_RANGE, ranged

NAME = "demo"
HELP = "the bundled game played by the bot (a virtual display if needed)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot demo`."""
    parser.add_argument(
        "--levels", type=ranged(LEVELS_RANGE), metavar="N", help="levels to clear (default: the pack)"
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    parser.add_argument("--record", metavar="FILE.gif", help="save a recording (default when headless)")
    parser.add_argument("--force", action="store_true", help="replace an existing --record file")


def run(args: argparse.Namespace) -> int:
    """Open the bundled game and let the bot clear it; with --json, a stop (Ctrl-C, SIGTERM, SIGHUP)
    that comes before the bot's loop took over, even while the demo is still loading, still gives the
    JSON line, saying so (the loop turns a later stop into its summary)."""
    try:
        from flowbot.modes.demo import run_demo

        return run_demo(
            levels=args.levels,
            as_json=args.json,
            record=args.record,
            force=args.force,
            out=sys.stdout,
            err=sys.stderr,
        )
    except KeyboardInterrupt as stop:
        if args.json and not getattr(stop, "summarised", False):
            import json

            from flowbot.errors import stop_words
            from flowbot.game.packs import levels_from  # no numpy: its import may be what was cut short

            asked = args.levels if args.levels is not None else len(levels_from("demo"))
            line = {"levels": asked, "solved_by_game": 0, "stopped": stop_words(stop), "interrupted": True}
            sys.stdout.write(json.dumps(line) + "\n")
        raise
