"""SIGINT, SIGTERM and SIGHUP end every command with 130, 143 or 129 and what it started cleaned up:
the live commands and the demo (their --json line says so), the worker processes of `generate
--hardest` (which also die with a parent killed outright), and the temp file of a write under way."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from flowbot.formats import TEMP_SUFFIX

STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}


def start(*args: str, env: dict | None = None) -> subprocess.Popen:
    """`python -m flowbot ARGS` started, its stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "flowbot", *args], env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def until(ready, timeout: float = 30.0, what: str = "the condition"):
    """Poll `ready()` until it gives something true; that value (fails the test after `timeout` s)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = ready()
        if value:
            return value
        time.sleep(0.02)
    pytest.fail(f"{what} did not come within {timeout} s")


def children(pid: int) -> list[int]:
    """The live child processes of `pid` (Linux)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):  # the task ended meanwhile
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def gone(pid: int) -> bool:
    """True when the process has ended (a zombie no one has reaped yet has ended too)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the workers' parent-death signal is Linux's"
)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=lambda s: s.name)
def test_hardest_s_workers_end_with_their_parent_however_it_ends(signum):
    process = start("generate", "--size", "8x8", "--hardest", "--iterations", "100000", "--workers", "2")
    workers = until(lambda: len(children(process.pid)) >= 2 and children(process.pid), what="two workers")
    try:
        process.send_signal(signum)
        status = process.wait(timeout=30)
        until(lambda: all(gone(worker) for worker in workers), timeout=10, what="the workers' end")
    finally:
        for worker in workers:  # a failing run must not leave them running either
            if not gone(worker):
                os.kill(worker, signal.SIGKILL)
    if signum != signal.SIGKILL:
        assert status == STATUS[signum]
        assert process.stderr.read().splitlines()[-1] == f"flowbot: interrupted by {signum.name}"


# Runs `flowbot convert` with a stop signal sent to itself while the file is half written: between
# the temp file's data and its sync, where a killed write leaves the temp file behind.
_CONVERT_STOPPED_MID_WRITE = """
import os, signal, sys

real_fsync = os.fsync

def fsync(descriptor):
    os.kill(os.getpid(), signal.SIG{name})
    real_fsync(descriptor)

os.fsync = fsync
from flowbot.cli import main

