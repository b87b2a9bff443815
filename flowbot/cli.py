"""The `flowbot` command: build the parser from the command registry, run one command, and map
errors to exit codes (the one error boundary)."""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator, Sequence

from flowbot import __version__
from flowbot.commands import commands
from flowbot.commands.solve import DEFAULT_SOLVE_TIMEOUT
from flowbot.errors import DisplayLost, FlowbotError, UsageError

__all__ = ["DEFAULT_SOLVE_TIMEOUT", "Parser", "build_parser", "main", "run"]


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are UsageError (exit 64, one line), not argparse's exit 2."""

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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every registered command (subparsers are of the same class, so also
    exit 64)."""
    parser = Parser(prog="flowbot", description="Read, solve and play Flow Free puzzles.")
    parser.add_argument("--version", action="version", version=f"flowbot {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in commands():
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
    for module in commands():
        if getattr(module, "RAW", False) and argv[:1] == [module.NAME]:
            with _own_parser_errors():
                return module.run_raw(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    _setup_logging(args.verbose)
    if args.command is None:
        parser.print_help(sys.stderr)
        raise UsageError("no command given")
    return args.command_module.run(args)


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
        lost = _display_gone()
        if lost is not None:  # the pipe that broke was the display's, not our output's
            print(f"flowbot: {lost}", file=sys.stderr)
            return lost.exit_code
        # The reader went away (e.g. `| head`); exit quietly like other Unix tools.
        sys.stderr.close()
        return 141
    except Exception:
        lost = _display_gone()
        if lost is None:
            raise
        print(f"flowbot: {lost}", file=sys.stderr)
        return lost.exit_code


def _display_gone() -> DisplayLost | None:
    """For an error that no adapter turned into a FlowbotError: DisplayLost when this process used a
    display that is gone now (a display library's own error from a call no adapter wraps), else None."""
    from flowbot.display import display_alive, display_lost, display_used, mark_lost

    if display_lost() or (display_used() and not display_alive()):
        return DisplayLost(mark_lost("the command ran"))
    return None


def _setup_logging(verbosity: int) -> None:
    """Send log records to stderr; -v shows info, -vv debug."""
    level = logging.WARNING - 10 * min(verbosity, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
