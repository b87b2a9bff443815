"""The shape of every live run, whatever the game: look at what is on the screen, play it (the game
decides, acts and confirms on evidence), move on to the next, until `count` are played, none comes,
or a stop. Flow's levels (flowbot.live.loop) and Number Match's boards run through this one driver;
each game says what a round is."""

from __future__ import annotations

from typing import Protocol, TypeVar

Round = TypeVar("Round")


class Rounds(Protocol[Round]):
    """A game as the live run drives it, round by round (a level, a board)."""

    def first(self) -> Round | None:
        """What is on the screen to play at the start; None when nothing is (the game says why)."""

    def check_stop(self) -> None:
        """Raise the stop asked for since the last round (Ctrl-C, a signal), if any."""

    def play(self, number: int, current: Round) -> None:
        """Play one round until the game took it; a FlowbotError when it did not."""

    def following(self, current: Round) -> Round | None:
        """Move the game on from a round it took and return the next; None when none came."""


def play_rounds(game: Rounds[Round], count: int | None) -> int:
    """Play round after round until `count` are played, none more comes, or a stop (raised); return
    how many were played. A round the game did not take raises, so every round counted was taken."""
    current = game.first()
    played = 0
    while current is not None:
        game.check_stop()
        played += 1
        game.play(played, current)
        if count is not None and played >= count:
            break
        current = game.following(current)
    return played
