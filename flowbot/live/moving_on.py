"""Moving the game on from a won level: by itself, else the win dialog's button the verdict read,
the control that worked last time, controls found on screen (best first), the profile's next
button; each press confirmed by a new board, and nothing more pressed once a press changed the
window (a second control could skip a level never played). A control that only skips ("Skip") is
pressed only after the game's dialog or words said the level was won. And the verdict's own press:
a modal's control known by its look alone, whose next level is the game's word (confirmed_by_press)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from flowbot.act.guard import BoardGoneError, check_on_a_window
from flowbot.act.pointer import click
from flowbot.capture.controls import next_controls, skips_only
from flowbot.capture.screen import Frame, Region
from flowbot.cellmap import CellMap
from flowbot.live.controls import (
    RememberedControl,
    inside_bounds,
    inside_box,
    on_the_board,
    remember,
    window_changed,
)
from flowbot.live.scene import Scene

log = logging.getLogger(__name__)

# Seconds to wait for a new board after pressing a control, before trying the next one.
CONTROL_WAIT = 3.0
# Controls pressed at most after one win before giving up.
MAX_CONTROLS_TRIED = 3
# A control is come to and rested on this long before the press, and held this long: some games learn
# where the pointer is only from motion events and act on a release they saw the press of. The rest is
# short: a win dialog that closes by itself half a second after showing must be pressed before then.
CLICK_APPROACH, CLICK_HOLD = 0.05, 0.15
# Seconds a game without a dialog gets to load the next level by itself before controls are looked for.
SELF_ADVANCE_WAIT = 0.6
# Seconds after a next level came by itself before the windows are looked at again: a game may open
# its popup window just after the level is in place.
POPUP_SETTLE = 0.15


class MoveOn:
    """Moving on from a won level (a role of LiveLoop: it reads `advance`, `control`, `_moved_on`,
    `_dialog_seen`, `_dialog_control`, `_modal_press`, `baseline`, waits with `wait_for_board`, and
    stops with `check_window` when the game's window closed, hid, moved or was covered)."""

    def confirmed_by_press(self, scene: Scene) -> bool:
        """Press the modal's control known by its look alone, once; True when the game's next level came."""
        # Only a new board that reads says the modal was the game's win, not an offer ("Install", "+5
        # moves"); the level's own board showing again is none (the game's still_won).
        control, self._modal_press = self._modal_press, None
        if control is None or self.dry_run:
            return False
        window = self.window_of(scene.geometry)
        if not control.shows_in(self.screen.grab(window)):
            return False  # the dialog went by itself
        if self._try(control.center, scene.rows, window) is None:
            log.info("no new level came after pressing %r: the dialog was no win", control.label)
            return False
        log.info("the next level came after pressing %r", control.label)
        self.control = control
        return True

    def next_level(self, scene: Scene) -> Scene | None:
        """Move the game on from a won level and return the next level's board (None: none came,
        and `last_reason` says what was tried).

        A game that moves on by itself needs nothing; else the control that worked last time, then
        controls found on screen (Flow-style buttons, push buttons and links labelled next, continue,
        new, play, ...), then the profile's next button; each press is confirmed by a new board.
        """
        log.info("moving on from the level won")
        self.check_window(now=True)  # nothing is pressed on a window closed, hidden, moved or covered
        previous = scene.rows
        if self._moved_on or self.advance == "instant":
            self._moved_on = False
            came = self.wait_for_board(previous, timeout=self.settle_timeout, popups_at=scene.geometry)
            return self._past_popup(came, previous, scene.geometry, "no new level came")
        if self.advance == "arrow" and self.arrow_button is not None:
            self.click(self.arrow_button, self.limit())
            return self._came(
                previous, self.settle_timeout, "no new level came after pressing the skip arrow"
            )
        if not self._dialog_seen:
            # Games without a dialog load the next level by themselves, at once or nearly.
            came = self.wait_for_board(previous, timeout=SELF_ADVANCE_WAIT, popups_at=scene.geometry)
            if came is not None or self.popup is not None:
                return self._past_popup(came, previous, scene.geometry, "no new level came")
        return self._press_controls(previous, scene.geometry)

    def _past_popup(
        self, came: Scene | None, previous: list[str], board: CellMap, reason: str
    ) -> Scene | None:
        """The next level that came by itself, once no window of the game's own lies over it (a
        "level complete" popup opened over the next level, already in place): else the popup's
        control is pressed, and the level read once it has gone. None with `reason` when none came."""
        if came is not None and self.windows is not None:
            self.clock.sleep(POPUP_SETTLE)
            self.popup = self._popup_over(came.geometry)
        if self.popup is None:
            if came is None:
                self.last_reason = reason
            return came
        log.info("a window of the game's own (%s) lies over the next level: pressing its control", self.popup)
        return self._press_controls(previous, board)

    def _press_controls(
        self, previous: list[str] | None, board: CellMap | None, beside: bool = False
    ) -> Scene | None:
        """Press what moves the game on, best first, until a new board comes. With `beside`, only
        controls off the board (the won level shows there: whatever is found on it is the board)."""
        presses = _Presses(self.window_of(board) if board is not None else self.region)
        presses.frame = self.screen.grab(presses.window)
        came = self._press_known(presses, previous, board, beside)
        if came is None:
            came = self._press_found(presses, previous, board, beside)
        if came is None:
            came = self._press_again(presses, previous)
        if came is None and self.next_button is not None and not self._changed_since(presses):
            came = presses.attempt(self, self.next_button, previous, "the profile's next_button")
        if came is not None:
            return came
        if self._changed_since(presses):
            return self._after_a_change(presses, previous, board, beside)
        came = self.wait_for_board(previous, timeout=self.settle_timeout if not presses.tried else 0.0)
        if came is None:
            self.last_reason = _nothing_came(presses)
        return came

    def _press_known(
        self, presses: _Presses, previous: list[str] | None, board: CellMap | None, beside: bool
    ) -> Scene | None:
        """Press the control that moved on last time, else the win dialog's button the verdict read,
        when it shows where it was (no reading needed)."""
        dialog, self._dialog_control = self._dialog_control, None
        for known in (self.control, dialog):
            if known is None or presses.tried or not known.shows_in(presses.frame):
                continue
            if beside and board is not None and inside_bounds(known.center, board.bounds):
                continue
            if not self._may_press(known.label):
                continue
            came = presses.attempt(self, known.center, previous, repr(known.label), known)
            if came is not None:
                self.control = known
                return came
        return None

    def _press_found(
        self, presses: _Presses, previous: list[str] | None, board: CellMap | None, beside: bool
    ) -> Scene | None:
        """Press the controls found on screen, best first, until a new board comes or a press changed
        the window. Words read on a board that still shows the level just won are its pipes misread
        ('»'), not a link: a click there cuts a pipe. A win screen in the board's place may hold links."""
        frame = presses.frame
        shown = board.shifted(-frame.left, -frame.top) if board is not None else None
        won_shows = shown is not None and self.still_won(frame)
        for control in next_controls(frame.pixels, shown, presses.refused):
            if len(presses.tried) >= MAX_CONTROLS_TRIED or self._changed_since(presses):
                break
            if shown is not None and on_the_board(control, shown, won_shows):
                log.info("not pressing %r: pipes read on the board, not a control", control.label)
                continue
            if beside and shown is not None and inside_bounds(control.center, shown.bounds):
                continue
            if not self._may_press(control.label):
                continue
            found = remember(frame, control)
            if any(inside_box(found.center, other) for other in presses.pressed):
                continue  # pressed already (as the control that worked last time): see _press_again
            came = presses.attempt(self, found.center, previous, repr(control.label), found)
            if came is not None:
                self.control = found
                log.info("moved on with %s %r", control.kind, control.label)
                return came
        return None

    def _press_again(self, presses: _Presses, previous: list[str] | None) -> Scene | None:
        """A game that loses input may miss a click: the first control pressed is pressed again while
        the window shows exactly as when it was found (the press did nothing; a press that did
        something changes the window, and stops every further press). Only a control that came with
        the win: one always shown ("Next Level" beside the board) could be pressed late on the next
        level, which a slow game shows after the check."""
        before = self.baseline
        if not presses.pressed or (before is not None and presses.pressed[0].shows_in(before.frame)):
            return None
        again = presses.pressed[0]
        while len(presses.tried) < MAX_CONTROLS_TRIED + 1 and not self._changed_since(presses):
            came = presses.attempt(self, again.center, previous, repr(again.label))
            if came is not None:
                self.control = again
                log.info("moved on with %r, pressed again", again.label)
                return came
        return None

    def _after_a_change(
        self, presses: _Presses, previous: list[str] | None, board: CellMap | None, beside: bool
    ) -> Scene | None:
        """After a press changed the window: wait for the new level. When the press closed something
        (a "Good job!" box) and the won level shows whole, the game moves on by another control,
        beside the board (its "Next Level"), once a slow game has had time to bring the next level by
        that press. Nothing else is pressed: a second control could skip a level never played."""
        if not beside and self.still_won(self.screen.grab(presses.window)):
            came = self.wait_for_board(previous, timeout=CONTROL_WAIT)
            if came is not None:
                return came
            if self.still_won(self.screen.grab(presses.window)):
                log.info("the won level still shows after pressing %s", ", ".join(presses.tried))
                return self._press_controls(previous, board, beside=True)
        came = self.wait_for_board(previous, timeout=self.settle_timeout)
        if came is None:
            self.last_reason = (
                f"after pressing {', '.join(presses.tried)} the game's window changed but no new level "
                "could be read; nothing more was pressed (a second control could skip a level "
                "never played)"
            )
        return came

    def _may_press(self, label: str) -> bool:
        """False for a control that only skips unless the game's dialog or words said the level was won."""
        # After a level won by other signs (its clock standing still) a skip could move on from a level
        # the game never took, and hide it.
        if self._dialog_seen or not skips_only(label):
            return True
        log.info("not pressing %r: it skips, and no dialog or words said the level was won", label)
        return False

    def _changed_since(self, presses: _Presses) -> bool:
        """True when a control was pressed and the window no longer looks as when the controls were
        found: the press did something (the dialog closed, a level loading), so the won level may be
        gone and another control could skip the level now showing."""
        if not presses.tried or self.dry_run:
            return False
        return window_changed(presses.frame, self.screen.grab(presses.window))

    def _try(self, target: tuple[float, float], previous: list[str] | None, window: Region | None):
        """Click a control and wait for a new board."""
        if self.dry_run:
            return None
        self.click(target, window)
        return self.wait_for_board(previous, timeout=CONTROL_WAIT)

    def click(self, target: tuple[float, float], window: Region | None) -> None:
        """Click at a screen point, once the guard has seen it on a window of the game; the fence
        opened to the window for the click (controls may lie beyond the board's surroundings) and put
        back after."""
        if self.dry_run:
            return
        self._check_target(target)
        bounds = getattr(self.pointer, "bounds", None)
        if window is not None and bounds is not None and self.region is None:
            self.pointer.bounds = window
        try:
            # Looked at again once the pointer is there, at the last moment before the press: the
            # window may go while the pointer comes (and a press on the bare desktop is no press).
            click(self.pointer, *target, hold=CLICK_HOLD, approach=CLICK_APPROACH, sleep=self.clock.sleep,
                  ready=lambda: self._check_target(target))  # fmt: skip
        finally:
            if bounds is not None and self.region is None:
                self.pointer.bounds = bounds

    def _check_target(self, target: tuple[float, float]) -> None:
        """Stop unless the game's window is as it was (not closed, hidden, moved or covered since) and
        `target` is on a window of the game, never the desktop or another program."""
        self.check_window(now=True)
        guard = getattr(self.pointer, "guard", None)
        try:
            if guard is not None and hasattr(guard, "check_point"):
                guard.check_point(*target)
            else:
                check_on_a_window(self.windows, *target)  # the game's window not known yet: not the desktop
        except BoardGoneError:
            self.check_window(now=True)  # the window went a moment ago: say what happened to it
            raise

    def _came(self, previous: list[str], timeout: float, reason: str) -> Scene | None:
        """The next board, or None with `reason` noted."""
        came = self.wait_for_board(previous, timeout=timeout)
        if came is None:
            self.last_reason = reason
        return came


@dataclass
class _Presses:
    """The presses made to move on from one won level: where the controls were looked for (the
    window, and the frame they were found on), what was pressed, and what was refused."""

    window: Region | None
    frame: Frame | None = None
    tried: list[str] = field(default_factory=list)  # what was pressed, for the stop message
    pressed: list[RememberedControl] = field(default_factory=list)  # controls pressed that did nothing
    refused: list[str] = field(default_factory=list)  # labels found that flowbot never presses

    def attempt(
        self,
        loop: MoveOn,
        target: tuple[float, float],
        previous: list[str] | None,
        name: str,
        control: RememberedControl | None = None,
    ) -> Scene | None:
        """Press at `target` and wait for a new board; a press that brought none is noted."""
        came = loop._try(target, previous, self.window)
        if came is None:
            self.tried.append(name)
            if control is not None:
                self.pressed.append(control)
        return came


def _nothing_came(presses: _Presses) -> str:
    """Why no new level came though the window did not change: what was pressed, or refused, or that
    no control was found."""
    if presses.tried:
        return f"no new level came after pressing {', '.join(presses.tried)}"
    if presses.refused:
        labels = ", ".join(repr(label) for label in dict.fromkeys(presses.refused))
        return (
            f"no new level came; the only controls found say {labels}, and flowbot never presses "
            "one that goes back, undoes, restarts, solves, hints, buys or shares"
        )
    return (
        "no new level came, and no control to move on was found (looked for Flow-style "
        "buttons, push buttons and links labelled next, continue, new or play); "
        "put its position in a profile's next_button (docs/other-games.md, 'Other Flow games')"
    )
