"""HiDPI screens and several monitors for real: the bundled game on a 2560x1024 Xvfb screen split
into two monitors with xrandr, real mss and pyautogui, with captures scaled as a Retina Mac or
Windows at 150% deliver them and coordinates laid out as Windows and macOS do (tests/desktops.py)."""

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

from flowbot.errors import ScaleError
from flowbot.formats import write_puzzle_json
from flowbot.generate.levels import make_level
from tests.desktops import ScaledMss, ShiftedGui

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")

WINDOW = (540, 960)


@pytest.fixture(scope="module")
def two_monitors():
    """A 2560x1024 virtual screen split into two 1280x1024 monitors, LEFT and RIGHT, as xrandr
    describes a two-monitor desktop (mss lists both); pyautogui, if a test before this module
    imported it, is pointed at this display (it connects once, on import)."""
    from flowbot.display import VirtualDisplay
    from tests.live_display import follow_display

    if shutil.which("xrandr") is None:
        pytest.skip("xrandr is not installed (Debian's x11-xserver-utils)")
    with VirtualDisplay(2560, 1024) as screen:
        for name, left in (("LEFT", 0), ("RIGHT", 1280)):
            subprocess.run(
                ["xrandr", "--setmonitor", name, f"1280/338x1024/270+{left}+0", "none"], check=True
            )
        follow_display()
        yield screen


@pytest.fixture
def levels(tmp_path) -> Path:
    """A folder of two small generated levels."""
    folder = tmp_path / "pack"
    folder.mkdir()
    for index, size in enumerate((5, 6)):
        level = make_level(size, size, size - 1, random.Random(40 + index))
        write_puzzle_json(level.puzzle, folder / f"{index + 1:03d}.json")
    return folder


def start_game(folder: Path, results: Path, position: tuple[int, int]) -> subprocess.Popen:
    """The bundled game with its window's top-left at `position` (X's pixels); returns once drawn."""
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = f"{position[0]},{position[1]}"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--folder", str(folder), "--results", str(results),
         "--size", f"{WINDOW[0]}x{WINDOW[1]}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert game.stdout.readline().strip() == "game ready", game.stderr.read()
    time.sleep(0.3)
    return game


def stop_game(game: subprocess.Popen) -> list[dict]:
    """Close the game (SIGTERM) and return its own results, one record per level shown."""
    game.terminate()
    assert game.wait(timeout=10) == 0
    path = Path(game.args[game.args.index("--results") + 1])
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def taken_with_one_press_per_flow(records: list[dict], count: int) -> bool:
    """True when the game judged the first `count` levels solved, each in exactly one stroke per flow:
    a press off its cell would have missed the dot (no stroke) or drawn a wrong one (more strokes)."""
    done = records[:count]
    flows = [len({ch for row in record["puzzle"] for ch in row if ch.isalpha()}) for record in done]
    return len(done) == count and all(
        record["solved"] and record["moves"] == n for record, n in zip(done, flows, strict=True)
    )


def clear(screen, gui, windows: bool, tmp_path: Path, count: int = 2):
    """Find the game's monitor, measure and probe the pointer, and clear `count` levels as auto-clear
    does with its defaults (no region), on the given capture library and mouse."""
    from flowbot.act.pointer import open_pointer
    from flowbot.capture.monitors import look_at_the_game
    from flowbot.capture.screen import X11Windows
    from flowbot.modes.auto_clear import AutoClear
    from flowbot.modes.demo import bundled_settings

    look_at_the_game(screen, None)
    pointer = open_pointer(screen, screen.bounds, gui=gui)
    found = X11Windows.open(pointer.space.box_from_pointer) if windows else None
    try:
        loop = AutoClear(screen, pointer, bundled_settings(), None, count, artifacts=tmp_path, windows=found)
        return loop.run(), pointer
    finally:
        if found is not None:
            found.close()


@pytest.mark.parametrize(
    ("layout", "capture", "scale"),
    [(1.0, 2.0, 2.0), (1.0, 1.5, 1.5), (1.5, 1.0, 1.5)],
    ids=["retina-2x-captures", "fractional-1.5x-captures", "windows-150-percent-layout"],
)
def test_scaled_captures_clear_levels_with_every_press_on_its_cell(
    two_monitors, levels, tmp_path, layout, capture, scale
):
    import mss

    from flowbot.capture.screen import MssScreen

    game = start_game(levels, tmp_path / "results.jsonl", (0, 0))
    screen = MssScreen(backend=ScaledMss(mss.MSS(), layout=layout, capture=capture))
    try:
        report, pointer = clear(screen, None, True, tmp_path)
    finally:
        screen.close()
        records = stop_game(game)
    assert pointer.space.scale == scale
    assert screen.bounds.width == round(1280 * scale)  # the reader saw the scaled pixels
    assert report.cleared == 2, report.summary()
    assert taken_with_one_press_per_flow(records, 2), records


