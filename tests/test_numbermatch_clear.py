"""The live Number Match loop against the bundled game's view in process: a screen that draws the
view, a pointer that presses it. (The same loop on Xvfb with mss and pyautogui: test_numbermatch_live.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")

from flowbot.capture.screen import Frame, Region  # noqa: E402 - after the skip when pygame is missing
from flowbot.game.numbermatch import NumberMatchView  # noqa: E402
from flowbot.game.render import surface_to_bgr  # noqa: E402
from flowbot.live.clock import ManualClock  # noqa: E402
from flowbot.modes.numbermatch_act import CLICK_HOLD  # noqa: E402
from flowbot.modes.numbermatch_clear import NumberMatchClear  # noqa: E402
from flowbot.modes.numbermatch_view import locate, overlap_shift  # noqa: E402
from flowbot.numbermatch.game import NumberMatchGame  # noqa: E402
from flowbot.numbermatch.read import read_board  # noqa: E402
from flowbot.numbermatch.rules import GENERATED, WRAP_SKIP_LAST, Rules  # noqa: E402


class ViewScreen:
    """A Screen showing the game's view, drawn afresh at each grab."""

    def __init__(self, view: NumberMatchView) -> None:
        self.view = view
        self.grabs = 0
        pygame.font.init()

    def grab(self, region: Region | None = None) -> Frame:
        """The view's pixels (or a part of them)."""
        self.grabs += 1
        surface = pygame.Surface(self.view.layout.size)
        self.view.draw(surface)
        pixels = surface_to_bgr(surface)
        if region is None:
            return Frame(pixels)
        left, top = max(0, region.left), max(0, region.top)
        return Frame(
            pixels[top : region.top + region.height, left : region.left + region.width].copy(), left, top
        )


class ViewPointer:
    """A Pointer pressing the view, refusing to leave its bounds like the real one."""

    def __init__(self, view: NumberMatchView) -> None:
        self.view = view
        self.held = False
        self.x = self.y = 0.0
        self.bounds = Region(0, 0, *view.layout.size)
        self.clicks = 0

    def move(self, x: float, y: float) -> None:
        assert self.bounds.contains(x, y), (x, y, self.bounds)
        self.x, self.y = x, y
        if self.held:
            self.view.pointer_move(x, y)

    def down(self) -> None:
        self.held = True
        self.view.pointer_down(self.x, self.y)

    def up(self) -> None:
        self.held = False
        self.clicks += 1
        self.view.pointer_up(self.x, self.y)

    def wheel(self, x: float, y: float, notches: int) -> None:
        self.move(x, y)
        self.view.wheel(-notches)  # the view's steps count up the board


def play(
    seed: int, size: tuple[int, int], count: int, start: int = 27, rules: Rules | None = None, clock=None
):
    """Run the loop on a fresh game (playing by `rules`); returns (report, results, game)."""
    results: list = []
    game = NumberMatchGame(random.Random(seed), start=start, rules=rules or Rules(), report=results.append)
    view = NumberMatchView(game, size)
    loop = NumberMatchClear(ViewScreen(view), ViewPointer(view), None, count, clock=clock or ManualClock())
    return loop.run(), results, game


class _NapsKept(ManualClock):
    """A manual clock that keeps every sleep asked of it."""

    def __init__(self) -> None:
        super().__init__()
        self.naps: list[float] = []

    def sleep(self, seconds: float) -> None:
        """Keep the nap, then move on at once."""
        self.naps.append(seconds)
        super().sleep(seconds)


def test_boards_are_cleared_and_the_game_agrees() -> None:
    clock = _NapsKept()
    report, results, game = play(seed=4, size=(540, 960), count=2, clock=clock)
    # Each click's hold is the clock's time too: no real wait where the clock is a test's.
    assert report.clicks and clock.naps.count(CLICK_HOLD) == report.clicks
    assert report.stopped is None, report.stopped
    assert report.cleared == 2
    assert [result.cleared for result in results] == [True, True]
    assert game.stage == 3
    assert sum(board.adds for board in report.boards) == sum(result.adds_used for result in results)


