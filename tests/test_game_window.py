"""The bundled game in a real window on Xvfb: seen through mss, played through XTest, closed three ways."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from flowbot.capture.read import Reading, read_puzzle
from flowbot.errors import CaptureError
from flowbot.game.layout import Dialog, compute_layout
from flowbot.game.packs import levels_from
from flowbot.game.session import Session
from flowbot.solve.sat import solve
from tests.boards import canonical

# The tests press the game themselves (XTest), skip arrows on unsolved levels included.
pytestmark = [
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.presses_by_test,
]

WINDOW = (540, 960)
TITLE = "flowbot game under test"


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A virtual screen (flowbot's own Xvfb helper), stopped when the module is done."""
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(1280, 1024) as screen:
        yield screen.name


class Game:
    """`python -m flowbot.game` running on a display, with its stdout lines and results file."""

    def __init__(self, display: str, results: Path, *args: str) -> None:
        env = dict(os.environ, DISPLAY=display, SDL_VIDEO_WINDOW_POS="0,0")
        env.pop("SDL_VIDEODRIVER", None)
        command = [sys.executable, "-m", "flowbot.game", "--results", str(results), "--title", TITLE]
        command += ["--size", f"{WINDOW[0]}x{WINDOW[1]}", *args]
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.results = results

    def ready(self, timeout: float = 20) -> str:
        """The first line the game prints (waiting at most `timeout` seconds)."""
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        return lines[0].strip() if lines else ""

    def finish(self, timeout: float = 10) -> tuple[int, str, str]:
        """Wait for the exit: its code, the rest of stdout, and stderr."""
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out, err

    def records(self) -> list[dict]:
        """The lines of the results file."""
        return [json.loads(line) for line in self.results.read_text().splitlines()]

    def kill(self) -> None:
        """Make sure the game is gone (after a failed test)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()


@pytest.fixture
def start(display, tmp_path):
    """Start games on the display; each is killed at the end if a test left it running."""
    games: list[Game] = []

    def run(*args: str) -> Game:
        game = Game(display, tmp_path / f"results-{len(games)}.jsonl", *args)
        games.append(game)
        assert game.ready() == "game ready", game.process.stderr.read() if game.process.poll() else ""
        return game

    yield run
    for game in games:
        game.kill()


def grab(display: str) -> np.ndarray:
    """The whole screen as an (H, W, 3) uint8 BGR frame."""
    import mss

    with mss.MSS(display=display) as shot:
        image = shot.grab(shot.monitors[1])
    return np.ascontiguousarray(np.array(image)[:, :, :3])  # BGRA -> BGR


def read_screen(display: str, expected: list[str], timeout: float = 3) -> Reading:
    """Read the board on screen until it is the expected one (the first frame may take a moment)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            reading = read_puzzle(grab(display))
            if reading.puzzle.to_rows() == expected or time.monotonic() > deadline:
                return reading
        except CaptureError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.05)


class Mouse:
    """The X pointer moved and pressed through the XTest extension, as a bot's pointer would."""

    def __init__(self, display: str) -> None:
        xlib = pytest.importorskip("Xlib.display")
        from Xlib import X
        from Xlib.ext import xtest

        self.x, self.xtest = X, xtest
        self.connection = xlib.Display(display)

    def move(self, x: float, y: float) -> None:
        """Move to a screen pixel."""
        self.xtest.fake_input(self.connection, self.x.MotionNotify, x=round(x), y=round(y))
        self.connection.sync()

    def press(self, down: bool) -> None:
        """Press or release the left button."""
        self.xtest.fake_input(self.connection, self.x.ButtonPress if down else self.x.ButtonRelease, 1)
        self.connection.sync()

    def close(self) -> None:
        """Disconnect from the display."""
        self.connection.close()


