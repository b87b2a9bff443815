"""The game's own account of the presses it takes, for tests that watch a bot from outside.

With FLOWBOT_GAME_PRESS_LOG naming a file, the game appends one JSON line when its window is drawn
(`{"event": "open", "pid", "window", "display", "game"}`: which process and X window are the game) and one per
press of the main button it acts on (`{"event": "press", "pid", "time", "hit", "level", "solved"}`:
what the press hit, on which level, and whether that level was solved just before the press; `time`
is time.monotonic(), one clock for every process of the machine). Unset, nothing is written.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping

from flowbot.game.session import ResultsFile

ENV = "FLOWBOT_GAME_PRESS_LOG"
# What a press hit that leaves the level shown for another one (or the same one again).
LEVEL_CHANGES = frozenset(
    {"arrow next", "arrow previous", "button next", "button previous", "dialog", "popup", "win continue",
     "win levels"}
)  # fmt: skip

__all__ = ["ENV", "LEVEL_CHANGES", "PressLog"]


class _Line:
    """One line of the log: a JSON object."""

    def __init__(self, record: dict[str, object]) -> None:
        self.record = record

    def to_json(self) -> str:
        """The line, without its newline."""
        return json.dumps(self.record)


class PressLog:
    """Appends the game's opening and each press it takes to the file FLOWBOT_GAME_PRESS_LOG names."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        path = environ.get(ENV)
        self._sink = ResultsFile(path) if path else None

    def opened(self, game: str, wm_info: Mapping[str, object]) -> None:
        """The window is drawn: say which process and window are the game."""
        window = wm_info.get("window")
        window = window if isinstance(window, int) else None
        self._write({"event": "open", "game": game, "window": window, "display": os.environ.get("DISPLAY")})

    def press(self, hit: str, level: int, solved: bool) -> None:
        """A press was taken: what it hit, on which level, solved or not just before it."""
        self._write({"event": "press", "time": round(time.monotonic(), 4), "hit": hit, "level": level,
                     "solved": solved})  # fmt: skip

    def close(self) -> None:
        """Close the file; later lines are dropped."""
        if self._sink is not None:
            self._sink.close()

    def _write(self, record: dict[str, object]) -> None:
        """One line, flushed at once (a test reads it while the game runs), when a file is named."""
        if self._sink is not None:
            self._sink.write(_Line({**record, "pid": os.getpid()}))