def test_a_window_shorter_than_the_board_is_scrolled() -> None:
    """In a short window the boards grow past the grid's area: the loop scrolls to reach their rows."""
    report, results, _ = play(seed=8, size=(480, 440), count=2, start=35)
    assert report.stopped is None, report.stopped
    assert report.cleared == 2 and all(result.cleared for result in results[:2])
    assert any(board.scrolled for board in report.boards)


def test_a_board_scrolled_down_at_the_start_is_read_from_its_top() -> None:
    """A game left scrolled half way down a long board: the loop scrolls up, reads it all, clears it."""
    results: list = []
    game = NumberMatchGame(random.Random(2), start=35, report=results.append)
    game.add()
    view = NumberMatchView(game, (480, 440))
    view.offset = view.layout.max_offset(game.row_count) / 2
    loop = NumberMatchClear(ViewScreen(view), ViewPointer(view), None, 1, clock=ManualClock())
    report = loop.run()
    assert report.stopped is None, report.stopped
    assert report.cleared == 1 and results[0].cleared
    assert report.boards[0].scrolled


def test_a_view_is_placed_in_the_board_by_its_rows() -> None:
    """Rows repeated by an add: the place nearest the prediction wins; the board's end pins it."""
    expected = ("123456789", "987654321", "123456789", "987654321", "5________")
    game = NumberMatchGame(random.Random(1))
    reading = read_board(ViewScreen(NumberMatchView(game, (540, 960))).grab().pixels)
    fake = type(reading)
    middle = fake(expected[1:3], (), None, reading.grid, None, 1.0, False, False)
    assert locate(expected, middle, 0) == 1
    assert locate(expected, middle, 3) == 1
    top = fake(expected[0:2], (), None, reading.grid, None, 1.0, False, False)
    assert locate(expected, top, 0) == 0 and locate(expected, top, 2) == 2
    end = fake(expected[2:], (), None, reading.grid, None, 1.0, True, False)
    assert locate(expected, end, 0) == 2
    assert locate(("111111111",), top, 0) is None


def test_views_join_at_the_shift_that_agrees() -> None:
    assert overlap_shift(("a", "b", "c", "d"), ("c", "d", "e"), 2) == 2
    assert overlap_shift(("a", "b", "c", "d"), ("b", "c", "d", "e"), 3) == 1  # stopped short at the end
    assert overlap_shift(("a", "b"), ("x", "y"), 1) is None


def test_a_stop_between_moves_ends_the_run_with_the_button_released() -> None:
    """Ctrl-C reaches the pointer as Interrupted at its next call: the run stops and says why."""
    from flowbot.act.pointer import Interrupted

    game = NumberMatchGame(random.Random(6))
    view = NumberMatchView(game, (540, 960))
    pointer = ViewPointer(view)
    presses = []

    def down() -> None:
        presses.append(1)
        if len(presses) == 5:
            raise Interrupted(2)
        ViewPointer.down(pointer)

    pointer.down = down  # type: ignore[method-assign]
    report = NumberMatchClear(ViewScreen(view), pointer, None, 1, clock=ManualClock()).run()
    assert isinstance(report.halt, Interrupted)
    assert report.cleared == 0 and not pointer.held
    assert game.moves <= 2  # the pairs clicked before the stop, and no more


def test_a_covered_board_stops_the_run_before_the_next_click() -> None:
    """Something drawn over the game (another window) changes the guard's spots: no click lands on it."""
    from flowbot.act.guard import BoardGoneError

    game = NumberMatchGame(random.Random(6))
    view = NumberMatchView(game, (540, 960))
    screen = ViewScreen(view)
    pointer = ViewPointer(view)
    grab = screen.grab

    def covered(region: Region | None = None) -> Frame:
        frame = grab(region)
        if pointer.clicks >= 4:
            frame.pixels[:] = (60, 40, 20)  # a dark window over everything
        return frame

    screen.grab = covered  # type: ignore[method-assign]
    report = NumberMatchClear(screen, pointer, None, 1, clock=ManualClock()).run()
    assert isinstance(report.halt, BoardGoneError)
    assert pointer.clicks == 4


