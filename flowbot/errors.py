"""The one exception family flowbot raises; the CLI maps each kind to an exit code."""

from __future__ import annotations


class FlowbotError(Exception):
    """Base of every error flowbot reports to a user instead of a traceback."""

    exit_code = 2


class PuzzleError(FlowbotError):
    """A puzzle that breaks the rules of the model (endpoint counts, shape, characters)."""


class FormatError(FlowbotError):
    """A file whose content cannot be read as any supported puzzle format."""


class InputFileError(FlowbotError):
    """A file that is missing, unreadable, empty or not text."""


class OutputFileError(FlowbotError):
    """A file flowbot was asked to write could not be written (the old file, if any, is left whole)."""

    exit_code = 73  # EX_CANTCREAT


class SolveError(FlowbotError):
    """The solver could not run (bad options, an internal limit)."""

    exit_code = 3


class UsageError(FlowbotError):
    """A command line that asks for something flowbot cannot do."""

    exit_code = 64


class UnsupportedBoardError(FlowbotError):
    """A puzzle of a kind the command does not work on (`hint` and `rate` refuse bridges boards,
    whose crossings need rules of their own): an input it cannot use, like an unreadable one."""


class CaptureError(FlowbotError):
    """An image in which no board can be read, or whose reading cannot be right."""


class UnreadableBoardError(CaptureError):
    """A board was found but is of a kind flowbot cannot read yet (Shapes: cubes, rings)."""


class ScaleError(FlowbotError):
    """What the screen shows and where the mouse points do not agree by one factor (HiDPI, Retina,
    several monitors), so a press could land elsewhere: the run stops before any press."""

    exit_code = 12


class StopRun(FlowbotError):
    """A live run stopped to keep the desktop safe; the mouse button has been released."""


class DisplayLost(StopRun):
    """The display went away mid-run (its X server ended, or the connection to it broke): the run
    stops with a summary of what it did; nothing is held on a display that is gone."""

    exit_code = 13


class StreamError(FlowbotError):
    """stdout is closed or cannot be written (`>&-`, a full disk): what the command prints is lost."""

    exit_code = 74  # EX_IOERR


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the program is, as Ctrl-C raises KeyboardInterrupt: what cleans
    up after Ctrl-C (a temp file removed, a child process ended) runs for them too; the status is
    128 + the signal's number."""

    def __init__(self, signum: int, name: str) -> None:
        super().__init__(f"interrupted by {name}")
        self.signum = signum
        self.exit_code = 128 + signum


def stop_words(stop: KeyboardInterrupt) -> str:
    """What a stop by Ctrl-C, SIGTERM or SIGHUP says, in the words a live loop's own stops use."""
    return str(stop) if isinstance(stop, Stopped) else "interrupted (Ctrl-C)"
