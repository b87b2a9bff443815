"""The live bot under faults, for real: the bundled game on Xvfb, `flowbot auto-clear` as a process
with real mss and pyautogui, and the test watching the pointer through its own X connection.

Each case closes, moves or covers the game, or signals the bot, or throws the pointer into the
fail-safe corner while the bot draws; every case asserts that no press landed outside the live game
window, that the button is up at the end, that there is no traceback, and that the bot exited
non-zero with one line naming the problem.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from flowbot.formats import write_puzzle_json
from flowbot.generate.levels import make_level

pytestmark = pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("xdotool") is None, reason="needs Xvfb and xdotool"
)

SCREEN = (800, 1060)
GAME_AT = (100, 40)  # away from the fail-safe corner, so (0, 0) is the bare desktop
WINDOW = (540, 960)
TITLE = "flowbot safety game"
SLOW = ("--move-delay", "0.04")  # slow enough to act while a stroke is being drawn


@pytest.fixture(scope="module")
def display():
    """A virtual screen with room around the game window."""
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(*SCREEN) as screen:
        yield screen


@pytest.fixture
def levels(tmp_path) -> Path:
    """Three 7x7 levels: long enough to interfere while the bot draws."""
    folder = tmp_path / "pack"
    folder.mkdir()
    for index in range(3):
        level = make_level(7, 7, 5, random.Random(40 + index))
        write_puzzle_json(level.puzzle, folder / f"{index + 1:03d}.json")
    return folder


@dataclass
class Press:
    """A press the watcher saw: where, on which top-level window, and when."""

    x: int
    y: int
    window: int
    at: float


@dataclass
class PointerWatch:
    """Polls the pointer through its own X connection: every press (button 1 going down), and whether
    the button is held now."""

    presses: list[Press] = field(default_factory=list)
    held: bool = False
    _stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        from Xlib import X, display

        # Two connections: python-xlib is not thread-safe, and the poller has one to itself.
        self._display, self._polling = display.Display(), display.Display()
        self._root = self._display.screen().root
        self._mask = X.Button1Mask
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def _poll(self) -> None:
        root = self._polling.screen().root
        while not self._stop.is_set():
            pointer = root.query_pointer()
            down = bool(pointer.mask & self._mask)
            if down and not self.held:
                child = pointer.child.id if pointer.child else 0
                self.presses.append(Press(pointer.root_x, pointer.root_y, child, time.monotonic()))
            self.held = down
            time.sleep(0.002)

    def wait(self, condition, timeout: float = 40.0) -> None:
        """Wait until `condition(self)` holds."""
        deadline = time.monotonic() + timeout
        while not condition(self):
            assert time.monotonic() < deadline, "the bot never got that far"
            time.sleep(0.005)

    def button_up_now(self) -> bool:
        """Asks the display itself, not the last poll."""
        return not self._root.query_pointer().mask & self._mask

    def top_level_named(self, title: str) -> int:
        """The id of the top-level window with this title."""
        name = self._display.intern_atom("_NET_WM_NAME")  # SDL sets the UTF-8 title only
        tops = [
            child.id
            for child in self._root.query_tree().children
            # python3-xlib (pyautogui's) gives the title as text, python-xlib as bytes
            if (value := child.get_full_property(name, 0)) is not None
            and value.value in (title, title.encode())
        ]
        assert len(tops) == 1, tops
        return tops[0]

    def move_pointer(self, x: int, y: int) -> None:
        """Move the real pointer, as a person would."""
        from Xlib import X
        from Xlib.ext.xtest import fake_input

        fake_input(self._display, X.MotionNotify, x=x, y=y)
        self._display.sync()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._display.close()
        self._polling.close()


def start_window(command: list[str], at: tuple[int, int]) -> subprocess.Popen:
    """A pygame program in a window at `at`; returns once it says it is drawn."""
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = f"{at[0]},{at[1]}"
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.strip().endswith("ready"):
        process.kill()  # before reading its stderr: a live process would block the read
        raise AssertionError(line + process.stderr.read())
    time.sleep(0.3)
    return process


def start_game(folder: Path, tmp_path: Path) -> subprocess.Popen:
    """The bundled game, titled TITLE, at GAME_AT."""
    return start_window(
        [sys.executable, "-m", "flowbot", "game", "--folder", str(folder), "--results",
         str(tmp_path / "results.jsonl"), "--size", f"{WINDOW[0]}x{WINDOW[1]}", "--title", TITLE],
        GAME_AT,
    )  # fmt: skip


COVER = (
    "import pygame, time\n"
    "pygame.display.init()\n"
    "surface = pygame.display.set_mode((220, 160))\n"
    "surface.fill((240, 240, 240))\n"
    "pygame.display.flip()\n"
    "print('cover ready', flush=True)\n"
    # SDL turns SIGTERM into a QUIT event: end on it, as the game does
    "while not any(event.type == pygame.QUIT for event in pygame.event.get()):\n"
    "    time.sleep(0.05)\n"
)


def start_bot(*options: str) -> subprocess.Popen:
    """`flowbot auto-clear` as its own process, as a person runs it (in a scratch folder, where any
    failure screenshot goes)."""
    return subprocess.Popen(
        [sys.executable, "-m", "flowbot", "auto-clear", *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tempfile.mkdtemp(prefix="flowbot-"),
    )  # fmt: skip


def finish(bot: subprocess.Popen) -> tuple[int, str, str]:
    """Wait for the bot; its exit status, stdout and stderr."""
    out, err = bot.communicate(timeout=40)
    return bot.returncode, out, err


def assert_stopped_safely(watch: PointerWatch, game_id: int, status: int, err: str, expected: int) -> None:
    """The checks every case shares."""
    assert watch.button_up_now(), "the mouse button was left held down"
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("flowbot: "), err
    assert status == expected, err
    left, top, width, height = GAME_BOX
    for press in watch.presses:
        assert press.window == game_id, f"a press outside the game window: {press}"
        assert left <= press.x < left + width and top <= press.y < top + height, press


def stop(process: subprocess.Popen) -> None:
    """End a helper process."""
    from flowbot.display import end_process

    end_process(process, timeout=5)


@pytest.fixture
def game_and_watch(display, levels, tmp_path):
    """The game running, and a watch on the pointer; both stopped afterwards."""
    game = start_game(levels, tmp_path)
    watch = PointerWatch()
    try:
        yield game, watch, watch.top_level_named(TITLE)
    finally:
        watch.move_pointer(SCREEN[0] - 20, SCREEN[1] - 20)  # out of the fail-safe corner, off the game
        watch.stop()
        stop(game)


GAME_BOX = (*GAME_AT, *WINDOW)


def test_closing_the_game_mid_run_stops_the_bot_before_it_presses_on_the_desktop(game_and_watch):
    game, watch, game_id = game_and_watch
    bot = start_bot("--count", "3", *SLOW)
    watch.wait(lambda w: w.presses)
    stop(game)
    closed = time.monotonic()
    status, out, err = finish(bot)
    assert all(press.at < closed for press in watch.presses)
    assert "game's window is gone" in err or "no longer where it was" in err
    assert "stopped:" in out  # the summary is still printed
    assert_stopped_safely(watch, game_id, status, err, expected=11)


def test_moving_the_game_mid_run_stops_the_bot(game_and_watch):
    _, watch, game_id = game_and_watch
    bot = start_bot("--count", "3", *SLOW)
    watch.wait(lambda w: w.presses)
    subprocess.run(["xdotool", "windowmove", str(game_id), "160", "70"], check=True)
    moved = time.monotonic()
    status, _, err = finish(bot)
    assert not [press for press in watch.presses if press.at > moved]
    assert "moved" in err or "no longer where it was" in err
    assert_stopped_safely(watch, game_id, status, err, expected=11)


def test_a_window_over_the_board_stops_the_bot(game_and_watch):
    _, watch, game_id = game_and_watch
    bot = start_bot("--count", "3", *SLOW)
    watch.wait(lambda w: w.presses)
    cover = start_window([sys.executable, "-c", COVER], (GAME_AT[0] + 200, GAME_AT[1] + 400))
    try:
        status, _, err = finish(bot)
    finally:
        stop(cover)
    assert "covers part of the board" in err or "no longer where it was" in err
    assert_stopped_safely(watch, game_id, status, err, expected=11)


@pytest.mark.parametrize("name, expected", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_stop_signal_mid_drag_releases_the_button(game_and_watch, name, expected):
    _, watch, game_id = game_and_watch
    bot = start_bot("--count", "3", *SLOW)
    watch.wait(lambda w: w.held)
    bot.send_signal(getattr(signal, name))
    status, out, err = finish(bot)
    assert f"stopped: interrupted by {name}" in out
    assert_stopped_safely(watch, game_id, status, err, expected=expected)


def test_the_fail_safe_corner_mid_stroke_ends_the_run_with_one_line(game_and_watch):
    _, watch, game_id = game_and_watch
    bot = start_bot("--count", "3", *SLOW)
    watch.wait(lambda w: w.held)
    watch.move_pointer(0, 0)  # the person throws the mouse into the corner while the bot drags
    status, out, err = finish(bot)
    assert "fail-safe" in err and "stopped: stopped by the fail-safe" in out
    assert_stopped_safely(watch, game_id, status, err, expected=10)


def test_a_run_that_does_not_reach_its_count_exits_non_zero(display, tmp_path):
    folder = tmp_path / "one"
    folder.mkdir()
    write_puzzle_json(make_level(5, 5, 4, random.Random(1)).puzzle, folder / "001.json")
    game = start_game(folder, tmp_path)  # one level: after it the pack restarts with the same board
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "flowbot", "auto-clear", "--count", "2", "--json",
             "--artifacts", str(tmp_path)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    finally:
        stop(game)
    record = json.loads(completed.stdout)
    assert record["cleared"] == 1 and record["stopped"], completed.stdout + completed.stderr
    assert completed.returncode == 4, completed.stdout + completed.stderr


@pytest.mark.parametrize(
    "region, where, source",
    [
        ("700,0,300,300", "partly", "flag"),
        ("900,1100,50,50", "wholly", "flag"),
        ("-40,10,300,300", "partly", "profile"),
    ],
)
def test_a_region_off_the_screen_is_a_usage_error(display, tmp_path, region, where, source):
    command = [sys.executable, "-m", "flowbot", "auto-clear", "--count", "1"]
    if source == "flag":
        command += ["--region", region]
    else:  # the same check for a profile's region
        (tmp_path / "calibration").mkdir()
        profile = {"schema_version": 1, "name": "off", "region": [int(v) for v in region.split(",")]}
        (tmp_path / "calibration" / "off.json").write_text(json.dumps(profile))
        command += ["--profile", "off"]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path)
    assert completed.returncode == 64, completed.stderr
    assert "Traceback" not in completed.stderr
    assert f"region {region}" in completed.stderr
    assert f"{where} off the screen, which is 800x1060" in completed.stderr


def test_live_commands_work_without_an_xauthority_file(tmp_path):
    from flowbot.display import VirtualDisplay

    (tmp_path / "empty").write_bytes(b"")
    cases = {"unset": None, "missing": str(tmp_path / "nowhere"), "empty": str(tmp_path / "empty")}
    command = [sys.executable, "-m", "flowbot", "auto-clear", "--count", "1", "--json"]
    command += ["--artifacts", str(tmp_path)]
    runs = {}
    with VirtualDisplay(640, 480, cookie=False):  # no -auth: the server has no cookie
        for name, authority in cases.items():
            env = {key: value for key, value in os.environ.items() if key != "XAUTHORITY"}
            env["HOME"] = str(tmp_path)  # and no ~/.Xauthority either
            if authority is not None:
                env["XAUTHORITY"] = authority
            # The real run connects pyautogui and the window check; the dry run only looks.
            for extra in ([], ["--dry-run"]) if name == "empty" else ([],):
                runs[name, *extra] = subprocess.run(
                    command + extra, capture_output=True, text=True, timeout=60, check=False, env=env
                )
    for case, completed in runs.items():
        assert "cannot drive the mouse" not in completed.stderr and "Traceback" not in completed.stderr, case
        lines = completed.stdout.splitlines()
        assert len(lines) == 1, (case, completed.stdout)  # nothing but the JSON record on stdout
        assert json.loads(lines[0])["stopped"].startswith("no board found on screen (no board found:")
