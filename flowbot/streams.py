"""The standard streams at the one error boundary: closed ones stood in for, a write that fails turned
into one status (74, or 141 for a reader gone), and text the terminal's encoding lacks escaped."""

from __future__ import annotations

import contextlib
import errno
import os
import sys

from flowbot.errors import StreamError

BROKEN_PIPE = 141  # what a shell shows for a process killed by SIGPIPE: 128 + 13


class _Output:
    """Stands in for stdout: writes go through; a broken pipe is noted and raised (the run stops), any
    other failure to write (a full disk, a descriptor open for reading only) becomes StreamError."""

    def __init__(self, stream, streams: Streams) -> None:
        self._stream = stream
        self._streams = streams

    def write(self, text: str) -> int:
        """Write through to the real stream."""
        return self._guarded(self._stream.write, text)

    def writelines(self, lines) -> None:
        """Write every line through to the real stream."""
        self._guarded(self._stream.writelines, lines)

    def flush(self) -> None:
        """Flush the real stream."""
        self._guarded(self._stream.flush)

    def _guarded(self, call, *args):
        """`call(*args)`, its OSError noted and turned into the boundary's own errors."""
        try:
            return call(*args)
        except BrokenPipeError:
            self._streams.pipe_broken = True
            self._streams.silence(self._stream)
            raise
        except OSError as error:
            self._streams.failed = f"stdout: cannot write: {error.strerror or error}"
            self._streams.silence(self._stream)
            raise StreamError(self._streams.failed) from None

    def __getattr__(self, name: str):
        """Everything else (fileno, isatty, encoding, buffer, ...) is the real stream's."""
        return getattr(self._stream, name)


class _Diagnostics:
    """Stands in for stderr: what cannot be written there is dropped, so that messages never change
    a run's exit status (the status says what happened whether or not anyone reads stderr)."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self._dead = False

    def write(self, text: str) -> int:
        """Write through to the real stream while it takes writes."""
        self._quietly(self._stream.write, text)
        return len(text)

    def writelines(self, lines) -> None:
        """Write every line through to the real stream while it takes writes."""
        self._quietly(self._stream.writelines, lines)

    def flush(self) -> None:
        """Flush the real stream while it takes writes."""
        self._quietly(self._stream.flush)

    def _quietly(self, call, *args) -> None:
        """`call(*args)` unless an earlier write failed; a failure marks the stream dead."""
        if self._dead:
            return
        try:
            call(*args)
        except (OSError, ValueError):  # ValueError: the stream was closed by someone
            self._dead = True

    def __getattr__(self, name: str):
        """Everything else is the real stream's."""
        return getattr(self._stream, name)


class Streams:
    """The process's standard streams for one command: `take` before it runs, `finish` after."""

    def __init__(self) -> None:
        self.stdout_closed = False
        self.pipe_broken = False
        self.failed: str | None = None  # why stdout could not be written, once it could not
        self._saved: tuple = ()
        self._errors: list[tuple[object, str]] = []

    def take(self) -> Streams:
        """Stand in for the standard streams (see the classes above); returns self."""
        closed = _fill_closed_descriptors()
        self.stdout_closed = 1 in closed or sys.stdout is None
        self._saved = (sys.stdin, sys.stdout, sys.stderr)
        if sys.stdin is None and 0 in closed:  # reads see an end of file, as from /dev/null
            sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's own
        if sys.stderr is None:  # messages go nowhere, and the exit status is the same as with stderr
            sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's own
        for stream in (sys.stdout, sys.stderr):
            self._escape_unencodable(stream)
        if sys.stdout is not None:
            sys.stdout = _Output(sys.stdout, self)
        sys.stderr = _Diagnostics(sys.stderr)
        return self

    def _escape_unencodable(self, stream) -> None:
        """Have `stream` write what its encoding lacks (a file name that is not UTF-8, a character
        the locale has not) as a backslash escape instead of failing; its old setting is kept."""
        errors = getattr(stream, "errors", None)
        if errors != "strict" or not hasattr(stream, "reconfigure"):
            return  # surrogateescape (the C locale) already writes a name's own bytes
        try:
            stream.reconfigure(errors="backslashreplace")
        except (OSError, ValueError):
            return
        self._errors.append((stream, errors))

    def silence(self, stream) -> None:
        """After a write to the process's stdout failed, point it at /dev/null: the output is lost
        anyway, and Python's own flush at exit must not fail once more (it would exit 120)."""
        if stream is not sys.__stdout__:
            return  # a stream of a test or a caller: not ours to redirect
        try:
            descriptor = stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
        except (OSError, ValueError):
            return
        try:
            os.dup2(null, descriptor)
        finally:
            os.close(null)

    def finish(self, code: int) -> int:
        """Flush stdout and return the run's status: 141 when its reader went away, 74 when it could
        not be written (the message on stderr), else `code`."""
        stdout = sys.stdout
        if isinstance(stdout, _Output) and not self.pipe_broken and self.failed is None:
            with contextlib.suppress(BrokenPipeError, StreamError):
                stdout.flush()
        if self.pipe_broken:
            return BROKEN_PIPE
        if self.failed is not None:
            if code != StreamError.exit_code:  # the command has not said so already
                say(f"flowbot: {self.failed}")
            return StreamError.exit_code
        return code

    def restore(self) -> None:
        """Put back the streams and settings `take` replaced."""
        for stream, errors in self._errors:
            with contextlib.suppress(OSError, ValueError):
                stream.reconfigure(errors=errors)
        self._errors.clear()
        if self._saved:
            sys.stdin, sys.stdout, sys.stderr = self._saved
            self._saved = ()


def _fill_closed_descriptors() -> set[int]:
    """Open /dev/null on each of descriptors 0, 1 and 2 that is closed; the ones that were.

    A closed one would otherwise be taken by the next file opened (an output file would become
    stdout, and a child process would write its messages into it)."""
    closed = set()
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError as error:
            if error.errno != errno.EBADF:
                continue
            closed.add(descriptor)
            null = os.open(os.devnull, os.O_RDWR)
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)
    return closed


def say(line: str) -> None:
    """Print one line on stderr, if it can be printed at all."""
    if sys.stderr is None:
        return
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr)
