"""How much the board guard costs: its look before each press, and its window look on each move.

Starts Xvfb and the bundled game, reads the board once, then times BoardGuard.check (a capture of
the dots and the window check) and BoardGuard.check_window (the window check alone).
Run: PYTHONPATH=. python scripts/bench_guard.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from flowbot.act.guard import BoardGuard
from flowbot.capture.read import read_puzzle
from flowbot.capture.screen import MssScreen, X11Windows
from flowbot.display import VirtualDisplay, end_process
from flowbot.formats import write_puzzle_json
from flowbot.generate.levels import make_level


def timed(action, repeat: int) -> list[float]:
    """Milliseconds per call."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    """Print the median and 95th percentile of each look."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--size", type=int, default=9, help="board rows and columns")
    args = parser.parse_args()
    with VirtualDisplay(800, 1060), tempfile.TemporaryDirectory() as folder:
        write_puzzle_json(
            make_level(args.size, args.size, args.size, random.Random(1)).puzzle, Path(folder, "1.json")
        )
        env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
        env["SDL_VIDEO_WINDOW_POS"] = "100,40"
        game = subprocess.Popen(
            [sys.executable, "-m", "flowbot", "game", "--folder", folder, "--size", "540x960"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        game.stdout.readline()
        time.sleep(0.5)
        screen, windows = MssScreen(), X11Windows.open()
        try:
            frame = screen.grab()
            reading = read_puzzle(frame.pixels)
            dots = [cell for pair in reading.puzzle.endpoints for cell in pair]
            guard = BoardGuard.arm(screen, frame, reading.geometry, dots, windows)
            for name, action in (
                ("check (before each press)", guard.check),
                ("check_window (each move)", guard.check_window),
            ):
                times = sorted(timed(action, args.repeat))
                p95 = times[int(len(times) * 0.95) - 1]
                print(f"{name}: median {statistics.median(times):.2f} ms, p95 {p95:.2f} ms, {len(dots)} dots")
        finally:
            screen.close()
            if windows is not None:
                windows.close()
            end_process(game)


if __name__ == "__main__":
    main()
