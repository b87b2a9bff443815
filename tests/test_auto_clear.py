"""The live loop against the game played in-process: clears, retries, failures, Ctrl-C, dry runs."""

from __future__ import annotations

import random

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.generate.levels import make_level
from flowbot.live.baseline import Baseline
from flowbot.live.clock import ManualClock
from flowbot.live.scene import Scene
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)


@pytest.fixture(scope="module")
def levels():
    """Three small generated levels, one with a 10x8 board."""
    return [make_level(rows, cols, colors, random.Random(seed)).puzzle
            for seed, (rows, cols, colors) in enumerate(((5, 5, 5), (6, 6, 6), (10, 8, 8)))]  # fmt: skip


def run(game, tmp_path, count, settings=FAST, **options) -> AutoClear:
    """A loop on the simulated game, with waits short enough for a test."""
    loop = AutoClear(game, game, settings, None, count, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2, **options)  # fmt: skip
    return loop


def test_clears_every_level_in_order(levels, tmp_path):
    game = SimulatedGame(levels)
    report = run(game, tmp_path, 3).run()
    assert report.cleared == 3, report.summary()
    assert [level.size for level in report.levels] == ["5x5", "6x6", "10x8"]
    assert [result.solved for result in game.results] == [True, True]  # the third is still on screen
    assert game.session.board.complete


def test_a_dropped_stroke_is_drawn_again(levels, tmp_path):
    game = SimulatedGame(levels[:1])
    real_down = game.down

    def flaky_down():
        if game.presses == 0:  # the game misses the very first press
            game.presses += 1
            return
        real_down()

    game.down = flaky_down
    report = run(game, tmp_path, 1).run()
    assert report.cleared == 1
    assert report.levels[0].retries == 1


def test_a_level_the_game_never_takes_stops_the_run_with_a_screenshot(levels, tmp_path):
    game = SimulatedGame(levels[:1])
    game.down = lambda: None  # presses never arrive
    report = run(game, tmp_path, 2).run()
    assert report.cleared == 0
    assert "did not take it" in report.stopped
    assert game.session.level == 1  # nothing skipped: no control pressed on a level not won
    assert report.failure_image and list(tmp_path.glob("flowbot-level-1-not-verified-*.png"))
    assert "FAILED" in report.summary()


def test_ctrl_c_stops_between_strokes(levels, tmp_path):
    game = SimulatedGame(levels)
    loop = run(game, tmp_path, 3)
    real_up = game.up

    def up_then_interrupt():
        real_up()
        loop.stop_requested = True  # as the SIGINT handler does

    game.up = up_then_interrupt
    report = loop.run()
    assert "interrupted" in report.stopped
    assert game.presses == 1 and not game.held


def test_dry_run_presses_nothing(levels, tmp_path):
    game = SimulatedGame(levels)
    report = run(game, tmp_path, 1, dry_run=True).run()
    assert game.presses == 0
    assert len(report.levels) == 1 and report.levels[0].timing.draw_s < 0.01


def test_the_pointer_is_fenced_to_the_board(levels, tmp_path):
    game = SimulatedGame(levels[:1], size=(1800, 700))  # a wide window: the board is in its middle
    report = run(game, tmp_path, 1).run()
    assert report.cleared == 1
    fence = game.bounds
    assert fence.left > 0 and fence.left + fence.width < 1800
    geometry = game.layout.geometry
    assert fence.contains(geometry.xs[0], geometry.ys[0]) and fence.contains(
        geometry.xs[-1] - 1, geometry.ys[-1] - 1
    )


def test_a_flow_one_step_short_of_its_far_dot_is_drawn_again_never_counted(levels, tmp_path):
    game = SimulatedGame(levels[:1])
    dots = {cell for pair in levels[0].endpoints for cell in pair}
    real_move, real_down = game.move, game.down
    strokes: list = []

    def down():
        strokes.append(game.layout.geometry.cell_at(game.x, game.y))
        real_down()

    def move(x, y):
        cell = game.layout.geometry.cell_at(x, y)
        if game.held and len(strokes) == 1 and cell in dots and cell != strokes[0]:
            return  # the game never sees the first stroke reach its far dot
        real_move(x, y)

    game.move, game.down = move, down
    report = run(game, tmp_path, 1).run()
    assert report.cleared == 1, report.summary()
    assert report.levels[0].retries == 1  # every cell showed its colour, but one join did not
    assert report.levels[0].won_by in ("joins", "dialog", "message")  # the last level: "back to level 1"
    assert game.session.board.complete


