"""Options shared by the commands that press the mouse on a game: pointer settings, --profile, --region."""

from __future__ import annotations

import argparse

from flowbot.argtypes import POINTER_RANGES, ranged

POINTER_FLAGS = ("moves_per_cell", "move_delay", "release_pause", "flow_pause", "corners_only", "no_settle")


def add_pointer_options(parser: argparse.ArgumentParser) -> None:
    """Pointer settings that make different games playable; unset ones come from the profile or the
    safe defaults."""
    group = parser.add_argument_group("pointer settings (default: the profile's, else safe for any game)")
    moves, delay = POINTER_RANGES["moves_per_cell"], POINTER_RANGES["move_delay"]
    group.add_argument(
        "--moves-per-cell", type=ranged(moves), metavar="N", help=f"points per cell step ({moves.describe()})"
    )
    group.add_argument(
        "--corners-only", action="store_true", default=None, help="move only at the path's corners"
    )
    for option, text in (
        ("--move-delay", "pause after each move"),
        ("--release-pause", "pause before releasing"),
        ("--flow-pause", "pause between flows"),
    ):
        group.add_argument(option, type=ranged(delay), metavar="S", help=f"{text} ({delay.describe()})")
    group.add_argument("--no-settle", action="store_true", default=None, help="no nudge inside the last cell")
    parser.add_argument("--profile", metavar="NAME", help="a calibration profile (calibration/NAME.json)")


def pointer_settings(args: argparse.Namespace, base):
    """The profile's (or default) PointerSettings with what the command line sets on top."""
    from dataclasses import replace

    changes = {}
    for name in ("moves_per_cell", "move_delay", "release_pause", "flow_pause"):
        value = getattr(args, name)
        if value is not None:
            changes[name] = value  # already checked against POINTER_RANGES by the parser
    if args.corners_only:
        changes["corners_only"] = True
    if args.no_settle:
        changes["settle"] = False
    return replace(base, **changes)


def explicit_pointer(args: argparse.Namespace) -> bool:
    """True when a pointer flag was given on the command line (then no self-tuning)."""
    return any(getattr(args, name) is not None for name in POINTER_FLAGS)


def game_settings(args: argparse.Namespace):
    """(profile or None, pointer settings, region or None) from --profile, the pointer flags and --region."""
    from flowbot.act.plan import PointerSettings
    from flowbot.modes.auto_clear import parse_region
    from flowbot.profiles import load_profile

    profile = load_profile(args.profile) if args.profile else None
    settings = pointer_settings(args, profile.pointer if profile else PointerSettings())
    region = parse_region(args.region) if args.region else None
    return profile, settings, region
