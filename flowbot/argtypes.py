"""Argument types shared by flowbot's command lines (the main one and the game's)."""

from __future__ import annotations

import argparse


def positive_float(text: str) -> float:
    """A number greater than zero, e.g. a number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least one, e.g. a count."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value