def test_the_window_shows_a_readable_board_and_sigterm_closes_it(display, start):
    first = levels_from("demo", None)[0]
    game = start("--pack", "demo")
    reading = read_screen(display, canonical(first.to_rows()))
    assert reading.puzzle.to_rows() == canonical(first.to_rows())
    game.process.send_signal(signal.SIGTERM)
    code, out, err = game.finish()
    assert code == 0, err
    assert out == ""  # nothing on stdout but the ready line
    [record] = game.records()
    assert record["level"] == 1 and record["solved"] is False and record["moves"] == 0
    assert record["puzzle"] == first.to_rows()
    assert record["seconds"] > 0


def test_a_solution_drawn_with_the_x_pointer_completes_the_level(display, start):
    levels = levels_from("5x5", None)
    game = start("--pack", "5x5")
    reading = read_screen(display, canonical(levels[0].to_rows()))
    solution = solve(reading.puzzle).solution
    assert solution is not None
    mouse = Mouse(display)
    try:
        for path in solution.paths:  # one stroke per flow, cell centre by cell centre
            mouse.move(*reading.geometry.center(path[0]))
            mouse.press(True)
            for cell in path[1:]:
                mouse.move(*reading.geometry.center(cell))
            mouse.press(False)
        # The dialog's button: the game's own layout, moved to where the board was found on screen.
        session = Session(levels)
        session.board.pipes = [list(path) for path in solution.paths]
        layout = compute_layout(*WINDOW, levels[0].rows, levels[0].cols, session.dialog())
        assert layout.dialog is not None and layout.dialog.button is not None
        dx = reading.geometry.xs[0] - layout.geometry.xs[0]
        dy = reading.geometry.ys[0] - layout.geometry.ys[0]
        x, y = layout.dialog.button.center
        time.sleep(0.3)  # a few frames for the dialog to appear
        mouse.move(x + dx, y + dy)
        mouse.press(True)
        mouse.press(False)
        second = read_screen(display, canonical(levels[1].to_rows()))
        assert second.puzzle.to_rows() == canonical(levels[1].to_rows())
    finally:
        mouse.close()
    game.process.send_signal(signal.SIGINT)
    code, _, err = game.finish()
    assert code == 0, err
    first, following = game.records()
    assert first["level"] == 1 and first["solved"] is True
    assert first["moves"] == len(levels[0].colors)
    assert following["level"] == 2 and following["solved"] is False


def test_closing_the_window_ends_the_game_cleanly(display, start):
    from Xlib import X, protocol
    from Xlib import display as xdisplay

    game = start("--folder", str(Path(__file__).resolve().parents[1] / "flowbot" / "data" / "packs" / "6x6"))
    connection = xdisplay.Display(display)
    try:
        windows = connection.screen().root.query_tree().children
        # SDL names its window in _NET_WM_NAME (UTF-8); the old WM_NAME stays empty.
        name = connection.intern_atom("_NET_WM_NAME")
        titles = [window.get_full_property(name, 0) for window in windows]
        [window] = [
            window
            for window, title in zip(windows, titles, strict=True)
            if title is not None and title.value in (TITLE, TITLE.encode())
        ]
        # What a window manager sends when the close button is clicked.
        protocols = connection.intern_atom("WM_PROTOCOLS")
        close = connection.intern_atom("WM_DELETE_WINDOW")
        data = (32, [close, X.CurrentTime, 0, 0, 0])
        event = protocol.event.ClientMessage(window=window, client_type=protocols, data=data)
        window.send_event(event)
        connection.sync()
    finally:
        connection.close()
    code, _, err = game.finish()
    assert code == 0, err
    [record] = game.records()
    assert record["level"] == 1 and record["solved"] is False