def test_the_summary_counts_against_the_levels_asked(levels, tmp_path):
    game = SimulatedGame(levels[:1])
    game.down = lambda: None  # presses never arrive
    report = run(game, tmp_path, 3).run()
    assert report.summary().startswith("cleared 0 of 3 level(s)")
    assert "join(s) not shown" in report.stopped
    record = report.levels[0].record()
    assert record["cleared"] is False and record["won_by"] is None and record["missing_joins"]
    unlimited = run(SimulatedGame(levels[:1]), tmp_path, None)
    assert "cleared 1 of no limit level(s)" in unlimited.run().summary()


# Still: both controls, then the first again while the window shows as before (up to four presses).
@pytest.mark.parametrize("changes, presses", [(False, 4), (True, 1)], ids=["still", "changed"])
def test_a_second_control_is_pressed_only_while_the_window_still_looks_as_when_it_was_found(
    changes, presses, tmp_path, monkeypatch
):
    import numpy as np

    from flowbot.act.pointer import RecordingPointer
    from flowbot.capture.controls import Control
    from flowbot.capture.screen import ImageScreen
    from flowbot.live import moving_on as live_loop

    dialog = np.full((200, 300, 3), 40, dtype=np.uint8)
    gone = dialog.copy()
    gone[50:150, 50:250] = 200  # the first press closed the dialog: the window looks different
    screen = ImageScreen([dialog, gone if changes else dialog])
    two = [Control(10, 10, 60, 20, "Next", "push-button"), Control(100, 150, 60, 20, "->", "text")]
    monkeypatch.setattr(live_loop, "next_controls", lambda *args: iter(two))
    pointer = RecordingPointer()
    loop = AutoClear(screen, pointer, FAST, None, 3, artifacts=tmp_path, clock=ManualClock())
    loop.wait_for_board = lambda previous, first=False, timeout=None: None  # no new level ever reads
    assert loop._press_controls(["A.A"], None) is None
    assert [kind for kind, _, _ in pointer.events].count("down") == presses
    if changes:
        assert "nothing more was pressed" in loop.last_reason


def test_a_click_the_game_missed_is_given_again_while_its_window_shows_as_before(tmp_path, monkeypatch):
    # A game that loses input events took the third click on its NEXT; the window never changed before.
    import numpy as np

    from flowbot.act.pointer import RecordingPointer
    from flowbot.capture.controls import Control
    from flowbot.capture.screen import ImageScreen
    from flowbot.live import moving_on as live_loop

    screen = ImageScreen([np.full((200, 300, 3), 40, dtype=np.uint8)])
    monkeypatch.setattr(
        live_loop, "next_controls", lambda *args: iter([Control(10, 10, 60, 20, "NEXT", "push-button")])
    )
    pointer = RecordingPointer()
    loop = AutoClear(screen, pointer, FAST, None, 3, artifacts=tmp_path, clock=ManualClock())
    came = object()

    def presses() -> int:
        """Presses made so far."""
        return [kind for kind, _, _ in pointer.events].count("down")

    loop.wait_for_board = lambda previous, first=False, timeout=None: came if presses() >= 3 else None
    assert loop._press_controls(["A.A"], None) is came
    assert presses() == 3 and loop.control is not None and loop.control.label == "NEXT"
    # A "Next Level" that showed before the level was drawn is pressed once: a slow game could show
    # the next level after the check, and a second press would skip it.
    pointer.events.clear()
    loop.baseline = Baseline(Scene(screen.grab(None), None))
    assert loop._press_controls(["A.A"], None) is None and presses() == 1


@pytest.mark.parametrize(
    ("still_won", "label", "kind", "presses"),
    [(True, "\u00bb", "text", 0), (True, "Next", "text", 0), (False, "\u00bb 4", "text", 0),
     (False, "Next \u00bb", "text", 1), (True, "_\u00bb.", "push-button", 0),
     (True, "Next", "push-button", 1), (True, "_\u00bb.", "flow-button", 0),
     (False, "\u25b6", "flow-button", 1)],
    ids=["board-still-shows", "a-word-on-the-board", "an-arrow-on-a-changed-board", "win-screen-link",
         "a-box-of-pipes", "a-button-over-the-board", "a-dialog-shape-of-pipes", "a-dialog-over-the-board"],
)  # fmt: skip
def test_words_read_on_the_won_board_are_never_pressed(
    still_won, label, kind, presses, tmp_path, monkeypatch
):
    # A won level's pipes once read as '»' (an arrow): the click cut a pipe of the won board. Where a
    # win screen took the board's place, a link there that says a word of moving on is pressed as any
    # other; an arrow alone there is what pipes under drifting bands read as (qtflowfree's '» 4').
    import numpy as np

    from flowbot.act.pointer import RecordingPointer
    from flowbot.capture.controls import Control
    from flowbot.capture.screen import ImageScreen
    from flowbot.live import moving_on as live_loop
    from flowbot.model import Geometry

    screen = ImageScreen([np.full((300, 300, 3), 40, dtype=np.uint8)])
    word = Control(100, 100, 30, 20, label, kind)  # inside the board
    monkeypatch.setattr(live_loop, "next_controls", lambda *args: iter([word]))
    pointer = RecordingPointer()
    loop = AutoClear(screen, pointer, FAST, None, 3, artifacts=tmp_path, clock=ManualClock())
    loop.wait_for_board = lambda previous, first=False, timeout=None: None
    loop.still_won = lambda frame: still_won
    loop.baseline = Baseline(
        Scene(screen.grab(None), None)
    )  # the control showed before drawing: pressed once at most
    board = Geometry(tuple(float(x) for x in range(20, 281, 52)), tuple(float(y) for y in range(20, 281, 52)))
    loop._press_controls(["A.A"], board)
    assert [kind for kind, _, _ in pointer.events].count("down") == presses


