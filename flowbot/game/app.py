"""The game window: play levels with the mouse, write results, close cleanly on close, SIGTERM or SIGINT.

    .venv/bin/python -m flowbot.game [--pack NAME | --folder DIR] [--results FILE] [--size WxH]
    .venv/bin/python -m flowbot.game --time-trial SECONDS --board RxC [--seed S] [--variant V]
    .venv/bin/python -m flowbot.game --variant bridges|hexes|warps [--board RxC] [--seed S] [--levels N]
    .venv/bin/python -m flowbot.game --variant shapes [--shape KIND] [--seed S] [--levels N | --time-trial S]

Looks of other Flow games (combinable): --no-grid, --theme light, --glyphs, --next-button text|modal|always,
--win-banner, --header, --board-px N, --tiles, --line-color, --palette, --dot-size, --no-dialog, --shift,
--clock stops|runs|down and --score win|flows (a numbers line under the title: see flowbot.game.stats).
Faults that make a bot's verdict lie (repeatable, seeded by --seed): --fault lossy:P, last-step:P,
popup-window, skip-arrows, dialog-closes, lost-release:P, next-in-place, no-sign, win-screen, no-cut,
next-under-popup (see flowbot.game.faults).

Stdout carries one line, `game ready`, once the first frame is on screen (the bot's tests wait for it).
With FLOWBOT_GAME_PRESS_LOG naming a file, the game notes its window and each press it takes there
(what the press hit, on which level, solved or not): the tests' press watch reads it (flowbot.game.presslog).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from flowbot.argtypes import Range, positive_float, positive_int, ranged
from flowbot.display import DisplayError
from flowbot.errors import FlowbotError, UsageError
from flowbot.game.faults import FAULTS, Faults, FaultSpec, parse_fault
from flowbot.game.look import DARK_LINES, LIGHT_LINES, NEXT_BUTTONS, THEMES, Look, Theme, Variant
from flowbot.game.packs import levels_from, list_packs
from flowbot.game.session import ResultsFile, Session
from flowbot.game.stats import CLOCKS, SCORES
from flowbot.game.trial import (
    LevelMaker,
    TrialSession,
    TrialSpec,
    board_size,
    fresh_seed,
    generated,
    generated_shapes,
    shapes_trial_spec,
    trial_spec,
)
from flowbot.generate.variants import VARIANTS
from flowbot.model import Puzzle
from flowbot.numbermatch.errors import NumberMatchInputError
from flowbot.numbermatch.game import STARTS
from flowbot.numbermatch.rules import Rules, parse_rules
from flowbot.palette import PALETTES
from flowbot.shapes.kinds import SHAPES

READY = "game ready"
HIDDEN_DRIVERS = ("offscreen", "dummy")
MAX_SIDE = 8192  # pixels a window side may have
MAX_PIXELS = 40_000_000  # pixels a window may have (8K is 33 million)
MIN_BOARD_PX = 60
ADDS_RANGE = Range(True, 0, 9)  # the badge shows one digit
VARIANT_BOARD = "7x7"  # a sister game's levels without --board
VARIANT_LEVELS = 10
SHAPES_VARIANT = "shapes"  # Flow Free: Shapes boards, one kind of board per game (--shape)
DEFAULT_SHAPE = "cube"

__all__ = ["READY", "Variant", "build_parser", "main", "run_game", "variant_from"]


class _StopRequest:
    """Set by a signal handler; the frame loop checks it, so the game closes between frames."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: Any) -> None:
        """The signal handler: ask the loop to stop."""
        self.requested = True


def run_game(
    *,
    levels: list[Puzzle] | None = None,
    results: str | None = None,
    size: tuple[int, int] = (540, 960),
    fps: int = 60,
    interpolate: bool = False,
    title: str = "flowbot game",
    variant: Variant | None = None,
    trial: TrialSpec | None = None,
    faults: FaultSpec | None = None,
) -> int:
    """Open a window and play the levels in order (or a time trial) until it is closed; returns 0.

    The levels loop: the last one's dialog says "pack complete" and its button goes back to level 1.
    With `results`, one JSON line is appended per level shown, when it is left (next, previous,
    skip, close, signal, or the trial's time running out).
    """
    variant = variant or Variant()
    # The trial's first level is made before anything opens, so a bad size fails first.
    maker = None if trial is None else LevelMaker(trial.maker())
    try:
        sink = ResultsFile(results) if results is not None else None
        report = None if sink is None else sink.write
        session: Session
        if maker is not None and trial is not None:
            session = TrialSession(maker, trial.seconds, report=report, interpolate=interpolate)
        else:
            session = Session(levels or [], report=report, interpolate=interpolate)
        stop = _StopRequest()
        # Installed before SDL starts: SDL keeps a handler it finds rather than putting in its own.
        previous = _install_handlers(stop)
        try:
            _play(session, stop, size, fps, title, variant, faults or FaultSpec())
        finally:
            if sink is not None:
                sink.close()
            _restore_handlers(previous)
    finally:
        if maker is not None:
            maker.close()
    return 0


