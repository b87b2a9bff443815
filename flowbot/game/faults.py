"""Fault modes: ways real Flow games make a bot's verdict lie, played by the bundled game on request
(`flowbot game --fault NAME[:VALUE]`, repeatable, seeded by `--seed`). The game's own `--results`
stays the judge: a level counts as solved only by the game's rules.

- `lossy:P`      each pointer motion event is dropped with probability P (a busy game misses moves);
- `last-step:P`  a stroke's final move into its far dot is ignored with probability P, for the rest
                 of that stroke: the flow stops one step short while every cell may show its colour;
- `popup-window` the win message shows in a separate top-level window of the game (transient for
                 it), not over the board; its "Next level" moves on;
- `skip-arrows`  "<" and ">" beside the board skip a level at any time, solved or not;
- `dialog-closes` the win dialog closes by itself after DIALOG_LIFETIME seconds; its "Next level"
                 moves on only if pressed before that. After it closes the won board stays (it takes
                 no more strokes) and the bottom bar's "next" button moves on, as in Flow Free,
                 where a dismissed "Level complete" leaves the board and the bar's arrow.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flowbot.errors import UsageError
from flowbot.game.layout import Dialog

FAULTS = ("lossy", "last-step", "popup-window", "skip-arrows", "dialog-closes")
_WITH_CHANCE = ("lossy", "last-step")
DIALOG_LIFETIME = 0.5  # seconds the dialog-closes fault's win dialog shows

__all__ = ["DIALOG_LIFETIME", "FAULTS", "Fault", "FaultSpec", "Faults", "parse_fault"]


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault as asked for: its name and, for lossy and last-step, the chance P (0 to 1)."""

    name: str
    chance: float = 0.0


def parse_fault(text: str) -> Fault:
    """An argparse type for NAME[:VALUE]: 'lossy:0.2', 'last-step:0.3', 'popup-window', ..."""
    name, colon, value = text.strip().partition(":")
    if name not in FAULTS:
        raise argparse.ArgumentTypeError(f"unknown fault {name!r}; the faults are: {', '.join(FAULTS)}")
    if name not in _WITH_CHANCE:
        if colon:
            raise argparse.ArgumentTypeError(f"fault {name} takes no value, got {text!r}")
        return Fault(name)
    try:
        chance = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"fault {name} needs a chance P, e.g. {name}:0.2, got {text!r}"
        ) from None
    if not 0.0 <= chance <= 1.0:
        raise argparse.ArgumentTypeError(f"fault {name}:{value}: the chance is 0 to 1")
    return Fault(name, chance)


@dataclass(frozen=True, slots=True)
class FaultSpec:
    """The faults a game plays, and the seed of their dice."""

    lossy: float = 0.0  # chance a pointer motion event is dropped
    last_step: float = 0.0  # chance a stroke's step into its far dot is ignored
    popup_window: bool = False
    skip_arrows: bool = False
    dialog_closes: bool = False
    seed: int = 0

    @classmethod
    def of(cls, faults: Sequence[Fault], seed: int | None = None) -> FaultSpec:
        """The spec of a list of faults; each at most once, and the two dialog faults not together."""
        names = [fault.name for fault in faults]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise UsageError(f"--fault {twice[0]} is given twice")
        if "popup-window" in names and "dialog-closes" in names:
            raise UsageError("--fault popup-window and dialog-closes both change the win dialog: pick one")
        chances = {fault.name: fault.chance for fault in faults}
        return cls(
            lossy=chances.get("lossy", 0.0),
            last_step=chances.get("last-step", 0.0),
            popup_window="popup-window" in names,
            skip_arrows="skip-arrows" in names,
            dialog_closes="dialog-closes" in names,
            seed=0 if seed is None else seed,
        )

    @property
    def active(self) -> bool:
        """True when at least one fault is on."""
        switches = (self.popup_window, self.skip_arrows, self.dialog_closes)
        return self.lossy > 0 or self.last_step > 0 or any(switches)


class Faults:
    """The faults' state in one game: the seeded dice, the stroke that stops short, the dialog's clock."""

    def __init__(self, spec: FaultSpec | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.spec = spec or FaultSpec()
        self.clock = clock
        self._dice = random.Random(self.spec.seed)
        self._short: bool | None = None  # this stroke's roll for its last step (None: not rolled yet)
        self._shown: tuple[object, float] | None = None  # the won board whose dialog shows, and since when

    def drops_motion(self) -> bool:
        """lossy: True when this pointer motion event is lost."""
        return self.spec.lossy > 0 and self._dice.random() < self.spec.lossy

    def new_stroke(self) -> None:
        """A press or release: the next stroke rolls afresh for its last step."""
        self._short = None

    def refuses_last_step(self) -> bool:
        """last-step: True when this stroke's step into its far dot is ignored (one roll per stroke,
        so the pointer resting on the dot does not get it through on a later event)."""
        if self.spec.last_step <= 0:
            return False
        if self._short is None:
            self._short = self._dice.random() < self.spec.last_step
        return self._short

    def dialog(self, board: object, dialog: Dialog | None) -> Dialog | None:
        """The dialog the game shows over the board now: none with popup-window (it has its own
        window), and with dialog-closes none once it has shown for DIALOG_LIFETIME seconds."""
        if dialog is None or self.spec.popup_window:
            return None
        if not self.spec.dialog_closes or dialog.button is None:
            return dialog
        now = self.clock()
        if self._shown is None or self._shown[0] is not board:
            self._shown = (board, now)
        return dialog if now - self._shown[1] < DIALOG_LIFETIME else None

    def popup(self, dialog: Dialog | None) -> Dialog | None:
        """popup-window: what the game's own popup window says now (the win dialog), else None."""
        return dialog if self.spec.popup_window and dialog is not None and dialog.button is not None else None

    def holds_board(self, won: bool) -> bool:
        """True when a won board takes no strokes although no dialog covers it: its message is in a
        popup window, or its dialog has closed by itself."""
        return won and (self.spec.popup_window or self.spec.dialog_closes)
