"""The `flowbot` command: build the parser from the command registry, run one command, and map
errors to exit codes (the one error boundary)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from types import ModuleType

from flowbot import __version__
from flowbot.commands import command, commands
from flowbot.commands.solve import DEFAULT_SOLVE_TIMEOUT
from flowbot.errors import DisplayLost, FlowbotError, Stopped, StreamError, UsageError

__all__ = ["DEFAULT_SOLVE_TIMEOUT", "Parser", "build_parser", "main", "run"]


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, as wide as the terminal, found without `shutil`.

    argparse makes a formatter for every option it adds and sizes it with `shutil`, whose import
    (with bz2, lzma and zlib) cost a small `flowbot solve` about 2 ms, help or no help.
    """

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        """The layout of `prog`'s help, `width` defaulting to the terminal's columns less two."""
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _terminal_columns() -> int:
    """The terminal's width as shutil.get_terminal_size finds it: $COLUMNS, then stdout's, else 80."""
    with contextlib.suppress(ValueError):
        columns = int(os.environ.get("COLUMNS", ""))
        if columns > 0:
            return columns
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0  # no stdout, a closed one, or not a terminal
    return columns if columns > 0 else 80


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are UsageError (exit 64, one line), not argparse's exit 2."""

    def __init__(self, *args, formatter_class: type[argparse.HelpFormatter] = HelpFormatter, **kwargs):
        """argparse's parser, with flowbot's help formatter unless another is given."""
        super().__init__(*args, formatter_class=formatter_class, **kwargs)

    def error(self, message: str):
        """Raise instead of printing the usage and exiting: `main` reports every error the same way."""
        command = self.prog.removeprefix("flowbot").strip()
        raise UsageError(f"{command + ': ' if command else ''}{message} (see {self.prog} --help)")


@contextlib.contextmanager
def _own_parser_errors() -> Iterator[None]:
    """While a command that parses its own arguments runs (`flowbot game`), argparse's errors are
    UsageError too (exit 64, one line), like every other command's, not argparse's exit 2."""
    saved = argparse.ArgumentParser.error
    argparse.ArgumentParser.error = Parser.error
    try:
        yield
    finally:
        argparse.ArgumentParser.error = saved


def build_parser(only: ModuleType | None = None) -> argparse.ArgumentParser:
    """The argument parser for every registered command, or for the `only` one (subparsers are of the
    same class, so also exit 64)."""
    parser = Parser(prog="flowbot", description="Read, solve and play Flow Free puzzles.")
    parser.add_argument("--version", action="version", version=f"flowbot {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in commands() if only is None else [only]:
        raw = getattr(module, "RAW", False)
        sub = subparsers.add_parser(
            module.NAME, help=module.HELP, description=getattr(module, "DESCRIPTION", None), add_help=not raw
        )
        module.add_arguments(sub)
        sub.set_defaults(command_module=module)
    return parser


def run(argv: Sequence[str] | None = None) -> int:
    """Parse arguments and run the chosen command; FlowbotError propagates to `main`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = _named_command(argv)
    if chosen is not None and getattr(chosen, "RAW", False) and argv[:1] == [chosen.NAME]:
        with _own_parser_errors():
            return chosen.run_raw(argv[1:])
    # A command line naming a command needs that command's parser alone: the other modules (and
    # their options) would only slow its start; without one, help and errors list every command.
    parser = build_parser(chosen)
    args = parser.parse_args(argv)
    # A command that makes no log records (LOGS = False) runs without the logging module, a few ms
    # of a small solve's start, unless -v asks for the records of what it calls.
    if args.verbose or getattr(getattr(args, "command_module", None), "LOGS", True):
        _setup_logging(args.verbose)
    if args.command is None:
        parser.print_help(sys.stderr)
        raise UsageError("no command given")
    return args.command_module.run(args)


def _named_command(argv: Sequence[str]) -> ModuleType | None:
    """The module of the command `argv` names: its first word that is no option (flowbot's own
    options take no value), if that is a command."""
    word = next((word for word in argv if not word.startswith("-")), None)
    return None if word is None else command(word)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: the one place errors become messages and exit codes (the `flowbot` program
    runs it through flowbot.__main__.entry). A closed stdout is refused before anything runs (74),
    one that fails later ends the run with 74, or 141 when its reader went away; stderr is never
    needed: the status is the same without it."""
    from flowbot.streams import Streams

    streams = Streams().take()
    try:
        with _stop_signals_raise():
            try:
                code = _outcome(argv, streams)
            except KeyboardInterrupt as stop:  # a stop signal while the last one was being reported
                code = getattr(stop, "exit_code", 130)
        return streams.finish(code)
    finally:
        streams.restore()


def _outcome(argv: Sequence[str] | None, streams) -> int:
    """Run the command line and turn what it raised into a message on stderr and an exit status."""
    from flowbot.streams import BROKEN_PIPE, say

    try:
        if streams.stdout_closed:
            raise StreamError(
                "stdout is closed: flowbot prints its results there (use >/dev/null to drop them)"
            )
        return run(argv)
    except FlowbotError as error:
        say(f"flowbot: {error}")
        return error.exit_code
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM and SIGHUP as Stopped
        say(f"flowbot: {stop if isinstance(stop, Stopped) else 'interrupted'}")
        return getattr(stop, "exit_code", 130)
    except BrokenPipeError:
        lost = _display_gone()
        if lost is not None:  # the pipe that broke was the display's, not our output's
            say(f"flowbot: {lost}")
            return lost.exit_code
        # The reader went away (e.g. `| head`); exit quietly like other Unix tools.
        streams.pipe_broken = True
        return BROKEN_PIPE
    except Exception:
        lost = _display_gone()
        if lost is None:
            raise
        say(f"flowbot: {lost}")
        return lost.exit_code


@contextlib.contextmanager
def _stop_signals_raise() -> Iterator[None]:
    """While a command runs, SIGTERM and SIGHUP raise Stopped where the program is, as Ctrl-C raises
    KeyboardInterrupt, so that every way out cleans up (temp files, child processes, the mouse
    button) and ends with 143 or 129. A signal set to be ignored (nohup) stays ignored; a command
    with handlers of its own (the live loops, the game) puts them in while it runs."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise Stopped(signum, signal.Signals(signum).name)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None or signal.getsignal(number) is not signal.SIG_DFL:
            continue
        try:
            previous[number] = signal.signal(number, stop)
        except ValueError:  # not the main thread: signals are the main thread's
            break
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


def _display_gone() -> DisplayLost | None:
    """For an error that no adapter turned into a FlowbotError: DisplayLost when this process used a
    display that is gone now (a display library's own error from a call no adapter wraps), else None."""
    from flowbot.display import display_alive, display_lost, display_used, mark_lost

    if display_lost() or (display_used() and not display_alive()):
        return DisplayLost(mark_lost("the command ran"))
    return None


def _setup_logging(verbosity: int) -> None:
    """Send log records to stderr; -v shows info, -vv debug."""
    import logging

    level = logging.WARNING - 10 * min(verbosity, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
