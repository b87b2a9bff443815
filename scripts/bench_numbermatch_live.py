"""Seconds per Number Match board cleared live: the bundled game on a virtual display (Xvfb), played by
`flowbot auto-clear --numbermatch`'s loop with real mss captures and pyautogui clicks, each board
confirmed by the game's own results file.

    .venv/bin/python scripts/bench_numbermatch_live.py [--boards 10] [--seed 5] [--start 27] [--size 540x720]

A window shorter than the default makes boards outgrow it sooner (more scrolling).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=10, help="boards to clear (default 10)")
    parser.add_argument("--seed", type=int, default=5, help="the game's seed (default 5)")
    parser.add_argument("--start", type=int, default=27, choices=(27, 35), help="digits on a new board")
    parser.add_argument("--size", default="540x720", help="the game window, WxH (default 540x720)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    return parser.parse_args(argv)


def start_game(results: Path, seed: int, start: int, size: str) -> subprocess.Popen:
    """The bundled Number Match game at the screen's top-left; returns once it is drawn."""
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--numbermatch", "--seed", str(seed), "--start", str(start),
         "--results", str(results), "--size", size],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    line = game.stdout.readline().strip() if game.stdout else ""
    if line != "game ready":
        raise SystemExit(f"the game did not start: {game.stderr.read() if game.stderr else ''}")
    time.sleep(0.3)
    return game


def play(boards: int, seed: int, start: int, size: str, results: Path):
    """Run the loop against a fresh game; returns (report, the game's result records)."""
    from flowbot.act.pointer import PyAutoGuiPointer
    from flowbot.capture.screen import MssScreen, Region, X11Windows
    from flowbot.modes.numbermatch_clear import NumberMatchClear

    width, height = (int(part) for part in size.split("x"))
    game = start_game(results, seed, start, size)
    screen = MssScreen()
    windows = X11Windows.open()
    try:
        region = Region(0, 0, width, height)
        loop = NumberMatchClear(screen, PyAutoGuiPointer(region), region, boards, windows=windows)
        report = loop.run()
    finally:
        screen.close()
        if windows is not None:
            windows.close()
        game.terminate()
        game.wait(timeout=10)
    records = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    return report, records


def main(argv: list[str] | None = None) -> int:
    """Start a virtual display, clear the boards, print the figures."""
    args = parse_args(argv)
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(800, 1100), tempfile.TemporaryDirectory() as folder:
        report, records = play(args.boards, args.seed, args.start, args.size, Path(folder) / "results.jsonl")
    confirmed = sum(record["cleared"] for record in records)
    times = [board.seconds for board in report.boards if board.cleared]
    summary = {
        "boards": args.boards,
        "cleared_by_bot": report.cleared,
        "confirmed_by_game": confirmed,
        "seconds_per_board_median": round(statistics.median(times), 2) if times else None,
        "seconds_per_board_max": round(max(times), 2) if times else None,
        "moves_median": statistics.median(board.moves for board in report.boards) if report.boards else 0,
        "boards_with_adds": sum(record["adds_used"] > 0 for record in records if record["cleared"]),
        "boards_scrolled": sum(board.scrolled for board in report.boards),
        "rereads": sum(board.rereads for board in report.boards),
        "stopped": report.stopped,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 0 if confirmed >= args.boards else 1


if __name__ == "__main__":
    raise SystemExit(main())
