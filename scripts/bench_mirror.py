"""Read the truth screenshots as a phone mirror shows them: each scaled to 1000 and 700 px tall in the
middle of a 1600x1000 desktop of one grey, read by the reader auto-clear uses on a full-screen frame.
Prints how many read exactly and the median and 90th-percentile read time.

    .venv/bin/python scripts/bench_mirror.py [--screenshots ../shared/screenshots] [--desktop 0 40 210]
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


def main() -> None:
    """Bench every desktop grey asked for, one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshots", default="../shared/screenshots", help="folder of *.truth.txt")
    parser.add_argument("--desktop", type=int, nargs="+", default=[0, 40, 210], help="desktop greys")
    args = parser.parse_args()
    folder = Path(args.screenshots)
    pairs = []
    for truth in sorted(folder.glob("*.truth.txt")):
        stem = truth.name.removesuffix(".truth.txt")
        image = next(path for path in folder.glob(stem + ".*") if not path.name.endswith(".txt"))
        pairs.append((decode_image(image.read_bytes()), truth.read_text().split(), image.name))
    for grey in args.desktop:
        times, exact, misread = [], 0, []
        for image, want, name in pairs:
            for height in HEIGHTS:
                frame = mirrored(image, height, grey)
                started = time.perf_counter()
                try:
                    rows = read_puzzle(frame).puzzle.to_rows()
                except CaptureError:
                    rows = None
                times.append((time.perf_counter() - started) * 1000)
                exact += rows == want
                if rows != want:
                    misread.append(f"{name}@{height}")
        times.sort()
        median, p90 = statistics.median(times), times[int(0.9 * len(times))]
        print(
            f"desktop grey {grey}: {exact}/{len(times)} exact; read median {median:.1f} ms, p90 {p90:.1f} ms"
        )
        print(f"  misread: {', '.join(misread) or 'none'}")


if __name__ == "__main__":
    main()
