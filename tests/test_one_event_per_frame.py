"""A game that takes one input event per frame and flushes the rest (as Allegro's examples do: wait for
an event, handle it, flush the queue), driven through the real pointer code on a stand-in for pyautogui
on X: every press and release must reach it alone, and a lost event must cost at most a redraw."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.act.pointer import PyAutoGuiPointer
from flowbot.act.tuning import LADDER, Tuner, start_tuner
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from tests.clocks import TimeOf
from tests.test_tuning import game_with

FRAME = 1 / 60


@pytest.fixture(scope="module")
def levels():
    """Three generated levels of growing size."""
    return [make_level(side, side, side - 1, random.Random(side)).puzzle for side in (5, 6, 7)]


class FlushingGame:
    """The bundled game behind an event queue read once per frame: the first event queued since the
    last frame is handled, the rest are flushed. A frame for which `lost(kind, taken)` (the first
    event's kind, and the kinds handled so far) is true finds a timer tick queued ahead of the input (a
    game starved of CPU on a busy machine), so that all of it is flushed. With `stalls` (a share of
    frames, and the shortest and longest stall in seconds), the game now and then gets no CPU for a
    while, and everything queued then is flushed (but the kinds `spared`). Time is simulated: it
    passes only in `sleep` and `grab`."""

    def __init__(
        self,
        game,
        lost: Callable[[str, list[str]], bool] = lambda kind, taken: False,
        stalls: tuple[float, float, float] = (0.0, 0.0, 0.0),
        seed: int = 0,
        spared: tuple[str, ...] = (),
    ) -> None:
        self.game = game
        self.bounds = game.bounds
        self.queue: list[tuple[str, float, float]] = []
        self.now = self.next_frame = self.stalled_until = 0.0
        self.lost, self.stalls, self.random, self.spared = lost, stalls, random.Random(seed), spared
        self.taken: list[str] = []  # the kinds of event handled, in order

    def push(self, kind: str, x: float = 0.0, y: float = 0.0) -> None:
        """An input event arrives in the queue."""
        self.queue.append((kind, x, y))

    def sleep(self, seconds: float) -> None:
        """Time passes: each frame handles the first queued event and flushes the rest."""
        self.now += seconds
        while self.next_frame <= self.now:
            self.next_frame += FRAME
            chance, shortest, longest = self.stalls
            if self.next_frame > self.stalled_until and self.random.random() < chance:
                self.stalled_until = self.next_frame + self.random.uniform(shortest, longest)
            if self.next_frame < self.stalled_until:
                # No CPU: what is queued now is flushed with the first frame after the stall (but the
                # releases `spared`).
                self.queue = [event for event in self.queue if event[0] in self.spared]
                continue
            queued, self.queue = self.queue, []
            if not queued:
                continue
            kind, x, y = queued[0]
            if self.lost(kind, self.taken):
                continue
            self.taken.append(kind)
            if kind == "move":
                self.game.move(x, y)
            elif kind == "down":
                self.game.down()
            else:
                self.game.up()

    def grab(self, region=None):
        """What the screen shows (a look takes a frame)."""
        self.sleep(FRAME)
        return self.game.grab(region)


class X11Gui:
    """pyautogui as it drives an X server: moveTo is one motion event; mouseDown and mouseUp first move
    to where the pointer already is, which the server sends as a motion event before the button's; its
    platform module holds its connection and the XTest call."""

    PAUSE = MINIMUM_DURATION = 0
    FAILSAFE = True

    class FailSafeException(Exception):
        """pyautogui's fail-safe."""

    def __init__(self, game: FlushingGame) -> None:
        self.game = game
        self.position = (0.0, 0.0)
        connection = SimpleNamespace(sync=lambda: None)
        self.platformModule = SimpleNamespace(_display=connection, fake_input=self._xtest)

    def failSafeCheck(self) -> None:
        """Never in a corner here."""

    def moveTo(self, x: float, y: float) -> None:
        """One motion event."""
        self.position = (x, y)
        self.game.push("move", x, y)

    def mouseDown(self) -> None:
        """A motion event where the pointer is, then the press."""
        self.moveTo(*self.position)
        self.game.push("down")

    def mouseUp(self) -> None:
        """A motion event where the pointer is, then the release."""
        self.moveTo(*self.position)
        self.game.push("up")

    def _xtest(self, connection, kind: int, detail: int = 0, **where) -> None:
        """XTest's fake_input: a button's event alone (motion goes through moveTo here)."""
        from Xlib import X

        assert detail == 1 and kind in (X.ButtonPress, X.ButtonRelease)
        self.game.push("down" if kind == X.ButtonPress else "up")


