"""Benchmark: reading the Shapes screenshots (../shared/screenshots/variants) against their truths.

For every Shapes screenshot with a truth in tests/data/shapes: the median time over --repeat runs
(the frame already decoded) of the Shapes reader alone (`read_shapes`) and of the whole screenshot
reader a user meets (`read_screenshot`: the line directions, then the Shapes reader), whether the
reading equals the truth (cells, neighbours, endpoints), and the solve time.

    .venv/bin/python scripts/bench_shapes.py [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from flowbot.capture.image import decode_image
from flowbot.capture.screenshot import read_screenshot
from flowbot.capture.shapes import read_shapes
from flowbot.capture.shapes.truth import differences, read_truth
from flowbot.errors import CaptureError
from flowbot.solve.sat import solve

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "screenshots" / "variants"
TRUTHS = REPO / "tests" / "data" / "shapes"
# What the issue asks of each read: at most this long, and the median at most the second.
LIMIT_MS, MEDIAN_MS = 500.0, 200.0
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


def _median_ms(read, frame, repeat: int) -> tuple[float, float, object]:
    """Median milliseconds of `repeat` reads, on the clock and of this process's CPU time (all its
    threads: on a machine busy with other work, the clock's figure grows, the CPU's much less), and
    the last result (or the CaptureError raised)."""
    times, cpu_times, result = [], [], None
    for _ in range(repeat):
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            result = read(frame)
        except CaptureError as error:
            result = error
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
    return 1000 * statistics.median(times), 1000 * statistics.median(cpu_times), result


def main() -> int:
    """Time the readers on every Shapes screenshot; print a table (or JSON) and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not SHARED.is_dir():
        print(f"no screenshots at {SHARED}", file=sys.stderr)
        return 1
    rows = []
    for truth_file in sorted(TRUTHS.glob("*.shapes.txt")):
        stem = truth_file.name.removesuffix(".shapes.txt")
        images = [path for path in SHARED.glob(stem + ".*") if path.suffix.lower() in IMAGE_SUFFIXES]
        if not images:
            continue
        frame = decode_image(images[0].read_bytes())
        shapes_ms, shapes_cpu_ms, reading = _median_ms(read_shapes, frame, args.repeat)
        screenshot_ms, screenshot_cpu_ms, whole = _median_ms(read_screenshot, frame, args.repeat)
        if isinstance(reading, CaptureError) or isinstance(whole, CaptureError):
            outcome, solve_ms = f"refused: {reading if isinstance(reading, CaptureError) else whole}", None
        else:
            problems = differences(read_truth(truth_file.read_text()), reading)
            outcome = "exact" if not problems else "WRONG: " + "; ".join(problems[:2])
            result = solve(whole.puzzle)
            solve_ms = round(1000 * result.seconds, 1)
            outcome += "" if result.status == "solved" else f", {result.status}"
        rows.append(
            {
                "image": images[0].name,
                "cells": None if isinstance(reading, CaptureError) else len(reading.cells),
                "read_shapes_ms": round(shapes_ms, 1),
                "read_screenshot_ms": round(screenshot_ms, 1),
                "read_shapes_cpu_ms": round(shapes_cpu_ms, 1),
                "read_screenshot_cpu_ms": round(screenshot_cpu_ms, 1),
                "solve_ms": solve_ms,
                "outcome": outcome,
            }
        )
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    head = f"{'cells':>5s} {'shapes':>7s} {'cpu':>6s} {'shot':>7s} {'cpu':>6s} {'solve':>6s}"
    print(f"{'image (ms; cpu: CPU time)':44s} {head}  outcome")
    for row in rows:
        solve_ms = "" if row["solve_ms"] is None else f"{row['solve_ms']:6.1f}"
        print(
            f"{row['image'][-44:]:44s} {row['cells'] or 0:5d} {row['read_shapes_ms']:7.1f} "
            f"{row['read_shapes_cpu_ms']:6.1f} {row['read_screenshot_ms']:7.1f} "
            f"{row['read_screenshot_cpu_ms']:6.1f} {solve_ms:>6s}  {row['outcome']}"
        )
    for key in ("read_shapes_ms", "read_shapes_cpu_ms", "read_screenshot_ms", "read_screenshot_cpu_ms"):
        times = [row[key] for row in rows]
        median, most = statistics.median(times), max(times)
        verdict = "within" if most <= LIMIT_MS and median <= MEDIAN_MS else "OVER"
        bounds = f"{verdict} {MEDIAN_MS:.0f}/{LIMIT_MS:.0f} ms"
        print(f"{key}: median {median:.1f} ms, max {most:.1f} ms ({bounds})")
    exact = sum(row["outcome"] == "exact" for row in rows)
    print(f"{exact} of {len(rows)} read exactly as their truth and solved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
