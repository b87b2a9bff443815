"""Load `flowbot serve`: concurrent uploads of real screenshots, each answer checked against its truth board.

    .venv/bin/python scripts/bench_serve.py [--requests 50] [--concurrency 50] [--workers N]
        [--set classic|games|all] [--json]

Starts the server from this checkout on a free port, sends `--requests` uploads of the screenshots
that have a truth file (in turn), `--concurrency` at a time: `classic` the Flow screenshots in
../shared/screenshots, `games` the sister games' (screenshots/variants) and Number Match's
(../shared/numbermatch/screenshots, photos of a phone included), `all` both. It reports
requests per second, latency (median, 95th percentile, max), and the server's peak memory: the
resident memory of the server and its worker processes together, sampled every 20 ms from /proc
(`server_peak_rss_mb`), and the sum of each process's own peak (VmHWM, an upper bound).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT.parent / "shared" / "screenshots"
VARIANTS = SCREENSHOTS / "variants"
NUMBERMATCH = ROOT.parent / "shared" / "numbermatch" / "screenshots"

# The status an answer must have to count as correct, by game.
SOLVED = {"flow": "solved", "numbermatch": "won"}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50, help="uploads in all (default 50)")
    parser.add_argument("--concurrency", type=int, default=50, help="uploads in flight at once (default 50)")
    parser.add_argument("--workers", type=int, help="the server's --workers (default: its own)")
    parser.add_argument(
        "--set",
        choices=("classic", "games", "all"),
        default="classic",
        help="which screenshots (default: classic)",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    return parser.parse_args(argv)


def truth_screenshots(which: str = "classic") -> list[tuple[str, bytes, list[str]]]:
    """(name, bytes, truth rows) of every shared screenshot of the set that has a truth board."""
    folders = {"classic": [SCREENSHOTS], "games": [VARIANTS, NUMBERMATCH]}
    found = []
    for folder in folders.get(which, [SCREENSHOTS, VARIANTS, NUMBERMATCH]):
        for truth in sorted(folder.glob("*.truth.txt")):
            stem = truth.name.removesuffix(".truth.txt")
            image = next(path for path in folder.glob(stem + ".*") if not path.name.endswith(".txt"))
            lines = truth.read_text().split("\n")
            rows = [line.strip() for line in lines if line.strip() and not line.startswith("hex")]
            found.append((image.name, image.read_bytes(), rows))
    return found


def start_server(workers: int | None) -> tuple[subprocess.Popen, str]:
    """`flowbot serve --port 0` from this checkout: the process and its base URL."""
    options = ["--workers", str(workers)] if workers else []
    process = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "serve", "--port", "0", *options],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    found = re.search(r"(http://\S+?)/", line)
    if found is None:
        process.kill()
        raise SystemExit(f"bench_serve: the server did not start: {line!r}")
    return process, found.group(1)


def family(pid: int) -> list[int]:
    """The process and all its descendants (the server and its workers)."""
    found, at = [pid], 0
    while at < len(found):
        try:
            tasks = Path(f"/proc/{found[at]}/task").iterdir()
            for task in tasks:
                found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            pass
        at += 1
    return found


def memory_mb(pids: list[int], field: str) -> float:
    """The sum of a /proc status field (VmRSS, VmHWM) over processes, in MB; gone processes count 0."""
    total = 0
    for pid in pids:
        try:
            found = re.search(rf"{field}:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
        except OSError:
            continue
        total += int(found.group(1)) if found else 0
    return total / 1024


class MemorySampler(threading.Thread):
    """Samples the resident memory of a process and its descendants until stopped; keeps the peak."""

    def __init__(self, pid: int, every: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.pid, self.every, self.peak = pid, every, 0.0
        self.stopping = threading.Event()

    def run(self) -> None:
        """Sample until stopped."""
        while not self.stopping.wait(self.every):
            self.peak = max(self.peak, memory_mb(family(self.pid), "VmRSS"))


async def upload(session, url: str, shot: tuple[str, bytes, list[str]], gate: asyncio.Semaphore) -> dict:
    """One upload: its latency, status, and whether the board read is the truth."""
    name, data, truth = shot
    form = aiohttp.FormData()
    form.add_field("image", data, filename=name, content_type="application/octet-stream")
    async with gate:
        started = time.perf_counter()
        async with session.post(url + "/api/solve", data=form) as response:
            answer = await response.json()
            seconds = time.perf_counter() - started
    game = answer.get("game", "flow")
    read = answer.get("puzzle") == truth and answer.get("status") == SOLVED[game]
    correct = response.status == 200 and read
    return {"name": name, "game": game, "status": response.status, "seconds": seconds, "correct": correct}


async def load(url: str, shots, requests: int, concurrency: int) -> tuple[list[dict], float]:
    """Send the uploads and wait for every answer: (results, wall seconds)."""
    gate = asyncio.Semaphore(concurrency)
    timeout = aiohttp.ClientTimeout(total=600)
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        await upload(session, url, shots[0], gate)  # warm-up: imports and the first OpenCV calls
        started = time.perf_counter()
        results = await asyncio.gather(
            *(upload(session, url, shots[index % len(shots)], gate) for index in range(requests))
        )
        return list(results), time.perf_counter() - started


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def main(argv: list[str] | None = None) -> int:
    """Run the load, print the figures; status 1 when an answer was wrong or missing."""
    args = parse_args(argv)
    if not SCREENSHOTS.is_dir():
        print(f"bench_serve: {SCREENSHOTS} is not present", file=sys.stderr)
        return 2
    shots = truth_screenshots(args.set)
    process, url = start_server(args.workers)
    sampler = MemorySampler(process.pid)
    sampler.start()
    try:
        results, wall = asyncio.run(load(url, shots, args.requests, args.concurrency))
        sampler.stopping.set()
        sampler.join()
        processes = family(process.pid)
        peaks = memory_mb(processes, "VmHWM")
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    seconds = [result["seconds"] for result in results]
    wrong = [result["name"] for result in results if not result["correct"]]
    games = sorted({result["game"] for result in results})
    by_game = {
        game: round(percentile([result["seconds"] for result in results if result["game"] == game], 0.5), 3)
        for game in games
    }
    summary = {
        "set": args.set,
        "requests": len(results),
        "concurrency": args.concurrency,
        "workers": args.workers,
        "cores": os.cpu_count(),
        "correct": len(results) - len(wrong),
        "wall_seconds": round(wall, 3),
        "requests_per_second": round(len(results) / wall, 2),
        "median_seconds": round(percentile(seconds, 0.5), 3),
        "p95_seconds": round(percentile(seconds, 0.95), 3),
        "max_seconds": round(max(seconds), 3),
        "median_seconds_by_game": by_game,
        "server_processes": len(processes),
        "server_peak_rss_mb": round(sampler.peak, 1),
        "server_vmhwm_sum_mb": round(peaks, 1),
        "server_exit": process.returncode,
        "megabytes_uploaded": round(sum(len(shots[i % len(shots)][1]) for i in range(len(results))) / 1e6, 1),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{summary['requests']} uploads ({summary['megabytes_uploaded']} MB of real screenshots), "
            f"{args.concurrency} at a time, on {summary['cores']} cores: "
            f"{summary['correct']} answered correctly"
        )
        print(
            f"{summary['requests_per_second']} requests/s; latency median {summary['median_seconds']} s, "
            f"p95 {summary['p95_seconds']} s, max {summary['max_seconds']} s; median by game: "
            + ", ".join(f"{game} {value} s" for game, value in by_game.items())
        )
        together, peaks = summary["server_peak_rss_mb"], summary["server_vmhwm_sum_mb"]
        print(
            f"server peak memory (RSS of its {len(processes)} processes together): {together} MB "
            f"(sum of their own peaks {peaks} MB); stopped with status {process.returncode}"
        )
        for name in wrong:
            print(f"wrong or missing answer: {name}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
