"""A screen resized while the bot plays (`xrandr --fb` on Xvfb, which leaves RandR listing no
monitor): the bot goes on playing on a screen that still holds the game (smaller, or grown back),
finding the board afresh, and stops with one line and status 11 when the game no longer fits;
never a traceback, never a press off the game."""

from __future__ import annotations

import re
import shutil
import subprocess
import time

import pytest

from flowbot import display

pytestmark = pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in ("Xvfb", "xdotool", "xrandr")),
    reason="needs Xvfb, xdotool and xrandr",
)


@pytest.mark.parametrize(
    ("first", "size", "status"),
    [(None, "700x1010", 0), (None, "500x700", 11), ("700x1010", "800x1060", 0)],
    ids=["still-holds-the-game", "cuts-the-game-off", "grows"],
)
def test_a_screen_resized_at_the_first_press_is_played_on_or_stopped_with_one_line(
    tmp_path, first, size, status
):
    from tests.test_display_loss import _levels
    from tests.test_live_safety import GAME_BOX, SCREEN, TITLE, PointerWatch, start_bot, start_game

    folder = _levels(tmp_path)
    with display.VirtualDisplay(*SCREEN):
        if first is not None:  # Xvfb grows back only up to the size it started with
            subprocess.run(["xrandr", "--fb", first], capture_output=True, check=False)
        game = start_game(folder, tmp_path)
        watch = PointerWatch()
        try:
            game_id = watch.top_level_named(TITLE)
            bot = start_bot("--count", "2")
            try:
                watch.wait(lambda seen: seen.presses or bot.poll() is not None)
                assert watch.presses, bot.communicate()
                resized = subprocess.run(["xrandr", "--fb", size], capture_output=True, text=True)
                resized_at = time.monotonic()
                # Xvfb resizes the screen though xrandr complains its one output no longer fits.
                shown = subprocess.run(["xdotool", "getdisplaygeometry"], capture_output=True, text=True)
                assert shown.stdout.split() == size.split("x"), resized.stderr
                out, err = bot.communicate(timeout=40)
            finally:
                if bot.poll() is None:
                    bot.kill()
            button_up = watch.button_up_now()
        finally:
            watch.stop()
            display.end_process(game)
    assert "Traceback" not in err, err
    assert bot.returncode == status, (out, err)
    assert button_up, "the mouse button was left held down"
    width, height = map(int, size.split("x"))
    left, top, box_width, box_height = GAME_BOX
    for press in watch.presses:
        assert press.window == game_id, f"a press off the game window: {press}"
        assert left <= press.x < left + box_width and top <= press.y < top + box_height, press
    if status == 0:
        assert "cleared 2 of 2" in out and not err.strip(), (out, err)
    else:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("flowbot: the screen changed size"), err
        assert re.match(r"cleared [01] of 2 .*screen changed size", out), out  # the summary first
        after = [press for press in watch.presses if press.at > resized_at]
        assert all(press.x < width and press.y < height for press in after), after  # none off the screen


@pytest.mark.parametrize(
    ("size", "region", "status"),
    [("600x600", (), 0), ("400x400", ("--region", "0,0,540,500"), 11)],
    ids=["still-holds-the-game", "cuts-the-game-off"],
)
def test_the_number_match_bot_on_a_screen_resized_at_its_first_click(tmp_path, size, region, status):
    import sys

    from tests.test_live_safety import PointerWatch
    from tests.test_numbermatch_live import start_game

    with display.VirtualDisplay(700, 800):
        game = start_game(tmp_path / "results.jsonl", "--seed", "3")
        watch = PointerWatch()
        try:
            bot = subprocess.Popen(
                [sys.executable, "-m", "flowbot", "auto-clear", "--numbermatch", "--count", "1", *region],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
            )  # fmt: skip
            try:
                watch.wait(lambda seen: seen.presses or bot.poll() is not None)
                assert watch.presses, bot.communicate()
                subprocess.run(["xrandr", "--fb", size], capture_output=True, check=False)
                resized_at = time.monotonic()
                out, err = bot.communicate(timeout=40)
            finally:
                if bot.poll() is None:
                    bot.kill()
            button_up = watch.button_up_now()
        finally:
            watch.stop()
            display.end_process(game)
    assert "Traceback" not in err, err
    assert bot.returncode == status, (out, err)
    assert button_up, "the mouse button was left held down"
    width, height = map(int, size.split("x"))
    after = [press for press in watch.presses if press.at > resized_at]
    assert all(press.x < width and press.y < height for press in after), after  # none off the screen
    if status == 0:
        assert out.startswith("cleared 1 of 1") and not err.strip(), (out, err)
    else:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("flowbot: the screen changed size"), err
        assert "screen changed size" in out, out  # the summary first


@pytest.mark.parametrize(
    ("size", "status", "words"),
    [("700x1010", 0, "profile saved"), ("500x700", 8, "automatic calibration failed")],
    ids=["still-holds-the-game", "cuts-the-game-off"],
)
def test_calibrate_on_a_resized_screen_listing_no_monitor_saves_or_says_why_in_one_line(
    tmp_path, size, status, words
):
    import json
    import sys

    from tests.test_display_loss import _levels
    from tests.test_live_safety import SCREEN, start_game

    with display.VirtualDisplay(*SCREEN):
        game = start_game(_levels(tmp_path), tmp_path)
        try:
            subprocess.run(["xrandr", "--fb", size], capture_output=True, check=False)
            calibrated = subprocess.run(
                [sys.executable, "-m", "flowbot", "calibrate", "--name", "probe"], capture_output=True,
                text=True, cwd=tmp_path, timeout=60, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        finally:
            display.end_process(game)
    said = calibrated.stdout if status == 0 else calibrated.stderr
    assert "Traceback" not in calibrated.stderr, calibrated.stderr
    assert calibrated.returncode == status, calibrated.stderr
    assert len([line for line in said.splitlines() if line.strip()]) == 1 and words in said, said
    if status == 0:
        left, top, width, height = json.loads((tmp_path / "calibration" / "probe.json").read_text())["region"]
        right, bottom = map(int, size.split("x"))
        assert left >= 0 and top >= 0 and left + width <= right and top + height <= bottom


def test_calibrate_asking_on_a_screen_shrunk_under_the_game_stops_with_one_line_and_status_11(tmp_path):
    # Calibrating by pointing: the screen shrinks between the two corners, from under the game.
    from flowbot.capture.board import find_board
    from flowbot.capture.screen import MssScreen
    from tests.test_display_loss import _asking, _levels
    from tests.test_live_safety import SCREEN, start_game

    with display.VirtualDisplay(*SCREEN):
        game = start_game(_levels(tmp_path), tmp_path)
        screen = MssScreen()
        try:
            board = find_board(screen.grab().pixels).geometry
        finally:
            screen.close()
        try:
            with _asking(tmp_path, "calibrate", "--name", "probe", "--manual") as (bot, answer):
                subprocess.run(["xdotool", "mousemove", str(round(board.xs[0])), str(round(board.ys[0]))])
                answer("BOTTOM-RIGHT")
                subprocess.run(["xrandr", "--fb", "500x700"], capture_output=True, check=False)
                subprocess.run(["xdotool", "mousemove", str(round(board.xs[-1])), str(round(board.ys[-1]))])
                answer("rows")
                answer("NEXT LEVEL", f"{board.rows}x{board.cols}")
                answer(None, "s")
                _, err = bot.communicate(timeout=30)
        finally:
            display.end_process(game)
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("flowbot: the screen changed size to 500x700"), err
    assert bot.returncode == 11, err
    assert not (tmp_path / "calibration").exists()