sys.exit(main(["convert", sys.argv[1], "--out", sys.argv[2]]))
"""


@pytest.mark.parametrize("name", ["TERM", "HUP"])
def test_a_stop_signal_mid_write_leaves_no_temp_file(name, tmp_path):
    puzzle = tmp_path / "good.txt"
    puzzle.write_text("AB\nAB\n")
    out = tmp_path / "out"
    script = textwrap.dedent(_CONVERT_STOPPED_MID_WRITE).replace("{name}", name)
    done = subprocess.run(
        [sys.executable, "-c", script, str(puzzle), str(out)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == STATUS[getattr(signal, f"SIG{name}")], done.stderr
    assert done.stderr == f"flowbot: interrupted by SIG{name}\n"
    assert list(out.iterdir()) == []  # neither the file nor its temp file
    assert not any(path.name.endswith(TEMP_SUFFIX) for path in tmp_path.rglob("*"))


def _live(*args: str, signum: int) -> tuple[int, str, str]:
    """Start a live command (-v) on a virtual screen with no game, signal it once it says it is looking
    at the screen, and return its status, stdout and stderr. On a loaded machine the command may end
    on its own (no board there) before the signal is sent: such a run proves nothing and is made again."""
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(640, 480):
        for _ in range(5):
            process = start("-v", *args)
            first = process.stderr.readline()  # its first log line: the screen is being looked at
            process.send_signal(signum)
            out, err = process.communicate(timeout=60)
            ended_first = [line for line in err.splitlines() if line.startswith("flowbot: ")][:1]
            if not ended_first or ended_first[0].startswith("flowbot: interrupted"):
                return process.returncode, out, first + err
    pytest.fail(f"{args[0]} ended on its own before each signal came")


@pytest.mark.parametrize(
    ("args", "signum"),
    [
        (("auto-clear", "--json"), signal.SIGTERM),
        (("auto-clear", "--numbermatch", "--json"), signal.SIGHUP),
        (("calibrate", "--name", "stopped"), signal.SIGTERM),
        (("scrape", "--pack", "stopped"), signal.SIGHUP),
    ],
    ids=["auto-clear", "numbermatch", "calibrate", "scrape"],
)
def test_live_commands_exit_128_plus_the_signal(args, signum, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where scrape would make its pack
    status, out, err = _live(*args, signum=signum)
    assert status == STATUS[signum], err
    assert "Traceback" not in err
    if signum == signal.SIGINT:  # "(Ctrl-C)" when the bot's loop had started, as its summary says
        assert err.splitlines()[-1] in ("flowbot: interrupted", "flowbot: interrupted (Ctrl-C)")
    else:
        assert err.splitlines()[-1] == f"flowbot: interrupted by {signum.name}"
    if "--json" in args:
        record = json.loads(out)
        assert record["stopped"] == f"interrupted by {signum.name}"
        assert record["interrupted"] is True  # before the bot's loop began as well as within it


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_an_interrupted_demo_is_no_pass(signum, tmp_path):
    presses = tmp_path / "presses.jsonl"
    env = {"FLOWBOT_GAME_PRESS_LOG": str(presses)}
    env_without_display = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    process = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "demo", "--json", "--record", str(tmp_path / "demo.gif")],
        env={**env_without_display, **env}, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # Ready when the game has taken the bot's first press: the bot's loop is playing.
    until(lambda: presses.exists() and '"press"' in presses.read_text(), what="the bot's first press")
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == STATUS[signum], err
    record = json.loads(out)
    assert record["interrupted"] is True
    assert record["stopped"].startswith("interrupted")
    assert record["levels"] == 10  # what was asked (the demo pack), not what was played
    assert err.splitlines()[-1].startswith("flowbot: interrupted")


def test_a_stop_that_comes_just_as_the_temp_file_is_opened_removes_it(tmp_path, monkeypatch):
    from flowbot import formats
    from flowbot.errors import Stopped

    real_open = os.open

    def open_then_stop(path, flags, mode=0o777):
        descriptor = real_open(path, flags, mode)
        os.close(descriptor)
        raise Stopped(signal.SIGTERM, "SIGTERM")  # as the handler would, before the next line runs

    monkeypatch.setattr(formats.os, "open", open_then_stop)
    with pytest.raises(Stopped):
        formats.atomic_write_bytes(tmp_path / "level.json", b"{}")
    assert list(tmp_path.iterdir()) == []


class _StopWhileImporting:
    """A finder that stops the program (SIGTERM, as the handler raises it) as `name` is imported."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, fullname, path=None, target=None):
        from flowbot.errors import Stopped

        if fullname == self.name:
            raise Stopped(signal.SIGTERM, "SIGTERM")
        return None


def test_a_stop_while_the_demo_is_still_loading_still_gives_its_json_line(tmp_path, monkeypatch, capsys):
    from flowbot.cli import main

    monkeypatch.delitem(sys.modules, "flowbot.modes.demo", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_StopWhileImporting("flowbot.modes.demo"), *sys.meta_path])
    status = main(["demo", "--json", "--record", str(tmp_path / "demo.gif")])
    out, err = capsys.readouterr()
    assert status == 143, err
    record = json.loads(out)
    assert record["interrupted"] is True and record["stopped"] == "interrupted by SIGTERM"
    assert record["levels"] == 10  # the demo pack, as a stop mid-run says
    assert err == "flowbot: interrupted by SIGTERM\n"


def test_a_stop_before_the_demo_s_recording_began_is_a_stop_not_a_crash(monkeypatch):
    # The stop (or any error) comes while the bot's pointer is being opened, before the recorder's
    # thread was started: ending the recording must not hide it behind an error of its own.
    from flowbot.act import pointer
    from flowbot.capture import monitors, screen
    from flowbot.capture.screen import Region
    from flowbot.errors import Stopped
    from flowbot.modes import demo

    class Screen:
        bounds = Region(0, 0, 640, 1024)

        def close(self) -> None:
            pass

    def stopped(*args, **kwargs):
        raise Stopped(signal.SIGTERM, "SIGTERM")

    monkeypatch.setattr(screen, "MssScreen", Screen)
    monkeypatch.setattr(monitors, "look_at_the_game", lambda *args: None)
    monkeypatch.setattr(pointer, "open_pointer", stopped)
    with pytest.raises(Stopped):
        demo._play(None, sys.stderr, recording=True, headless=True)