def test_a_board_scrolled_by_whole_rows_is_still_read_from_its_top() -> None:
    """Scrolled by exactly three rows, the first row shown sits at the header's edge like a top row:
    the loop scrolls up anyway, so the rows above are not lost."""
    results: list = []
    game = NumberMatchGame(random.Random(3), start=35, report=results.append)
    game.add()
    view = NumberMatchView(game, (480, 470))
    view.offset = 3 * view.layout.cell
    view.resize(view.layout.size)
    assert view.offset == pytest.approx(3 * view.layout.cell)
    shown = read_board(ViewScreen(view).grab().pixels, straighten=False)
    assert shown.whole and len(shown.rows) == game.row_count - 3  # it looks whole, and is not
    loop = NumberMatchClear(ViewScreen(view), ViewPointer(view), None, 1, clock=ManualClock())
    report = loop.run()
    assert report.stopped is None, report.stopped
    assert report.cleared == 1 and results[0].cleared
    assert report.boards[0].rereads == 0


@pytest.mark.parametrize(
    ("rules", "lesson"),
    [
        (Rules(diagonals=False), "diagonals=no"),
        (Rules(add=GENERATED), "add=generated"),
        (Rules(auto_add=True), "auto-add=yes"),
        (Rules(add_when_stuck=True), "add-when-stuck=yes"),
        (Rules(wrap=WRAP_SKIP_LAST), "wrap=skip-last-column"),
    ],
    ids=["no-diagonals", "generated-add", "adds-by-itself", "adds-when-stuck", "wrap-skips-last-column"],
)
def test_rules_the_game_plays_by_are_found_and_the_board_cleared(rules: Rules, lesson: str) -> None:
    """A game that differs from the phone game's rules: the bot clears its boards, and each click the
    game did not take (or add it made by itself) taught the rule that explains it."""
    report, results, _ = play(seed=5, size=(540, 960), count=3, rules=rules)
    assert report.stopped is None, report.stopped
    assert report.cleared == 3 and all(result.cleared for result in results[:3])
    assert report.wrong_clicks <= 2 * len(report.lessons)
    if report.wrong_clicks or any(board.rereads for board in report.boards):
        assert any(lesson in text for text in report.lessons), report.lessons
    for field in ("diagonals", "add", "auto_add", "add_when_stuck", "wrap"):
        found = getattr(report.rules, field)
        assert found in (getattr(rules, field), getattr(Rules(), field))  # never a rule neither has


def test_rules_fixed_by_the_caller_are_kept() -> None:
    """A rule given (--rules) is played by from the start and never changed."""
    results: list = []
    game = NumberMatchGame(random.Random(5), rules=Rules(diagonals=False), report=results.append)
    view = NumberMatchView(game, (540, 960))
    loop = NumberMatchClear(
        ViewScreen(view), ViewPointer(view), None, 2, clock=ManualClock(),
        rules=Rules(diagonals=False), fixed=frozenset({"diagonals"}),
    )  # fmt: skip
    report = loop.run()
    assert report.cleared == 2 and report.wrong_clicks == 0 and not report.lessons


def test_a_screen_with_no_board_exits_9_and_the_summary_names_count_only_when_given() -> None:
    """An unreadable screen is not the fail-safe's 10: its own status, 9, nothing pressed."""
    from flowbot.modes.numbermatch_clear import NoBoardError, exit_code

    class Blank:
        def grab(self, region: Region | None = None) -> Frame:
            return Frame(np.full((600, 400, 3), 255, np.uint8))

    pointer = type("Still", (), {"move": None, "down": None, "up": None})()
    for count in (None, 2):
        loop = NumberMatchClear(Blank(), pointer, None, count, clock=ManualClock())  # type: ignore[arg-type]
        report = loop.run()
        assert isinstance(report.error, NoBoardError) and exit_code(report) == 4
        counted = report.summary().split(";")[0]
        assert ("--count 2" in counted) == (count == 2)
        assert (" of " in counted) == (count == 2)


