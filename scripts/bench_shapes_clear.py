"""Ten levels in a row of each kind of the bundled game's Shapes boards, cleared live by `flowbot
auto-clear` with its defaults.

    .venv/bin/python scripts/bench_shapes_clear.py                    # 10 levels of each kind, seed 1
    .venv/bin/python scripts/bench_shapes_clear.py --levels 3 --shapes ring cube --seed 4

Starts a virtual display (Xvfb) unless one is set, then for each kind runs
`flowbot game --variant shapes --shape KIND --seed S --levels N+1 --results FILE` and
`flowbot auto-clear --count N --json` against it. A level counts only when the game's own results file
says it was solved. Prints per kind: levels in a row and solved by the game, cleared as the bot claims,
the bot's exit status and seconds; writes the figures to bench-results/shapes-clear.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_variant_clear import bot_against_game

WINDOW = (540, 960)
SHAPES = ("cube", "stack", "ring", "eight", "star", "triangle", "hexhex")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=10, help="levels in a row per kind (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="the levels' seed (default 1)")
    parser.add_argument("--shapes", nargs="+", choices=SHAPES, default=list(SHAPES))
    return parser.parse_args(argv)


def start_game(shape: str, seed: int, levels: int, results: Path) -> subprocess.Popen:
    """The bundled game showing Shapes levels of one kind at the top-left of the display."""
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--variant", "shapes", "--shape", shape,
         "--seed", str(seed), "--levels", str(levels), "--results", str(results),
         "--size", f"{WINDOW[0]}x{WINDOW[1]}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    if game.stdout.readline().strip() != "game ready":
        game.terminate()
        raise SystemExit(f"the {shape} game did not start: {game.stderr.read()}")
    time.sleep(0.3)
    return game


def run_shape(shape: str, args: argparse.Namespace, folder: Path) -> dict:
    """One kind of board: the game, the bot, and what the game's results say."""
    results = folder / f"{shape}.jsonl"
    # One level more than asked: the game writes a level's result when it moves past it.
    game = start_game(shape, args.seed, args.levels + 1, results)
    bot, record, solved, seconds = bot_against_game(game, args.levels, folder, results)
    return {
        "shape": shape,
        "levels": args.levels,
        "seed": args.seed,
        "solved_by_game": sum(solved),
        "in_a_row": next((index for index, ok in enumerate(solved) if not ok), len(solved)),
        "claimed_by_bot": record.get("cleared", 0),
        "exit": bot.returncode,
        "seconds": round(seconds, 1),
        "seconds_per_level": round(seconds / max(1, args.levels), 2),
        "timing_ms_median": record.get("timing_ms_median", {}),
        "stopped": record.get("stopped") or bot.stderr.strip()[-300:],
    }


def main(argv: list[str] | None = None) -> int:
    """Run every kind asked for and print the table."""
    args = parse_args(argv)
    load = os.getloadavg()[0]
    with contextlib.ExitStack() as stack:
        if not os.environ.get("DISPLAY"):
            from flowbot.display import VirtualDisplay

            stack.enter_context(VirtualDisplay(600, 1000))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="flowbot-bench-")))
        rows = [run_shape(shape, args, folder) for shape in args.shapes]
    print(f"seed {args.seed}, load {load:.2f} at start, {time.strftime('%Y-%m-%d')}")
    heading = ("shape", "in a row", "by game", "claimed", "exit", "seconds", "s/level")
    print("{:9} {:>9} {:>8} {:>8} {:>5} {:>8} {:>8}  split (ms)".format(*heading))
    for row in rows:
        split = ", ".join(f"{part} {ms:.0f}" for part, ms in row["timing_ms_median"].items())
        print(
            f"{row['shape']:9} {row['in_a_row']:>6}/{row['levels']:<2} {row['solved_by_game']:>8} "
            f"{row['claimed_by_bot']:>8} {row['exit']:>5} {row['seconds']:>8} "
            f"{row['seconds_per_level']:>8}  {split}"
        )
        if row["in_a_row"] < row["levels"]:
            print(f"  stopped: {row['stopped']}")
    out = Path("bench-results")
    out.mkdir(exist_ok=True)
    (out / "shapes-clear.json").write_text(json.dumps({"load": load, "rows": rows}, indent=2) + "\n")
    return 0 if all(row["in_a_row"] >= row["levels"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