def flushing(levels, lost=None, **options) -> tuple[FlushingGame, PyAutoGuiPointer]:
    """The bundled game (filling no jumps) behind a flushing queue, and the real pointer on X driving it."""
    game = FlushingGame(game_with(levels, interpolate=False), *([lost] if lost else []), **options)
    return game, PyAutoGuiPointer(game.bounds, X11Gui(game))


def moves_lost(share: float, seed: int) -> Callable[[str, list[str]], bool]:
    """Loses that share of the moves, at random."""
    chance = random.Random(seed)
    return lambda kind, taken: kind == "move" and chance.random() < share


def loop_on(game: FlushingGame, pointer, count: int, tmp_path) -> AutoClear:
    """The live loop with the defaults and self-tuning, quick timeouts, on the simulated game's clock
    (not the wall clock: on a busy machine fewer looks fit in a wall-clock timeout, fewer simulated
    frames pass, and a seed's run was not the same run twice)."""
    loop = AutoClear(game, pointer, PointerSettings(), None, count, artifacts=tmp_path, clock=TimeOf(game),
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    loop.tuner = start_tuner(PointerSettings())
    return loop


def test_each_press_and_release_reaches_the_game_alone(levels):
    game, pointer = flushing(levels[:1])
    pointer.move(10, 10)
    game.sleep(FRAME)
    pointer.down()
    game.sleep(FRAME)
    pointer.up()
    game.sleep(FRAME)
    assert game.taken == ["move", "down", "up"]


def test_the_defaults_clear_a_game_that_takes_one_event_per_frame(levels, tmp_path):
    game, pointer = flushing(levels)
    report = loop_on(game, pointer, 3, tmp_path).run()
    assert report.cleared == 3, report.summary()
    assert len(game.game.results) >= 2 and all(result.solved for result in game.game.results)


def first_move_after_each_release() -> Callable[[str, list[str]], bool]:
    """Loses the first move after each release the game took."""
    lost_after: set[int] = set()  # how many events were taken when a move was lost

    def lost(kind: str, taken: list[str]) -> bool:
        """True for a move right after a release, once."""
        if kind != "move" or taken[-1:] != ["up"] or len(taken) in lost_after:
            return False
        lost_after.add(len(taken))
        return True

    return lost


def test_a_move_lost_on_the_way_to_a_flows_first_dot_costs_no_redraw(levels, tmp_path):
    # The first move after each release is lost: the game still has its pointer on the last flow's end
    # dot, and a press there picks that flow up; a second move onto the dot is the one it sees.
    game, pointer = flushing(levels, lost=first_move_after_each_release())
    loop = loop_on(game, pointer, 3, tmp_path)
    loop.tuner = None  # the safe defaults throughout
    report = loop.run()
    assert report.cleared == 3, report.summary()
    assert [level.retries for level in report.levels] == [0, 0, 0]
    assert len(game.game.results) >= 2 and all(result.solved for result in game.game.results)


@pytest.mark.parametrize("seed", range(4))
def test_a_starved_game_losing_a_fifth_of_its_moves_is_still_cleared(levels, tmp_path, seed):
    game, pointer = flushing(levels, lost=moves_lost(0.2, seed))
    loop = loop_on(game, pointer, 3, tmp_path)
    loop.tuner = Tuner(start=[rung.name for rung in LADDER].index("safe defaults"))
    report = loop.run()
    assert report.cleared == 3, report.summary()
    assert sum(result.solved for result in game.game.results) >= 2  # the game's verdict


@pytest.mark.parametrize("seed", range(4))
def test_a_game_that_stalls_now_and_then_is_cleared_from_the_safe_defaults_down(levels, tmp_path, seed):
    # As allegro-flowfree on a loaded machine: a stall of 100 to 300 ms (every move and press sent then
    # is lost) every second or so, on top of a tenth of the presses and moves lost. Releases are not
    # lost here: a flow drawn whose release was lost looks drawn, and only the game's win signal can
    # tell (the live loop's verdict; this game marks its flows joined before the release).
    chance = random.Random(seed)
    game, pointer = flushing(
        levels,
        lost=lambda kind, taken: kind != "up" and chance.random() < 0.1,
        stalls=(1 / 60, 0.1, 0.3),
        seed=seed,
        spared=("up",),
    )
    loop = loop_on(game, pointer, 3, tmp_path)
    loop.tuner = Tuner(start=[rung.name for rung in LADDER].index("safe defaults"))
    report = loop.run()
    assert report.cleared == 3, report.summary()
    assert sum(result.solved for result in game.game.results) >= 2  # the game's verdict