def _play(
    session: Session,
    stop: _StopRequest,
    size: tuple[int, int],
    fps: int,
    title: str,
    variant: Variant,
    faults: FaultSpec,
) -> None:
    """The frame loop: input (every queued event, or one sample a frame), then a frame drawn and shown."""
    import pygame

    from flowbot.game.presslog import PressLog
    from flowbot.game.render import EXPOSING_EVENTS, ShownFrame
    from flowbot.game.view import GameView

    shown = False
    popup = None
    presses = PressLog()
    try:
        try:
            pygame.display.init()
            pygame.font.init()
            screen = pygame.display.set_mode(size, pygame.RESIZABLE)  # everything scales with it
        except pygame.error as error:
            raise DisplayError(f"cannot open the game window: {error}") from None
        # Without a display SDL falls back to drawing nowhere; only run unseen when asked to.
        if pygame.display.get_driver() in HIDDEN_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
            raise DisplayError("no display to open the game window on (set DISPLAY, or run it under Xvfb)")
        pygame.display.set_caption(title)
        view = GameView(session, variant, faults=Faults(faults))
        if faults.popup_window or faults.next_under_popup:
            from flowbot.game.popup import PopupWindow, game_window_id

            popup = PopupWindow(game_window_id(pygame.display.get_driver(), pygame.display.get_wm_info()))
        clock = pygame.time.Clock()
        held = False
        shown_frame = ShownFrame()

        def draw(exposed: bool = False) -> None:
            """Draw the session's current state and show it (unless the window shows it already); the
            view keeps the layout for the next events."""
            # The display surface, asked for each frame: a resized window has a new one.
            surface = pygame.display.get_surface() or screen
            view.draw(surface)
            if shown_frame.changed(surface, exposed):
                pygame.display.flip()

        draw()
        shown = True
        session.restart_clock()
        presses.opened("flow", pygame.display.get_wm_info())
        print(READY, flush=True)

        def press(x: float, y: float) -> None:
            """A press of the main button, taken by the view, and noted with the level it landed on."""
            level, solved = session.level, session.board.complete
            presses.press(view.pointer_down(x, y), level, solved)

        while not stop.requested:
            exposed = False
            # Every event in order: a stroke is only right if no motion between two cells is lost.
            for event in pygame.event.get():
                exposed = exposed or event.type in EXPOSING_EVENTS
                closing = event.type == pygame.QUIT
                if event.type == pygame.KEYDOWN and not view.controls.key(pygame.key.name(event.key)):
                    closing = True  # a key that quits (Esc, q)
                if closing:
                    stop.requested = True
                elif variant.sample_per_frame:
                    continue  # the pointer is read once below, as games that poll it do
                elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                    press(*event.pos)
                elif event.type == pygame.MOUSEMOTION:
                    view.pointer_move(*event.pos, held=bool(event.buttons[0]))
                elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
                    view.pointer_up()
            if variant.sample_per_frame:
                pressed = pygame.mouse.get_pressed()[0]
                x, y = pygame.mouse.get_pos()
                if pressed and not held:
                    press(x, y)
                elif pressed:
                    view.pointer_move(x, y, held=True)
                elif held:
                    view.pointer_up()
                held = pressed
            if popup is not None and popup.pressed():
                moves_on = view.faults.popup_pressed()
                presses.press("popup" if moves_on else "popup close", session.level, session.board.complete)
                if moves_on:
                    session.next()  # the popup's "Next level"
            if stop.requested:
                break
            view.tick()
            draw(exposed)
            if popup is not None:  # opened on a win, closed by its button or when the next level starts
                popup.show(view.popup(), view.popup_centre(), view.layout.scale if view.layout else 1.0)
            clock.tick(fps)
    finally:
        if shown:  # a level counts as shown once its first frame was on screen
            session.leave()
        if popup is not None:
            popup.close()
        presses.close()
        pygame.quit()


