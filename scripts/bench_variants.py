"""Benchmark: reading screenshots with the variant reader (`read_variant`) beside the classic one.

For every real screenshot in ../shared/screenshots (classic) and its variants/ folder (Hexes,
Bridges, walls, Shapes): the median read time of each reader over --repeat runs (the frame already
decoded), and whether the reading equals the truth file (or, for Shapes, is refused by name).

    .venv/bin/python scripts/bench_variants.py [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from flowbot.capture.image import decode_image
from flowbot.capture.read import read_puzzle
from flowbot.capture.variants import read_variant
from flowbot.errors import CaptureError

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "screenshots"


def _truth(image: Path) -> list[str] | None:
    """The truth lines beside an image (a hex truth's layout line left out), or None."""
    truth = image.with_name(image.name.rsplit(".", 1)[0] + ".truth.txt")
    if not truth.exists():
        return None
    return [line for line in truth.read_text().split("\n") if line and not line.startswith("hex:")]


def _timed(read, frame, repeat: int) -> tuple[float, object]:
    """Median seconds of `repeat` reads, and the last result (or the CaptureError raised)."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            result = read(frame)
        except CaptureError as error:
            result = error
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> int:
    """Time both readers on every screenshot; print a table (or JSON) and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not SHARED.is_dir():
        print(f"no screenshots at {SHARED}", file=sys.stderr)
        return 1
    images = [
        path
        for folder in (SHARED, SHARED / "variants")
        for path in sorted(folder.iterdir())
        if path.suffix.lower() in (".png", ".jpg", ".jpeg")
    ]
    rows = []
    for image in images:
        frame = decode_image(image.read_bytes())
        truth = _truth(image)
        classic = image.parent == SHARED
        # The two readers take turns, so a busy machine slows both alike.
        variant_times, classic_times = [], []
        for _ in range(args.repeat):
            seconds, reading = _timed(read_variant, frame, 1)
            variant_times.append(seconds)
            if classic:
                classic_times.append(_timed(read_puzzle, frame, 1)[0])
        variant_time = statistics.median(variant_times)
        classic_time = statistics.median(classic_times) if classic else None
        if isinstance(reading, CaptureError):
            outcome = "refused: " + str(reading)[:70]
        elif truth is None:
            outcome = f"{reading.kind} (no truth)"
        else:
            outcome = f"{reading.kind} " + ("exact" if list(reading.lines) == truth else "WRONG")
        rows.append(
            {
                "image": image.name,
                "set": "classic" if classic else "variants",
                "variant_ms": round(variant_time * 1000, 1),
                "classic_ms": None if classic_time is None else round(classic_time * 1000, 1),
                "outcome": outcome,
            }
        )
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for row in rows:
        classic = "" if row["classic_ms"] is None else f"{row['classic_ms']:7.1f}"
        print(f"{row['image'][-50:]:50s} {row['variant_ms']:7.1f} {classic:>7s}  {row['outcome']}")
    for name in ("classic", "variants"):
        # Refusals (no board, Shapes) take the square board finder's whole search: told apart.
        chosen = [row for row in rows if row["set"] == name and not row["outcome"].startswith("refused")]
        refused = [
            row["variant_ms"] for row in rows if row["set"] == name and row["outcome"].startswith("refused")
        ]
        times = [row["variant_ms"] for row in chosen]
        median, most = statistics.median(times), max(times)
        line = f"{name}: {len(chosen)} images, read_variant median {median:.1f} ms, max {most:.1f} ms"
        if name == "classic":
            base = [row["classic_ms"] for row in chosen]
            extra = statistics.median(row["variant_ms"] - row["classic_ms"] for row in chosen)
            line += f"; read_puzzle median {statistics.median(base):.1f} ms, max {max(base):.1f} ms"
            line += f"; read_variant takes {extra:.1f} ms more (median over images)"
        if refused:
            slow, most_refused = statistics.median(refused), max(refused)
            line += f"; {len(refused)} refused in median {slow:.1f} ms, max {most_refused:.1f} ms"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
