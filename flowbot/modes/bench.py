"""`flowbot bench`: rerunnable solver timings, per-size medians and maxima, and one-call wall time."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from flowbot.errors import InputFileError, UsageError
from flowbot.formats import read_input_bytes, read_text_file
from flowbot.modes.solve_files import load_all
from flowbot.progress import Progress
from flowbot.solve.sat import solve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from flowbot.solve.sat import ColorEncoding

# Corpus sets named after what they stand for; paths are relative to the shared corpus folder.
CORPUS_SETS: dict[str, tuple[str, ...]] = {
    "levels": ("mzucker__flow_solver/puzzles/*.txt", "thomasahle__numberlink/puzzles/inputs1"),
    "janko": ("thomasahle__numberlink/puzzles/janko",),
    # Flow Free: Bridges, Hexes and Warps levels (format E); the empty 14x14 template is skipped.
    "variants": ("samgoldman__FlowSolver/puzzles/*/*.txt",),
}


def find_shared(name: str) -> Path | None:
    """A shared data folder: $FLOWBOT_SHARED/name, or `../shared/name` beside the working or repo folder
    (None when the one it names is no folder)."""
    if os.environ.get("FLOWBOT_SHARED"):
        named = Path(os.environ["FLOWBOT_SHARED"]) / name
        return named if named.is_dir() else None
    repository = Path(__file__).resolve().parents[2]
    for base in (Path.cwd(), repository):
        candidate = base.parent / "shared" / name
        if candidate.is_dir():
            return candidate
    return None


def _no_shared(what: str, name: str) -> UsageError:
    """The error for a run given no files when no shared `name` folder is found: what to do instead."""
    return UsageError(
        f"no {what} given and no shared {name} found: give PATH, or set FLOWBOT_SHARED to the folder "
        f"that holds {name}/ (docs/commands/bench.md)"
    )


def corpus_paths(corpus_set: str) -> list[str]:
    """The files of a named corpus set ('all' is every set), sorted for a stable order."""
    corpus = find_shared("corpus")
    if corpus is None:
        raise _no_shared("puzzle files", "corpus")
    names = CORPUS_SETS if corpus_set == "all" else {corpus_set: CORPUS_SETS[corpus_set]}
    files: list[str] = []
    for patterns in names.values():
        for pattern in patterns:
            files.extend(str(path) for path in sorted(corpus.glob(pattern)))
    return files


def run_bench(
    paths: Sequence[str], *, corpus_set: str, repeat: int, timeout: float, colors: ColorEncoding = "binary"
) -> int:
    """Time every puzzle `repeat` times, print per-size medians and maxima, then the one-call wall time."""
    if corpus_set == "screenshots":
        return bench_screenshots(paths, repeat)
    if corpus_set == "generate":
        return bench_generate(count=20)
    files = list(paths) or corpus_paths(corpus_set)
    every = load_all(files, sys.stderr)
    skipped = [outcome for outcome in every if outcome.puzzle is None]
    for outcome in skipped:
        print(f"flowbot: skipped: {outcome.error}", file=sys.stderr)
    if skipped:
        print(f"flowbot: skipped {len(skipped)} unreadable puzzle(s) or file(s)", file=sys.stderr)
    loaded = [outcome for outcome in every if outcome.puzzle is not None]
    if not loaded:
        # Status 2, as for every unreadable input: each file was named above.
        raise InputFileError("no readable puzzles to benchmark: every file given was skipped")
    # The one-call timing covers the files that held something to time, as the table does.
    files = list(dict.fromkeys(outcome.source for outcome in loaded))
    solve(loaded[0].puzzle)  # warm-up: imports and first-call costs are not solve time
    times: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, int] = defaultdict(int)
    per_puzzle = []
    progress = Progress(len(loaded), "bench", sys.stderr)
    for outcome in loaded:
        runs = [solve(outcome.puzzle, timeout=timeout, colors=colors) for _ in range(repeat)]
        seconds = statistics.median(run.seconds for run in runs)
        statuses[runs[0].status] += 1
        puzzle = outcome.puzzle
        times[f"{puzzle.size} {puzzle.kind}" if puzzle.is_graph else puzzle.size].append(seconds)
        per_puzzle.append((seconds, f"{outcome.source} #{outcome.index}"))
        progress.advance(outcome.puzzle.size)
    progress.close()
    print(f"colour encoding: {colors}")
    print(_table(times))
    all_times = [seconds for values in times.values() for seconds in values]
    slowest = max(per_puzzle)
    print(
        f"\n{len(all_times)} puzzles: "
        + ", ".join(f"{count} {status}" for status, count in statuses.items())
        + (f" ({len(skipped)} skipped as unreadable)" if skipped else "")
    )
    print(
        f"solve time (median of {repeat} runs each): total {sum(all_times) * 1000:.0f} ms, "
        f"median {statistics.median(all_times) * 1000:.1f} ms, "
        f"max {slowest[0] * 1000:.1f} ms ({slowest[1]})"
    )
    if colors != "binary":
        return 0  # the one-call wall time is the product's, which always uses the default encoding
    wall = _one_call_wall(files, repeat)
    print(f"one `flowbot solve --json` call over all files, start-up included: median {wall:.2f} s wall")
    return 0


def _table(times: dict[str, list[float]]) -> str:
    """Per-size rows: count, median and max solve time in milliseconds."""

    def size_key(size: str) -> tuple[str, int, int]:
        dimensions, _, kind = size.partition(" ")
        rows, cols = dimensions.split("x")
        return kind, int(rows) * int(cols), int(rows)

    width = max(7, *(len(size) for size in times))
    lines = [f"{'size':>{width}} {'count':>5} {'median ms':>10} {'max ms':>8}"]
    for size in sorted(times, key=size_key):
        values = times[size]
        lines.append(
            f"{size:>{width}} {len(values):5d} {statistics.median(values) * 1000:10.1f} "
            f"{max(values) * 1000:8.1f}"
        )
    return "\n".join(lines)


def _one_call_wall(files: Sequence[str], repeat: int) -> float:
    """Median wall time of a fresh `python -m flowbot solve --json` over the files, as a user runs it."""
    walls = []
    for _ in range(repeat):
        started = time.perf_counter()
        # A file name that is not UTF-8 may come back in a message as its own bytes: escaped, not fatal.
        completed = subprocess.run(
            [sys.executable, "-m", "flowbot", "solve", "--json", *files],
            capture_output=True, encoding="utf-8", errors="backslashreplace", check=False,
        )  # fmt: skip
        walls.append(time.perf_counter() - started)
        lines = [json.loads(line) for line in completed.stdout.splitlines() if line.strip()]
        if not lines:
            raise UsageError(f"the timed solve call printed nothing: {completed.stderr.strip()[:200]}")
    return statistics.median(walls)


def bench_screenshots(paths: Sequence[str], repeat: int) -> int:
    """Time decoding and reading each screenshot (median of `repeat` runs), and check truth boards."""
    from flowbot.capture.image import decode_image
    from flowbot.capture.read import read_puzzle
    from flowbot.errors import FlowbotError
    from flowbot.loader import puzzle_inputs

    inputs = puzzle_inputs(paths, images_only=True)
    for note in inputs.notes():
        print(f"flowbot: {note}", file=sys.stderr)
    images = [Path(path) for path in inputs.files] or _shared_screenshots()
    decode_times, read_times, exact, with_truth, failed = [], [], 0, 0, []
    progress = Progress(len(images), "bench", sys.stderr)
    for image in images:
        try:
            data = read_input_bytes(image)
            frame = decode_image(data)
            read_puzzle(frame)  # warm-up: first-call costs are not reading time
        except FlowbotError as error:
            failed.append(f"{image.name}: {error}")
            progress.advance(image.name)
            continue
        decode_times.append(statistics.median(_timed(lambda d=data: decode_image(d)) for _ in range(repeat)))
        read_times.append(statistics.median(_timed(lambda f=frame: read_puzzle(f)) for _ in range(repeat)))
        truth = image.with_name(image.name.rsplit(".", 1)[0] + ".truth.txt")
        if truth.exists():
            with_truth += 1
            exact += read_puzzle(frame).puzzle.to_rows() == read_text_file(truth).split()
        progress.advance(image.name)
    progress.close()
    if not read_times:
        raise UsageError("no screenshot could be read")
    print(
        f"{len(read_times)} screenshots read, {len(failed)} refused; {exact}/{with_truth} truth boards exact"
    )
    for line in failed:
        print(f"  refused: {line}")
    for label, values in (("decode", decode_times), ("read", read_times)):
        print(
            f"{label:>6}: median {statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
        )
    return 0


def _shared_screenshots() -> list[Path]:
    """Every image in the shared screenshot folder."""
    folder = find_shared("screenshots")
    if folder is None:
        raise _no_shared("screenshots", "screenshots")
    return sorted(path for path in folder.iterdir() if path.suffix.lower() in (".png", ".jpg", ".jpeg"))


def _timed(action) -> float:
    """Seconds one call takes."""
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def bench_generate(count: int, rows: int = 12, cols: int = 12) -> int:
    """Time making `count` levels of one size (seeds 0..count-1): median and max, and how they rate."""
    from flowbot.generate.levels import make_level
    from flowbot.generate.lines import default_colors
    from flowbot.modes.generate import level_rng

    seconds, rating_seconds, bands = [], [], {}
    progress = Progress(count, "bench", sys.stderr)
    for seed in range(count):
        rng = level_rng(seed, 0)
        started = time.perf_counter()
        level = make_level(rows, cols, default_colors(rows, cols, rng), rng)
        seconds.append(time.perf_counter() - started)
        rating_seconds.append(level.rating.seconds)
        bands[level.rating.band] = bands.get(level.rating.band, 0) + 1
        progress.advance(f"seed {seed}")
    progress.close()
    print(f"{count} levels of {rows}x{cols}, each with one strict solution; bands: {bands}")
    print(f"per level: median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s "
          f"(of which rating: median {statistics.median(rating_seconds):.2f} s)")  # fmt: skip
    return 0