def _install_handlers(stop: Callable[[int, Any], None]) -> dict[int, Any]:
    """Route SIGTERM and SIGINT to `stop`; returns the handlers they replaced (none off the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return {}  # Python only lets the main thread set handlers
    return {number: signal.signal(number, stop) for number in (signal.SIGTERM, signal.SIGINT)}


def _restore_handlers(previous: dict[int, Any]) -> None:
    """Put back the handlers `_install_handlers` replaced."""
    for number, handler in previous.items():
        signal.signal(number, handler)


# --- command line ----------------------------------------------------------------------------------


def _window_size(text: str) -> tuple[int, int]:
    """An argparse type for a window size written WxH, e.g. 540x960."""
    width, _, height = text.lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size WxH: {text!r}") from None
    if min(size) < 100:
        raise argparse.ArgumentTypeError(f"window {text} is too small (at least 100x100)")
    if max(size) > MAX_SIDE or size[0] * size[1] > MAX_PIXELS:
        raise argparse.ArgumentTypeError(
            f"window {text} is too large (at most {MAX_SIDE} pixels a side and {MAX_PIXELS:,} in all)"
        )
    return size


def build_parser() -> argparse.ArgumentParser:
    """The game's command line."""
    parser = argparse.ArgumentParser(prog="flowbot game", description="Play Flow Free levels.")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--pack", metavar="NAME", help="a shipped pack (default demo; see --list-packs)")
    source.add_argument("--folder", metavar="DIR", help="a folder of puzzle files, played in name order")
    parser.add_argument("--list-packs", action="store_true", help="print the shipped packs and exit")
    parser.add_argument("--results", metavar="FILE", help="append one JSON line per level played")
    parser.add_argument("--size", type=_window_size, default=(540, 960), metavar="WxH", help="window size")
    parser.add_argument("--fps", type=positive_int, default=60, help="frames per second (default 60)")
    parser.add_argument("--interpolate", action="store_true", help="fill straight pointer jumps cell by cell")
    parser.add_argument("--title", default="flowbot game", help="window title")
    trial = parser.add_argument_group("time trial (fresh generated levels against the clock)")
    trial.add_argument(
        "--time-trial",
        type=positive_float,
        metavar="SECONDS",
        help="play generated levels until the time is up (the clock starts at the first press)",
    )
    trial.add_argument(
        "--board", metavar="RxC", help="generated levels' size, rows x columns, e.g. 5x5 (a variant: 7x7)"
    )
    trial.add_argument(
        "--seed",
        type=int,
        help="generated levels (or Number Match boards, or the faults' dice) from this seed"
        " (default: a fresh one)",
    )
    sister = parser.add_argument_group("Flow's sister games (generated levels)")
    sister.add_argument(
        "--variant",
        choices=(*VARIANTS, SHAPES_VARIANT),
        help="generated Bridges, Hexes, Warps or Shapes levels (with --board, --seed, --levels, or a time"
        " trial; Shapes boards take --shape, not --board)",
    )
    sister.add_argument(
        "--shape",
        choices=SHAPES,
        help=f"with --variant shapes: the board, {', '.join(SHAPES)} (default {DEFAULT_SHAPE})",
    )
    sister.add_argument(
        "--levels",
        type=positive_int,
        default=VARIANT_LEVELS,
        metavar="N",
        help="how many levels (default 10)",
    )
    numbermatch = parser.add_argument_group("Number Match (instead of Flow)")
    numbermatch.add_argument(
        "--numbermatch", action="store_true", help="play Number Match, stage after stage"
    )
    numbermatch.add_argument(
        "--start", type=int, choices=STARTS, default=STARTS[0], help="digits on a new board (default 27)"
    )
    numbermatch.add_argument(
        "--adds", type=ranged(ADDS_RANGE), default=4, help='uses of "+" per board, 0-9 (default 4)'
    )
    numbermatch.add_argument(
        "--rules",
        metavar="NAME=VALUE,...",
        help="the rules the boards play by, named as auto-clear's --rules (default: the phone game's);"
        " ends-without-pairs=yes ends a board the moment no pair is left, adds or not",
    )
    broken = parser.add_argument_group("faults (make a bot's verdict lie; --results stays the judge)")
    broken.add_argument(
        "--fault",
        type=parse_fault,
        action="append",
        default=[],
        metavar="NAME[:P]",
        help=f"one of {', '.join(FAULTS)}; lossy, last-step and lost-release take a chance P, e.g."
        " lossy:0.2"
        " (repeatable; the dice are seeded by --seed, else 0)",
    )
    looks = parser.add_argument_group("variants (imitate other Flow games)")
    looks.add_argument(
        "--line-color", type=_rgb, metavar="R,G,B", help="grid line colour (default: the theme's)"
    )
    looks.add_argument("--tiles", action="store_true", help="no grid lines: cells drawn as tiles with gaps")
    looks.add_argument(
        "--palette", choices=sorted(PALETTES), default="current", help="the colours of the dots"
    )
    looks.add_argument(
        "--dot-size", type=float, default=0.35, metavar="F", help="dot radius, share of a cell"
    )
    looks.add_argument("--no-dialog", action="store_true", help="the next level loads at once, no dialog")
    looks.add_argument("--shift", action="store_true", help="the board moves on screen after each level")
    looks.add_argument(
        "--sample-per-frame", action="store_true", help="read the pointer once per frame, not every event"
    )
    looks.add_argument(
        "--no-grid",
        action="store_true",
        help="no lines or tiles: one rounded panel, a faint dot per empty cell",
    )
    looks.add_argument(
        "--theme", choices=THEMES, default="dark", help="dark (default) or light page and board"
    )
    looks.add_argument("--glyphs", action="store_true", help="a white shape inside each dot, one per colour")
    looks.add_argument(
        "--next-button",
        choices=NEXT_BUTTONS,
        default="flow",
        help="after a win: Flow's dialog over the board (flow), a plain grey button mid-window (text), or "
        "the whole window dimmed behind a card in Finnish, its move-on button ending in an arrow (modal);"
        " always: a plain Next Level button under the board at all times, moving on won or not",
    )
    looks.add_argument(
        "--win-banner", action="store_true", help='"You won!" above the board on a win, pushing it down'
    )
    looks.add_argument(
        "--header", action="store_true", help="the level's title just above the board (level, size, flows)"
    )
    looks.add_argument(
        "--board-px", type=int, metavar="N", help="the board N pixels wide at the window's top-left"
    )
    looks.add_argument(
        "--clock",
        choices=CLOCKS,
        help="a clock in a numbers line under the title: stops once the level is taken, runs on, or "
        "counts down (down) and stops once it is taken",
    )
    looks.add_argument(
        "--score",
        choices=SCORES,
        help="a score in that line: rises when a level is taken (win), or for each flow joined (flows)",
    )
    return parser


