"""The live loop against a game in a web page that leaves the page selected after a drag, in-process.

In a browser, a drag over a page that does not prevent it selects part of the page; a later press
inside that selection starts the browser's own drag-and-drop, and the page then gets no moves at all
for that drag. A real game in ../shared/games does this: every flow after the first was lost, try
after try. A click collapses the selection, so a flow drawn again is tapped on its dot first."""

from __future__ import annotations

import random

import pytest

from flowbot.act.plan import PointerSettings, Stroke, draw_strokes
from flowbot.act.pointer import RecordingPointer
from flowbot.game.look import Variant
from flowbot.game.session import Session
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)


class SelectingPage:
    """The bundled game as a browser shows it: a drag leaves the page selected; a press inside the
    selection starts the browser's drag-and-drop (the game sees no press, no move, no release), and a
    press and release with no move between (a click) collapses the selection."""

    def __init__(self, game: SimulatedGame) -> None:
        self.game, self.bounds = game, game.bounds
        self.selected = self.dragging_selection = self.moved = False
        self.lost_drags = 0

    def grab(self, region=None):
        """What the page shows."""
        return self.game.grab(region)

    def move(self, x: float, y: float) -> None:
        """The pointer moves; during the browser's drag-and-drop the page sees nothing."""
        self.moved = True
        if self.dragging_selection:
            self.game.x, self.game.y = x, y
        else:
            self.game.move(x, y)

    def down(self) -> None:
        """A press: inside a selection it belongs to the browser."""
        self.moved = False
        if self.selected:
            self.dragging_selection = True
            return
        self.game.down()

    def up(self) -> None:
        """A release: ends the browser's drag (a click clears the selection), or the game's."""
        if self.dragging_selection:
            self.dragging_selection = False
            if self.moved:
                self.lost_drags += 1
            else:
                self.selected = False
            return
        self.game.up()
        if self.moved:
            self.selected = True


@pytest.fixture(scope="module")
def levels():
    """Two generated levels."""
    return [make_level(side, side, side - 1, random.Random(side)).puzzle for side in (5, 6)]


def test_flows_lost_to_the_browsers_drag_and_drop_are_tapped_and_drawn_again(levels, tmp_path):
    results: list = []
    game = SimulatedGame(levels, variant=Variant(dialog=False), delay=0.0,
                         session=Session(levels, report=results.append))  # fmt: skip
    page = SelectingPage(game)
    loop = AutoClear(page, page, FAST, None, 2, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    report = loop.run()
    assert report.cleared == 2, report.summary()
    assert page.lost_drags > 0  # the first try of each level lost flows to the browser
    assert all(level.retries == 1 for level in report.levels)  # one try after the taps was enough
    assert results and all(result.solved for result in results)  # the game's own verdict


def test_a_tap_is_a_click_on_the_first_dot_before_the_press_that_draws():
    pointer = RecordingPointer()
    stroke = Stroke(0, ((0, 0), (0, 1)), ((10.0, 10.0), (20.0, 10.0)))
    draw_strokes(pointer, [stroke], FAST, sleep=lambda s: None, tap_first={0})
    assert [kind for kind, *_ in pointer.events] == ["move", "down", "up", "down", "move", "up"]
    assert {(x, y) for kind, x, y in pointer.events[:4]} == {(10.0, 10.0)}


class TapCounter:
    """A game seen through a pointer that counts taps: presses released with no move between."""

    def __init__(self, game) -> None:
        self.game, self.bounds = game, game.bounds
        self.taps = self.moved = 0

    def grab(self, region=None):
        """What the game shows."""
        return self.game.grab(region)

    def move(self, x: float, y: float) -> None:
        """A move, passed on."""
        self.moved += 1
        self.game.move(x, y)

    def down(self) -> None:
        """A press, passed on."""
        self.moved = 0
        self.game.down()

    def up(self) -> None:
        """A release, passed on; a tap when nothing moved since the press."""
        self.taps += self.moved == 0
        self.game.up()


def test_a_flow_the_game_took_part_of_is_drawn_again_with_no_tap(levels, tmp_path):
    # The game stops every drag one step short of its far dot (the level is never won): each drag
    # shows, from one dot and then from the other, so nothing was lost to the browser, and a tap (a
    # click a harness could take for a control's) has no reason.
    from tests.test_auto_clear_faults import FaultyGame

    game = FaultyGame(levels[:1], last_step=1.0)
    pointer = TapCounter(game)
    loop = AutoClear(game, pointer, FAST, None, 1, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2)  # fmt: skip
    report = loop.run()
    assert report.cleared == 0 and report.levels[0].retries > 1, report.summary()
    assert pointer.taps == 0


class FirstDragCut(SimulatedGame):
    """The game losing every move of the level's first drag after its first two."""

    def move(self, x: float, y: float) -> None:
        """Motion; most of the first drag's is lost."""
        self.moves_in_drag = getattr(self, "moves_in_drag", 0) + (1 if self.held else 0)
        if self.held and self.presses == 1 and self.moves_in_drag > 2:
            self.x, self.y = x, y
            return
        super().move(x, y)


def test_a_flow_drawn_in_part_then_lost_to_the_browser_is_tapped_once_its_drag_shows_nothing(
    levels, tmp_path
):
    # The first flow is drawn in part before the page is selected; its redraw starts inside the
    # selection and shows nothing new: compared with the board before that try, it is tapped next.
    game = FirstDragCut(levels, variant=Variant(dialog=False), delay=0.0)
    page = SelectingPage(game)
    loop = AutoClear(page, page, FAST, None, 1, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    report = loop.run()
    assert report.cleared == 1, report.summary()
    assert page.lost_drags > 0


def test_a_page_selected_before_a_tuned_run_gets_a_tap_once_a_whole_try_showed_nothing(levels, tmp_path):
    # While the pointer's rung is tuned, a drag the game showed nothing of is taken for speed and not
    # tapped (a game that does not fill a jump, or reads the pointer once a frame, shows nothing of a
    # jump or of a drag with no pauses); but a whole try drawn cell by cell, pausing at each, that
    # changed no cell is a page taking every drag as the browser's: from then on such tries are tapped
    # (a web game's 15x15 drew nothing on six rungs in a row without it). Here the jump rungs draw
    # nothing even tapped; the first cell-by-cell rung with pauses shows nothing, the next, tapped, wins.
    from flowbot.act.tuning import start_tuner

    results: list = []
    game = SimulatedGame(levels, variant=Variant(dialog=False), delay=0.0,
                         session=Session(levels, report=results.append))  # fmt: skip
    page = SelectingPage(game)
    page.selected = True  # left so by whatever ran before
    loop = AutoClear(page, page, PointerSettings(), None, 1, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    loop.tuner = start_tuner(PointerSettings())
    report = loop.run()
    assert report.cleared == 1, report.summary()
    assert report.levels[0].retries <= 6  # 10 without the taps: every rung down to the slow ones
    assert results and results[0].solved
