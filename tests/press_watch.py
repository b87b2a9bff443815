"""Every press on every X display the tests start, held to the bot's two rules (issue 22):

- no press lands outside the game's windows (on the bare root window, or a window of another
  client: a cover, a dialog of some other program), and
- no press of a control that changes the level (a skip arrow, the bottom "next" or "previous", a
  dialog's or popup's next) while the level is unsolved.

The watch wraps flowbot.display.VirtualDisplay (the one helper every live test starts Xvfb with), so
each display started in the test process gets a PressRecorder (XRecord: every press, whoever makes it)
for as long as it runs. Which windows are the game, and what each press hit on it, the bundled game
says itself: the watch names a file in FLOWBOT_GAME_PRESS_LOG, inherited by every game a test starts,
and the game appends its pid and window when it opens and, per press it takes, what it hit and
whether the level was solved just before (flowbot.game.presslog). A test judges the presses made
from its setup to its teardown; a test whose own code presses the game (tests of the game itself)
is marked `presses_by_test` and its presses are counted, not judged.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from flowbot.game.presslog import LEVEL_CHANGES
from tests.press_recorder import Press, PressRecorder


@dataclass
class Span:
    """The presses of one test, from its setup's start to its teardown's end, as judged."""

    nodeid: str
    presses: int = 0
    outside: list[str] = field(default_factory=list)  # one line per press off the game's windows
    skips: list[str] = field(default_factory=list)  # one line per level change pressed on an unsolved level
    restarts: int = 0  # restart pressed on an unsolved level (counted; it changes no level)
    taken: int = 0  # presses a game said it took (not: off the game, or a game that keeps no log)
    moves_on: int = 0  # level changes pressed on a solved level: allowed
    judged: bool = True  # False for a test that presses itself (presses_by_test) or a harness judges

    def failures(self) -> list[str]:
        """What breaks the rules, one line each (empty: none, or the test is not judged)."""
        return [*self.outside, *self.skips] if self.judged else []


@dataclass
class Recording:
    """One display's recorder, kept after the display stops so that its presses can still be judged."""

    display: str
    recorder: PressRecorder


