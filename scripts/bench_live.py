"""Levels per minute in the bundled game's Time Trial, played live by `flowbot auto-clear` with its defaults.

    .venv/bin/python scripts/bench_live.py                       # 60 s trials, 3 runs, all sizes and games
    .venv/bin/python scripts/bench_live.py --runs 1 --seconds 20 --sizes 5x5
    .venv/bin/python scripts/bench_live.py --screen 3840x2160 ...     # the game's window on a 4K screen

Starts a virtual display (Xvfb), then for each game (one that fills straight pointer jumps,
`--sample-per-frame --interpolate`, and one that does not, `--sample-per-frame`) and each board size
runs `flowbot game --time-trial SECONDS --board RxC` and `flowbot auto-clear --json` against it. Levels
are counted by the game's own `--results`. Each level's time is split into capture, read, solve, plan,
draw, verify (seeing that the game took it) and next (waiting for the next board), from auto-clear's
JSON. The demo (`flowbot demo --json`) is timed too: its drawing time per level and bot overhead.
Medians over `--runs`; a table is printed and the figures are written to bench-results/ as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WINDOW = (540, 960)
GAMES = {
    "fills jumps": ("--sample-per-frame", "--interpolate"),
    "no fill": ("--sample-per-frame",),
}
SPLIT = ("capture", "read", "solve", "plan", "draw", "verify", "next")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each trial (median taken; default 3)")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each trial (default 60)")
    parser.add_argument("--sizes", nargs="+", default=["5x5", "7x7", "9x9"], metavar="RxC")
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES), metavar="GAME",
                        help=f"which games: {', '.join(repr(name) for name in GAMES)}")  # fmt: skip
    parser.add_argument("--no-demo", action="store_true", help="leave out the demo's timing")
    parser.add_argument("--demo-runs", type=int, default=None, help="demo runs (default: --runs)")
    parser.add_argument("--seed", type=int, default=1, help="first trial seed (run k uses seed + k)")
    parser.add_argument(
        "--bot-args", default="", help="extra auto-clear options, e.g. '--move-delay 0.02' (default: none)"
    )
    parser.add_argument("--out", metavar="FILE", help="JSON file (default: bench-results/live-STAMP.json)")
    parser.add_argument(
        "--screen", metavar="WxH", default=f"{WINDOW[0] + 100}x{WINDOW[1] + 64}",
        help="the virtual screen's size, the game's window at its top-left (default: %(default)s)",
    )  # fmt: skip
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run every trial and the demo, print the table, write the JSON."""
    from flowbot.display import VirtualDisplay

    args = parse_args(argv)
    figures: dict = {"seconds": args.seconds, "runs": args.runs, "bot_args": args.bot_args, "trials": []}
    width, height = (int(side) for side in args.screen.lower().split("x"))
    figures["screen"] = args.screen
    with VirtualDisplay(width, height):
        for game in args.games:
            for size in args.sizes:
                runs = [
                    trial_run(game, size, args.seconds, args.seed + run, args.bot_args.split())
                    for run in range(args.runs)
                ]
                figures["trials"].append(summarise(game, size, args.seconds, runs))
                print(row(figures["trials"][-1]), file=sys.stderr, flush=True)
        if not args.no_demo:
            demos = [demo_run() for _ in range(args.demo_runs or args.runs)]
            figures["demo"] = {
                "draw_s_per_level_median": median(run["draw_s_median"] for run in demos),
                "draw_s_total_median": median(run["draw_s_total"] for run in demos),
                "bot_overhead_ms_median": median(run["bot_overhead_ms_median"] for run in demos),
                "solved_by_game": [run["solved_by_game"] for run in demos],
                "runs": demos,
            }
    print(table(figures))
    out = Path(args.out or f"bench-results/live-{time.strftime('%Y%m%d-%H%M%S')}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"figures written to {out}")
    return 0


def trial_run(game: str, size: str, seconds: float, seed: int, bot_args: list[str]) -> dict:
    """One time trial: the game started, auto-clear played against it until the end screen, the game's
    own count of levels solved."""
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.jsonl"
        command = [sys.executable, "-m", "flowbot", "game", "--time-trial", f"{seconds:g}", "--board", size,
                   "--seed", str(seed), "--results", str(results), "--size", f"{WINDOW[0]}x{WINDOW[1]}",
                   *GAMES[game]]  # fmt: skip
        process = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            if process.stdout.readline().strip() != "game ready":
                raise SystemExit(f"the game did not start: {process.stderr.read()[-500:]}")
            time.sleep(0.3)
            started = time.perf_counter()
            bot = subprocess.run(
                [sys.executable, "-m", "flowbot", "auto-clear", "--json", "--artifacts", tmp, *bot_args],
                capture_output=True, text=True, timeout=seconds + 60, check=False,
            )  # fmt: skip
            elapsed = time.perf_counter() - started
        finally:
            process.terminate()
            process.wait(timeout=10)
        records = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    lines = bot.stdout.strip().splitlines()
    try:
        report = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        report = {"error": (bot.stdout + bot.stderr)[-800:]}
    solved = sum(1 for record in records if record.get("solved") is True)
    return {
        "seed": seed,
        "solved_by_game": solved,
        "levels_per_minute": solved * 60 / seconds,
        "bot_exit": bot.returncode,
        "bot_seconds": round(elapsed, 2),
        "report": report,
    }


def summarise(game: str, size: str, seconds: float, runs: list[dict]) -> dict:
    """Medians of a trial's runs."""
    timings = [run["report"].get("timing_ms_median", {}) for run in runs]
    return {
        "game": game,
        "size": size,
        "solved_median": median(run["solved_by_game"] for run in runs),
        "levels_per_minute_median": median(run["levels_per_minute"] for run in runs),
        "bot_overhead_ms_median": median(run["report"].get("bot_overhead_ms_median", 0) for run in runs),
        "split_ms_median": {part: median(timing.get(part, 0) for timing in timings) for part in SPLIT},
        "settings": [run["report"].get("pointer", "") for run in runs],
        "exits": [run["bot_exit"] for run in runs],
        "runs": runs,
    }


def demo_run() -> dict:
    """`flowbot demo --json`: its drawing time per level (from the summary lines) and its figures."""
    completed = subprocess.run(
        [sys.executable, "-m", "flowbot", "demo", "--json"],
        capture_output=True, text=True, timeout=600, check=False, cwd=tempfile.gettempdir(),
    )  # fmt: skip
    draws = [float(value) for value in re.findall(r"draw (\d+\.\d+) s", completed.stdout)]
    try:
        figures = json.loads(completed.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        figures = {"error": (completed.stdout + completed.stderr)[-800:]}
    return {
        "draw_s_median": figures.get("draw_s_median", median(draws)),  # older demos: from the summary
        "draw_s_total": figures.get("draw_s_total", round(sum(draws), 2)),
        "draws": draws,
        "bot_overhead_ms_median": figures.get("bot_overhead_ms_median", 0),
        "solved_by_game": figures.get("solved_by_game", 0),
        "exit": completed.returncode,
    }


def median(values) -> float:
    """The median, 0 for none, rounded for the table."""
    values = list(values)
    return round(statistics.median(values), 3) if values else 0.0


def row(trial: dict) -> str:
    """One line of the table."""
    split = trial["split_ms_median"]
    parts = " ".join(f"{split[part]:6.0f}" for part in SPLIT)
    return (
        f"{trial['game']:<12} {trial['size']:>5} {trial['solved_median']:7.0f} "
        f"{trial['levels_per_minute_median']:7.1f} {trial['bot_overhead_ms_median']:8.1f} {parts}"
    )


def table(figures: dict) -> str:
    """The figures as a table a person reads."""
    head = f"{'game':<12} {'board':>5} {'solved':>7} {'per min':>7} {'overhead':>8} " + " ".join(
        f"{part:>6}" for part in SPLIT
    )
    lines = [
        f"bundled time trial, {figures['seconds']:g} s, medians of {figures['runs']} run(s); "
        "overhead and split in ms per level",
        head,
        *(row(trial) for trial in figures["trials"]),
    ]
    demo = figures.get("demo")
    if demo:
        lines.append(
            f"demo: drawing {demo['draw_s_per_level_median']:.3f} s per level (median), "
            f"{demo['draw_s_total_median']:.2f} s in all; "
            f"bot overhead {demo['bot_overhead_ms_median']:.1f} ms (median); "
            f"solved by the game {demo['solved_by_game']}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
