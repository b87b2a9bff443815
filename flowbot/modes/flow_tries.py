"""Classic Flow's tries at one level, as the engine's level asks for them (flowbot.live.level.Tries):
which strokes to draw, how long to look for the game's word after each try, and what to draw again
when the game did not take the level: only the flows with a cell or join not shown (pressing a dot
restarts its flow), on a slower rung when the tuner says so, each from the dot it was not started
from; and when every flow shows joined but the game said nothing, one flow a try, the last drawn
first (a game may have missed one release, which the picture does not show).

Before a redraw, the pipes of the failed try still in the way are cleared: a game that never cuts
another flow's pipe stops a stroke at the first cell of another colour, so the flows showing where
others belong are tapped on a dot (which clears a flow) until the board reads clear, then drawn again."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from flowbot.act.clear import clearing_taps, flows_in_the_way, read_seen
from flowbot.act.guard import STOPPED, BoardAnsweredError, BoardGoneError
from flowbot.act.plan import PointerSettings, plan_strokes, tap_dots
from flowbot.act.tuning import PROBE_TIMEOUT
from flowbot.live.counters import done_count
from flowbot.live.level import LevelRun, timed_plan
from flowbot.live.report import AutoClearError, Evidence, GameOver, not_shown, unconfirmed_reason
from flowbot.model import Cell, Geometry
from flowbot.modes.flow_verdict import Baseline

log = logging.getLogger(__name__)

# Rounds of taps on the flows in the way before a redraw (each after a look at the board): a game
# that missed a tap gets another; one whose board never reads clear is drawn on anyway.
CLEAR_ROUNDS = 3
# Times one flow drawn again alone at one rung may show joined and stay unconfirmed before the rung is
# stepped down: a game that misses releases shows every flow joined, which says nothing of speed.
UNCONFIRMED_REDRAWS = 2


@dataclass
class FlowTries:
    """The tries at one classic Flow level (see the module's docstring)."""

    loop: Any  # the AutoClear playing the level
    baseline: Baseline
    strokes: list
    settings: PointerSettings
    attempts: int  # tries allowed so far (grows while tries do no worse, see after_miss)
    most: int  # tries allowed at most
    first: int  # the tries allowed at the start
    suspects: list[int]  # after an unconfirmed look: the flows to draw again, one a try, first first
    last_look: tuple[np.ndarray, Geometry]  # the board before the last try
    was_broken: int  # flows broken after the try before
    held: int | None = None  # the game's count of flows it holds after the last try
    starts: dict[int, Cell] = field(default_factory=dict)  # the cell each flow's last stroke began on
    tap_first: set[int] = field(default_factory=set)  # flows whose last stroke left every cell as it was
    probing: bool = False  # the last try was judged with the tuner's short look
    # Per flow drawn again alone at the tuner's current rung: how often it showed joined, unconfirmed.
    redrawn: dict[int, int] = field(default_factory=dict)
    taps_clear: bool = True  # False once a round of taps on dots left the board as it was
    dead_page: bool = False  # a try drawn cell by cell, a pause a move, showed nothing: taps from then on

    @classmethod
    def start(cls, loop: Any, run: LevelRun) -> FlowTries:
        """The first try at a level just started: every flow, at the settings in use. Two tries at
        those settings; with self-tuning, one more per slower rung left; and one more after each try
        that left no more flows broken than the one before (a game losing some input gets there by
        redrawing what it lost), at most one per flow."""
        settings = loop.tuner.settings if loop.tuner is not None else loop.settings
        scene, solution = run.scene, run.solution
        strokes = timed_plan(run, plan_strokes, solution, scene.geometry, settings)
        baseline = Baseline.of(scene, solution)
        attempts = 2 + (loop.tuner.steps_left() if loop.tuner is not None else 0)
        flows = len(solution.paths)
        suspects = [stroke.color for stroke in reversed(strokes)]
        tries = cls(loop, baseline, strokes, settings, attempts, attempts + flows, attempts, suspects,
                    baseline.undrawn, flows + 1)  # fmt: skip
        tries.starts.update({stroke.color: stroke.cells[0] for stroke in strokes})
        return tries

    def more(self, attempt: int) -> bool:
        """True while tries are left after try `attempt`."""
        return attempt + 1 < self.attempts

    def keeps_gone(self, attempt: int, error: BoardGoneError) -> bool:
        """Before a retry the board may have changed because the game took the level late (its win
        dialog now covers the board), and a board changed in place in a window that did not move is
        the game's answer (a win screen, the next level): the win is looked for once more."""
        return attempt > 0 or isinstance(error, BoardAnsweredError)

    def judge(self, run: LevelRun, gone: BoardGoneError | None) -> Evidence:
        """The verdict on the try just drawn. A fast try gets a short look, and no OCR while its level
        still shows; a board changed under a retry gets the game's own word, in full."""
        tuner = self.loop.tuner
        self.probing = tuner is not None and tuner.probing and gone is None
        look = PROBE_TIMEOUT if self.probing else None
        return self.loop.verdict(
            run.scene, run.solution, self.baseline, look, words=not self.probing, starts=self.starts
        )

    def after_miss(self, run: LevelRun, evidence: Evidence, gone: BoardGoneError | None) -> str | None:
        """After a try the game did not take: stop when the board went, else plan the next try; a
        `won_by` when the level gave way to the game's win words after a fast try."""
        loop, number = self.loop, run.number
        if isinstance(gone, BoardAnsweredError):
            over = loop.game_over(run.scene.geometry)  # the board gave way to the end screen ("Time's up!")
            if over is not None:
                raise GameOver(over)
            raise AutoClearError(
                f"level {number} ({run.puzzle.size}): {gone.args[0].removesuffix('; ' + STOPPED)}, but "
                "no new level, dialog or win words could be read there; nothing more was pressed"
            )
        if gone is not None:
            raise gone
        missing = {*evidence.cells, *(cell for join in evidence.joins for cell in join)}
        log.info(
            "level %d: %d cell(s), %d join(s) not shown; drawing it again",
            number, len(evidence.cells), len(evidence.joins),
        )  # fmt: skip
        moved = loop.found_again(run.scene)
        if moved is None and loop.level_gone(run.scene, self.baseline, self.probing):
            return "message"
        if moved is not None and moved.geometry != run.scene.geometry:
            run.scene = moved  # the board moved (a banner, a resize): draw where it is now
            loop.fence(moved.geometry, moved.frame, run.puzzle)
        broken = {color for color, path in enumerate(run.solution.paths) if set(path) & missing}
        in_way = self.clear_strays(run) if broken else set()
        # How the try just drawn moved, before any step down: by jumps, or with no pause between moves
        # (a game that reads the pointer once a frame sees nothing of such a drag but its ends).
        jumped = self.settings.corners_only or self.settings.move_delay <= 0
        if loop.tuner is not None and self.too_fast(evidence, broken, in_way) and loop.tuner.dropped():
            self.settings = loop.tuner.settings  # too fast for this game: one rung slower
            self.redrawn.clear()
            log.info("level %d: drawing slower: %s", number, loop.tuner.rung.name)
        self.next_strokes(run, evidence, broken | in_way, jumped)
        return None

    def too_fast(self, evidence: Evidence, broken: set[int], in_way: set[int]) -> bool:
        """Whether a try not taken says the rung is too fast for the game. Not when every flow it
        left broken was stopped by another colour or stood in another's way (a game that does not cut
        pipes: tries drawn too fast leave cells empty, not another flow's), unless it left no fewer
        flows broken than the try before (nothing gained by clearing: a rung the game cannot follow
        leaves pipes astray try after try). Not when every join showed
        (drawn, unconfirmed: a release the game missed says nothing of speed) until one flow drawn
        again alone at this rung stayed unconfirmed UNCONFIRMED_REDRAWS times."""
        if evidence.unconfirmed:
            if len(self.strokes) != 1:
                return False
            flow = self.strokes[0].color
            self.redrawn[flow] = self.redrawn.get(flow, 0) + 1
            return self.redrawn[flow] >= UNCONFIRMED_REDRAWS
        return not (in_way and broken <= in_way) or len(broken) >= self.was_broken

    def clear_strays(self, run: LevelRun) -> set[int]:
        """Clear the flows in the way of a redraw (see the module's docstring): tap one dot of each,
        look again, up to CLEAR_ROUNDS times; the flows found in the way, to be drawn again. A game
        whose board a round of taps left as it was does not clear a flow on a tap (a drag from its
        dot does): no more taps for the level, each a double-click's span of waiting."""
        loop, solution = self.loop, run.solution
        in_way: set[int] = set()
        tapped: list[list[int | None]] | None = None
        for _ in range(CLEAR_ROUNDS):
            seen = self.seen(run)
            in_way |= set(flows_in_the_way(seen, solution))
            taps = clearing_taps(seen, solution) if self.taps_clear else []
            if tapped is not None and seen == tapped:
                log.info("level %d: taps on dots cleared nothing; no more clearing taps", run.number)
                self.taps_clear, taps = False, []
            if not taps:
                break
            log.info("level %d: %d flow(s) in the way; tapping their dots first", run.number, len(taps))
            tap_dots(loop.pointer, [run.scene.geometry.center(dot) for dot in taps], loop.clock.sleep)
            tapped = seen
        return in_way

    def seen(self, run: LevelRun) -> list[list[int | None]]:
        """The flow each cell of the board shows now (flowbot.act.clear.read_seen)."""
        frame = self.loop.screen.grab(self.loop.look_region())
        shown = run.scene.geometry.shifted(-frame.left, -frame.top)
        return read_seen(frame.pixels, shown, self.baseline.flow_rgb, self.baseline.centres)

    def next_strokes(self, run: LevelRun, evidence: Evidence, broken: set[int], jumped: bool) -> None:
        """Plan the next try: only the flows with a cell or join not shown (a level whose last flow is
        fixed is won at once), each from the dot it was not started from (a game may pick a half-drawn
        pipe up at the dot it was started from); after an unconfirmed look, one flow."""
        loop, solution = self.loop, run.solution
        drawn = {stroke.color for stroke in self.strokes}
        untouched, self.last_look = loop.untouched(run.scene, solution, self.last_look)
        # While tuning, a drag the game showed nothing of was too fast (a jump it does not fill): the
        # next try is slower, and a tap would only cost time (a time trial's). But a whole try drawn
        # cell by cell, pausing at each, that changed no cell is no jump and no speed alone: a page
        # left with a selection takes every drag as the browser's drag-and-drop (a web game's 15x15
        # drew nothing on six rungs in a row so): from then on such tries are tapped.
        tuning = loop.tuner is not None and loop.tuner.probing
        nothing_shown = bool(drawn) and drawn <= untouched and (not jumped or self.dead_page)
        self.dead_page = self.dead_page or nothing_shown
        self.tap_first = set() if tuning and not nothing_shown else untouched & broken & drawn
        if evidence.against:
            # The game's counters say flows are missing though every one shows joined: it lost
            # releases, and may lose a redraw's too: three times round the flows, one a try.
            self.most = max(self.most, self.first + 3 * len(solution.paths))
        if len(broken) <= self.was_broken and run.attempt + 1 == self.attempts:
            self.attempts = min(self.most, self.attempts + 1)
        # A look that found every flow joined but unconfirmed has one flow drawn again: that try is
        # measured against one flow broken, so that losing the redraw too (a game starved of CPU loses
        # input in bursts) still earns the next try.
        self.was_broken = 1 if evidence.unconfirmed else len(broken)
        avoid = {stroke.color: stroke.cells[0] for stroke in self.strokes}
        planned = plan_strokes(solution, run.scene.geometry, self.settings, avoid=avoid)
        if evidence.unconfirmed:
            # Every flow shows joined, and the game said nothing: drawing them all again would risk
            # losing as many, so one flow a try, the last drawn first, then back through the others.
            self.held = next_suspect(self.suspects, self.strokes, self.held, done_count(evidence.against))
            self.strokes = [stroke for stroke in planned if stroke.color == self.suspects[0]]
        else:
            self.strokes = [stroke for stroke in planned if stroke.color in broken] or planned
        self.starts.update({stroke.color: stroke.cells[0] for stroke in self.strokes})

    def won(self, run: LevelRun) -> None:
        """Keep the level won, to tell it (misread under a dialog) from the next one."""
        self.loop.keep_won(run.scene, run.solution, self.baseline)

    def failed(self, run: LevelRun, evidence: Evidence) -> tuple[str, str]:
        """Why the level did not count, and the stop."""
        why = unconfirmed_reason(evidence) if evidence.unconfirmed else ""
        times = "twice" if run.attempt == 1 else f"{run.attempt + 1} times"
        message = (
            f"level {run.number} ({run.puzzle.size}) was drawn {times} but the game did not take it: "
            f"{not_shown(evidence)}"
        )
        return why, message


def next_suspect(suspects: list[int], drawn: list, held: int | None, now_held: int | None) -> int | None:
    """Reorder `suspects` (the flows to draw again, one a try, first first) after a look found every
    flow joined but the game gave no sign, and return the game's count of flows it holds now.

    A lone flow just drawn again (`drawn`) is judged by the game's counter where it has one: a count
    that rose says the game took it (no suspect any more), one that fell says it lost its release this
    time (drawn again at once); with no count, or none changed, it goes to the back."""
    if len(drawn) == 1 and drawn[0].color in suspects:
        flow = drawn[0].color
        suspects.remove(flow)
        counted = None not in (held, now_held)
        if counted and now_held < held:
            suspects.insert(0, flow)
        elif not (counted and now_held > held) or not suspects:
            suspects.append(flow)
    return now_held
