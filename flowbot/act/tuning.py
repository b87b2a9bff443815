"""Self-tuning: find out how fast a game takes input, from the fastest pointer settings down to the safe
defaults, one rung at a time, by looking at which cells the game took."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flowbot.act.plan import PointerSettings

# One frame of a 60 fps game that reads the pointer once per frame, with a little to spare.
FRAME = 0.02
# Seconds a fast try gets to show on screen before it counts as dropped: a game that took the input
# shows it within a frame or two, and a wrong "dropped" only costs a slower, safe redraw.
PROBE_TIMEOUT = 0.5


@dataclass(frozen=True, slots=True)
class Rung:
    """A named step of the ladder: pointer settings some games take."""

    name: str
    settings: PointerSettings


def _fast(jumps: bool, pause: float, per_frame: bool = False) -> PointerSettings:
    """One point per cell or turn, `pause` after each move and between flows, no resting approach. No
    rest before releasing: the rest after the last move already holds the last point for a frame,
    and a game that reads the pointer once a frame takes a release where the last frame saw it."""
    return PointerSettings(
        moves_per_cell=1,
        corners_only=jumps,
        move_delay=pause,
        release_pause=0.0,
        flow_pause=pause,
        settle=False,
        per_frame=per_frame,
    )


# Fastest first. Games that handle every input event take the top rungs (with jumps when they fill a
# straight drag cell by cell); games that read the pointer once per frame need a frame or two per point;
# then the safe defaults, for games that read once per frame and fill nothing; then slower still, for
# such a game starved of frames on a busy machine or losing input events: four moves into each cell, so
# one lost event no longer loses the cell (at 2 moves a cell a game losing 30% of its motion events left
# 4 of 8 three-level runs short; at 4, none). Last, for a game that takes one event per frame and
# flushes the rest while starved of CPU (allegro-flowfree on a machine with a load of 8 on 2 cores: 35 ms
# frames, a fifth of its input events lost, in bursts of up to 5 frames, 200 ms, where every event is
# lost): each cell's moves spread over longer than such a burst, and longer rests on the dots; each rung
# is also one more try for a level that loses a press or a release now and then.
LADDER: tuple[Rung, ...] = (
    Rung("jumps, no pauses", _fast(True, 0.0)),
    Rung("cells, no pauses", _fast(False, 0.0)),
    # Only what a game reading the pointer once a frame can see: a frame for the press (the first move
    # with it), a frame per turn and for the last dot, a frame with the button up between flows.
    Rung("jumps, a frame each, first move with the press", _fast(True, FRAME, per_frame=True)),
    Rung("jumps, a frame each", _fast(True, FRAME)),
    Rung("jumps, two frames each", _fast(True, 1.75 * FRAME)),
    Rung("cells, a frame each", _fast(False, FRAME)),
    Rung("cells, two frames each", _fast(False, 1.75 * FRAME)),
    Rung("safe defaults", PointerSettings()),
    Rung("slow", PointerSettings(moves_per_cell=4, move_delay=2 * FRAME, release_pause=0.1, flow_pause=0.1)),
    Rung(
        "slow, bursts",
        PointerSettings(moves_per_cell=4, move_delay=3 * FRAME, release_pause=0.25, flow_pause=0.3),
    ),
    Rung(
        "slowest", PointerSettings(moves_per_cell=6, move_delay=3 * FRAME, release_pause=0.3, flow_pause=0.4)
    ),
)
# Levels in a row that must verify before a faster rung that worked earlier in the run is tried again
# (a busy moment may have made it drop a cell); doubled each time such a try fails.
PATIENCE = 8


class Tuner:
    """Where a run stands on the ladder: the rung to draw with, and whether a level verified with it.

    Start at the top; when the game drops a cell, step one rung slower and draw again; once a level
    verifies, keep that rung (`on_proven` is told, e.g. to save it in a profile), and step slower again
    if a later level fails. After `patience` levels in a row, go back up to the nearest faster rung that
    worked earlier in the run (a drop may have been a busy moment, not the game's limit).
    """

    def __init__(
        self,
        ladder: tuple[Rung, ...] = LADDER,
        *,
        start: int = 0,
        proven: bool = False,
        on_proven: Callable[[Rung], None] | None = None,
        patience: int = PATIENCE,
    ) -> None:
        if not ladder or not 0 <= start < len(ladder):
            raise ValueError(f"start rung {start} is not on a ladder of {len(ladder)}")
        self.ladder = ladder
        self.index = start
        self.proven = proven
        self.on_proven = on_proven
        self.patience = patience
        self.worked_at: set[int] = {start} if proven else set()  # rungs a level verified with
        self.streak = 0  # levels in a row verified at the current rung
        self.climbed = False  # the current rung was reached by going back up
        self.steps: list[str] = []  # what happened, for the summary: "dropped at X", "kept X"

    @property
    def rung(self) -> Rung:
        """The rung to draw with now."""
        return self.ladder[self.index]

    @property
    def settings(self) -> PointerSettings:
        """The pointer settings to draw with now."""
        return self.rung.settings

    @property
    def probing(self) -> bool:
        """True while the current rung has not yet had a level verify (so a short look will do)."""
        return not self.proven and self.index < len(self.ladder) - 1

    def steps_left(self) -> int:
        """How many slower rungs remain."""
        return len(self.ladder) - 1 - self.index

    def worked(self) -> None:
        """A level drawn with the current rung verified: keep it (and after enough in a row, go back
        up to a faster rung that worked before)."""
        self.streak += 1
        if not self.proven:
            self.proven = True
            self.worked_at.add(self.index)
            self.steps.append(f"kept {self.rung.name!r}")
            if self.on_proven is not None:
                self.on_proven(self.rung)
        faster = [index for index in self.worked_at if index < self.index]
        if faster and self.streak >= self.patience:
            self.index, self.streak, self.climbed = max(faster), 0, True
            self.steps.append(f"back up to {self.rung.name!r}")

    def dropped(self) -> bool:
        """The game did not take a level drawn with the current rung: step one slower. False when the
        current rung is already the slowest (the caller retries as before)."""
        if self.climbed and self.streak < self.patience:
            self.patience *= 2  # going back up did not hold: wait longer before the next try
        self.streak, self.climbed = 0, False
        if self.index == len(self.ladder) - 1:
            return False
        self.steps.append(f"dropped cells at {self.rung.name!r}")
        self.index += 1
        self.proven = self.index in self.worked_at
        return True


def start_tuner(settings: PointerSettings, on_proven: Callable[[Rung], None] | None = None) -> Tuner | None:
    """A tuner for pointer settings set by no flag: from the top for the defaults, from a rung a profile
    saved (trusted, still stepped down if a level fails); None for settings set by hand (no tuning)."""
    if settings == PointerSettings():
        return Tuner(on_proven=on_proven)
    for index, rung in enumerate(LADDER):
        if rung.settings == settings:
            return Tuner(start=index, proven=True, on_proven=on_proven)
    return None
