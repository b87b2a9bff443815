"""Number Match played for real: the bundled game in a window on Xvfb, mss captures, pyautogui clicks,
every board confirmed cleared by the game's own results file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flowbot.capture.screen import Region

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")

# Short enough that boards grown by adds outgrow the grid's area and must be scrolled.
WINDOW = (540, 500)


@pytest.fixture(scope="module")
def display():
    """A virtual screen for this module's tests (DISPLAY and XAUTHORITY set while it runs)."""
    from tests.live_display import virtual_screen

    with virtual_screen(700, 800) as screen:
        yield screen


def start_game(results: Path, *options: str) -> subprocess.Popen:
    """The bundled Number Match game at the screen's top-left; returns once it is drawn."""
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--numbermatch", "--results", str(results),
         "--size", f"{WINDOW[0]}x{WINDOW[1]}", *options],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert game.stdout.readline().strip() == "game ready", game.stderr.read()
    time.sleep(0.3)
    return game


def test_ten_boards_in_a_row_are_cleared_and_the_game_agrees(display, tmp_path):
    from flowbot.act.pointer import PyAutoGuiPointer
    from flowbot.capture.screen import MssScreen, X11Windows
    from flowbot.modes.numbermatch_clear import NumberMatchClear

    results = tmp_path / "results.jsonl"
    game = start_game(results, "--seed", "21")
    screen = MssScreen()
    windows = X11Windows.open()
    try:
        region = Region(0, 0, *WINDOW)
        report = NumberMatchClear(screen, PyAutoGuiPointer(region), region, 10, windows=windows).run()
    finally:
        screen.close()
        if windows is not None:
            windows.close()
        game.terminate()
        assert game.wait(timeout=10) == 0
    assert report.stopped is None, report.stopped
    assert report.cleared == 10
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert [record["cleared"] for record in records[:10]] == [True] * 10
    assert [record["stage"] for record in records[:10]] == list(range(1, 11))
    assert any(record["adds_used"] > 0 for record in records[:10])
    assert any(board.scrolled for board in report.boards), "no board outgrew the window"


def test_the_command_line_clears_a_board_of_35(display, tmp_path):
    results = tmp_path / "results.jsonl"
    game = start_game(results, "--seed", "3", "--start", "35")
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "flowbot", "auto-clear", "--numbermatch", "--count", "1", "--json",
             "--region", f"0,0,{WINDOW[0]},{WINDOW[1]}"],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    finally:
        game.terminate()
        game.wait(timeout=10)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    summary = json.loads(completed.stdout.strip().splitlines()[-1])
    assert summary["cleared"] == 1
    first = json.loads(results.read_text().splitlines()[0])
    assert first["cleared"] is True and len("".join(first["board"]).rstrip("_")) == 35
