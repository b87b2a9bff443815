"""Argument types shared by flowbot's command lines (the main one and the game's), and the one table of
sane ranges for numeric settings that both the command line and calibration profiles check against.

Every number is refused when it is NaN or infinite: no setting has a use for either, and both only
fail later, far from the option that caused them.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Range:
    """The values a numeric setting may take: whole or not, and its inclusive bounds."""

    whole: bool
    low: float
    high: float
    unit: str = ""

    def describe(self) -> str:
        """The range as a person reads it, e.g. '0 to 5 s'."""
        low, high = (int(self.low), int(self.high)) if self.whole else (_short(self.low), _short(self.high))
        return f"{low} to {high}{' ' + self.unit if self.unit else ''}"


# The pointer settings' ranges. A cell needs at most a few points; 100 is far above any game's need
# and keeps a stroke's point list small (1e9 points per cell would take the memory of the machine).
# Pauses over 5 s per move would make one level take hours.
POINTER_RANGES: dict[str, Range] = {
    "moves_per_cell": Range(True, 1, 100),
    "move_delay": Range(False, 0, 5, "s"),
    "release_pause": Range(False, 0, 5, "s"),
    "flow_pause": Range(False, 0, 5, "s"),
}

# Counts of things a run does one after another: far above any real use, small enough that every name
# and plan for them fits in memory (a billion levels to generate would be claimed before the first).
REPEAT_RANGE = Range(True, 1, 1000)
LEVELS_RANGE = Range(True, 1, 100_000)
# Candidates the --hardest optimizer rates; a million is days of work on any machine.
ITERATIONS_RANGE = Range(True, 1, 1_000_000)
WORKERS_RANGE = Range(True, 1, 256)

# One day: far above any useful time limit, and small enough for every timer and clock to hold.
MAX_SECONDS = 86_400.0


def check_number(value: object, allowed: Range, name: str) -> int | float:
    """`value` if it is a number inside `allowed`; ValueError saying what `name` got and what it takes."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number ({allowed.describe()}), got {describe_value(value)}")
    if allowed.whole and not (isinstance(value, int) or (math.isfinite(value) and value.is_integer())):
        raise ValueError(f"{name} must be a whole number ({allowed.describe()}), got {describe_value(value)}")
    if not math.isfinite(value) or not allowed.low <= value <= allowed.high:
        raise ValueError(f"{name} must be {allowed.describe()}, got {describe_value(value)}")
    return int(value) if allowed.whole else float(value)


def describe_value(value: object) -> str:
    """A JSON or Python value as a message shows it: 'got 1.5 (a number with a fraction)', 'got true'."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "infinity" if value > 0 else "-infinity"
        if not value.is_integer():
            return f"{value!r} (a number with a fraction)"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def ranged(allowed: Range) -> Callable[[str], int | float]:
    """An argparse type for a number inside `allowed`."""

    def parse(text: str) -> int | float:
        value = _number(text, allowed.whole)
        if not math.isfinite(value) or not allowed.low <= value <= allowed.high:
            raise argparse.ArgumentTypeError(f"must be {allowed.describe()}, got {text}")
        return value

    return parse


def positive_float(text: str) -> float:
    """A finite number greater than zero (at most a day), e.g. a number of seconds."""
    value = _number(text, whole=False)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_SECONDS:.0f}, got {text}")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least one, e.g. a count."""
    value = _number(text, whole=True)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def _number(text: str, whole: bool) -> int | float:
    """The number in `text`, or ArgumentTypeError naming what was given."""
    try:
        return int(text) if whole else float(text)
    except ValueError:
        kind = "a whole number" if whole else "a number"
        raise argparse.ArgumentTypeError(f"not {kind}: {text!r}") from None


def _short(value: float) -> str:
    """A bound without a needless '.0'."""
    return str(int(value)) if float(value).is_integer() else str(value)
