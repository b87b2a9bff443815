"""Odd things given where a file or a terminal is expected: one line naming it and a documented
status, never a traceback (`flowbot` run as a program)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

# The bundled game with no window anyone sees: what its checks before and after playing need.
GAME_ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def run(*args: str, **popen) -> subprocess.CompletedProcess:
    """`python -m flowbot ARGS` to its end, output captured as text."""
    popen.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run(
        [sys.executable, "-m", "flowbot", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        **popen,
    )


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_the_game_refuses_a_folder_that_is_a_device_or_a_fifo(kind, tmp_path):
    folder = "/dev/zero"
    if kind == "fifo":
        folder = str(tmp_path / "levels")
        os.mkfifo(folder)
    done = run("game", "--folder", folder, env=GAME_ENV)
    assert done.returncode == 2
    assert done.stderr == f"flowbot game: {folder}: not a folder or a regular file\n"


def test_the_game_stops_with_73_when_its_results_cannot_be_written():
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--results", "/dev/full"],
        env=GAME_ENV, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert game.stdout.readline() == "game ready\n"
    game.send_signal(signal.SIGTERM)  # the game closes, and writes the result of the level it showed
    _, err = game.communicate(timeout=60)
    assert game.returncode == 73
    assert err == "flowbot game: /dev/full: cannot write results: No space left on device\n"


def test_play_with_stdin_closed_says_it_needs_a_terminal(tmp_path):
    puzzle = tmp_path / "good.txt"
    puzzle.write_text("AB\nAB\n")
    done = run("play", str(puzzle), stdin=None, preexec_fn=lambda: os.close(0))
    assert done.returncode == 64
    assert done.stderr == "flowbot: flowbot play needs an interactive terminal (stdin and stdout)\n"
