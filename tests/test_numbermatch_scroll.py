"""Scrolling a Number Match board that runs past the screen, the way the game scrolls: a web page that
moves only by the mouse wheel (so many pixels a notch, not a row) and ignores drags; and the wheel
through the real pointer, with the same fence as every other action."""

from __future__ import annotations

import random

import pytest

pygame = pytest.importorskip("pygame")

from flowbot.capture.screen import Frame, Region  # noqa: E402 - after the skip when pygame is missing
from flowbot.game.numbermatch import NumberMatchView  # noqa: E402
from flowbot.game.render import surface_to_bgr  # noqa: E402
from flowbot.live.clock import ManualClock  # noqa: E402
from flowbot.modes.numbermatch_clear import NumberMatchClear  # noqa: E402
from flowbot.numbermatch.game import NumberMatchGame  # noqa: E402
from flowbot.numbermatch.read import read_board  # noqa: E402
from flowbot.numbermatch.rules import Rules  # noqa: E402
from tests.test_act import FakeGui  # noqa: E402


class WheelPage:
    """The bundled game's look laid out on a page taller than the screen, seen through the screen
    (`height` pixels) from `scroll` down, under a `sticky` header: the page moves only by the
    wheel, `notch` pixels a notch, and stops at its ends; a press and a release at different places
    click nothing (a browser)."""

    def __init__(
        self, game: NumberMatchGame, page: tuple[int, int], height: int, notch: int, sticky: int = 0
    ) -> None:
        self.view = NumberMatchView(game, page)
        self.page, self.height, self.notch = page, height, notch
        self.sticky = sticky  # pixels at the page's top that stay on screen (a header the board slides under)
        self.scroll = 0
        self.wheels = 0
        pygame.font.init()

    def wheel(self, notches: int) -> None:
        """Scroll the page by `notches` (positive: toward its end)."""
        self.wheels += 1
        self.scroll = min(max(self.scroll + notches * self.notch, 0), self.page[1] - self.height)


class PageScreen:
    """A Screen showing the part of the page in view."""

    def __init__(self, page: WheelPage) -> None:
        self.page = page

    def grab(self, region: Region | None = None) -> Frame:
        """The screen's pixels (or a part of them)."""
        surface = pygame.Surface(self.page.page)
        self.page.view.draw(surface)
        whole = surface_to_bgr(surface)
        pixels = whole[self.page.scroll : self.page.scroll + self.page.height].copy()
        pixels[: self.page.sticky] = whole[: self.page.sticky]
        if region is None:
            return Frame(pixels.copy())
        left, top = max(0, region.left), max(0, region.top)
        return Frame(
            pixels[top : region.top + region.height, left : region.left + region.width].copy(), left, top
        )


class PagePointer:
    """A mouse on the page: a click where it is pressed and released, a wheel that scrolls the page,
    a drag that does nothing; never outside the screen."""

    def __init__(self, page: WheelPage) -> None:
        self.page = page
        self.bounds = Region(0, 0, page.page[0], page.height)
        self.x = self.y = 0.0
        self.pressed: tuple[float, float] | None = None

    def move(self, x: float, y: float) -> None:
        assert self.bounds.contains(x, y), (x, y, self.bounds)
        self.x, self.y = x, y

    def down(self) -> None:
        self.pressed = (self.x, self.y)

    def up(self) -> None:
        pressed, self.pressed = self.pressed, None
        if pressed is None or abs(pressed[0] - self.x) + abs(pressed[1] - self.y) > 2:
            return  # a drag on a page selects text, at most
        if self.y < self.page.sticky:
            return  # the header: nothing the bot clicks
        y = self.y + self.page.scroll
        self.page.view.pointer_down(self.x, y)
        self.page.view.pointer_up(self.x, y)

    def wheel(self, x: float, y: float, notches: int) -> None:
        self.move(x, y)
        self.page.wheel(notches)


def test_a_page_that_scrolls_only_by_the_wheel_is_read_whole_and_cleared() -> None:
    """The board runs past the screen's bottom: a drag moves nothing, so the bot turns the wheel,
    learns how far a notch goes, joins the views, scrolls cells into view to click them, and clears
    the board as the game says (a game that adds by itself when stuck, and only then)."""
    results: list = []
    rules = Rules(diagonals=False, auto_add=True, add_when_stuck=True, adds_limited=False)
    game = NumberMatchGame(random.Random(11), start=35, rules=rules, report=results.append)
    page = WheelPage(game, (480, 1600), height=470, notch=53)
    loop = NumberMatchClear(
        PageScreen(page), PagePointer(page), None, 1, clock=ManualClock(),
        rules=rules, fixed=frozenset({"diagonals", "auto_add", "add_when_stuck", "adds_limited"}),
    )  # fmt: skip
    assert game.row_count * page.view.layout.cell > 470 - page.view.layout.area_top  # past the edge
    report = loop.run()
    assert report.stopped is None, report.stopped
    assert report.cleared == 1 and results and results[0].cleared
    assert loop.scroll_way == "wheel" and page.wheels > 0
    assert loop.notch == pytest.approx(53, abs=1.5)
    assert report.boards[0].scrolled and report.wrong_clicks == 0


