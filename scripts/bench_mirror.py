"""Read the truth screenshots as a phone mirror shows them: each scaled to 1000 and 700 px tall in the
middle of a 1600x1000 desktop of one grey, read by the reader auto-clear uses on a full-screen frame.
Prints, per desktop and height, how many read exactly and the read time's median, 90th percentile and
maximum, on the wall clock and in this process's CPU time (what the reading costs on a loaded machine).

    .venv/bin/python scripts/bench_mirror.py [--screenshots ../shared/screenshots] [--desktop 0 40 210]
        [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from flowbot.capture.image import decode_image
from flowbot.capture.read import read_puzzle
from flowbot.errors import CaptureError

HEIGHTS = (1000, 700)


def mirrored(image: np.ndarray, height: int, grey: int) -> np.ndarray:
    """A 1600x1000 desktop (BGR) of one grey showing `image` scaled to `height` px tall (narrower when
    too wide), in the middle."""
    frame = np.full((1000, 1600, 3), grey, dtype=np.uint8)
    scale = min(height / image.shape[0], 1600 / image.shape[1])
    size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
    shown = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    top, left = (1000 - size[1]) // 2, (1600 - size[0]) // 2
    frame[top : top + size[1], left : left + size[0]] = shown
    return frame


def timed_read(frame: np.ndarray, repeat: int) -> tuple[list[str] | None, float, float]:
    """The rows read from `frame` and the fastest of `repeat` reads' wall and CPU times (ms): other
    processes on a shared machine only ever add time."""
    walls, cpus, rows = [], [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            rows = read_puzzle(frame).puzzle.to_rows()
        except CaptureError:
            rows = None
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return rows, min(walls), min(cpus)


def spread(times: list[float]) -> str:
    """Median, 90th percentile and maximum of `times` (ms)."""
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(ordered):.1f}, p90 {p90:.1f}, max {ordered[-1]:.1f} ms"


def main() -> None:
    """Bench every desktop grey asked for, one line per height."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshots", default="../shared/screenshots", help="folder of *.truth.txt")
    parser.add_argument("--desktop", type=int, nargs="+", default=[0, 40, 210], help="desktop greys")
    parser.add_argument("--repeat", type=int, default=3, help="reads per frame; the fastest counts")
    args = parser.parse_args()
    folder = Path(args.screenshots)
    pairs = []
    for truth in sorted(folder.glob("*.truth.txt")):
        stem = truth.name.removesuffix(".truth.txt")
        image = next(path for path in folder.glob(stem + ".*") if not path.name.endswith(".txt"))
        pairs.append((decode_image(image.read_bytes()), truth.read_text().split(), image.name))
    read_puzzle(mirrored(pairs[0][0], HEIGHTS[0], 0))  # warm-up: first-call costs are not reading time
    print(f"fastest of {args.repeat} reads per frame")
    for grey in args.desktop:
        misread = []
        for height in HEIGHTS:
            walls, cpus, exact = [], [], 0
            for image, want, name in pairs:
                rows, wall, cpu = timed_read(mirrored(image, height, grey), max(1, args.repeat))
                walls.append(wall)
                cpus.append(cpu)
                exact += rows == want
                if rows != want:
                    misread.append(f"{name}@{height}")
            print(
                f"desktop grey {grey}, {height} px: {exact}/{len(pairs)} exact; "
                f"wall {spread(walls)}; cpu {spread(cpus)}"
            )
        print(f"  misread: {', '.join(misread) or 'none'}")


if __name__ == "__main__":
    main()
