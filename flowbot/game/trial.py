"""Time Trial: fresh generated levels of one size, one after another against a clock that starts at the
first press on the board; when time is up an end screen says how many were solved and input stops."""

from __future__ import annotations

import math
import queue
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from flowbot.errors import UsageError
from flowbot.game.layout import Dialog
from flowbot.game.session import LevelResult, Session
from flowbot.model import Puzzle

AHEAD = 4  # levels generated ahead of play: a win never waits for the generator
MAX_SECONDS = 3600.0
TIME_UP = "Time's up!"


@dataclass(frozen=True, slots=True)
class TrialSpec:
    """What a time trial plays: its length in seconds, the board's rows and columns, and the seed."""

    seconds: float
    rows: int
    cols: int
    seed: int
    variant: str | None = None  # a sister game's levels: 'bridges', 'hexes', 'warps' or 'shapes'
    shape: str | None = None  # Shapes levels' board ('cube', 'ring', ...); rows and cols then unused

    def maker(self) -> Callable[[int], Puzzle]:
        """Level `index` of the trial: of its Shapes board, or of its size."""
        if self.shape is not None:
            return generated_shapes(self.shape, self.seed)
        return generated(self.rows, self.cols, self.seed, self.variant)


def trial_spec(seconds: float, board: str | None, seed: int | None, variant: str | None = None) -> TrialSpec:
    """The trial the command line asks for; a fresh seed when none is given. Raises UsageError."""
    if not (0 < seconds <= MAX_SECONDS) or math.isnan(seconds):
        raise UsageError(
            f"--time-trial {seconds:g}: a trial lasts more than 0 and at most {MAX_SECONDS:g} seconds"
        )
    if board is None:
        raise UsageError("--time-trial needs --board RxC, e.g. --board 5x5")
    rows, cols = board_size(board, variant)
    return TrialSpec(seconds, rows, cols, fresh_seed() if seed is None else seed, variant)


def shapes_trial_spec(seconds: float, shape: str, seed: int | None) -> TrialSpec:
    """A time trial of Shapes levels on one kind of board; a fresh seed when none is given."""
    from flowbot.shapes.kinds import shape_board

    if not (0 < seconds <= MAX_SECONDS) or math.isnan(seconds):
        raise UsageError(
            f"--time-trial {seconds:g}: a trial lasts more than 0 and at most {MAX_SECONDS:g} seconds"
        )
    count = shape_board(shape).count
    return TrialSpec(seconds, 1, count, fresh_seed() if seed is None else seed, "shapes", shape)


def board_size(board: str, variant: str | None = None) -> tuple[int, int]:
    """Rows and columns from --board RxC, checked against what the generator makes. Raises UsageError."""
    from flowbot.generate.lines import check_size
    from flowbot.generate.variants import check_variant_size

    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", board)
    if not match:
        raise UsageError(f"--board {board!r}: expected ROWSxCOLS, e.g. 5x5")
    rows, cols = int(match.group(1)), int(match.group(2))
    if variant is None:
        check_size(rows, cols, None)
    else:
        check_variant_size(variant, rows, cols, None)
    return rows, cols


def fresh_seed() -> int:
    """A seed nobody chose, for levels that differ from run to run."""
    return random.SystemRandom().randrange(10**9)


def generated(rows: int, cols: int, seed: int, variant: str | None = None) -> Callable[[int], Puzzle]:
    """Level `index` of a seed, as `flowbot generate [--variant V] --size RxC --seed S` makes it."""
    from flowbot.generate.levels import make_level
    from flowbot.generate.lines import default_colors
    from flowbot.generate.variants import default_variant_colors, make_variant_level
    from flowbot.modes.generate import level_rng

    def make(index: int) -> Puzzle:
        """Generate one level."""
        rng = level_rng(seed, index)
        if variant is not None:
            colors = default_variant_colors(rows, cols, rng)
            return make_variant_level(variant, rows, cols, colors, rng).puzzle
        return make_level(rows, cols, default_colors(rows, cols, rng), rng).puzzle

    return make