class PressWatch:
    """The session's recorders, the game's own press log, and each test's span judged."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.recordings: list[Recording] = []
        self.spans: list[Span] = []
        self.overhead = 0.0  # seconds spent starting and stopping recorders
        self.displays_elsewhere = 0  # displays recorded by the other processes of the run (xdist workers)
        self._opened: float | None = None

    # --- the displays ---------------------------------------------------------------------------

    def started(self, display: str) -> None:
        """A display started: record its presses until it stops."""
        began = time.monotonic()
        recorder = PressRecorder(display=display, crops=False, travel=False)  # where presses land: no more
        recorder.start()
        self.recordings.append(Recording(display, recorder))
        self.overhead += time.monotonic() - began

    def stopping(self, display: str) -> None:
        """A display is about to stop: end its recorder (its presses are kept)."""
        began = time.monotonic()
        for recording in self.recordings:
            if recording.display == display and recording.recorder.running:
                recording.recorder.stop()
        self.overhead += time.monotonic() - began

    # --- the tests ------------------------------------------------------------------------------

    def open_span(self) -> None:
        """A test's setup starts."""
        self._opened = time.monotonic()

    def close_span(self, nodeid: str, judged: bool, game_apart: bool = False) -> Span:
        """A test's teardown ended: judge the presses made since its setup started (`game_apart`: the
        test's game runs in a session of its own, see judge)."""
        start, end = self._opened or 0.0, time.monotonic()
        self._opened = None
        presses = [p for r in self.recordings for p in r.recorder.presses if start <= p.time <= end]
        own = os.getsid(0) if game_apart else None
        span = judge(nodeid, presses, self.game_lines(), start, end, own_session=own)
        span.judged = judged
        self.spans.append(span)
        return span

    def game_lines(self) -> list[dict]:
        """Every line the games wrote so far (a line cut short by a killed game is left out)."""
        if not self.log.exists():
            return []
        lines = []
        for text in self.log.read_text(encoding="utf-8").splitlines():
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError:
                continue
        return lines

    # --- a run split over processes (pytest-xdist) -----------------------------------------------------

    def export(self) -> dict:
        """This process's figures, as plain data a worker hands to the run's controller."""
        return {
            "displays": len(self.recordings) + self.displays_elsewhere,
            "overhead": self.overhead,
            "spans": [asdict(span) for span in self.spans],
        }

    def merge(self, figures: dict) -> None:
        """Add the figures a worker exported (its spans were judged there: this is for the summary)."""
        self.displays_elsewhere += figures["displays"]
        self.overhead += figures["overhead"]
        self.spans.extend(Span(**span) for span in figures["spans"])

    def displays(self) -> int:
        """How many displays had a recorder, in this process and the ones merged."""
        return len(self.recordings) + self.displays_elsewhere

    def summary(self) -> list[str]:
        """The session's figures, for the terminal summary."""
        live = [span for span in self.spans if span.presses]
        judged = [span for span in live if span.judged]
        lines = [
            f"presses recorded on {self.displays()} display(s) in {len(live)} test(s)"
            f" ({len(judged)} judged, {len(live) - len(judged)} not: the test presses, or a harness judges):"
            f" {sum(s.presses for s in live)} presses, {sum(s.presses for s in judged)} judged"
            f" ({sum(s.taken for s in judged)} taken by a game that says what it hit,"
            f" {sum(s.moves_on for s in judged)} of them moving on from a solved level);"
            f" outside the game {sum(len(s.outside) for s in judged)},"
            f" level changes on an unsolved level {sum(len(s.skips) for s in judged)},"
            f" restarts of an unsolved level {sum(s.restarts for s in judged)};"
            f" recorders' overhead {self.overhead:.1f} s",
        ]
        for span in live:
            tag = "" if span.judged else "  [not judged]"
            lines.append(
                f"  {span.presses:5d} presses ({span.taken} taken, {span.moves_on} moving on),"
                f" {len(span.outside)} outside, {len(span.skips)} skips, {span.restarts} restarts"
                f"  {span.nodeid}{tag}"
            )
        return lines


def judge(
    nodeid: str,
    presses: Iterable[Press],
    game_lines: list[dict],
    start: float,
    end: float,
    *,
    own_session: int | None = None,
) -> Span:
    """The presses of one test against the games' own account: which landed off every game's windows,
    and which changed an unsolved level (as the game saw it, between `start` and `end`). With
    `own_session` (the test's), a window of a process in any other session is the game's too: a
    harness that starts a third-party game in a session of its own defines the game so."""
    opened = [line for line in game_lines if line.get("event") == "open"]
    pids = {line["pid"] for line in opened}
    # X servers hand out the same window ids: a window is known by its display too.
    windows = {(line.get("display"), line["window"]) for line in opened if line.get("window")}
    span = Span(nodeid)
    for press in presses:
        span.presses += 1
        # A game's popup is a window of its own process (the pid), its main window the one it names.
        apart = own_session is not None and press.session is not None and press.session != own_session
        if (press.display, press.window) not in windows and press.pid not in pids and not apart:
            where = (
                "the bare root window" if press.window == 0 else f"window {press.window:#x} {press.wm_class}"
            )
            span.outside.append(f"a press at ({press.x}, {press.y}) on {where}, pid {press.pid}")
    for line in game_lines:
        if line.get("event") != "press" or not start <= line.get("time", -1) <= end:
            continue
        span.taken += 1
        if line.get("solved"):
            span.moves_on += line.get("hit") in LEVEL_CHANGES
        elif line.get("hit") in LEVEL_CHANGES:
            span.skips.append(
                f"'{line['hit']}' pressed on unsolved level {line.get('level')} (game pid {line['pid']})"
            )
        elif line.get("hit") == "button restart":
            span.restarts += 1
    return span
