"""The press watch every live test runs under (tests/press_watch.py, hooked in tests/conftest.py): the
rules judged on hand-built presses, then the hook for real on a display of the test's own."""

from __future__ import annotations

import json
import shutil
import time

import pytest

from flowbot.game.controls import Controls
from flowbot.game.layout import compute_layout
from flowbot.game.look import Look
from flowbot.game.packs import levels_from
from flowbot.game.presslog import ENV, LEVEL_CHANGES, PressLog
from flowbot.game.session import Session
from tests.press_recorder import Press
from tests.press_watch import judge

GAME_PID, GAME_WINDOW = 4100, 0x400001


def press(window: int, pid: int | None, display: str = ":90", at: float = 2.0) -> Press:
    """A click recorded at `at` on `window` of `display`, of the client `pid`."""
    return Press(time=at, x=10, y=20, button=1, window=window, pid=pid, display=display)


def test_presses_off_the_game_and_level_changes_on_unsolved_levels_break_the_rules():
    """Off the game: the bare root, another client's window, a window that names no process. On it:
    the window the game named and its popups (windows of its process). A level change counts when the
    game says the level was unsolved, within the test's span; a restart is counted apart."""
    taken = [  # time, hit, level, solved just before
        (2.0, "board", 1, False),
        (3.0, "arrow next", 1, False),
        (4.0, "dialog", 2, True),
        (4.5, "button next", 3, True),
        (5.0, "button restart", 3, False),
        (0.5, "button previous", 1, False),  # before the test's span
    ]
    lines = [{"event": "open", "pid": GAME_PID, "window": GAME_WINDOW, "display": ":90", "game": "flow"}]
    lines += [
        {"event": "press", "pid": GAME_PID, "time": at, "hit": hit, "level": level, "solved": solved}
        for at, hit, level, solved in taken
    ]
    presses = [
        press(GAME_WINDOW, None),  # SDL's window, however its pid reads
        press(0x400050, GAME_PID),  # the game's popup window
        press(0, None),  # the bare root
        press(0x600001, 4200),  # a cover of another program
        press(0x700001, None),  # a window that names no process
        press(GAME_WINDOW, None, display=":91"),  # the game's window id, on another server
    ]
    span = judge("t", presses, lines, start=1.0, end=6.0)
    assert span.presses == 6
    assert [line.split(" on ")[1] for line in span.outside] == [
        "the bare root window, pid None",
        "window 0x600001 (), pid 4200",
        "window 0x700001 (), pid None",
        "window 0x400001 (), pid None",
    ]
    assert span.skips == [f"'arrow next' pressed on unsolved level 1 (game pid {GAME_PID})"]
    assert span.restarts == 1
    assert (span.taken, span.moves_on) == (5, 2)
    assert span.failures() == [*span.outside, *span.skips]
    span.judged = False
    assert span.failures() == []


def test_a_game_a_harness_starts_in_a_session_of_its_own_is_every_window_of_that_session():
    """A third-party game names no window: with the test's session given, a window of a process in
    another session is the game's; one of the test's own session (a cover it opened), or of no known
    process, is still off the game."""
    presses = [
        Press(time=2.0, x=1, y=1, button=1, window=0x800001, pid=5000, session=5000),  # the game's browser
        Press(time=2.0, x=1, y=1, button=1, window=0x900001, pid=6000, session=77),  # a cover of the test's
        Press(time=2.0, x=1, y=1, button=1, window=0, pid=None),  # the bare root
    ]
    assert len(judge("t", presses, [], 1.0, 3.0).outside) == 3
    span = judge("t", presses, [], 1.0, 3.0, own_session=77)
    assert [line.split(" on ")[1] for line in span.outside] == [
        "window 0x900001 (), pid 6000",
        "the bare root window, pid None",
    ]


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
@pytest.mark.presses_by_test  # it presses the bare root and a skip arrow on purpose, to see them caught
def test_every_display_a_test_starts_is_watched_and_the_game_says_what_each_press_hit(press_watch, tmp_path):
    """A display started the usual way gets a recorder; the game it runs names itself in the press log;
    a press on the bare root and a skip arrow pressed on an unsolved level are caught, a press on the
    board is not."""
    from tests.live_display import virtual_screen
    from tests.test_game_window import WINDOW, Game, Mouse

    start = time.monotonic()
    with virtual_screen(800, 1000) as screen:
        recording = press_watch.recordings[-1]
        assert recording.display == screen.name and recording.recorder.running
        game = Game(screen.name, tmp_path / "results.jsonl", "--pack", "5x5", "--fault", "skip-arrows")
        try:
            assert game.ready() == "game ready"
            time.sleep(0.3)
            layout = compute_layout(*WINDOW, 5, 5, look=Look(skip_arrows=True))
            arrow = layout.arrows[1]  # 'next'
            mouse = Mouse(screen.name)
            try:
                for x, y in [(WINDOW[0] + 100, 500), layout.geometry.center((2, 2)), (arrow.x, arrow.y)]:
                    mouse.move(x, y)
                    mouse.press(True)
                    mouse.press(False)
                    time.sleep(0.2)
            finally:
                mouse.close()
            deadline = time.monotonic() + 10
            while not game.results.exists() or not game.records():  # the arrow left level 1
                assert time.monotonic() < deadline, "the skip arrow was not taken"
                time.sleep(0.05)
        finally:
            game.kill()
    assert not recording.recorder.running  # stopped with its display
    span = judge("t", recording.recorder.presses, press_watch.game_lines(), start, time.monotonic())
    assert span.presses == 3
    assert len(span.outside) == 1 and "the bare root window" in span.outside[0], span.outside
    assert span.skips == [f"'arrow next' pressed on unsolved level 1 (game pid {game.process.pid})"]


def test_the_game_says_what_each_press_hit_and_logs_it_only_when_asked(tmp_path):
    """Controls name what a press hit: a cell, the page, each bottom button, a skip arrow; the press
    log writes the game's opening and its presses only when FLOWBOT_GAME_PRESS_LOG names a file."""
    levels = levels_from("5x5", None)
    controls = Controls(Session(levels))
    layout = compute_layout(540, 960, levels[0].rows, levels[0].cols, look=Look(skip_arrows=True))
    buttons = {button.name: button for button in layout.buttons}
    hits = [
        controls.pointer_down(*layout.geometry.center((2, 2)), layout),
        controls.pointer_down(2, 2, layout),
        *(controls.pointer_down(buttons[name].x, buttons[name].y, layout) for name in ("restart", "next")),
        controls.pointer_down(layout.arrows[0].x, layout.arrows[0].y, layout),
    ]
    assert hits == ["board", "nothing", "button restart", "button next", "arrow previous"]
    assert {"button next", "arrow previous"} <= LEVEL_CHANGES and "button restart" not in LEVEL_CHANGES

    PressLog({}).press("board", 1, False)  # no file named: nothing written, nothing raised
    log = tmp_path / "presses.jsonl"
    presses = PressLog({ENV: str(log)})
    presses.opened("flow", {"window": 0x400001})
    presses.press("button next", 2, False)
    presses.close()
    opened, pressed = (json.loads(line) for line in log.read_text().splitlines())
    assert opened["event"] == "open" and opened["window"] == 0x400001 and opened["pid"] > 0
    assert {key: pressed[key] for key in ("event", "hit", "level", "solved")} == {
        "event": "press", "hit": "button next", "level": 2, "solved": False,
    }  # fmt: skip