def test_a_page_scrolled_down_at_the_start_is_read_from_its_top() -> None:
    """Left scrolled half way down: the wheel brings the page's top back before the board is read."""
    results: list = []
    rules = Rules(diagonals=False, auto_add=True, add_when_stuck=True, adds_limited=False)
    game = NumberMatchGame(random.Random(12), start=35, rules=rules, report=results.append)
    page = WheelPage(game, (480, 1600), height=470, notch=40)
    page.scroll = 130
    loop = NumberMatchClear(
        PageScreen(page), PagePointer(page), None, 1, clock=ManualClock(),
        rules=rules, fixed=frozenset({"diagonals", "auto_add", "add_when_stuck", "adds_limited"}),
    )  # fmt: skip
    report = loop.run()
    assert report.stopped is None, report.stopped
    assert report.cleared == 1 and results[0].cleared


class WheelGui(FakeGui):
    """FakeGui with pyautogui's wheel (positive clicks turn it away from the person: up the page)."""

    def scroll(self, clicks):
        self.failSafeCheck()
        self.calls.append(f"scroll {clicks}")


def test_the_real_pointer_turns_the_wheel_only_over_its_fence_and_never_with_the_button_held() -> None:
    """The wheel goes where a move may go, down the page for positive notches, and not mid-drag."""
    from flowbot.act.pointer import PointerError, PyAutoGuiPointer

    gui = WheelGui()
    pointer = PyAutoGuiPointer(Region(100, 100, 200, 200), gui=gui)
    pointer.wheel(150, 150, 3)
    assert gui.position == (150, 150) and gui.calls == ["move", "scroll -3"]
    with pytest.raises(PointerError, match="outside the game window"):
        pointer.wheel(50, 150, 1)
    pointer.down()
    with pytest.raises(PointerError, match="button held"):
        pointer.wheel(150, 150, -1)
    assert gui.calls == ["move", "scroll -3", "down"]


def test_a_board_changed_while_scrolling_is_read_again() -> None:
    """The board changes while the bot scrolls to a cell (a game taking a click late, adding by
    itself; here other digits altogether): the rows on screen are nowhere in the board as read, so
    it is read again and cleared, not given up."""
    results: list = []
    rules = Rules(diagonals=False, auto_add=True, add_when_stuck=True, adds_limited=False)
    game = NumberMatchGame(random.Random(11), start=35, rules=rules, report=results.append)
    page = WheelPage(game, (480, 1600), height=470, notch=53)
    pointer = PagePointer(page)
    loop = NumberMatchClear(
        PageScreen(page), pointer, None, 1, clock=ManualClock(),
        rules=rules, fixed=frozenset({"diagonals", "auto_add", "add_when_stuck", "adds_limited"}),
    )  # fmt: skip
    dealt, scrolling_to_cell = [], []
    bring_into_view = loop.bring_into_view

    def to_cell(row: int, cells: tuple[int, ...]) -> None:
        scrolling_to_cell.append(row)
        try:
            bring_into_view(row, cells)
        finally:
            scrolling_to_cell.pop()

    def wheel(x: float, y: float, notches: int) -> None:
        PagePointer.wheel(pointer, x, y, notches)
        if scrolling_to_cell and not dealt:  # the page moved to a cell, and the board changed
            dealt.append(game.rows_text())
            game.deal()  # other digits, behind the bot's back

    loop.bring_into_view = to_cell  # type: ignore[method-assign]
    pointer.wheel = wheel  # type: ignore[method-assign]
    report = loop.run()
    assert dealt, "no scroll to a cell"
    assert report.stopped is None, report.stopped
    assert report.cleared == 1 and results and results[0].cleared
    assert report.boards[0].rereads >= 1


def test_a_page_left_scrolled_with_a_row_cut_at_the_edge_is_read_from_its_top() -> None:
    """A run that has seen the page scroll by the wheel reads a board again with the page scrolled
    down by whole rows under a header that stays: the first row shown starts at the header's edge
    and looks like the board's top, and the board's end shows; the bot scrolls up first anyway,
    and reads the rows above."""
    results: list = []
    rules = Rules(diagonals=False, auto_add=True, add_when_stuck=True, adds_limited=False)
    game = NumberMatchGame(random.Random(12), start=35, rules=rules, report=results.append)
    game.add()
    layout_top = round(NumberMatchView(game, (450, 1600)).layout.area_top)
    page = WheelPage(game, (450, 1600), height=700, notch=46, sticky=layout_top)  # one 46 px row a notch
    page.scroll = 2 * 46
    shown = read_board(PageScreen(page).grab().pixels, straighten=False)
    assert shown.whole and len(shown.rows) == game.row_count - 2  # it looks whole, and is not
    loop = NumberMatchClear(
        PageScreen(page), PagePointer(page), None, 1, clock=ManualClock(),
        rules=rules, fixed=frozenset({"diagonals", "auto_add", "add_when_stuck", "adds_limited"}),
    )  # fmt: skip
    loop.scroll_way = "wheel"  # found earlier in the run
    rows = game.row_count
    report = loop.run()
    assert report.stopped is None, report.stopped
    assert report.cleared == 1 and results[0].cleared
    assert report.boards[0].most_rows >= rows  # the whole board was read, the rows above too
