"""The game's fault modes: the pure state first (no window), then each fault in a real window on Xvfb,
driven through XTest, with the game's own results file as the judge."""

from __future__ import annotations

import argparse
import shutil
import signal
import time

import pygame
import pytest

from flowbot.errors import UsageError
from flowbot.game.app import build_parser, trial_from
from flowbot.game.faults import DIALOG_LIFETIME, POPUP_DELAY, WON_POPUP, Fault, Faults, FaultSpec, parse_fault
from flowbot.game.layout import compute_layout
from flowbot.game.look import Look, Variant
from flowbot.game.packs import levels_from
from flowbot.game.session import Session
from flowbot.game.view import GameView
from flowbot.solve.sat import solve

WINDOW = (540, 960)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def game(spec: FaultSpec, *, look: Look | None = None, levels=None, clock=None):
    """A game view on a plain surface (no window), its results and the surface."""
    pygame.font.init()
    results: list = []
    levels = levels or levels_from("5x5", None)[:3]
    clock = clock or Clock()
    view = GameView(Session(levels, report=results.append), Variant(look=look or Look()), clock=clock,
                    faults=Faults(spec, clock=clock))  # fmt: skip
    surface = pygame.Surface(WINDOW)
    view.draw(surface)
    return view, results, surface


def stroke(view: GameView, surface, path, *, wiggle: int = 0) -> None:
    """Draw one path centre by centre; `wiggle` more moves on the last cell, as a pointer resting there."""
    centre = view.layout.geometry.center
    view.pointer_down(*centre(path[0]))
    for cell in [*path[1:], *[path[-1]] * wiggle]:
        view.pointer_move(*centre(cell))
    view.pointer_up()
    view.draw(surface)


def press(view: GameView, surface, x: float, y: float) -> None:
    """A click at a window pixel, then a frame."""
    view.pointer_down(x, y)
    view.pointer_up()
    view.tick()
    view.draw(surface)


def win(view: GameView, surface) -> None:
    """Draw the shown level's solution."""
    for path in solve(view.session.board.puzzle).solution.paths:
        stroke(view, surface, path)


# --- the command line ------------------------------------------------------------------------------


