"""The errors of the Number Match solver, in the FlowbotError family (exit status 2: bad input)."""

from __future__ import annotations

from flowbot.errors import FlowbotError


class NumberMatchInputError(FlowbotError):
    """A board file or board that cannot be read as Number Match (names the file, line and problem)."""
