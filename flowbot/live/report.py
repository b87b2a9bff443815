"""What a live run did, as plain values: each level's outcome and timing, what won it (the
evidence), the run's report with its summary, and the errors that end a run. No game, screen or
pointer here: the loop fills these in, the commands print them."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from flowbot.capture.verdict import Join
from flowbot.errors import FlowbotError
from flowbot.model import Cell, cell_name


class AutoClearError(FlowbotError):
    """A level could not be cleared; the message says which and where the screenshot went."""

    exit_code = 4


class GameOver(AutoClearError):
    """The game showed its end screen (a time trial's "Time's up!"): the run is over, cleanly."""


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the bot took on a level, in milliseconds (drawing in seconds)."""

    capture_ms: float
    read_ms: float
    solve_ms: float
    plan_ms: float
    draw_s: float
    verify_ms: float = 0.0  # seeing that the game took the level
    next_ms: float = 0.0  # waiting for the next board (or pressing on to it)

    def split_ms(self) -> dict[str, float]:
        """Where the level's time went, in milliseconds."""
        return {
            "capture": self.capture_ms,
            "read": self.read_ms,
            "solve": self.solve_ms,
            "plan": self.plan_ms,
            "draw": self.draw_s * 1000,
            "verify": self.verify_ms,
            "next": self.next_ms,
        }

    @property
    def overhead_ms(self) -> float:
        """Everything but drawing: what the bot adds to the time a level takes."""
        return self.capture_ms + self.read_ms + self.solve_ms + self.plan_ms


# A new level that came of pressing a modal's control known by its look alone (a filled button, an
# arrow by shape): the press, not the modal, was the game's word.
PRESSED_ON = "new level after the press"
# What shows a level won, as `won_by` says it: the game's own word, never the picture alone: a win
# signal that was not there before drawing (a dialog, win words, a new level in its place, by itself or
# after the press), or the game's clock standing still after the last stroke (with its score risen,
# where one shows).
WON_BY = ("dialog", "message", "new level", PRESSED_ON, "clock stopped", "clock stopped, score rose")


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the screen showed after drawing a level: what won it (None: nothing did), and what was
    still missing when nothing did."""

    won_by: str | None
    cells: tuple[Cell, ...] = ()
    joins: tuple[Join, ...] = ()
    # Every join showed, but the game gave no sign it took the level (drawn, unconfirmed): a flow the
    # game took looks like one whose release it never saw.
    unconfirmed: bool = False
    against: tuple[str, ...] = ()  # the game's counters that said it had not taken it ("flows 4/5")


@dataclass(frozen=True, slots=True)
class LevelResult:
    """One level the bot played."""

    number: int
    size: str
    flows: int
    cleared: bool
    retries: int
    timing: Timing
    won_by: str = ""  # one of WON_BY when cleared (empty in a dry run)
    missing_cells: tuple[Cell, ...] = ()  # when not cleared: cells not showing their flow
    missing_joins: tuple[Join, ...] = ()  # when not cleared: joins of consecutive cells not showing
    unconfirmed: str = ""  # when not cleared though drawn: why the game's word never came

    def record(self) -> dict:
        """The level as JSON keys (cells as [row, col])."""
        return {
            "number": self.number,
            "size": self.size,
            "cleared": self.cleared,
            "won_by": self.won_by or None,
            "retries": self.retries,
            "missing_cells": [list(cell) for cell in self.missing_cells],
            "missing_joins": [[list(a), list(b)] for a, b in self.missing_joins],
            "unconfirmed": self.unconfirmed or None,
        }


@dataclass
class Report:
    """What a run did: levels played, why it stopped, and where a failure's screenshot is."""

    levels: list[LevelResult] = field(default_factory=list)
    stopped: str = ""
    failure_image: str | None = None
    halt: FlowbotError | None = None  # what ended the run early (fail-safe, signal, board gone), if anything
    pointer: str = ""  # the pointer settings self-tuning ended on, and how it got there
    asked: int | None = None  # the levels asked for (`--count`), None for no limit

    def split_median_ms(self) -> dict[str, float]:
        """Median per level of each part of its time, in milliseconds."""
        splits = [level.timing.split_ms() for level in self.levels]
        return (
            {part: statistics.median(split[part] for split in splits) for part in splits[0]} if splits else {}
        )

    @property
    def cleared(self) -> int:
        """Levels drawn and confirmed on screen."""
        return sum(level.cleared for level in self.levels)

    def overhead_median_ms(self) -> float:
        """Median per level of capture + read + solve + plan."""
        times = [level.timing.overhead_ms for level in self.levels]
        return statistics.median(times) if times else 0.0

    def summary(self) -> str:
        """A few lines a person reads at the end of a run."""
        asked = "no limit" if self.asked is None else str(self.asked)
        lines = [f"cleared {self.cleared} of {asked} level(s); stopped: {self.stopped}"]
        for level in self.levels:
            t = level.timing
            mark = ("ok" + (f" ({level.won_by})" if level.won_by else "")) if level.cleared else "FAILED"
            lines.append(
                f"  level {level.number}: {level.size}, {level.flows} flows, {mark}"
                f"{f' after {level.retries} retry' if level.retries else ''}; read {t.read_ms:.0f} ms, "
                f"solve {t.solve_ms:.0f} ms, plan {t.plan_ms:.1f} ms, draw {t.draw_s:.2f} s"
            )
        if self.levels:
            lines.append(
                f"bot overhead per level (capture+read+solve+plan): median {self.overhead_median_ms():.0f} ms"
            )
        if self.pointer:
            lines.append(f"pointer settings: {self.pointer}")
        if self.failure_image:
            lines.append(f"screenshot of the failure: {self.failure_image}")
        return "\n".join(lines)


def not_shown(evidence: Evidence) -> str:
    """The cells and joins a level still missed, in words."""
    cells = "; ".join(cell_name(cell) for cell in evidence.cells[:8]) + (
        " ..." if len(evidence.cells) > 8 else ""
    )
    joins = "; ".join(f"{cell_name(a)} to {cell_name(b)}" for a, b in evidence.joins[:4]) + (
        " ..." if len(evidence.joins) > 4 else ""
    )
    parts = [f"{len(evidence.cells)} cell(s) still empty ({cells})"] if evidence.cells else []
    if evidence.joins:
        parts.append(f"{len(evidence.joins)} join(s) not shown ({joins})")
    if not parts and evidence.unconfirmed:
        return unconfirmed_reason(evidence)
    return ", ".join(parts) or "no win showed"


def unconfirmed_reason(evidence: Evidence) -> str:
    """Why a level drawn whole did not count, in words: the game gave no sign, or said otherwise."""
    said = (
        f"; its own counters say it has not: {', '.join(repr(text) for text in evidence.against)}"
        if evidence.against
        else ""
    )
    return (
        "every flow shows joined, but the game gave no sign that it took the level (no new level, "
        f"dialog, move-on button, win words or clock standing still){said}; flowbot counts a level only "
        "on the game's word"
    )