def test_a_board_the_game_itself_draws_over_ends_it_with_status_4() -> None:
    """The game's window in place with no window over it, and no board on it (a lost or won
    dialog drawn by the game): the board ended (4), not the window covered (11); nothing pressed."""
    from flowbot.modes.numbermatch_clear import exit_code
    from flowbot.modes.numbermatch_guard import BoardEndedError

    class OneWindow:
        def stack(self) -> list[int]:
            return [1]

        def box(self, window_id: int) -> Region | None:
            return Region(0, 0, 540, 960)

    game = NumberMatchGame(random.Random(6))
    view = NumberMatchView(game, (540, 960))
    screen = ViewScreen(view)
    pointer = ViewPointer(view)
    grab = screen.grab

    def dialog(region: Region | None = None) -> Frame:
        frame = grab(region)
        if pointer.clicks >= 4:
            frame.pixels[:] = (240, 240, 240)  # the game's own "game over" page over its board
        return frame

    screen.grab = dialog  # type: ignore[method-assign]
    loop = NumberMatchClear(screen, pointer, None, 1, windows=OneWindow(), clock=ManualClock())
    report = loop.run()
    assert isinstance(report.error, BoardEndedError) and exit_code(report) == 4
    assert pointer.clicks == 4


def test_a_line_that_runs_out_with_digits_left_is_planned_again_where_adds_are_unlimited() -> None:
    """A plan cut short (the best line a timed-out search had) leaves digits on a board of a game
    that adds without limit: the loop plans again from there instead of stopping."""
    results: list = []
    rules = Rules(adds_limited=False)
    game = NumberMatchGame(random.Random(4), rules=rules, report=results.append)
    view = NumberMatchView(game, (540, 960))
    loop = NumberMatchClear(
        ViewScreen(view), ViewPointer(view), None, 1, clock=ManualClock(),
        rules=rules, fixed=frozenset({"adds_limited"}),
    )  # fmt: skip
    whole = loop.plan
    plans = []

    def first_cut_short(cells, adds_left):
        line = whole(cells, adds_left)
        plans.append(line)
        return line[:1] if len(plans) == 1 else line

    loop.plan = first_cut_short  # type: ignore[method-assign]
    report = loop.run()
    assert report.stopped is None, report.stopped
    assert report.cleared == 1 and results[0].cleared and len(plans) >= 2


class OneWindow:
    """The window list of a display with only the game's window on it, filling the screen."""

    def stack(self) -> list[int]:
        return [1]

    def box(self, window_id: int) -> Region | None:
        return Region(0, 0, 540, 960)


def test_a_game_that_ends_when_no_pair_is_left_is_won_with_the_defaults() -> None:
    """The game ends a board the moment no pair is left, adds or not, and the bot does not know it:
    it never takes the last pair while an add is left, so every board is cleared."""
    results: list = []
    game = NumberMatchGame(random.Random(3), rules=Rules(ends_without_pairs=True), report=results.append)
    view = NumberMatchView(game, (540, 960))
    screen, pointer = ViewScreen(view), ViewPointer(view)
    report = NumberMatchClear(screen, pointer, None, 3, windows=OneWindow(), clock=ManualClock()).run()
    assert report.stopped is None, report.stopped
    assert report.cleared == 3 and [result.cleared for result in results] == [True, True, True]
    assert sum(board.adds for board in report.boards) == sum(result.adds_used for result in results) > 0


def test_a_board_the_game_ended_with_no_pair_left_teaches_the_rule() -> None:
    """A bot that starts out sure the game goes on when no pair is left takes the last pair: the game
    draws its end over the board with adds unused, and the report says which rule that showed."""
    from flowbot.modes.numbermatch_guard import BoardEndedError

    results: list = []
    game = NumberMatchGame(random.Random(3), rules=Rules(ends_without_pairs=True), report=results.append)
    view = NumberMatchView(game, (540, 960))
    loop = NumberMatchClear(
        ViewScreen(view), ViewPointer(view), None, 3, windows=OneWindow(), clock=ManualClock(),
        rules=Rules(ends_without_pairs=False),
    )  # fmt: skip
    report = loop.run()
    assert isinstance(report.error, BoardEndedError), report.stopped
    assert game.ended_early
    assert report.rules.ends_without_pairs is True
    [lesson] = [text for text in report.lessons if "ends-without-pairs=yes" in text]
    assert f"{game.adds_left} add" in lesson and "no pair was left" in lesson
    assert report.boards[-1].adds == game.rules.adds - game.adds_left


