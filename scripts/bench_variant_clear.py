"""Ten levels in a row of each sister game, cleared live by `flowbot auto-clear` with its defaults.

    .venv/bin/python scripts/bench_variant_clear.py                   # 10 levels of each, 7x7, seed 1
    .venv/bin/python scripts/bench_variant_clear.py --levels 5 --board 9x9 --seed 3 --variants hexes

Starts a virtual display (Xvfb) unless one is set, then for each variant runs
`flowbot game --variant V --board RxC --seed S --levels N --results FILE` and
`flowbot auto-clear --count N --json` against it. A level counts as cleared only when the game's own
results file says it was solved. Prints a table (cleared, seconds per level, bot overhead, the split of
a level's time) and writes the figures to bench-results/variant-clear.json.
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

WINDOW = (540, 960)
VARIANTS = ("hexes", "bridges", "warps")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=10, help="levels in a row per variant (default 10)")
    parser.add_argument("--board", default="7x7", help="board size RxC (default 7x7)")
    parser.add_argument("--seed", type=int, default=1, help="the levels' seed (default 1)")
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    return parser.parse_args(argv)


def run_variant(variant: str, args: argparse.Namespace, folder: Path) -> dict:
    """One variant: the game, the bot, and what the game's results say."""
    results = folder / f"{variant}.jsonl"
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--variant", variant, "--board", args.board,
         "--seed", str(args.seed), "--levels", str(args.levels + 1), "--results", str(results),
         "--size", f"{WINDOW[0]}x{WINDOW[1]}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        if game.stdout.readline().strip() != "game ready":
            raise SystemExit(f"the {variant} game did not start: {game.stderr.read()}")
        time.sleep(0.3)
    except BaseException:
        game.terminate()
        game.wait(timeout=10)
        raise
    bot, record, solved, seconds = bot_against_game(game, args.levels, folder, results)
    return {
        "variant": variant,
        "board": args.board,
        "levels": args.levels,
        "cleared_by_bot": record.get("cleared", 0),
        "solved_by_game": sum(solved),
        "in_a_row": next((index for index, ok in enumerate(solved) if not ok), len(solved)),
        "seconds_per_level": round(seconds / max(1, args.levels), 2),
        "bot_overhead_ms_median": record.get("bot_overhead_ms_median"),
        "timing_ms_median": record.get("timing_ms_median", {}),
        "stopped": record.get("stopped") or bot.stderr.strip()[-300:],
    }


def bot_against_game(game: subprocess.Popen, levels: int, folder: Path, results: Path):
    """Run `flowbot auto-clear --count LEVELS --json` on the started game, then stop the game: the
    bot's run, its JSON record, each level's `solved` from the game's results file, and its seconds."""
    try:
        started = time.perf_counter()
        bot = subprocess.run(
            [sys.executable, "-m", "flowbot", "auto-clear", "--count", str(levels), "--json"],
            capture_output=True, text=True, cwd=folder, timeout=60 * levels, check=False,
        )  # fmt: skip
        seconds = time.perf_counter() - started
    finally:
        game.terminate()
        game.wait(timeout=10)
    lines = bot.stdout.strip().splitlines()
    record = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    solved = (
        [json.loads(line)["solved"] for line in results.read_text().splitlines()] if results.exists() else []
    )
    return bot, record, solved, seconds


def main(argv: list[str] | None = None) -> int:
    """Run every variant asked for and print the table."""
    args = parse_args(argv)
    with contextlib.ExitStack() as stack:
        if not os.environ.get("DISPLAY"):
            from flowbot.display import VirtualDisplay

            stack.enter_context(VirtualDisplay(600, 1000))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="flowbot-bench-")))
        rows = [run_variant(variant, args, folder) for variant in args.variants]
    heading = ("variant", "board", "in a row", "solved", "s/level", "overhead ms")
    print("{:8} {:6} {:>9} {:>7} {:>8} {:>12}  split (ms)".format(*heading))
    for row in rows:
        split = ", ".join(f"{part} {ms:.0f}" for part, ms in row["timing_ms_median"].items())
        overhead = row["bot_overhead_ms_median"] or 0
        print(
            f"{row['variant']:8} {row['board']:6} {row['in_a_row']:>6}/{row['levels']:<2} "
            f"{row['solved_by_game']:>7} {row['seconds_per_level']:>8} {overhead:>12.0f}  {split}"
        )
        if row["in_a_row"] < row["levels"]:
            print(f"  stopped: {row['stopped']}")
    out = Path("bench-results")
    out.mkdir(exist_ok=True)
    (out / "variant-clear.json").write_text(json.dumps(rows, indent=2) + "\n")
    return 0 if all(row["in_a_row"] >= row["levels"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