@pytest.mark.parametrize("mismatch", ["capture-stretched-one-way", "mouse-screen-matches-no-monitor"])
def test_a_mismatch_is_refused_before_any_press(two_monitors, levels, tmp_path, mismatch):
    import mss
    import pyautogui

    from flowbot.act.pointer import open_pointer
    from flowbot.capture.screen import MssScreen

    game = start_game(levels, tmp_path / "results.jsonl", (0, 0))
    try:
        with pytest.raises(ScaleError, match="stopped before pressing"):
            if mismatch == "capture-stretched-one-way":
                MssScreen(backend=ScaledMss(mss.MSS(), capture=2.0, down=1.5))
            else:
                screen = MssScreen()
                try:  # a mouse that believes in a screen of another shape than the one captured
                    open_pointer(screen, screen.bounds, gui=ShiftedGui(pyautogui, (0, 0), (1000, 1024)))
                finally:
                    screen.close()
    finally:
        records = stop_game(game)
    assert records and records[0]["moves"] == 0 and not records[0]["solved"]


def test_every_command_finds_the_game_on_the_second_monitor(two_monitors, levels, tmp_path):
    """The issue's measurement: the game at 1500,40 on the right-hand monitor, every command with its
    defaults (before, auto-clear said "no board found on screen")."""
    game = start_game(levels, tmp_path / "results.jsonl", (1500, 40))
    try:
        checked = subprocess.run(
            [sys.executable, "-m", "flowbot", "calibrate", "--check", "--picture", str(tmp_path / "a.png")],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        cleared = subprocess.run(
            [sys.executable, "-m", "flowbot", "auto-clear", "--count", "1", "--artifacts", str(tmp_path)],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        shown = subprocess.run(
            [sys.executable, "-m", "flowbot", "screens", "--json"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        scraped = subprocess.run(
            [sys.executable, "-m", "flowbot", "scrape", "--out", str(tmp_path / "scraped"), "--count", "1"],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    finally:
        records = stop_game(game)
    assert checked.returncode == 0 and "board 5x5" in checked.stdout, checked.stdout + checked.stderr
    assert (tmp_path / "a.png").exists()
    assert cleared.returncode == 0, cleared.stdout + cleared.stderr
    assert shown.returncode == 0, shown.stdout + shown.stderr
    desktop = json.loads(shown.stdout)
    assert desktop["pixels_per_pointer_unit"] == 1.0 and desktop["probed"]
    assert [(m["layout"], m["primary"]) for m in desktop["monitors"]] == [
        ("0,0,1280,1024", True),
        ("1280,0,1280,1024", False),
    ]
    assert desktop["monitors"][1]["shows"] in ("board", "dialog")  # level 1 won: its dialog may show
    assert scraped.returncode == 0 and "saved 1" in scraped.stdout, scraped.stdout + scraped.stderr
    # auto-clear (tuning its speed, so some flows drawn twice) cleared level 1; scrape moved on from its
    # dialog and saved level 2 as the game has it, from the right-hand monitor.
    assert records[0]["solved"], records
    saved = json.loads((tmp_path / "scraped" / "001.json").read_text())
    assert saved["grid"] == records[1]["puzzle"] and saved["source"]["details"]["origin"] == [1280, 0]


def set_monitor(name: str, left: int, primary: bool) -> None:
    """Describe one 1280x1024 monitor of the virtual screen again, as the primary one or not."""
    subprocess.run(["xrandr", "--delmonitor", name], check=True, capture_output=True)
    label = f"*{name}" if primary else name
    subprocess.run(["xrandr", "--setmonitor", label, f"1280/338x1024/270+{left}+0", "none"], check=True)


def test_a_monitor_left_of_the_primary(two_monitors, levels, tmp_path):
    """The right-hand monitor made the primary, the game on the left one. Level 1 as Windows and
    macOS lay it out (the primary at (0, 0), the left monitor at x = -1280, for mss and for the mouse
    alike); level 2 by `flowbot auto-clear` with its defaults as X11 lays it out (the primary looked
    at first, the left monitor at x = 0)."""
    import mss
    import pyautogui

    from flowbot.capture.screen import MssScreen

    set_monitor("RIGHT", 1280, primary=True)
    game = start_game(levels, tmp_path / "results.jsonl", (100, 40))
    try:
        screen = MssScreen(backend=ScaledMss(mss.MSS(), origin=(1280, 0)))
        try:
            gui = ShiftedGui(pyautogui, (1280, 0), (1280, 1024))
            report, _ = clear(screen, gui, False, tmp_path, count=1)
        finally:
            screen.close()
        cleared = subprocess.run(
            [sys.executable, "-m", "flowbot", "-v", "auto-clear", "--count", "1", "--artifacts", tmp_path],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    finally:
        records = stop_game(game)
        set_monitor("RIGHT", 1280, primary=False)
    assert screen.monitor.box.left == -1280
    assert report.cleared == 1, report.summary()
    assert taken_with_one_press_per_flow(records, 1), records
    assert cleared.returncode == 0, cleared.stdout + cleared.stderr
    looked = cleared.stderr
    assert -1 < looked.find("looking at monitor 1: 1280,0,") < looked.find("looking at monitor 2: 0,0,")
    assert records[1]["solved"], records