def test_no_board_on_screen_stops_with_the_likely_cause_and_an_explained_picture(tmp_path):
    import numpy as np

    from flowbot.capture.screen import Frame

    class EmptyScreen(SimulatedGame):
        """A desktop with no game on it: every grab is a plain grey frame."""

        def grab(self, region=None):
            """A grey frame the size of the screen."""
            return Frame(np.full((400, 600, 3), 90, np.uint8), 0, 0)

    game = EmptyScreen([make_level(5, 5, 5, random.Random(0)).puzzle])
    report = run(game, tmp_path, 1).run()
    assert report.cleared == 0 and game.presses == 0
    assert "no board found on screen" in report.stopped and "likely cause:" in report.stopped
    (picture,) = tmp_path.glob("flowbot-level-1-no-board-*.png")
    assert report.failure_image == str(picture)


def test_a_win_dialog_beside_cells_still_empty_is_no_win(levels, tmp_path):
    from flowbot.game.layout import Dialog
    from flowbot.game.session import NEXT_LEVEL

    game = SimulatedGame(levels[1:2])
    session = game.session
    # A game that shows a box with a move-on button after the first stroke whatever the board says
    # (a "halfway done" box, a signal about something else), and takes only that first stroke.
    session.dialog = lambda: Dialog("Halfway done", ("Go on!",), NEXT_LEVEL) if session.board.moves else None
    real_down = game.down

    def first_press_only():
        if game.presses == 0:
            real_down()
        else:
            game.presses += 1

    game.down = first_press_only
    report = run(game, tmp_path, 1).run()
    assert report.cleared == 0, report.summary()
    assert not session.board.complete
    assert report.levels and not report.levels[0].won_by


def test_a_flow_drawn_again_starts_from_its_other_dot(levels, tmp_path):
    # A game may pick a half-drawn pipe up at the dot it was started from (a drag from there pulls the
    # pipe back off that dot); a press on the other dot starts the flow afresh in any game.
    game = SimulatedGame(levels[:1])
    real_move, real_down = game.move, game.down
    pressed: list = []
    moved: list = []

    def down():
        pressed.append(game.layout.geometry.cell_at(game.x, game.y))
        real_down()

    def move(x, y):
        if game.held and len(pressed) == 1:
            moved.append((x, y))
            if len(moved) > 2:
                return  # the first stroke is lost one cell past its dot (after the lead-in)
        real_move(x, y)

    game.move, game.down = move, down
    report = run(game, tmp_path, 1).run()
    assert report.cleared == 1, report.summary()
    assert report.levels[0].retries == 1
    first = next(path for path in levels[0].endpoints if pressed[0] in path)
    assert pressed[len(levels[0].endpoints)] == next(dot for dot in first if dot != pressed[0])


def test_after_a_box_closes_on_the_won_level_the_control_beside_the_board_moves_on(tmp_path, monkeypatch):
    # qtflowfree: "Good job!" with Continue over the board; Continue only closes the box, the won
    # level shows whole, and "Next Level" below the board moves on. Nothing on the board is pressed.
    import numpy as np

    from flowbot.act.pointer import RecordingPointer
    from flowbot.capture.controls import Control
    from flowbot.capture.screen import ImageScreen
    from flowbot.live import moving_on as live_loop
    from flowbot.model import Geometry

    boxed = np.full((300, 300, 3), 40, dtype=np.uint8)
    boxed[100:160, 60:240] = 220  # the box over the board
    plain = np.full((300, 300, 3), 40, dtype=np.uint8)
    screen = ImageScreen([boxed, plain])
    found = [
        [Control(100, 120, 80, 20, "Continue", "push-button")],  # over the board
        [Control(120, 126, 40, 10, "\u00bb", "text"), Control(200, 270, 90, 20, "Next Level", "push-button")],
    ]
    monkeypatch.setattr(live_loop, "next_controls", lambda *args: iter(found.pop(0)))
    pointer = RecordingPointer()
    loop = AutoClear(screen, pointer, FAST, None, 3, artifacts=tmp_path, clock=ManualClock())
    loop.still_won = lambda frame: not (frame.pixels == 220).any()
    came = object()
    presses = []
    loop._try = lambda target, previous, window: (
        presses.append(target) or (came if len(presses) == 2 else None)
    )
    board = Geometry(tuple(float(x) for x in range(20, 281, 52)), tuple(float(y) for y in range(20, 256, 47)))
    assert loop._press_controls(["A.A"], board) is came
    assert presses == [(140.0, 130.0), (245.0, 280.0)]  # Continue, then Next Level; never the '»'


