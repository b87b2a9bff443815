"""False wins under the bundled game's fault modes: levels the bot claims beyond what the game took.

    .venv/bin/python scripts/bench_faults.py                  # every fault and two bots, 1 run each
    .venv/bin/python scripts/bench_faults.py --runs 3 --faults lossy:0.2 popup-window

Starts a virtual display (Xvfb), then for each fault runs `flowbot game --pack 6x6 --fault F
--seed S --results FILE` and `flowbot auto-clear --count 5 --json` against it. The game's results
file is the judge: per fault it reports the levels the game says solved, the levels the bot claims
(`cleared`), false wins (claimed beyond solved), and presses of the skip arrows (levels the game
says a skip arrow left). "two bots" starts two auto-clears at once on one plain game: one must
refuse (exit 9), and neither may claim a level the game did not take. Totals over `--runs` (run k
seeds the faults' dice with seed + k); a table is printed and the figures are written to
bench-results/ as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WINDOW = (540, 960)
PACK = "6x6"
FAULTS = (
    "lossy:0.05", "lossy:0.2", "last-step:0.3", "popup-window", "skip-arrows", "dialog-closes",
    "lost-release:0.3", "next-in-place", "no-sign",
)  # fmt: skip
TWO_BOTS = "two bots"
REFUSED = 9  # the exit code of a bot that finds another one playing on its display
BOT_TIMEOUT = 900.0  # seconds a bot may take for its levels before the run counts it as hung


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each case (default 1)")
    parser.add_argument("--count", type=int, default=5, help="levels each bot is asked for (default 5)")
    parser.add_argument("--faults", nargs="+", default=list(FAULTS), metavar="FAULT",
                        help=f"faults to play (default: {' '.join(FAULTS)})")  # fmt: skip
    parser.add_argument("--no-two-bots", action="store_true", help="leave out the two-bots case")
    parser.add_argument("--seed", type=int, default=1, help="first run's dice (run k uses seed + k)")
    parser.add_argument("--out", metavar="FILE", help="JSON file (default: bench-results/faults-STAMP.json)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run every case, print the table, write the JSON."""
    from flowbot.display import VirtualDisplay

    args = parse_args(argv)
    cases = [*args.faults, *([] if args.no_two_bots else [TWO_BOTS])]
    figures: dict = {"pack": PACK, "count": args.count, "runs": args.runs, "load": _load(), "cases": []}
    with VirtualDisplay(WINDOW[0] + 100, WINDOW[1] + 64):
        for case in cases:
            runs = []
            for run in range(args.runs):
                seed = args.seed + run
                runs.append(
                    two_bots(args.count, seed) if case == TWO_BOTS else fault_run(case, args.count, seed)
                )
                print(f"{case:<14} run {run + 1}: {_brief(runs[-1])}", file=sys.stderr, flush=True)
            figures["cases"].append(summarise(case, runs))
    figures["load_after"] = _load()
    print(table(figures))
    out = Path(args.out or f"bench-results/faults-{time.strftime('%Y%m%d-%H%M%S')}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"figures written to {out}")
    return 0


def fault_run(fault: str, count: int, seed: int) -> dict:
    """One game with a fault and one bot against it; the game's own count of what was solved."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        Game(Path(tmp), ["--fault", fault, "--seed", str(seed)]) as game,
    ):
        started = time.perf_counter()
        bot = subprocess.Popen(_bot(count, tmp), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out, err = bot.communicate(timeout=BOT_TIMEOUT)
        except subprocess.TimeoutExpired:  # a bot still playing counts as hung, and the run goes on
            bot.kill()
            out, err = bot.communicate()
            err += f"\nhung: still playing after {BOT_TIMEOUT:.0f} s"
        seconds = time.perf_counter() - started
        game.stop()
        records = game.records()
    return _judged(records, [_outcome(bot.returncode, out, err, seconds)], seed)


def two_bots(count: int, seed: int) -> dict:
    """Two bots started at once on one plain game: one must refuse; neither may claim what the game
    did not take."""
    with tempfile.TemporaryDirectory() as tmp, Game(Path(tmp), []) as game:
        started = time.perf_counter()
        bots = [
            subprocess.Popen(_bot(count, tmp), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        outcomes = []
        for bot in bots:
            try:
                out, err = bot.communicate(timeout=BOT_TIMEOUT)
            except subprocess.TimeoutExpired:
                bot.kill()
                out, err = bot.communicate()
            outcomes.append(_outcome(bot.returncode, out, err, time.perf_counter() - started))
        game.stop()
        records = game.records()
    return _judged(records, outcomes, seed)


class Game:
    """`flowbot game --pack 6x6 --results FILE` at the screen's top-left, stopped on the way out."""

    def __init__(self, folder: Path, options: list[str]) -> None:
        self.results = folder / "results.jsonl"
        self.options = options
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Game:
        env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
        env["SDL_VIDEO_WINDOW_POS"] = "0,0"
        command = [sys.executable, "-m", "flowbot", "game", "--pack", PACK, "--results", str(self.results),
                   "--size", f"{WINDOW[0]}x{WINDOW[1]}", *self.options]  # fmt: skip
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        if self.process.stdout.readline().strip() != "game ready":
            self.stop()
            raise SystemExit(f"the game did not start: {self.process.stderr.read()[-500:]}")
        time.sleep(0.3)  # a few frames on screen before the bot looks
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Close the game (SIGTERM): it writes the level it shows as it stands."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def records(self) -> list[dict]:
        """The game's results: one line per level left."""
        if not self.results.exists():
            return []
        return [json.loads(line) for line in self.results.read_text().splitlines() if line.strip()]


def _bot(count: int, artifacts: str) -> list[str]:
    """The bot's command line."""
    return [
        sys.executable,
        "-m",
        "flowbot",
        "auto-clear",
        "--count",
        str(count),
        "--json",
        "--artifacts",
        artifacts,
    ]


def _outcome(code: int, out: str, err: str, seconds: float) -> dict:
    """What one bot said: its exit code, the levels it claims, why it stopped, its last words."""
    report: dict = {}
    for line in reversed(out.strip().splitlines()):
        try:
            report = json.loads(line)
            break
        except json.JSONDecodeError:
            continue
    return {
        "exit": code,
        "claimed": int(report.get("cleared", 0) or 0),
        "levels": report.get("levels"),
        "stopped": report.get("stopped"),
        "stderr": err.strip().splitlines()[-1][:300] if err.strip() else "",
        "seconds": round(seconds, 1),
    }


def _judged(records: list[dict], bots: list[dict], seed: int) -> dict:
    """A run's figures: what the game took against what the bots claim."""
    solved = sum(1 for record in records if record.get("solved") is True)
    claimed = sum(bot["claimed"] for bot in bots)
    return {
        "seed": seed,
        "solved_by_game": solved,
        "claimed_by_bot": claimed,
        "false_wins": max(0, claimed - solved),
        "skip_arrow_presses": sum(
            1 for record in records if str(record.get("left_by", "")).startswith("skip")
        ),
        "skipped_unsolved": sum(
            1 for record in records if record.get("left_by") and record.get("solved") is not True
        ),
        "refused": sum(1 for bot in bots if bot["exit"] == REFUSED),
        "results": [(record.get("level"), record.get("solved"), record.get("left_by")) for record in records],
        "bots": bots,
    }


def summarise(case: str, runs: list[dict]) -> dict:
    """A case's totals over its runs."""
    total = {key: sum(run[key] for run in runs) for key in
             ("solved_by_game", "claimed_by_bot", "false_wins", "skip_arrow_presses", "refused")}  # fmt: skip
    return {
        "case": case,
        **total,
        "exits": [[bot["exit"] for bot in run["bots"]] for run in runs],
        "runs": runs,
    }


def table(figures: dict) -> str:
    """The figures as a table a person reads."""
    asked = figures["count"] * figures["runs"]
    lines = [
        f"bundled game, pack {figures['pack']}, auto-clear --count {figures['count']},"
        f" {figures['runs']} run(s) ({asked} levels asked per case);"
        f" load {figures['load']} before, {figures['load_after']} after",
        f"{'case':<14} {'solved':>6} {'claimed':>7} {'false wins':>10} {'skip presses':>12}"
        f" {'refused':>7}  exits",
    ]
    for case in figures["cases"]:
        lines.append(
            f"{case['case']:<14} {case['solved_by_game']:>6} {case['claimed_by_bot']:>7}"
            f" {case['false_wins']:>10} {case['skip_arrow_presses']:>12} {case['refused']:>7}"
            f"  {case['exits']}"
        )
    return "\n".join(lines)


def _brief(run: dict) -> str:
    """One line on a run while the benchmark goes."""
    bots = "; ".join(
        f"exit {bot['exit']} claims {bot['claimed']} ({bot['stopped'] or bot['stderr']})"
        for bot in run["bots"]
    )
    return f"game solved {run['solved_by_game']}, false wins {run['false_wins']}; {bots}"


def _load() -> str:
    """The machine's load averages (1, 5, 15 minutes), where the system tells them."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
