"""Write the game's shipped level packs to flowbot/data/packs: the same files every run (fixed seeds).

    .venv/bin/python scripts/make_packs.py [--out DIR]

Packs: `demo` (one level of each size 5x5 ... 14x14, smallest first) and `5x5` ... `14x14` (ten
levels each, 001.json ...). Each file is flowbot JSON with the level's one solution.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from flowbot.formats import write_puzzle_json
from flowbot.generate.levels import make_level
from flowbot.generate.lines import default_colors
from flowbot.model import Source

SIZES = range(5, 15)
LEVELS_PER_PACK = 10
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "flowbot" / "data" / "packs"


def level_seed(pack: str, number: int, side: int) -> int:
    """The seed of one level: size packs 1000 * side + number, the demo pack 90000 + side."""
    return 90000 + side if pack == "demo" else 1000 * side + number


def write_level(folder: Path, pack: str, number: int, side: int) -> Path:
    """Generate one level of a pack with its fixed seed and save it as NNN.json with its solution."""
    seed = level_seed(pack, number, side)
    rng = random.Random(seed)
    colors = default_colors(side, side, rng)
    level = make_level(side, side, colors, rng)
    note = "made for the flowbot game; one strict solution"
    details = {"pack": pack, "level": number, "seed": seed, "note": note}
    puzzle = level.puzzle.with_source(Source(kind="generated", details=details))
    path = folder / f"{number:03d}.json"
    write_puzzle_json(puzzle, path, solution_rows=level.solution.to_rows())
    return path


def write_pack(out: Path, pack: str, sides: list[int]) -> list[Path]:
    """Write one pack's levels and remove level files a previous run left that this one did not write."""
    folder = out / pack
    folder.mkdir(parents=True, exist_ok=True)
    written = [write_level(folder, pack, number, side) for number, side in enumerate(sides, start=1)]
    for stale in set(folder.glob("*.json")) - set(written):
        stale.unlink()
    return written


def main(argv: list[str] | None = None) -> int:
    """Write every pack and say how many files each got."""
    parser = argparse.ArgumentParser(description="Write the game's shipped level packs.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"packs folder (default {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    packs = {"demo": list(SIZES)} | {f"{side}x{side}": [side] * LEVELS_PER_PACK for side in SIZES}
    for pack, sides in packs.items():
        written = write_pack(args.out, pack, sides)
        print(f"{pack}: {len(written)} levels", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
