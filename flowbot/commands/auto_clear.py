"""`flowbot auto-clear`: play the game on screen: read, solve, draw, next level."""

from __future__ import annotations

import argparse
import sys

from flowbot.argtypes import LEVELS_RANGE, ranged
from flowbot.commands.pointer_options import add_pointer_options, explicit_pointer, game_settings

NAME = "auto-clear"
HELP = "play the game on screen: read, solve, draw, next level"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot auto-clear`."""
    parser.add_argument(
        "--count", type=ranged(LEVELS_RANGE), metavar="N", help="levels to clear (default: until none comes)"
    )
    parser.add_argument(
        "--region", metavar="L,T,W,H", help="the game window's area on screen (default: all of it)"
    )
    parser.add_argument("--dry-run", action="store_true", help="do everything but press the mouse")
    parser.add_argument(
        "--numbermatch", action="store_true", help="play Number Match (click pairs and '+') instead of Flow"
    )
    parser.add_argument(
        "--rules",
        metavar="NAME=VALUE,...",
        help="with --numbermatch: fix rules instead of finding them (diagonals, wrap, add-when-stuck, "
        "auto-add, clear-rows = yes|no; ends-without-pairs = yes|no|unknown; add = copy|generated|unknown; "
        "adds = limited|unlimited)",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    parser.add_argument(
        "--artifacts",
        metavar="DIR",
        help="where to save screenshots of failures (made when missing; default: the per-user cache folder, "
        "e.g. ~/.cache/flowbot)",
    )
    add_pointer_options(parser)


def run(args: argparse.Namespace) -> int:
    """Clear levels on screen until the count is reached or no next level comes; with --json, a stop
    (Ctrl-C, SIGTERM, SIGHUP) that comes before the bot's loop took over still gives the JSON line."""
    try:
        return _run(args)
    except KeyboardInterrupt as stop:  # the loop turns a stop into its summary; this one came before
        if args.json:
            import json

            from flowbot.errors import stop_words

            line = {
                "levels": 0,
                "asked": args.count,
                "cleared": 0,
                "stopped": stop_words(stop),
                "interrupted": True,
            }
            sys.stdout.write(json.dumps(line) + "\n")
        raise


def _run(args: argparse.Namespace) -> int:
    """Clear levels (Flow, a sister game, or Number Match boards) on screen."""
    if args.numbermatch:
        return _numbermatch(args)
    if args.rules:
        from flowbot.errors import UsageError

        raise UsageError("--rules is for --numbermatch")
    from flowbot.modes.auto_clear_run import run_auto_clear

    profile, settings, region = game_settings(args)
    return run_auto_clear(
        count=args.count,
        region=region,
        dry_run=args.dry_run,
        settings=settings,
        artifacts=args.artifacts,
        as_json=args.json,
        out=sys.stdout,
        err=sys.stderr,
        profile=profile,
        tune=not explicit_pointer(args),
    )


def _numbermatch(args: argparse.Namespace) -> int:
    """Clear Number Match boards on screen; the Flow-only options are refused, not ignored."""
    from flowbot.errors import UsageError
    from flowbot.modes.auto_clear import parse_region
    from flowbot.modes.numbermatch_clear import run_numbermatch_clear

    if args.dry_run or args.profile or explicit_pointer(args):
        raise UsageError(
            "--numbermatch clicks cells: --dry-run, --profile and the pointer settings are for Flow"
        )
    region = parse_region(args.region) if args.region else None
    return run_numbermatch_clear(
        count=args.count, region=region, as_json=args.json, out=sys.stdout, err=sys.stderr, rules=args.rules
    )