def test_each_look_after_the_first_reads_around_the_last_board_first(levels, tmp_path, monkeypatch):
    # Reading the part of the frame around the last board costs a few milliseconds a look less; a
    # board of another size that comes next (5x5, 6x6, 10x8) is still found, from the whole frame.
    from flowbot.capture import read as capture_read
    from flowbot.modes import auto_clear

    asked = []

    def spy(frame, source=None, near=None):
        """The real reader, noting where it was asked to look first."""
        asked.append(near)
        return capture_read.read_puzzle(frame, source, near)

    monkeypatch.setattr(auto_clear, "read_puzzle", spy)
    game = SimulatedGame(levels)
    report = run(game, tmp_path, 3).run()
    assert report.cleared == 3, report.summary()
    # Only the warm-up's tiny board and the first look read the whole frame first.
    # (The look that confirms a still board is not a read: see the next test.)
    assert asked[:2] == [None, None] and len(asked) >= 4 and all(near is not None for near in asked[2:])
    assert [level.size for level in report.levels] == ["5x5", "6x6", "10x8"]


def test_a_board_that_shows_still_is_read_once_and_one_that_moves_at_every_look(tmp_path):
    # After a level, a new board counts once it reads alike twice in a row. Two captures of one still
    # picture read alike: the second look costs a capture, not a read (a 9x9 read is 10-25 ms of a
    # busy machine's CPU). A board moving under the looks (sliding in) is read at every look.
    from flowbot.act.pointer import RecordingPointer
    from flowbot.capture.screen import ImageScreen
    from tests.boards import canonical
    from tests.images import draw_look

    puzzle = make_level(6, 6, 5, random.Random(3)).puzzle
    still = draw_look(puzzle, style="lines", cell=50, origin=(40, 60), size=(420, 460))
    sliding = [draw_look(puzzle, style="lines", cell=50, origin=(40 + shift, 60), size=(420, 460))
               for shift in (30, 20, 10, 0)]  # fmt: skip
    for frames, reads in (([still], 1), (sliding, 2)):
        loop = AutoClear(ImageScreen(frames), RecordingPointer(), artifacts=tmp_path, clock=ManualClock())
        looked = []
        read = loop.read
        loop.read = lambda pixels, read=read, looked=looked: looked.append(1) or read(pixels)
        scene = loop.wait_for_board(["the level before"])
        assert scene is not None and scene.rows == canonical(puzzle.to_rows())
        assert len(looked) == reads
        assert scene.read_ms > 0  # the time of the read the scene holds, not of a look that read nothing


def test_while_the_level_just_played_still_shows_the_looks_come_sooner(tmp_path):
    # A look at the won level, unchanged, is a capture: looked at every STILL_POLL, the next level is
    # seen about a frame after it shows (at POLL, a 9x9 Time Trial waited 100-125 ms a level for it).
    # Once a new board reads, the look that confirms it still comes a POLL later (a board sliding in
    # at 30 frames a second must not look still).
    from flowbot.act.pointer import RecordingPointer
    from flowbot.capture.screen import ImageScreen
    from flowbot.live.loop import POLL, STILL_POLL
    from tests.boards import canonical
    from tests.clocks import HookedClock
    from tests.images import draw_look

    won, following = (make_level(6, 6, 5, random.Random(seed)).puzzle for seed in (3, 4))
    old = draw_look(won, style="lines", cell=50, origin=(40, 60), size=(420, 460))
    new = draw_look(following, style="lines", cell=50, origin=(40, 60), size=(420, 460))
    pauses: list[float] = []
    loop = AutoClear(ImageScreen([old, old, old, new]), RecordingPointer(), artifacts=tmp_path,
                     clock=HookedClock(pauses.append))  # fmt: skip
    scene = loop.wait_for_board(canonical(won.to_rows()))
    assert scene is not None and scene.rows == canonical(following.to_rows())
    assert STILL_POLL < POLL and pauses == [STILL_POLL, STILL_POLL, STILL_POLL, POLL]
