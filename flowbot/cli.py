"""The `flowbot` command: parse arguments, set up logging, run one mode, map errors to exit codes."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from flowbot import __version__
from flowbot.argtypes import LEVELS_RANGE, POINTER_RANGES, REPEAT_RANGE, positive_float, positive_int, ranged
from flowbot.errors import FlowbotError, UsageError

# `solve` gives up on a puzzle after this long unless told otherwise: a huge board otherwise runs for
# minutes without a word.
DEFAULT_SOLVE_TIMEOUT = 60.0


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are UsageError (exit 64, one line), not argparse's exit 2."""

    def error(self, message: str):
        """Raise instead of printing the usage and exiting: `main` reports every error the same way."""
        command = self.prog.removeprefix("flowbot").strip()
        raise UsageError(f"{command + ': ' if command else ''}{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand (subparsers are of the same class, so also exit 64)."""
    parser = Parser(prog="flowbot", description="Read, solve and play Flow Free puzzles.")
    parser.add_argument("--version", action="version", version=f"flowbot {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    solve = commands.add_parser("solve", help="solve puzzle files and print the solutions")
    solve.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files (any supported format)")
    solve.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    solve.add_argument("--unique", action="store_true", help="also tell whether the solution is unique")
    solve.add_argument(
        "--timeout",
        type=positive_float,
        default=DEFAULT_SOLVE_TIMEOUT,
        metavar="S",
        help=f"give up on a puzzle after S seconds (default {DEFAULT_SOLVE_TIMEOUT:g})",
    )
    solve.add_argument(
        "--overlay",
        metavar="FILE.png",
        help="with one screenshot: save it with the solution drawn over it (never over the screenshot)",
    )
    solve.add_argument("--force", action="store_true", help="replace an existing --overlay file")

    read = commands.add_parser("read", help="read the board of each screenshot and save it as flowbot JSON")
    read.add_argument("paths", nargs="+", metavar="IMAGE", help="screenshots (PNG, JPEG) or folders of them")
    read.add_argument("--out", required=True, metavar="DIR", help="folder to write the JSON files into")
    read.add_argument("--force", action="store_true", help="replace files that already exist")

    bench = commands.add_parser(
        "bench", help="time the solver over puzzle files (default: the shared corpus)"
    )
    bench.add_argument("paths", nargs="*", metavar="PATH", help="puzzle files; default: the corpus sets")
    bench.add_argument(
        "--repeat", type=ranged(REPEAT_RANGE), default=3, help="runs per puzzle (median taken; 1 to 1000)"
    )
    bench.add_argument(
        "--set",
        choices=("levels", "janko", "all", "screenshots", "generate"),
        default="levels",
        help="what to time when no PATH is given: solver corpus sets, screenshot reading, or generation",
    )
    bench.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="per-puzzle limit")
    bench.add_argument(
        "--colors", choices=("binary", "one-hot"), default="binary", help="colour encoding to time"
    )

    convert = commands.add_parser("convert", help="rewrite puzzle files as flowbot JSON or text grids")
    convert.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files or folders (any format)")
    convert.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    convert.add_argument("--to", choices=("json", "grid"), default="json", help="output format")
    convert.add_argument("--force", action="store_true", help="replace files that already exist")

    generate = commands.add_parser("generate", help="generate levels with one solution, rated by difficulty")
    generate.add_argument("--size", required=True, metavar="RxC", help="board size, e.g. 8x8 or 10x8")
    generate.add_argument(
        "--colors", type=positive_int, metavar="K", help="number of flows (default: typical)"
    )
    generate.add_argument(
        "--count", type=ranged(LEVELS_RANGE), default=1, metavar="N", help="how many levels (1 to 100000)"
    )
    generate.add_argument(
        "--seed", type=int, metavar="S", help="random seed (printed, so a run can be repeated)"
    )
    generate.add_argument("--difficulty", choices=("easy", "medium", "hard"), help="steer levels to a band")
    generate.add_argument("--json", action="store_true", help="one JSON object per level per line")
    generate.add_argument("--out", metavar="DIR", help="also write each level as flowbot JSON into DIR")
    generate.add_argument("--force", action="store_true", help="replace files that already exist")

    rate = commands.add_parser("rate", help="rate puzzles with a solver that reasons like a person")
    rate.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files, screenshots or folders")
    rate.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")

    auto = commands.add_parser("auto-clear", help="play the game on screen: read, solve, draw, next level")
    auto.add_argument(
        "--count", type=ranged(LEVELS_RANGE), metavar="N", help="levels to clear (default: until none comes)"
    )
    auto.add_argument(
        "--region", metavar="L,T,W,H", help="the game window's area on screen (default: all of it)"
    )
    auto.add_argument("--dry-run", action="store_true", help="do everything but press the mouse")
    auto.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    auto.add_argument("--artifacts", default=".", metavar="DIR", help="where to save screenshots of failures")
    _add_pointer_options(auto)

    play = commands.add_parser(
        "play", help="play Flow in the terminal: a file, a screenshot, a folder or new levels"
    )
    play.add_argument(
        "path", nargs="?", metavar="PATH", help="puzzle file, screenshot or folder (default: new levels)"
    )
    play.add_argument("--size", metavar="RxC", help="size of generated levels (default 7x7)")
    play.add_argument("--seed", type=int, metavar="S", help="seed of generated levels")

    numbermatch = commands.add_parser(
        "numbermatch",
        help="solve Number Match boards: moves to replay on the phone, or a proof that none wins",
        description=(
            "Text boards: one row per line, up to 9 slots of digits 1-9 and '.' or '0' for a cleared slot; "
            "several boards in one file are separated by blank lines; '#' starts a comment. JSON boards: a "
            'list of rows (strings, or lists of digits with 0 or null), {"rows": [...]}, or a list of boards.'
        ),
    )
    numbermatch.add_argument("paths", nargs="+", metavar="FILE", help="board files (text or JSON)")
    numbermatch.add_argument(
        "--adds", type=int, choices=range(10), default=4, metavar="N",
        help="how many times 'add numbers' may be used, 0-9 (default 4; 5 in some versions)",
    )  # fmt: skip
    numbermatch.add_argument("--json", action="store_true", help="one JSON object per board per line")
    numbermatch.add_argument("--best", action="store_true", help="the highest score instead of any win")
    numbermatch.add_argument(
        "--timeout", type=positive_float, default=10.0, metavar="S", help="seconds per board"
    )
    numbermatch.add_argument(
        "--no-wrap", action="store_true", help="a row's end does not run on to the next row"
    )
    numbermatch.add_argument("--no-diagonals", action="store_true", help="digits on a diagonal do not pair")

    # The game has its own options (packs, variants); everything after `game` goes to it.
    game = commands.add_parser("game", help="play Flow in a window (see flowbot game --help)", add_help=False)
    game.add_argument("game_args", nargs=argparse.REMAINDER)

    calibrate = commands.add_parser(
        "calibrate", help="make a profile for a game window, or check what flowbot sees"
    )
    calibrate.add_argument(
        "--name", metavar="NAME", help="save calibration/NAME.json (a new one; see --force)"
    )
    calibrate.add_argument("--check", action="store_true", help="save a picture of what flowbot sees instead")
    calibrate.add_argument(
        "--picture",
        metavar="FILE.png",
        help="where --check saves (default flowbot-check.png, replaced each time; a FILE given needs --force "
        "to replace it)",
    )
    calibrate.add_argument("--manual", action="store_true", help="point at the board instead of detecting it")
    calibrate.add_argument("--region", metavar="L,T,W,H", help="look only at this area of the screen")
    calibrate.add_argument("--folder", default="calibration", metavar="DIR", help="where profiles are saved")
    calibrate.add_argument(
        "--force", action="store_true", help="replace an existing profile or --picture file"
    )
    _add_pointer_options(calibrate)

    scrape = commands.add_parser("scrape", help="save each level on screen as flowbot JSON, then move on")
    scrape.add_argument(
        "--count", type=ranged(LEVELS_RANGE), metavar="N", help="levels to save (default: the pack)"
    )
    scrape.add_argument("--pack", metavar="NAME", help="the pack's name: saves into captured_puzzles/NAME/")
    scrape.add_argument("--out", metavar="DIR", help="the folder to save into instead")
    scrape.add_argument("--keep-images", action="store_true", help="save each level's screenshot beside it")
    scrape.add_argument("--resume", action="store_true", help="continue a folder where it stopped")
    scrape.add_argument("--region", metavar="L,T,W,H", help="the game window's area on screen")
    _add_pointer_options(scrape)

    demo = commands.add_parser(
        "demo", help="the bundled game played by the bot (a virtual display if needed)"
    )
    demo.add_argument(
        "--levels", type=ranged(LEVELS_RANGE), metavar="N", help="levels to clear (default: the pack)"
    )
    demo.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    demo.add_argument("--record", metavar="FILE.gif", help="save a recording (default when headless)")
    demo.add_argument("--force", action="store_true", help="replace an existing --record file")
    return parser


def _add_pointer_options(parser: argparse.ArgumentParser) -> None:
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


def _pointer_settings(args: argparse.Namespace, base):
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


def _explicit_pointer(args: argparse.Namespace) -> bool:
    """True when a pointer flag was given on the command line (then no self-tuning)."""
    names = ("moves_per_cell", "move_delay", "release_pause", "flow_pause", "corners_only", "no_settle")
    return any(getattr(args, name) is not None for name in names)


def _game_settings(args: argparse.Namespace):
    """(profile or None, pointer settings, region or None) from --profile, the pointer flags and --region."""
    from flowbot.act.plan import PointerSettings
    from flowbot.modes.auto_clear import parse_region
    from flowbot.profiles import load_profile

    profile = load_profile(args.profile) if args.profile else None
    settings = _pointer_settings(args, profile.pointer if profile else PointerSettings())
    region = parse_region(args.region) if args.region else None
    return profile, settings, region


def run(argv: Sequence[str] | None = None) -> int:
    """Parse arguments and run the chosen mode; FlowbotError propagates to `main`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["game"]:
        # The game parses its own options: argparse would take a leading option such as --help.
        from flowbot.game.app import main as game_main

        return game_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    _setup_logging(args.verbose)
    if args.command is None:
        parser.print_help(sys.stderr)
        raise UsageError("no command given")
    if args.command == "solve":
        from flowbot.modes.solve_files import run_solve
        from flowbot.render import terminal_colors

        return run_solve(
            args.paths,
            as_json=args.json,
            unique=args.unique,
            timeout=args.timeout,
            out=sys.stdout,
            err=sys.stderr,
            colors=terminal_colors(sys.stdout),
            overlay=args.overlay,
            force=args.force,
        )
    if args.command == "read":
        from flowbot.modes.convert import run_convert

        return run_convert(
            args.paths, out_dir=args.out, to="json", force=args.force, err=sys.stderr, images_only=True
        )
    if args.command == "bench":
        from flowbot.modes.bench import run_bench

        return run_bench(
            args.paths, corpus_set=args.set, repeat=args.repeat, timeout=args.timeout, colors=args.colors
        )
    if args.command == "convert":
        from flowbot.modes.convert import run_convert

        return run_convert(args.paths, out_dir=args.out, to=args.to, force=args.force, err=sys.stderr)
    if args.command == "generate":
        from flowbot.modes.generate import run_generate
        from flowbot.render import terminal_colors

        return run_generate(
            size=args.size,
            colors=args.colors,
            count=args.count,
            seed=args.seed,
            difficulty=args.difficulty,
            as_json=args.json,
            out_dir=args.out,
            force=args.force,
            out=sys.stdout,
            err=sys.stderr,
            terminal_colors=terminal_colors(sys.stdout),
        )
    if args.command == "rate":
        from flowbot.modes.rate import run_rate

        return run_rate(args.paths, as_json=args.json, out=sys.stdout, err=sys.stderr)
    if args.command == "auto-clear":
        from flowbot.modes.auto_clear import run_auto_clear

        profile, settings, region = _game_settings(args)
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
            tune=not _explicit_pointer(args),
        )
    if args.command == "calibrate":
        from pathlib import Path

        from flowbot.modes.calibrate import run_calibrate

        profile, settings, region = _game_settings(args)
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
    if args.command == "scrape":
        from flowbot.modes.scrape import run_scrape

        profile, settings, region = _game_settings(args)
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
    if args.command == "play":
        from flowbot.play import run_play

        return run_play(args.path, size=args.size, seed=args.seed)
    if args.command == "numbermatch":
        from flowbot.numbermatch.cli import run_numbermatch
        from flowbot.render import terminal_colors

        return run_numbermatch(
            args.paths,
            adds=args.adds,
            as_json=args.json,
            best=args.best,
            timeout=args.timeout,
            out=sys.stdout,
            err=sys.stderr,
            colors=terminal_colors(sys.stdout) > 0,
            wrap=not args.no_wrap,
            diagonals=not args.no_diagonals,
        )
    if args.command == "demo":
        from flowbot.modes.demo import run_demo

        return run_demo(
            levels=args.levels,
            as_json=args.json,
            record=args.record,
            force=args.force,
            out=sys.stdout,
            err=sys.stderr,
        )
    raise UsageError(f"unknown command {args.command!r}")


def main(argv: Sequence[str] | None = None) -> int:
    """The console entry point: the one place errors become messages and exit codes."""
    try:
        return run(argv)
    except FlowbotError as error:
        print(f"flowbot: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("flowbot: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); exit quietly like other Unix tools.
        sys.stderr.close()
        return 141


def _setup_logging(verbosity: int) -> None:
    """Send log records to stderr; -v shows info, -vv debug."""
    level = logging.WARNING - 10 * min(verbosity, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
