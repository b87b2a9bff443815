"""Live benchmark: `flowbot auto-clear` with its defaults against every look of the bundled game.

Each look runs on a virtual screen (Xvfb) with real mss captures and real pyautogui drags: the game
plays a folder of generated levels, the bot is asked to clear --levels of them in a row with no
flag but --count, and the game's own --results file says how many it took as solved.

    .venv/bin/python scripts/bench_looks.py [--levels 10] [--look NAME ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EVERY_NEW_LOOK = (
    "--no-grid",
    "--theme",
    "light",
    "--glyphs",
    "--next-button",
    "text",
    "--win-banner",
    "--header",
)
# Each look: the game's flags and its window size. The first block are the looks of the first
# release, the second the looks of games flowbot was never fitted to (issue 11), the last all at once.
LOOKS: dict[str, tuple[tuple[str, ...], str]] = {
    "default": ((), "540x960"),
    "tiles": (("--tiles", "--palette", "legacy", "--dot-size", "0.3"), "540x960"),
    "pink-no-dialog-shift": (("--no-dialog", "--shift", "--line-color", "200,60,160"), "540x960"),
    "sample-per-frame": (("--sample-per-frame", "--palette", "muted"), "540x960"),
    "no-grid": (("--no-grid",), "540x960"),
    "light": (("--theme", "light"), "540x960"),
    "glyphs": (("--glyphs",), "540x960"),
    "text-button": (("--next-button", "text"), "540x960"),
    "win-banner": (("--win-banner",), "540x960"),
    "header": (("--header",), "540x960"),
    "small-board": (("--board-px", "200"), "1280x1000"),
    "all": (EVERY_NEW_LOOK, "540x960"),
    "all-small-board": ((*EVERY_NEW_LOOK, "--board-px", "220"), "1280x1000"),
}


def make_levels(folder: Path, count: int, seed: int) -> None:
    """`count` generated levels of sizes 5x5 to 9x9 in turn, as flowbot JSON files."""
    from flowbot.formats import write_puzzle_json
    from flowbot.generate.levels import make_level

    rng = random.Random(seed)
    for index in range(count):
        side = 5 + index % 5
        level = make_level(side, side, side - 1, rng)
        write_puzzle_json(level.puzzle, folder / f"{index + 1:03d}.json")


def run_look(name: str, levels: Path, count: int, work: Path) -> dict:
    """Start the game in one look, let auto-clear (defaults) play `count` levels, and count the game's
    verdicts. Returns the figures of the run."""
    flags, size = LOOKS[name]
    results = work / f"{name}.jsonl"
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--folder", str(levels), "--results", str(results),
         "--size", size, *flags],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        if game.stdout.readline().strip() != "game ready":
            return {"look": name, "error": game.stderr.read().strip()}
        time.sleep(0.3)
        started = time.monotonic()
        bot = subprocess.run(
            [sys.executable, "-m", "flowbot", "auto-clear", "--count", str(count), "--json",
             "--artifacts", str(work)],
            capture_output=True, text=True, timeout=60 + 30 * count, check=False, cwd=work,
        )  # fmt: skip
        seconds = time.monotonic() - started
    finally:
        game.terminate()
        game.wait(timeout=10)
    verdicts = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    lines = bot.stdout.strip().splitlines()
    summary = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    # The game reports a level when it is left: the last level cleared is still showing when the bot
    # stops, so it counts as solved when the bot verified it and every level left was solved.
    solved = sum(1 for verdict in verdicts if verdict["solved"])
    return {
        "look": name,
        "cleared_by_bot": summary.get("cleared", 0),
        "solved_by_game": solved,
        "left_by_game": len(verdicts),
        "seconds": round(seconds, 1),
        "exit": bot.returncode,
        "stopped": summary.get("stopped", bot.stderr.strip()[-300:]),
        "overhead_ms": summary.get("bot_overhead_ms_median"),
    }


def main() -> int:
    """Run the looks asked for and print a table (or JSON lines)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=10, help="levels in a row per look (default 10)")
    parser.add_argument("--look", action="append", choices=sorted(LOOKS), help="only these looks")
    parser.add_argument("--seed", type=int, default=7, help="seed of the generated levels")
    parser.add_argument("--json", action="store_true", help="one JSON line per look")
    parser.add_argument("--keep", metavar="DIR", help="keep the failure screenshots in DIR")
    args = parser.parse_args()
    from flowbot.display import VirtualDisplay

    names = args.look or list(LOOKS)
    rows = []
    with tempfile.TemporaryDirectory(prefix="flowbot-looks-") as folder, VirtualDisplay(1280, 1000):
        work = Path(folder)
        levels = work / "levels"
        levels.mkdir()
        # One more level than asked: the game shows level N+1 when the bot stops after N.
        make_levels(levels, args.levels + 1, args.seed)
        for name in names:
            row = run_look(name, levels, args.levels, Path(args.keep) if args.keep else work)
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"{name:22} cleared {row.get('cleared_by_bot', 0):>2}/{args.levels}  game solved "
                    f"{row.get('solved_by_game', 0):>2} of {row.get('left_by_game', 0):>2} left  "
                    f"{row.get('seconds', 0):6.1f} s  exit {row.get('exit')}  {row.get('stopped', '')[:90]}",
                    flush=True,
                )
    full = [row for row in rows if row.get("cleared_by_bot") == args.levels]
    seconds = [row["seconds"] / args.levels for row in rows if "seconds" in row]
    if not args.json:
        print(f"{len(full)} of {len(rows)} looks cleared {args.levels} in a row; "
              f"median {statistics.median(seconds) if seconds else 0:.2f} s per level")  # fmt: skip
    return 0 if len(full) == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
