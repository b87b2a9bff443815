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
- `lost-release:P` a stroke's release is missed with probability P (one roll per stroke): the pipe
                 stays on screen as drawn, joins and all, but the game counts that flow as not drawn
                 (not connected, its cells not covered: the HUD's "flows" and "pipe" say so) until a
                 later stroke of that flow is released and taken; so a board that looks won is not;
- `next-in-place` no dialog and no message: the stroke that wins puts the next level in place of the
                 won one at once (same window, same place);
- `no-sign`      a win shows nothing but its joins: no dialog, no banner, and the game never moves on
                 by itself. The won level is recorded at once; the board stays and takes strokes, and
                 the bottom bar's "next" (or a key, or a skip arrow) leaves it.
- `win-screen`   a win replaces the whole window, board and all, by a big "Winner!" and bare words
                 with no box around them: "Continue" moves on, "Levels" opens a list of the levels
                 (its numbers open a level); see flowbot.game.winscreen.
- `next-under-popup` the stroke that wins puts the next level in place at once and, a moment later
                 (POPUP_DELAY), opens the game's own popup window over the new board's lower rows
                 ("Level complete!"), so the rows above it read as a smaller board or none; its
                 "Continue" only closes the popup (the next level is there already).
- `no-cut`       a stroke never cuts another flow's pipe: a drag that reaches a cell of another pipe
                 stops there (the rest of the drag draws nothing), so pipes of an earlier try stay in
                 the way until their own dot is tapped (which clears that flow).

The six faults that change what a win shows (popup-window, dialog-closes, next-in-place, no-sign,
win-screen, next-under-popup) go one at a time.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flowbot.errors import UsageError
from flowbot.game.layout import Dialog

FAULTS = (
    "lossy",
    "last-step",
    "popup-window",
    "skip-arrows",
    "dialog-closes",
    "lost-release",
    "next-in-place",
    "no-sign",
    "win-screen",
    "no-cut",
    "next-under-popup",
)
_WITH_CHANCE = ("lossy", "last-step", "lost-release")
# Each changes what the game does on a win, so two of them would contradict each other.
_WIN_FAULTS = ("popup-window", "dialog-closes", "next-in-place", "no-sign", "win-screen", "next-under-popup")
DIALOG_LIFETIME = 0.5  # seconds the dialog-closes fault's win dialog shows
# Seconds between the next level put in place and the next-under-popup fault's popup opening over it:
# a game that maps its popup window after drawing the level shows the level alone for a moment.
POPUP_DELAY = 0.1
# What the next-under-popup fault's popup says: the level is won, and its button only closes it.
WON_POPUP = Dialog("Level complete!", ("You completed the level",), "Continue")

__all__ = [
    "DIALOG_LIFETIME", "FAULTS", "POPUP_DELAY", "WON_POPUP", "Fault", "FaultSpec", "Faults", "parse_fault",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault as asked for: its name and, for lossy, last-step and lost-release, the chance P (0 to 1)."""

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
    lost_release: float = 0.0  # chance a stroke's release is missed
    next_in_place: bool = False
    no_sign: bool = False
    win_screen: bool = False
    no_cut: bool = False
    next_under_popup: bool = False
    seed: int = 0

    @classmethod
    def of(cls, faults: Sequence[Fault], seed: int | None = None) -> FaultSpec:
        """The spec of a list of faults; each at most once, and at most one of those that change a win."""
        names = [fault.name for fault in faults]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise UsageError(f"--fault {twice[0]} is given twice")
        clash = [name for name in _WIN_FAULTS if name in names]
        if len(clash) > 1:
            raise UsageError(f"--fault {clash[0]} and {clash[1]} both change what a win shows: pick one")
        chances = {fault.name: fault.chance for fault in faults}
        return cls(
            lossy=chances.get("lossy", 0.0),
            last_step=chances.get("last-step", 0.0),
            popup_window="popup-window" in names,
            skip_arrows="skip-arrows" in names,
            dialog_closes="dialog-closes" in names,
            lost_release=chances.get("lost-release", 0.0),
            next_in_place="next-in-place" in names,
            no_sign="no-sign" in names,
            win_screen="win-screen" in names,
            no_cut="no-cut" in names,
            next_under_popup="next-under-popup" in names,
            seed=0 if seed is None else seed,
        )

    @property
    def active(self) -> bool:
        """True when at least one fault is on."""
        switches = (
            self.popup_window, self.skip_arrows, self.dialog_closes, self.next_in_place, self.no_sign,
            self.win_screen, self.no_cut, self.next_under_popup,
        )  # fmt: skip
        return self.lossy > 0 or self.last_step > 0 or self.lost_release > 0 or any(switches)


class Faults:
    """The faults' state in one game: the seeded dice, the stroke that stops short, the dialog's clock."""

    def __init__(self, spec: FaultSpec | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.spec = spec or FaultSpec()
        self.clock = clock
        self._dice = random.Random(self.spec.seed)
        self._short: bool | None = None  # this stroke's roll for its last step (None: not rolled yet)
        self._shown: tuple[object, float] | None = None  # the won board whose dialog shows, and since when
        self._won_popup_at: float | None = None  # next-under-popup: when the next level was put in place

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

    def loses_release(self) -> bool:
        """lost-release: True when this stroke's release is missed (rolled once, as the stroke ends)."""
        return self.spec.lost_release > 0 and self._dice.random() < self.spec.lost_release

    @property
    def shows_win(self) -> bool:
        """False when a win shows no dialog, banner or message over the board (next-in-place, no-sign,
        next-under-popup: its message is a window of its own, over the next level)."""
        return not (self.spec.next_in_place or self.spec.no_sign or self.spec.next_under_popup)

    @property
    def moves_on_by_itself(self) -> bool:
        """False when the game never leaves a won level by itself (no-sign; win-screen waits for a
        press of its words), even without a dialog."""
        return not (self.spec.no_sign or self.spec.win_screen)

    @property
    def cuts(self) -> bool:
        """False when a stroke stops at another flow's pipe instead of cutting it (no-cut)."""
        return not self.spec.no_cut

    def at_win(self) -> str | None:
        """What the game does the moment a stroke wins: 'next' (next-in-place), 'record' (no-sign: the
        result is written now, since nothing on screen will ever say so), or None (its usual sign)."""
        if self.spec.next_under_popup:
            self._won_popup_at = self.clock()
        if self.spec.next_in_place or self.spec.next_under_popup:
            return "next"
        return "record" if self.spec.no_sign else None

    def dialog(self, board: object, dialog: Dialog | None) -> Dialog | None:
        """The dialog the game shows over the board now: none with popup-window (it has its own
        window), next-in-place or no-sign, and with dialog-closes none once it has shown for
        DIALOG_LIFETIME seconds; none with win-screen (its screen takes the whole window)."""
        if dialog is None or self.spec.popup_window or self.spec.win_screen or not self.shows_win:
            return None
        if not self.spec.dialog_closes or dialog.button is None:
            return dialog
        now = self.clock()
        if self._shown is None or self._shown[0] is not board:
            self._shown = (board, now)
        return dialog if now - self._shown[1] < DIALOG_LIFETIME else None

    def popup(self, dialog: Dialog | None) -> Dialog | None:
        """What the game's own popup window says now: with popup-window the win dialog; with
        next-under-popup WON_POPUP from POPUP_DELAY after a win until its button is pressed; else None."""
        if self._won_popup_at is not None:
            return WON_POPUP if self.clock() - self._won_popup_at >= POPUP_DELAY else None
        return dialog if self.spec.popup_window and dialog is not None and dialog.button is not None else None

    def popup_pressed(self) -> bool:
        """The popup's button was pressed: True when that moves the game on (popup-window), False when
        it only closes the popup (next-under-popup: the next level is in place already)."""
        if self._won_popup_at is None:
            return True
        self._won_popup_at = None
        return False

    def holds_board(self, won: bool) -> bool:
        """True when a won board takes no strokes although no dialog covers it: its message is in a
        popup window, or its dialog has closed by itself."""
        return won and (self.spec.popup_window or self.spec.dialog_closes)
