"""The one driver every live game runs on (flowbot.live.rounds): rounds are played until the count,
until none more comes, or until a stop, and a stop asked for between two rounds is raised before the
next is played."""

from __future__ import annotations

import pytest

from flowbot.live.rounds import play_rounds


class Stopped(Exception):
    """The stop a fake game raises."""


class FakeGame:
    """Rounds named by numbers; `shown` of them come, a stop is asked for after `stop_after` played."""

    def __init__(self, shown: int, stop_after: int | None = None) -> None:
        self.shown, self.stop_after = shown, stop_after
        self.played: list[tuple[int, int]] = []
        self.looked = 0

    def first(self) -> int | None:
        return 1 if self.shown else None

    def check_stop(self) -> None:
        if self.stop_after is not None and len(self.played) >= self.stop_after:
            raise Stopped

    def play(self, number: int, current: int) -> None:
        self.played.append((number, current))

    def following(self, current: int) -> int | None:
        self.looked += 1
        return current + 1 if current < self.shown else None


@pytest.mark.parametrize(("shown", "count", "played"), [(5, 3, 3), (2, 3, 2), (0, 3, 0), (4, None, 4)])
def test_rounds_are_played_until_the_count_or_until_none_comes(shown, count, played):
    game = FakeGame(shown)
    assert play_rounds(game, count) == played
    assert game.played == [(number, number) for number in range(1, played + 1)]


def test_the_next_round_is_not_looked_for_once_the_count_is_played():
    game = FakeGame(5)
    play_rounds(game, 2)
    assert game.looked == 1  # after round 1 only: round 2 was the last asked for


def test_a_stop_asked_for_during_a_round_is_raised_before_the_next_is_played():
    game = FakeGame(5, stop_after=2)
    with pytest.raises(Stopped):
        play_rounds(game, None)
    assert len(game.played) == 2
