"""Time the Number Match screen reader on the shared screenshots and photos: seconds per image
(median, max), and how many read exactly as their truth files.

    .venv/bin/python scripts/bench_numbermatch_read.py [--folder DIR] [--repeat 3]

Screenshots and phone photos (3000x4000) are counted apart; a photo that is refused or misread is
listed with the reason.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import cv2

from flowbot.errors import FlowbotError
from flowbot.numbermatch.read import read_board

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "numbermatch" / "screenshots"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--folder", type=Path, default=DEFAULT_FOLDER, help="images with *.truth.txt beside them"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="reads per image; the fastest counts (default 3)"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Read every image with a truth file and print the figures."""
    args = parse_args(argv)
    groups: dict[str, dict] = {}
    for truth_file in sorted(args.folder.glob("*.truth.txt")):
        image = truth_file.with_name(truth_file.name.removesuffix(".truth.txt") + ".jpg")
        if not image.exists():
            continue
        frame = cv2.imread(str(image))
        kind = "photos" if min(frame.shape[:2]) >= 2000 else "screenshots"
        group = groups.setdefault(kind, {"images": 0, "exact": 0, "seconds": [], "failures": []})
        truth = truth_file.read_text().split()
        best, outcome = float("inf"), ""
        for _ in range(max(1, args.repeat)):
            started = time.perf_counter()
            try:
                rows = list(read_board(frame, image.name).rows)
                outcome = "exact" if rows == truth else f"misread: {rows}"
            except FlowbotError as error:
                outcome = f"refused: {error}"
            best = min(best, time.perf_counter() - started)
        group["images"] += 1
        group["seconds"].append(best)
        if outcome == "exact":
            group["exact"] += 1
        else:
            group["failures"].append(f"{image.name}: {outcome}")
    summary = {
        kind: {
            "images": group["images"],
            "exact": group["exact"],
            "median_s": round(statistics.median(group["seconds"]), 4),
            "max_s": round(max(group["seconds"]), 4),
            "failures": group["failures"],
        }
        for kind, group in groups.items()
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    for kind, figures in summary.items():
        print(
            f"{kind}: {figures['exact']}/{figures['images']} read exactly; "
            f"seconds per image: median {figures['median_s']}, max {figures['max_s']}"
        )
        for failure in figures["failures"]:
            print(f"  {failure}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