def generated_shapes(shape: str, seed: int) -> Callable[[int], Puzzle]:
    """Level `index` of a seed on a Shapes board of one kind ('cube', 'ring', ...)."""
    from flowbot.generate.variants import default_shape_colors, make_shape_level
    from flowbot.modes.generate import level_rng
    from flowbot.shapes.kinds import FEWEST_COLORS, shape_board

    board = shape_board(shape)

    def make(index: int) -> Puzzle:
        """Generate one level."""
        rng = level_rng(seed, index)
        colors = max(FEWEST_COLORS.get(shape, 2), default_shape_colors(board.count, rng))
        return make_shape_level(shape, board.count, board.links, colors, rng).puzzle

    return make


class LevelMaker:
    """Levels 0, 1, 2, ... of a maker, the first made at once and the rest ahead of play in a thread."""

    def __init__(self, make: Callable[[int], Puzzle], *, ahead: int = AHEAD) -> None:
        self._make = make
        self._first: Puzzle | None = make(0)  # made now, so a bad size fails before the window opens
        self._ready: queue.Queue[Puzzle | BaseException] = queue.Queue(maxsize=ahead)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="level maker", daemon=True)
        self._thread.start()

    def take(self) -> Puzzle:
        """The next level (waits only if the generator fell behind)."""
        if self._first is not None:
            first, self._first = self._first, None
            return first
        item = self._ready.get()
        if isinstance(item, BaseException):
            raise item
        return item

    def close(self) -> None:
        """Stop making levels."""
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        """The thread: make levels in order and queue them, until closed."""
        index = 1
        failed = False
        while not self._stop.is_set() and not failed:
            try:
                item: Puzzle | BaseException = self._make(index)
            except Exception as error:  # handed to the taker, who raises it in the game's thread
                item, failed = error, True
            while not self._stop.is_set():
                try:
                    self._ready.put(item, timeout=0.1)
                    break
                except queue.Full:
                    continue
            index += 1


class TrialSession(Session):
    """A session of generated levels against the clock: a win brings the next level at once.

    The clock starts at the first press on the board. When it runs out the shown level is reported as
    it stands (not solved unless complete), the end screen shows and no more input is taken.
    """

    def __init__(
        self,
        maker: LevelMaker,
        seconds: float,
        *,
        report: Callable[[LevelResult], None] | None = None,
        interpolate: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__([maker.take()], report=report, interpolate=interpolate, clock=clock)
        self.maker = maker
        self.seconds = seconds
        self.started_at: float | None = None
        self.solved = 0
        self.over = False

    @property
    def closed(self) -> bool:
        """True once time is up: the board takes no more input."""
        return self.over

    def touch(self) -> None:
        """A press on the board: the first one starts the clock (and times the first level from then)."""
        if self.started_at is None and not self.over:
            self.started_at = self._started = self.clock()

    def remaining(self) -> float:
        """Seconds left: all of them until the first press, none once time is up."""
        if self.over:
            return 0.0
        if self.started_at is None:
            return self.seconds
        return max(0.0, self.seconds - (self.clock() - self.started_at))

    def status(self) -> str:
        """The clock line: time left (whole seconds, rounded up) and levels solved."""
        left = math.ceil(self.remaining())
        return f"time {left // 60}:{left % 60:02d}  solved {self.solved}"

    def tick(self) -> None:
        """Once a frame: a completed level counts and the next one shows; then the clock is checked."""
        if self.over:
            return
        board = self.board
        if board.complete and board.drawing is None:
            self.solved += 1
            self.next()
        if self.started_at is not None and self.clock() - self.started_at >= self.seconds:
            self.over = True
            self.leave()  # the level left unfinished, as it stands

    def dialog(self) -> Dialog | None:
        """No dialog between levels; the end screen once time is up."""
        if not self.over:
            return None
        plural = "" if self.solved == 1 else "s"
        return Dialog(TIME_UP, (f"{self.solved} level{plural} solved", f"in {self.seconds:g} seconds"))

    def next(self) -> None:
        """Leave the level for a fresh one (skipping counts as not solved)."""
        if self.over:
            return
        self.leave()
        self.levels.append(self.maker.take())
        self._show(len(self.levels) - 1)

    @property
    def can_go_back(self) -> bool:
        """Never: a trial only goes forward."""
        return False

    def previous(self) -> None:
        """No going back in a trial."""

    def restart(self) -> None:
        """Clear the board, while time lasts."""
        if not self.over:
            super().restart()
