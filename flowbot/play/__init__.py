"""A Flow game in the terminal: `flowbot play [PATH]` (see flowbot.play.app)."""

from flowbot.play.app import run_play

__all__ = ["run_play"]