def _rgb(text: str) -> tuple[int, int, int]:
    """'R,G,B' with each part 0-255."""
    try:
        red, green, blue = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected R,G,B, got {text!r}") from None
    if not all(0 <= part <= 255 for part in (red, green, blue)):
        raise argparse.ArgumentTypeError(f"colour parts must be 0-255, got {text!r}")
    return red, green, blue


def variant_from(args: argparse.Namespace) -> Variant:
    """The game variant the command line asks for."""
    # Below 0.3 a dot is hardly wider than a pipe (a third of a cell), and neither game nor reader
    # could tell them apart.
    if not 0.3 <= args.dot_size <= 0.48:
        raise UsageError(f"--dot-size {args.dot_size}: dots are 0.3 to 0.48 of a cell in radius")
    light = args.theme == "light"
    if args.board_px is not None and not MIN_BOARD_PX <= args.board_px <= args.size[0]:
        raise UsageError(
            f"--board-px {args.board_px}: the board must be {MIN_BOARD_PX} to {args.size[0]} pixels wide"
            " (the window's width)"
        )
    theme = Theme(
        line_rgb=args.line_color or (LIGHT_LINES if light else DARK_LINES),
        tiles=args.tiles,
        palette=args.palette,
        dot_radius=args.dot_size,
        light=light,
        grid=not args.no_grid,
        glyphs=args.glyphs,
    )
    look = Look(
        board_px=args.board_px,
        header=args.header,
        win_banner=args.win_banner,
        next_button=args.next_button,
        skip_arrows=any(fault.name == "skip-arrows" for fault in args.fault),
        clock=args.clock,
        score=args.score,
    )
    return Variant(
        theme, dialog=not args.no_dialog, shift=args.shift, sample_per_frame=args.sample_per_frame, look=look
    )


def trial_from(args: argparse.Namespace) -> TrialSpec | None:
    """The time trial the command line asks for, or None; its options alone, or with a pack, are errors."""
    if args.time_trial is None:
        seed_unused = args.seed is not None and not args.fault
        if (args.board is not None or seed_unused) and args.variant is None:
            raise UsageError(
                "--board and --seed are for generated levels (or --seed for --fault's dice):"
                " add --time-trial SECONDS or --variant"
            )
        return None
    if args.pack is not None or args.folder is not None:
        raise UsageError("a time trial plays generated levels: leave out --pack and --folder")
    if args.variant == SHAPES_VARIANT:
        return shapes_trial_spec(args.time_trial, args.shape or DEFAULT_SHAPE, args.seed)
    return trial_spec(args.time_trial, args.board, args.seed, args.variant)


