"""The live loop for real: the bundled game in a window on Xvfb, mss captures, pyautogui drags."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flowbot.capture.screen import Region
from flowbot.formats import write_puzzle_json
from flowbot.generate.levels import make_level

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")

WINDOW = (540, 960)


@pytest.fixture(scope="module")
def display():
    """A virtual screen for this module's tests (DISPLAY and XAUTHORITY set while it runs)."""
    from tests.live_display import virtual_screen

    with virtual_screen(700, 1000) as screen:
        yield screen


@pytest.fixture
def levels(tmp_path) -> Path:
    """A folder of three small generated levels."""
    folder = tmp_path / "pack"
    folder.mkdir()
    for index, size in enumerate((5, 6, 7)):
        level = make_level(size, size, size - 1, random.Random(index))
        write_puzzle_json(level.puzzle, folder / f"{index + 1:03d}.json")
    return folder


def start_game(folder: Path, results: Path, *options: str) -> subprocess.Popen:
    """The bundled game on a folder of levels, at the screen's top-left; returns once it is drawn."""
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--folder", str(folder), "--results", str(results),
         "--size", f"{WINDOW[0]}x{WINDOW[1]}", *options],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert game.stdout.readline().strip() == "game ready", game.stderr.read()
    time.sleep(0.3)
    return game


def stop_game(game: subprocess.Popen) -> int:
    """Close the game like a window manager would (SIGTERM) and return its exit code."""
    game.terminate()
    return game.wait(timeout=10)


def results_of(path: Path) -> list[dict]:
    """The game's own results file."""
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_bot_clears_every_level_and_the_game_agrees(display, levels, tmp_path):
    from flowbot.act.pointer import PyAutoGuiPointer
    from flowbot.capture.screen import MssScreen
    from flowbot.modes.auto_clear import AutoClear
    from flowbot.modes.demo import bundled_settings

    results = tmp_path / "results.jsonl"
    game = start_game(levels, results)
    screen = MssScreen()
    try:
        region = Region(0, 0, *WINDOW)
        loop = AutoClear(
            screen, PyAutoGuiPointer(region), bundled_settings(), region, count=3, artifacts=tmp_path
        )
        report = loop.run()
    finally:
        screen.close()
        assert stop_game(game) == 0
    assert report.cleared == 3, report.summary()
    assert [record["solved"] for record in results_of(results)] == [True, True, True]
    assert all(level.timing.overhead_ms < 1000 for level in report.levels)


def test_default_pointer_settings_also_clear_a_level(display, levels, tmp_path):
    from flowbot.act.plan import PointerSettings
    from flowbot.act.pointer import PyAutoGuiPointer
    from flowbot.capture.screen import MssScreen
    from flowbot.modes.auto_clear import AutoClear

    results = tmp_path / "results.jsonl"
    game = start_game(levels, results)
    screen = MssScreen()
    try:
        loop = AutoClear(
            screen, PyAutoGuiPointer(screen.bounds), PointerSettings(), None, count=1, artifacts=tmp_path
        )
        report = loop.run()
    finally:
        screen.close()
        assert stop_game(game) == 0
    assert report.cleared == 1, report.summary()
    assert results_of(results)[0]["solved"] is True