class EndsQuietly(NumberMatchGame):
    """A game that ends a board the moment no pair is left but draws no end over it: the board stays
    on screen, and "+" (or any press) does nothing any more."""

    @property
    def ended_early(self) -> bool:
        """Nothing drawn over the board."""
        return False

    def give_up(self) -> None:
        """The board is over: a press deals no new one."""


class IgnoresFirstAdd(NumberMatchGame):
    """A game that does not take the first press of "+" (a press lost on its way)."""

    lost = False

    def add(self) -> bool:
        """The first press is lost; later ones add."""
        if not self.lost:
            self.lost = True
            return False
        return super().add()


def rows_shown(screen: ViewScreen, game: NumberMatchGame) -> dict[int, int]:
    """The most rows each stage's board had at any look the bot took (kept up to date as it plays)."""
    most: dict[int, int] = {}
    grab = screen.grab

    def counted(region: Region | None = None) -> Frame:
        most[game.stage] = max(most.get(game.stage, 0), game.row_count)
        return grab(region)

    screen.grab = counted  # type: ignore[method-assign]
    return most


def test_a_plus_not_taken_on_a_board_with_no_pair_left_is_the_end_and_is_not_counted() -> None:
    """The game ended the board (no pair left) but left it on screen: the "+" pressed then did
    nothing. The report counts only the moves the game took, no row the game never showed, and
    says which rule the game showed."""
    game = EndsQuietly(random.Random(3), rules=Rules(ends_without_pairs=True))
    view = NumberMatchView(game, (540, 960))
    screen = ViewScreen(view)
    shown = rows_shown(screen, game)
    loop = NumberMatchClear(
        screen, ViewPointer(view), None, 3, clock=ManualClock(), rules=Rules(ends_without_pairs=False)
    )
    report = loop.run()
    assert report.stopped is not None and '"+" did nothing on a board with no pair left' in report.stopped
    assert any(text.startswith('"+" did nothing when no pair was left') for text in report.lessons)
    assert report.rules.ends_without_pairs is True
    board = report.boards[-1]
    assert board.adds == game.rules.adds - game.adds_left and board.moves == game.moves
    assert board.most_rows <= shown[game.stage]
    assert report.wrong_clicks == 1


def test_a_plus_the_game_did_not_take_is_not_counted() -> None:
    """A press of "+" the game lost: the board's moves and adds are the game's, its rows no more
    than the game showed."""
    results: list = []
    game = IgnoresFirstAdd(random.Random(4), report=results.append)
    view = NumberMatchView(game, (540, 960))
    screen = ViewScreen(view)
    shown = rows_shown(screen, game)
    report = NumberMatchClear(screen, ViewPointer(view), None, 2, clock=ManualClock()).run()
    assert report.stopped is None, report.stopped
    assert report.cleared == 2 and report.wrong_clicks >= 1
    for number, (board, result) in enumerate(zip(report.boards, results, strict=True), start=1):
        assert (board.moves, board.adds) == (result.moves, result.adds_used)
        assert board.most_rows <= shown[number]


def test_a_board_won_only_by_leaving_no_pair_is_played_so_unless_the_game_ends_such_boards() -> None:
    """Every win of this board leaves it with no pair before its add: with the end rule not known
    that line is its only chance (a game that went on would be won), so it is played; a game known
    to end such a board gets the line that takes the most pairs and never leaves none."""
    from flowbot.numbermatch.board import apply_move, find_pairs
    from flowbot.numbermatch.search import NO_WIN, solve

    cells = (5, 3, 8, 9, 5, 3, 2, 9, 5, 2, 2)
    assert solve(cells, Rules(adds=1)).status == NO_WIN

    def played(rules: Rules) -> list[tuple[int, ...]]:
        """The boards the bot's plan goes through."""
        loop = NumberMatchClear(
            None, None, None, 1, clock=ManualClock(), rules=rules, fixed=frozenset({"diagonals"})
        )  # type: ignore[arg-type]
        boards, board = [], cells
        for move in loop.plan(cells, 1):
            board = apply_move(board, move, rules)
            boards.append(board)
        return boards

    bold = played(Rules())
    assert bold[-1] == () and any(board and not find_pairs(board) for board in bold)
    safe = played(Rules(ends_without_pairs=True))
    assert safe[-1] != () and all(find_pairs(board) for board in safe[:-1])
