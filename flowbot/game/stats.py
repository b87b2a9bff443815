"""A line of the game's own numbers, as web Flow games show one ("00:07     Moves: 12     Score: 0"): a
clock from the level's start, the moves made, a score over the session. How each behaves imitates
what a bot must judge from it (`flowbot game --clock KIND --score KIND`; with `--fault no-sign` the
line is all a win changes):

- clock `stops`: counts up from the level's start and stands still once the game takes the level;
  `runs`: counts up and never stops; `down`: counts down from COUNTDOWN seconds and stands still
  once the level is taken;
- score `win`: rises by the level's points when the game takes it (and adds up over the session);
  `flows`: rises by FLOW_POINTS for each flow joined (and falls when one is broken), won or not.
"""

from __future__ import annotations

from collections.abc import Callable

from flowbot.game.board import GameBoard
from flowbot.game.session import Session

CLOCKS = ("stops", "runs", "down")
SCORES = ("win", "flows")
COUNTDOWN = 300  # seconds a counting-down clock starts from
FLOW_POINTS = 10  # a flow joined, with score `flows`
WIN_POINTS = 100  # a level taken, with score `win` (and FLOW_POINTS more per flow)


class Stats:
    """The numbers line of one session: its clock (`clock`: the game's time), moves and score."""

    def __init__(self, clock_kind: str | None, score_kind: str | None, clock: Callable[[], float]) -> None:
        self.clock_kind = clock_kind
        self.score_kind = score_kind
        self.clock = clock
        self._board: GameBoard | None = None
        self._started = 0.0
        self._stopped: float | None = None  # when the game took the level shown
        self._banked = 0  # the score of the levels before the one shown

    def line(self, session: Session) -> str:
        """The line as it reads now."""
        board, now = session.board, self.clock()
        if board is not self._board:
            self._new_level(board, now)
        if self._stopped is None and board.complete and board.drawing is None:
            self._stopped = now  # the game took the level: the clock stops, a win's points are banked
            if self.score_kind == "win":
                self._banked += WIN_POINTS + FLOW_POINTS * len(board.pipes)
        parts = [] if self.clock_kind is None else [self._clock_text(now)]
        parts.append(f"Moves: {board.moves}")
        if self.score_kind is not None:
            parts.append(f"Score: {self._score(board)}")
        return "     ".join(parts)

    def _new_level(self, board: GameBoard, now: float) -> None:
        """A level shows: its clock starts; a per-flow score keeps the flows joined on the last one."""
        if self._board is not None and self.score_kind == "flows":
            self._banked += FLOW_POINTS * self._board.connected
        self._board, self._started, self._stopped = board, now, None

    def _clock_text(self, now: float) -> str:
        """The clock as mm:ss."""
        end = now if self._stopped is None or self.clock_kind == "runs" else self._stopped
        seconds = int(end - self._started)
        if self.clock_kind == "down":
            seconds = max(0, COUNTDOWN - seconds)
        return f"{seconds // 60:02d}:{seconds % 60:02d}"

    def _score(self, board: GameBoard) -> int:
        """The score shown."""
        if self.score_kind == "flows":
            return self._banked + FLOW_POINTS * board.connected
        return self._banked
