"""A progress bar on stderr for batches, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
import time

# typing is for the type checker alone: its import is a few percent of a small solve's start-up.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


class Progress:
    """Counts finished items and redraws one status line; silent when not on a terminal."""

    def __init__(
        self, total: int, label: str, stream: TextIO | None = None, width: int = 30, enabled: bool = True
    ) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.width = width
        self.done = 0
        self.started = time.perf_counter()
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = enabled and bool(isatty and isatty()) and total > 1

    def advance(self, note: str = "") -> None:
        """Mark one more item done and redraw the bar."""
        self.done += 1
        if not self.enabled:
            return
        filled = self.width * self.done // self.total
        elapsed = time.perf_counter() - self.started
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {elapsed:5.1f}s {note[:30]:30s}")
        self.stream.flush()

    def clear_line(self) -> None:
        """Blank the bar so a message can be printed on a clean line; the next advance redraws it."""
        if self.enabled and self.done:
            self.stream.write("\r" + " " * (len(self.label) + self.width + 60) + "\r")

    def close(self) -> None:
        """End the status line so later output starts on a fresh line."""
        if self.enabled and self.done:
            self.stream.write("\n")
            self.stream.flush()