def levels_for(args: argparse.Namespace) -> list[Puzzle]:
    """The levels to play: a sister game's generated ones (--variant), else a pack or a folder."""
    if args.variant is None:
        return levels_from(args.pack, args.folder)
    if args.pack is not None or args.folder is not None:
        raise UsageError("--variant plays generated levels: leave out --pack and --folder")
    seed = fresh_seed() if args.seed is None else args.seed
    if args.variant == SHAPES_VARIANT:
        make = generated_shapes(args.shape or DEFAULT_SHAPE, seed)
    else:
        rows, cols = board_size(args.board or VARIANT_BOARD, args.variant)
        make = generated(rows, cols, seed, args.variant)
    return [make(index) for index in range(args.levels)]


def check_shape_options(args: argparse.Namespace) -> None:
    """Refuse --shape without Shapes levels, and a size for them (it comes with the kind of board)."""
    shapes = args.variant == SHAPES_VARIANT
    if args.shape is not None and not shapes:
        raise UsageError("--shape picks a Shapes board: add --variant shapes")
    if shapes and args.board is not None:
        raise UsageError("--board sizes a grid: a Shapes board's size comes with --shape")


def _trial_faults(faults: FaultSpec) -> None:
    """Refuse the faults a time trial cannot play: it already puts the next level in place at a win."""
    refused = (
        ("next-in-place", faults.next_in_place),
        ("no-sign", faults.no_sign),
        ("win-screen", faults.win_screen),
        ("next-under-popup", faults.next_under_popup),
    )
    for name, on in refused:
        if on:
            raise UsageError(
                f"--fault {name}: a time trial puts the next level in place at once after a win;"
                " leave out --time-trial"
            )


def _numbermatch(args: argparse.Namespace) -> int:
    """Run the Number Match window; Flow's level sources and time trial do not go with it."""
    from flowbot.game.numbermatch import run_numbermatch_game

    if args.pack is not None or args.folder is not None or args.time_trial is not None or args.variant:
        raise UsageError(
            "--numbermatch deals its own boards: leave out --pack, --folder, --time-trial and --variant"
        )
    if args.fault:
        raise UsageError("--fault is for Flow's levels: leave it out with --numbermatch")
    return run_numbermatch_game(
        seed=args.seed, start=args.start, rules=numbermatch_rules(args.adds, args.rules),
        results=args.results, size=args.size, fps=args.fps, title=args.title,
    )  # fmt: skip


def numbermatch_rules(adds: int, spec: str | None) -> Rules:
    """The bundled Number Match game's rules: the phone game's with `adds` uses of "+", changed by
    --rules; UsageError for a rule the game cannot play."""
    try:
        fields = parse_rules(spec or "")
    except NumberMatchInputError as error:
        raise UsageError(f"--rules: {error}") from None
    if "adds_limited" in fields:
        raise UsageError("--rules adds=...: the game counts its adds; say how many with --adds")
    rules = Rules(adds=adds, **fields)
    # A game that adds only when no pair is left (or adds by itself then) cannot also end the board then.
    if rules.ends_without_pairs and (rules.add_when_stuck or rules.auto_add):
        raise UsageError("--rules ends-without-pairs=yes: not with add-when-stuck=yes or auto-add=yes")
    return rules


def main(argv: Sequence[str] | None = None) -> int:
    """The game's entry point: errors become one line on stderr and the error's exit code."""
    args = build_parser().parse_args(argv)
    try:
        if args.list_packs:
            print("\n".join(list_packs()))
            return 0
        if args.numbermatch:
            return _numbermatch(args)
        if args.rules is not None:
            raise UsageError("--rules is for --numbermatch")
        check_shape_options(args)
        trial = trial_from(args)
        levels = None if trial is not None else levels_for(args)
        faults = FaultSpec.of(args.fault, args.seed)
        if trial is not None:
            _trial_faults(faults)
            if args.clock is not None or args.score is not None:
                raise UsageError("--clock and --score: a time trial shows its own clock; leave them out")
        return run_game(
            faults=faults,
            trial=trial,
            levels=levels,
            results=args.results,
            size=args.size,
            fps=args.fps,
            interpolate=args.interpolate,
            title=args.title,
            variant=variant_from(args),
        )
    except FlowbotError as error:
        print(f"flowbot game: {error}", file=sys.stderr)
        return error.exit_code


if __name__ == "__main__":
    sys.exit(main())
