"""One bot per display: a second bot refuses, naming the first; a killed holder blocks nobody."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from flowbot.lock import BotRunningError, Holder, bot_lock, lock_path, read_holder, screen_key

HOLD = """
import sys, time
from pathlib import Path
from flowbot.lock import bot_lock
folder = None if sys.argv[2] == "-" else Path(sys.argv[2])
with bot_lock(sys.argv[1], command="flowbot auto-clear --count 5", folder=folder):
    print("held", flush=True)
    time.sleep(60)
"""


def holder(display: str, folder: Path | None) -> subprocess.Popen:
    """Another process holding the display's lock; returns once it holds it."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD, display, str(folder) if folder else "-"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout.readline().strip() == "held", process.stderr.read()
    return process


def fake_display() -> str:
    """A display name no other test or bot uses (no X server needed: the lock comes first)."""
    return f"flowbot-test-{secrets.token_hex(4)}:0"


@pytest.mark.parametrize(
    ("display", "key"),
    [(":0", ":0"), (":0.0", ":0"), ("unix:3.1", ":3"), ("localhost:10.0", "localhost:10"), (":215", ":215")],
)
def test_a_display_is_keyed_without_its_screen_number(display, key):
    assert screen_key(display) == key


def test_a_second_process_refuses_naming_the_first(tmp_path):
    first = holder(":215", tmp_path)
    try:
        with pytest.raises(BotRunningError) as refused, bot_lock(":215.0", folder=tmp_path):
            pytest.fail("the lock was taken twice")
    finally:
        first.kill()
        first.wait()
    message = str(refused.value)
    assert f"pid {first.pid}" in message
    assert "flowbot auto-clear --count 5" in message
    assert "display :215" in message
    assert refused.value.exit_code == 9


def test_a_killed_holder_does_not_block_the_next(tmp_path):
    first = holder(":216", tmp_path)
    first.send_signal(signal.SIGKILL)  # no clean-up runs: only the kernel drops the lock
    first.wait()
    assert read_holder(lock_path(":216", tmp_path)).pid == first.pid  # the dead one's name is still there
    with bot_lock(":216", folder=tmp_path, command="next bot"):
        assert read_holder(lock_path(":216", tmp_path)).pid == os.getpid()


def test_the_lock_is_released_on_an_error_and_other_displays_are_free(tmp_path):
    with pytest.raises(RuntimeError), bot_lock(":217", folder=tmp_path):
        with bot_lock(":218", folder=tmp_path):  # another display: its own lock
            pass
        raise RuntimeError("the run failed")
    with bot_lock(":217", folder=tmp_path, command="again"):
        assert read_holder(lock_path(":217", tmp_path)) == Holder(os.getpid(), "again")
    assert lock_path(":217", tmp_path).read_text() == ""  # emptied on release: it names nobody


@pytest.mark.parametrize(
    "command", [["auto-clear", "--count", "3"], ["scrape", "--count", "1", "--out", "OUT"]]
)
def test_a_second_bot_on_the_same_display_exits_9_naming_the_running_one(tmp_path, command):
    display = fake_display()
    first = holder(display, None)
    try:
        env = dict(os.environ, DISPLAY=display)
        args = [part.replace("OUT", str(tmp_path / "pack")) for part in command]
        second = subprocess.run(
            [sys.executable, "-m", "flowbot", *args],
            env=env, capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
        )  # fmt: skip
    finally:
        first.kill()
        first.wait()
    assert second.returncode == 9, second.stdout + second.stderr
    assert f"another bot is already playing on display {display}: pid {first.pid}" in second.stderr
    assert "(flowbot auto-clear --count 5)" in second.stderr


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
def test_two_bots_started_together_on_one_game_one_refuses_and_none_claims_more_than_the_game_took(tmp_path):
    from flowbot.display import VirtualDisplay
    from tests.test_game_window import Game

    with VirtualDisplay(700, 1000) as screen:
        game = Game(screen.name, tmp_path / "results.jsonl", "--pack", "5x5")
        bots: list[subprocess.Popen] = []
        try:
            assert game.ready() == "game ready"
            command = [sys.executable, "-m", "flowbot", "auto-clear", "--count", "1", "--json"]
            command += ["--artifacts", str(tmp_path)]
            bots += [
                subprocess.Popen(
                    command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
                )
                for _ in range(2)
            ]
            outcomes = [(*bot.communicate(timeout=180), bot.returncode) for bot in bots]
            outcomes = [(code, out, err) for out, err, code in outcomes]
            game.process.send_signal(signal.SIGINT)
            assert game.finish()[0] == 0
        finally:
            for bot in bots:
                if bot.poll() is None:
                    bot.kill()
                    bot.communicate()
            game.kill()
    codes = sorted(code for code, _, _ in outcomes)
    assert codes[1] == 9, outcomes  # exactly one refused ...
    assert codes[0] != 9, outcomes
    [(_, _, refusal)] = [outcome for outcome in outcomes if outcome[0] == 9]
    assert "another bot is already playing on display" in refusal
    [(_, out, _)] = [outcome for outcome in outcomes if outcome[0] != 9]
    claimed = json.loads(out.strip().splitlines()[-1])["cleared"]
    solved = sum(record["solved"] for record in game.records())
    assert claimed <= solved  # ... and the other claims nothing the game did not take
