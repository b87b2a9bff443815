"""The rules of Number Match that differ between versions of the game, and how a game is scored."""

from __future__ import annotations

from dataclasses import dataclass

from flowbot.numbermatch.errors import NumberMatchInputError

# The digit classes: two digits pair when they are equal or sum to 10, which is exactly "same class".
DIGIT_CLASS = (0, 1, 2, 3, 4, 5, 4, 3, 2, 1)


@dataclass(frozen=True, slots=True)
class Rules:
    """What may pair and how often numbers may be added.

    width: slots per row (9 in every version we know).
    adds: how many times "add numbers" may be used (4 in the article's game, 5 in some versions).
    wrap: the reading-order line runs on from the end of one row to the start of the next.
    diagonals: pairs along a 45-degree diagonal count, touching or across cleared slots.
    """

    width: int = 9
    adds: int = 4
    wrap: bool = True
    diagonals: bool = True

    def __post_init__(self) -> None:
        """Reject a width or number of adds no game can have."""
        if self.width < 1:
            raise NumberMatchInputError(f"row width must be at least 1, got {self.width}")
        if self.adds < 0:
            raise NumberMatchInputError(f"adds must not be negative, got {self.adds}")


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points, after the common description of the mobile game (each one an option).

    near_pair: a pair with no slot between them (touching in 8 directions, or consecutive in reading order).
    far_pair: a pair with cleared slots between them.
    row: each row that disappears.
    board: clearing the whole board.
    """

    near_pair: int = 1
    far_pair: int = 4
    row: int = 10
    board: int = 150

    def __post_init__(self) -> None:
        """Negative points would make 'stop early' win, which no version of the game does."""
        for name in ("near_pair", "far_pair", "row", "board"):
            if getattr(self, name) < 0:
                raise NumberMatchInputError(f"score for {name} must not be negative")


# The defaults, shared so that a default argument is not a call (frozen, so sharing is safe).
DEFAULT_RULES = Rules()
DEFAULT_SCORING = Scoring()
