"""`flowbot auto-clear` with its defaults on the bundled game's sister games, for real: a window on Xvfb,
mss captures, pyautogui drags, and the game's own --results as the judge (a few levels each; the ten
in a row of the issue are scripts/bench_variant_clear.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from flowbot.modes.variant_clear import reader_available

pytestmark = [
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(not reader_available(), reason="the sister games' reader is not installed"),
]


@pytest.fixture(scope="module")
def display():
    """A virtual screen for this module's tests (DISPLAY and XAUTHORITY set while it runs)."""
    from tests.live_display import virtual_screen

    with virtual_screen(600, 1000) as screen:
        yield screen


@pytest.mark.parametrize("variant", ["hexes", "bridges", "warps"])
def test_auto_clear_clears_sister_game_levels_and_the_game_agrees(display, variant, tmp_path):
    results = tmp_path / "results.jsonl"
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--variant", variant, "--board", "6x6", "--seed", "7",
         "--levels", "3", "--results", str(results), "--size", "540x960"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert game.stdout.readline().strip() == "game ready", game.stderr.read()
        time.sleep(0.3)
        bot = subprocess.run(
            [sys.executable, "-m", "flowbot", "auto-clear", "--count", "2", "--json"],
            capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
        )  # fmt: skip
    finally:
        game.terminate()
        assert game.wait(timeout=10) == 0
    assert bot.returncode == 0, bot.stdout + bot.stderr
    assert json.loads(bot.stdout.strip().splitlines()[-1])["cleared"] == 2
    records = [json.loads(line) for line in results.read_text().splitlines()]
    # Two levels cleared (the second still showing its win when the game closed).
    assert [(record["kind"], record["solved"]) for record in records] == [(variant, True), (variant, True)]