def test_faults_parse_with_their_chance_and_refuse_what_makes_no_sense():
    assert parse_fault("lossy:0.2") == Fault("lossy", 0.2)
    assert parse_fault("last-step:1") == Fault("last-step", 1.0)
    assert parse_fault("popup-window") == Fault("popup-window")
    for bad in ("lossy", "lossy:2", "lossy:x", "skip-arrows:1", "jitter:0.1"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_fault(bad)
    with pytest.raises(UsageError, match="twice"):
        FaultSpec.of([Fault("lossy", 0.1), Fault("lossy", 0.2)])
    with pytest.raises(UsageError, match="pick one"):
        FaultSpec.of([Fault("popup-window"), Fault("dialog-closes")])
    spec = FaultSpec.of([Fault("lossy", 0.05), Fault("skip-arrows")], seed=7)
    assert (spec.lossy, spec.skip_arrows, spec.seed, spec.active) == (0.05, True, 7, True)
    assert not FaultSpec().active


def test_seed_goes_with_faults_on_a_pack_but_not_alone():
    args = build_parser().parse_args(["--pack", "6x6", "--fault", "lossy:0.2", "--seed", "3"])
    assert trial_from(args) is None
    with pytest.raises(UsageError, match="--seed"):
        trial_from(build_parser().parse_args(["--pack", "6x6", "--seed", "3"]))


# --- lossy -----------------------------------------------------------------------------------------


def test_lossy_drops_about_its_share_of_motion_events_the_same_way_for_a_seed():
    first = Faults(FaultSpec(lossy=0.2, seed=5))
    drops = [first.drops_motion() for _ in range(5000)]
    assert 0.18 < sum(drops) / len(drops) < 0.22
    again = Faults(FaultSpec(lossy=0.2, seed=5))
    assert [again.drops_motion() for _ in range(5000)] == drops
    assert not any(Faults(FaultSpec()).drops_motion() for _ in range(1000))


def test_lossy_one_loses_every_move_so_a_drawn_solution_leaves_the_level_unsolved():
    view, results, surface = game(FaultSpec(lossy=1.0))
    win(view, surface)
    assert view.session.board.covered == 0 and not view.session.board.complete
    view.session.leave()
    assert results[0].solved is False


# --- last-step -------------------------------------------------------------------------------------


def test_last_step_stops_the_flow_one_short_of_its_far_dot_for_the_whole_stroke():
    view, results, surface = game(FaultSpec(last_step=1.0))
    puzzle = view.session.board.puzzle
    path = solve(puzzle).solution.paths[0]
    stroke(view, surface, path, wiggle=5)  # the pointer resting on the dot gets no second chance
    board = view.session.board
    assert board.pipes[0] == list(path[:-1])
    assert not board.is_connected(0)
    assert board.owner(path[-1]) is None and puzzle.endpoint_color(path[-1]) == 0  # the dot shows its colour
    for other in solve(puzzle).solution.paths[1:]:
        stroke(view, surface, other)
    assert all(board.pipes[color][-1] != path[-1] for color, path in enumerate(solve(puzzle).solution.paths))
    view.session.leave()
    assert results[0].solved is False


def test_last_step_rolls_once_per_stroke_with_its_seed():
    view, _, surface = game(FaultSpec(last_step=0.5, seed=3))
    path = solve(view.session.board.puzzle).solution.paths[0]
    joined = []
    for _ in range(40):
        stroke(view, surface, path, wiggle=3)
        joined.append(view.session.board.is_connected(0))
    assert 8 < sum(joined) < 32  # some strokes join, some stop short
    view, _, surface = game(FaultSpec(last_step=0.0))
    stroke(view, surface, path)
    assert view.session.board.is_connected(0)


# --- skip-arrows -----------------------------------------------------------------------------------


def test_skip_arrows_sit_beside_the_board_inside_the_window():
    layout = compute_layout(*WINDOW, 6, 6, look=Look(skip_arrows=True))
    left, top, right, bottom = layout.geometry.bounds
    before, after = layout.arrows
    assert (before.name, after.name) == ("previous", "next")
    assert before.x - before.radius > 0 and before.x + before.radius <= left
    assert right <= after.x - after.radius and after.x + after.radius < WINDOW[0]
    assert top < before.y == after.y < bottom
    assert compute_layout(*WINDOW, 6, 6).arrows == ()
    at_top = compute_layout(*WINDOW, 6, 6, look=Look(skip_arrows=True, board_px=200)).arrows
    assert all(arrow.x - arrow.radius >= 200 for arrow in at_top)


def test_the_next_arrow_skips_an_unsolved_level_and_works_over_a_win_dialog():
    look = Look(skip_arrows=True)
    view, results, surface = game(FaultSpec(skip_arrows=True), look=look)
    after = view.layout.arrows[1]
    press(view, surface, after.x, after.y)
    assert view.session.level == 2
    win(view, surface)
    assert view.controls.shown_dialog() is not None  # the win dialog covers the board
    press(view, surface, after.x, after.y)
    before = view.layout.arrows[0]
    press(view, surface, before.x, before.y)
    assert view.session.level == 2
    assert [(r.level, r.solved, r.left_by) for r in results] == [
        (1, False, "skip arrow >"),
        (2, True, "skip arrow >"),
        (3, False, "skip arrow <"),
    ]
    assert '"left_by": "skip arrow >"' in results[0].to_json()


# --- dialog-closes ---------------------------------------------------------------------------------


def test_the_dialog_closes_by_itself_and_then_the_bottom_next_moves_on():
    clock = Clock()
    view, results, surface = game(FaultSpec(dialog_closes=True), clock=clock)
    win(view, surface)
    assert view.layout.dialog is not None and view.layout.dialog.button is not None
    button = view.layout.dialog.button.center
    clock.now += DIALOG_LIFETIME + 0.1
    view.draw(surface)
    assert view.controls.shown_dialog() is None and view.layout.dialog is None
    press(view, surface, *button)  # where the dialog's button was: the won board, which takes no strokes
    assert view.session.level == 1 and view.session.board.complete
    dot = view.session.board.puzzle.endpoints[0][0]
    press(view, surface, *view.layout.geometry.center(dot))
    assert view.session.board.complete  # a press on a dot did not start a new pipe
    [nxt] = [button for button in view.layout.buttons if button.name == "next"]
    press(view, surface, nxt.x, nxt.y)
    assert view.session.level == 2
    assert [(r.level, r.solved) for r in results] == [(1, True)]


def test_the_dialog_next_works_before_it_closes():
    clock = Clock()
    view, results, surface = game(FaultSpec(dialog_closes=True), clock=clock)
    win(view, surface)
    clock.now += DIALOG_LIFETIME - 0.1
    press(view, surface, *view.layout.dialog.button.center)
    assert view.session.level == 2 and [(r.level, r.solved) for r in results] == [(1, True)]


# --- popup-window ----------------------------------------------------------------------------------


def test_popup_window_moves_the_win_message_off_the_board_and_holds_the_won_board():
    view, _, surface = game(FaultSpec(popup_window=True))
    assert view.popup() is None
    win(view, surface)
    assert view.layout.dialog is None and view.controls.shown_dialog() is None
    message = view.popup()
    assert message is not None and message.title in ("Perfect!", "Level complete")
    dot = view.session.board.puzzle.endpoints[0][0]
    press(view, surface, *view.layout.geometry.center(dot))
    assert view.session.board.complete
    view.session.next()
    assert view.popup() is None  # the next level closes it


def test_next_under_popup_puts_the_next_level_in_place_then_a_popup_over_it_that_only_closes():
    clock = Clock()
    view, results, surface = game(FaultSpec(next_under_popup=True), clock=clock)
    win(view, surface)
    assert view.session.level == 2 and [(r.level, r.solved) for r in results] == [(1, True)]
    assert view.layout.dialog is None and view.popup() is None  # the next level shows alone a moment
    clock.now += POPUP_DELAY + 0.01
    assert view.popup() == WON_POPUP and WON_POPUP.button == "Continue"
    left, top, right, bottom = view.layout.geometry.bounds
    x, y = view.popup_centre()
    assert left < x < right and (top + bottom) / 2 < y < bottom  # over the board's lower rows
    assert view.faults.popup_pressed() is False  # its button closes it: the game does not move on
    assert view.popup() is None and view.session.level == 2
    with pytest.raises(UsageError, match="pick one"):
        FaultSpec.of([Fault("next-under-popup"), Fault("next-in-place")])


def test_popup_window_refuses_a_game_that_is_not_on_x11():
    from flowbot.display import DisplayError
    from flowbot.game.popup import game_window_id

    assert game_window_id("x11", {"window": 0x200008}) == 0x200008
    with pytest.raises(DisplayError, match="runs on wayland"):
        game_window_id("wayland", {"wl_display": 1})
    with pytest.raises(DisplayError, match="runs on windows"):
        game_window_id("windows", {"window": 5})


# --- in a real window ------------------------------------------------------------------------------


def live(test):
    """A test of a fault in a real window: it needs Xvfb, and it presses the game itself (skips included)."""
    needs_xvfb = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
    return pytest.mark.presses_by_test(needs_xvfb(test))


@pytest.fixture(scope="module")
def display():
    """A virtual screen for this module's live tests."""
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(1280, 1024) as screen:
        yield screen.name


@pytest.fixture
def start(display, tmp_path):
    """Start games on the display; each is killed at the end if a test left it running."""
    from tests.test_game_window import Game

    games = []

    def run(*args: str):
        game = Game(display, tmp_path / f"results-{len(games)}.jsonl", *args)
        games.append(game)
        assert game.ready() == "game ready", game.process.stderr.read() if game.process.poll() else ""
        return game

    yield run
    for game in games:
        game.kill()


def draw_live(mouse, layout, puzzle) -> None:
    """Draw a level's solution through XTest, one stroke per flow, cell centre by cell centre."""
    for path in solve(puzzle).solution.paths:
        mouse.move(*layout.geometry.center(path[0]))
        mouse.press(True)
        for cell in path[1:]:
            mouse.move(*layout.geometry.center(cell))
            time.sleep(0.005)
        mouse.press(False)


def click(mouse, x: float, y: float) -> None:
    """Press and release at a screen pixel."""
    mouse.move(x, y)
    mouse.press(True)
    mouse.press(False)


def finish(game) -> list[tuple]:
    """Stop the game (SIGINT) and return its results as (level, solved, left_by)."""
    game.process.send_signal(signal.SIGINT)
    code, _, err = game.finish()
    assert code == 0, err
    return [(record["level"], record["solved"], record.get("left_by")) for record in game.records()]


def wait_until(check, timeout: float = 5.0):
    """Poll `check` until it returns something true (or time runs out); returns its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def with_mouse(display, body):
    """Run body(mouse) with an XTest mouse on the display."""
    from tests.test_game_window import Mouse

    mouse = Mouse(display)
    try:
        return body(mouse)
    finally:
        mouse.close()


@live
@pytest.mark.parametrize(("fault", "moves"), [("lossy:1", 0), ("last-step:1", None)])
def test_live_lossy_and_last_step_leave_a_drawn_solution_unsolved(display, start, fault, moves):
    levels = levels_from("5x5", None)
    game = start("--pack", "5x5", "--fault", fault)
    layout = compute_layout(*WINDOW, levels[0].rows, levels[0].cols)
    time.sleep(0.3)
    with_mouse(display, lambda mouse: draw_live(mouse, layout, levels[0]))
    time.sleep(0.3)
    game.process.send_signal(signal.SIGINT)
    code, _, err = game.finish()
    assert code == 0, err
    [record] = game.records()
    assert record["solved"] is False
    # lossy:1 loses every move; last-step:1 takes every stroke but the step into the far dot.
    assert record["moves"] == (len(levels[0].colors) if moves is None else moves)


@live
def test_live_skip_arrow_skips_an_unsolved_level(display, start):
    levels = levels_from("5x5", None)
    game = start("--pack", "5x5", "--fault", "skip-arrows")
    layout = compute_layout(*WINDOW, levels[0].rows, levels[0].cols, look=Look(skip_arrows=True))
    time.sleep(0.3)
    with_mouse(display, lambda mouse: click(mouse, layout.arrows[1].x, layout.arrows[1].y))
    assert wait_until(lambda: game.results.exists() and game.records())
    assert finish(game) == [(1, False, "skip arrow >"), (2, False, None)]


@live
def test_live_dialog_closes_by_itself_and_the_bottom_next_moves_on(display, start):
    from flowbot.game.render import DIALOG_FILL
    from tests.test_game_window import grab

    levels = levels_from("5x5", None)
    game = start("--pack", "5x5", "--fault", "dialog-closes")
    session = Session(levels)
    session.board.pipes = [list(path) for path in solve(levels[0]).solution.paths]
    layout = compute_layout(*WINDOW, levels[0].rows, levels[0].cols, session.dialog())
    button, box = layout.dialog.button, layout.dialog.box
    time.sleep(0.3)

    def play(mouse) -> None:
        draw_live(mouse, layout, levels[0])
        # The dialog shows, then goes: its box's fill gives way to the board under it.
        corner = (round(box.y + box.height - 8), round(box.x + 8))
        assert wait_until(lambda: tuple(grab(display)[corner][::-1]) == DIALOG_FILL, 2.0)
        assert wait_until(lambda: tuple(grab(display)[corner][::-1]) != DIALOG_FILL, 3.0)
        click(mouse, *button.center)  # too late: nothing there moves on
        time.sleep(0.3)
        assert not game.records()
        [nxt] = [b for b in layout.buttons if b.name == "next"]
        click(mouse, nxt.x, nxt.y)
        assert wait_until(lambda: game.records())

    with_mouse(display, play)
    assert finish(game) == [(1, True, None), (2, False, None)]


def popup_windows(display: str, pid: int) -> list:
    """The game's popups: mapped top-level windows other than its own, marked with its pid
    (_NET_WM_PID) and transient for its window."""
    from Xlib import display as xdisplay
    from Xlib.error import XError

    from tests.test_game_window import TITLE

    def name_of(window):
        try:
            return window.get_full_property(name_atom, 0)
        except XError:  # gone since the tree was listed
            return None

    connection = xdisplay.Display(display)
    try:
        pid_atom, name_atom = connection.intern_atom("_NET_WM_PID"), connection.intern_atom("_NET_WM_NAME")
        windows = connection.screen().root.query_tree().children
        names = [name_of(window) for window in windows]
        [game] = [
            w
            for w, name in zip(windows, names, strict=True)
            if name and name.value in (TITLE, TITLE.encode())
        ]

        def popup(window):
            owner = window.get_full_property(pid_atom, 0)
            transient = window.get_wm_transient_for()
            mapped = window.get_attributes().map_state != 0
            ours = owner is not None and list(owner.value) == [pid]
            if window.id == game.id or not ours or transient is None or transient.id != game.id or not mapped:
                return None
            geometry = window.get_geometry()
            return (window.get_wm_name(), geometry.x, geometry.y, geometry.width, geometry.height)

        found = []
        for window in windows:
            try:
                seen = popup(window)
            except XError:  # destroyed between listing the tree and asking about it (the popup closing)
                continue
            if seen is not None:
                found.append(seen)
        return found
    finally:
        connection.close()


@live
def test_live_popup_window_is_a_transient_window_of_the_game_whose_next_moves_on(display, start):
    from flowbot.game.popup import popup_button

    levels = levels_from("5x5", None)
    game = start("--pack", "5x5", "--fault", "popup-window")
    layout = compute_layout(*WINDOW, levels[0].rows, levels[0].cols)
    time.sleep(0.3)
    assert popup_windows(display, game.process.pid) == []

    def play(mouse) -> None:
        draw_live(mouse, layout, levels[0])
        found = wait_until(lambda: popup_windows(display, game.process.pid))
        [(title, x, y, width, height)] = found
        assert title in ("Perfect!", "Level complete")
        left, top, right, bottom = layout.geometry.bounds
        assert left < x + width / 2 < right and top < y + height / 2 < bottom  # over the board
        button = popup_button(width, height)
        click(mouse, x + button.center[0], y + button.center[1])
        assert wait_until(lambda: not popup_windows(display, game.process.pid))  # closed on the next level

    with_mouse(display, play)
    assert finish(game) == [(1, True, None), (2, False, None)]