def test_the_whole_demo_pack_is_confirmed_solved_by_the_game(display, tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "flowbot", "demo", "--json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    figures = json.loads(completed.stdout.strip().splitlines()[-1])
    assert figures["levels"] == 10 and figures["solved_by_game"] == 10
    assert 0 < figures["bot_overhead_ms_median"] < 1000
    assert len(completed.stdout.splitlines()) == 1  # the JSON line alone; the summary went to stderr
    assert "14x14" in completed.stderr


def test_demo_without_a_display_starts_one_and_records(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "XAUTHORITY")}
    completed = subprocess.run(
        [sys.executable, "-m", "flowbot", "demo", "--levels", "1", "--json"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "recording of the run: flowbot-demo.gif" in completed.stderr
    assert (tmp_path / "flowbot-demo.gif").read_bytes()[:6] in (b"GIF87a", b"GIF89a")


def test_auto_clear_without_a_board_stops_with_a_saved_screenshot(display, tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "flowbot", "auto-clear", "--count", "1", "--artifacts", str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert completed.returncode == 4
    assert "no board found on screen" in completed.stdout
    assert list(tmp_path.glob("flowbot-level-1-no-board-*.png"))


def test_calibrate_and_check_on_the_real_screen(display, levels, tmp_path):
    results = tmp_path / "results.jsonl"
    game = start_game(levels, results)
    try:
        made = subprocess.run(
            [sys.executable, "-m", "flowbot", "calibrate", "--name", "xvfb-game", "--folder", str(tmp_path)],
            capture_output=True, text=True, timeout=60, check=False, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        checked = subprocess.run(
            [sys.executable, "-m", "flowbot", "calibrate", "--check",
             "--picture", str(tmp_path / "seen.png")],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    finally:
        stop_game(game)
    assert made.returncode == 0, made.stdout + made.stderr
    profile = json.loads((tmp_path / "xvfb-game.json").read_text())
    assert profile["grid"] == {"rows": 5, "cols": 5} and profile["schema_version"] == 1
    assert checked.returncode == 0 and "board 5x5, 4 colours" in checked.stdout
    assert (tmp_path / "seen.png").read_bytes()[:4] == b"\x89PNG"


def test_calibrate_with_no_board_and_no_terminal_says_so(display, tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "flowbot", "calibrate", "--name", "nothing", "--folder", str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert completed.returncode == 8
    assert "no terminal to ask" in completed.stderr
    assert not (tmp_path / "nothing.json").exists()


def test_scrape_the_real_game_into_a_pack(display, levels, tmp_path):
    results = tmp_path / "results.jsonl"
    game = start_game(levels, results)
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "flowbot", "scrape", "--out", str(tmp_path / "scraped"),
             "--profile", "flowbot-game"],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    finally:
        stop_game(game)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "saved 3, skipped 0, failed 0" in completed.stdout
    # The last level's only button goes back to level 1: flowbot never presses it, the pack ends.
    assert "end of the pack" in completed.stdout and "'back to level 1'" in completed.stdout
    assert sorted(path.name for path in (tmp_path / "scraped").iterdir()) == [
        "001.json",
        "002.json",
        "003.json",
        "pack.json",
    ]


@pytest.mark.parametrize(
    "options",
    [
        ("--tiles", "--palette", "legacy", "--dot-size", "0.3"),
        ("--no-dialog", "--shift", "--line-color", "200,60,160"),
        ("--sample-per-frame", "--palette", "muted"),
    ],
    ids=["tiles-legacy-small-dots", "no-dialog-moving-board", "one-sample-per-frame"],
)
def test_variants_of_the_game_are_cleared_with_safe_defaults(display, levels, tmp_path, options):
    from flowbot.act.plan import PointerSettings
    from flowbot.act.pointer import PyAutoGuiPointer
    from flowbot.capture.screen import MssScreen
    from flowbot.modes.auto_clear import AutoClear

    results = tmp_path / "results.jsonl"
    game = start_game(levels, results, *options)
    screen = MssScreen()
    try:
        region = Region(0, 0, *WINDOW)
        loop = AutoClear(
            screen, PyAutoGuiPointer(region), PointerSettings(), region, count=3, artifacts=tmp_path
        )
        report = loop.run()
    finally:
        screen.close()
        assert stop_game(game) == 0
    assert report.cleared == 3, report.summary()
    assert [record["solved"] for record in results_of(results)][:2] == [True, True]


def test_fast_drags_fail_where_the_game_samples_once_per_frame(display, levels, tmp_path):
    """The contrast that shows why the defaults are slow: too fast for a polling game, it drops cells."""
    from flowbot.act.plan import PointerSettings
    from flowbot.act.pointer import PyAutoGuiPointer
    from flowbot.capture.screen import MssScreen
    from flowbot.modes.auto_clear import AutoClear

    game = start_game(levels, tmp_path / "results.jsonl", "--sample-per-frame")
    screen = MssScreen()
    try:
        region = Region(0, 0, *WINDOW)
        fast = PointerSettings(
            moves_per_cell=1, move_delay=0.001, release_pause=0, flow_pause=0, settle=False
        )
        report = AutoClear(screen, PyAutoGuiPointer(region), fast, region, count=1, artifacts=tmp_path).run()
    finally:
        screen.close()
        stop_game(game)
    assert report.cleared == 0
    assert "did not take it" in report.stopped and report.failure_image