def test_every_new_look_at_once_draws_and_plays_in_a_real_window(display, start):
    from flowbot.game.app import build_parser, variant_from

    looks = ["--no-grid", "--theme", "light", "--glyphs", "--next-button", "text", "--win-banner", "--header"]
    looks += ["--board-px", "200"]
    levels = levels_from("5x5", None)
    game = start("--pack", "5x5", *looks)
    variant = variant_from(build_parser().parse_args([*looks, "--size", f"{WINDOW[0]}x{WINDOW[1]}"]))
    theme, look = variant.theme, variant.look
    layout = compute_layout(*WINDOW, levels[0].rows, levels[0].cols, look=look)
    time.sleep(0.3)
    frame = grab(display)  # the window sits at the screen's top-left (SDL_VIDEO_WINDOW_POS)
    assert tuple(frame[WINDOW[1] - 5, WINDOW[0] - 5][::-1]) == theme.page_rgb
    x, y = layout.geometry.center(levels[0].endpoints[0][0])
    assert tuple(frame[round(y), round(x)][::-1]) == (255, 255, 255)  # the first colour's glyph, a circle
    x, y = layout.geometry.xs[0] + 2, (layout.geometry.ys[0] + layout.geometry.ys[1]) / 2
    assert tuple(frame[round(y), round(x)][::-1]) == theme.board_rgb  # the panel
    solution = solve(levels[0]).solution
    mouse = Mouse(display)
    try:
        for path in solution.paths:
            mouse.move(*layout.geometry.center(path[0]))
            mouse.press(True)
            for cell in path[1:]:
                mouse.move(*layout.geometry.center(cell))
            mouse.press(False)
        time.sleep(0.3)
        session = Session(levels)
        session.board.pipes = [list(path) for path in solution.paths]
        won = compute_layout(*WINDOW, levels[0].rows, levels[0].cols, session.dialog(), look=look, won=True)
        assert won.dialog is not None and won.dialog.button is not None
        frame = grab(display)
        button = won.dialog.button
        assert tuple(frame[round(button.y) + 4, round(button.x) + 4][::-1]) == (225, 225, 225)
        mouse.move(*button.center)
        mouse.press(True)
        mouse.press(False)
        time.sleep(0.3)
    finally:
        mouse.close()
    game.process.send_signal(signal.SIGINT)
    code, _, err = game.finish()
    assert code == 0, err
    first, second = game.records()
    assert first["level"] == 1 and first["solved"] is True
    assert second["level"] == 2 and second["solved"] is False


def test_a_time_trial_in_a_real_window_moves_on_at_once_and_ends(display, start):
    from flowbot.game.render import DIALOG_FILL
    from flowbot.game.trial import generated

    make = generated(5, 5, seed=11)
    first, second = make(0), make(1)
    game = start("--time-trial", "3", "--board", "5x5", "--seed", "11")
    read_screen(display, canonical(first.to_rows()))
    layout = compute_layout(*WINDOW, 5, 5)
    mouse = Mouse(display)
    try:
        started = time.monotonic()
        for path in solve(first).solution.paths:
            mouse.move(*layout.geometry.center(path[0]))
            mouse.press(True)
            for cell in path[1:]:
                mouse.move(*layout.geometry.center(cell))
            mouse.press(False)
        reading = read_screen(display, canonical(second.to_rows()))
        assert reading.puzzle.to_rows() == canonical(second.to_rows())
        assert time.monotonic() - started < 2.5  # the next board came before the time was up
        time.sleep(max(0.0, started + 3.5 - time.monotonic()))
        end = Dialog("Time's up!", ("1 level solved", "in 3 seconds"))
        box = compute_layout(*WINDOW, 5, 5, end).dialog.box
        frame = grab(display)
        assert tuple(frame[round(box.y + box.height - 10), round(box.x + 10)][::-1]) == DIALOG_FILL
    finally:
        mouse.close()
    game.process.send_signal(signal.SIGINT)
    code, _, err = game.finish()
    assert code == 0, err
    records = game.records()
    assert [(record["level"], record["solved"]) for record in records] == [(1, True), (2, False)]
    assert records[0]["puzzle"] == first.to_rows() and records[1]["puzzle"] == second.to_rows()
