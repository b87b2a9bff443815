"""`flowbot generate`: levels with one solution, rated, optionally steered to a difficulty band."""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from flowbot.errors import UsageError
from flowbot.formats import Outputs, check_output_folder, puzzle_json_text
from flowbot.generate.levels import Level, make_level
from flowbot.generate.lines import check_size, default_colors
from flowbot.generate.variants import check_variant_size, default_variant_colors, make_variant_level
from flowbot.model import Source
from flowbot.progress import Progress
from flowbot.render import render_puzzle

# Seconds between progress lines of --hardest when stderr is not a terminal (a line also comes at
# the first candidate and every tenth of the run).
PROGRESS_EVERY = 10.0


def parse_size(text: str) -> tuple[int, int]:
    """'12x12' or '10x8' as (rows, cols)."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise UsageError(f"--size {text!r}: expected ROWSxCOLS, e.g. 8x8")
    return int(match.group(1)), int(match.group(2))


def level_rng(seed: int, index: int) -> random.Random:
    """The random source of one level: the same seed and index always give the same level."""
    return random.Random(f"flowbot-generate:{seed}:{index}")


def run_generate(
    *,
    size: str,
    colors: int | None,
    count: int,
    seed: int | None,
    difficulty: str | None,
    as_json: bool,
    out_dir: str | None,
    force: bool,
    out: TextIO,
    err: TextIO,
    terminal_colors: int,
    variant: str | None = None,
    hardest: bool = False,
    iterations: int | None = None,
    workers: int | None = None,
) -> int:
    """Generate `count` levels, print them (boards or JSON Lines) and write them to `out_dir` if given.

    With `hardest`, each level is the best of a pool optimizer's `iterations` candidates."""
    rows, cols = parse_size(size)
    _check_options(rows, cols, colors, difficulty, variant, hardest, iterations, workers)
    seed = seed if seed is not None else random.SystemRandom().randrange(10**9)
    outputs = Outputs(force=force)
    folder = check_output_folder(out_dir) if out_dir is not None else None
    if folder is not None:
        # Every level's name is known now: check them all before the first level is generated.
        outputs.claim_all(
            [(_level_path(folder, rows, cols, seed, index, variant), "") for index in range(count)]
        )
    progress = Progress(count, "generating", err, enabled=not hardest)
    for index in range(count):
        rng = level_rng(seed, index)
        if variant is not None:
            _variant_level(variant, rows, cols, colors, seed, index, rng, folder, outputs, out, as_json,
                           terminal_colors)  # fmt: skip
            progress.advance(f"#{index + 1}")
            continue
        wanted = colors if colors is not None else default_colors(rows, cols, rng)
        if hardest:
            level = _hardest(rows, cols, wanted, seed, index, iterations, workers, err)
        else:
            level = make_level(rows, cols, wanted, rng, difficulty=difficulty)
        source = Source(kind="generated", details={"seed": seed, "index": index, "size": f"{rows}x{cols}"})
        level = replace(level, puzzle=level.puzzle.with_source(source))
        if folder is not None:
            path = _level_path(folder, rows, cols, seed, index)
            outputs.write_text(path, puzzle_json_text(level.puzzle, level.solution.to_rows()))
        out.write(
            _json_line(level, seed, index) + "\n" if as_json else _text(level, seed, index, terminal_colors)
        )
        out.flush()
        progress.advance(f"#{index + 1}")
    progress.close()
    return 0


def _check_options(
    rows: int,
    cols: int,
    colors: int | None,
    difficulty: str | None,
    variant: str | None,
    hardest: bool,
    iterations: int | None,
    workers: int | None,
) -> None:
    """UsageError for a size or a mix of options that cannot be generated."""
    if variant is not None:
        if difficulty is not None:
            raise UsageError("--difficulty rates classic boards only; leave it out with --variant")
        check_variant_size(variant, rows, cols, colors)
    else:
        check_size(rows, cols, colors)
    if variant is not None and hardest:
        raise UsageError("--hardest rates classic boards only; leave it out with --variant")
    if not hardest and (iterations is not None or workers is not None):
        raise UsageError("--iterations and --workers go with --hardest")


def _hardest(rows, cols, colors, seed, index, iterations, workers, err: TextIO) -> Level:
    """One run of the pool optimizer, its progress on stderr (a bar on a terminal, else a line at the
    first candidate, every tenth and every PROGRESS_EVERY seconds, with an estimate of the time
    left), and its figures at the end."""
    from flowbot.generate.optimize import DEFAULT_ITERATIONS, hardest

    total = iterations or DEFAULT_ITERATIONS
    bar = Progress(total, f"level {index + 1}: optimizing", err)
    step = max(1, total // 10)
    started = time.perf_counter()
    said = [started]  # when the last line was written
    best_seen: list = []
    if not bar.enabled:
        err.write(
            f"level {index + 1}: rating {total} candidate(s) of {rows}x{cols}, {colors} colours; a line "
            "with an estimate follows the first one rated\n"
        )
        err.flush()

    def report(done: int, best) -> None:
        best_seen[:] = [best]

    def rated(done: int) -> None:
        now = time.perf_counter()
        elapsed = now - started
        # The pool's best by what the optimizer maximizes, which never drops (its difficulty alone may).
        best = f"{best_seen[0].score:.1f}" if best_seen else None
        if done < total:
            left = f"about {elapsed / done * (total - done):.0f}s left"
        elif best is None:  # past the count, the run goes on until one candidate is fair
            left = f"still looking for a fair one, {elapsed / done:.1f}s a candidate"
        else:
            left = "finishing"
        if bar.enabled:
            bar.advance(f"best hardness {best}, {left}" if best else f"no fair one yet, {left}")
            return
        if not (done == 1 or done % step == 0 or now - said[0] >= PROGRESS_EVERY):
            return
        said[0] = now
        hardest_text = f"best hardness so far {best}" if best else "no fair one yet"
        err.write(f"level {index + 1}: {done}/{total} candidates in {elapsed:.0f}s, {hardest_text}; {left}\n")
        err.flush()

    outcome = hardest(rows, cols, colors, seed, total, workers, report, index=index, rated=rated)
    bar.close()
    pool = ", ".join(f"{difficulty:.1f}" for difficulty in outcome.pool)
    err.write(
        f"level {index + 1}: {outcome.iterations} candidates in {outcome.seconds:.1f}s on {outcome.workers} "
        f"processes ({outcome.per_second_per_core:.2f} per second per core); pool: {pool}\n"
    )
    return outcome.level


def _level_path(
    folder: Path, rows: int, cols: int, seed: int, index: int, variant: str | None = None
) -> Path:
    """Where --out saves one level: size, seed and number, so a rerun with the seed names the same files."""
    prefix = f"{variant}-" if variant is not None else ""
    return folder / f"{prefix}{rows}x{cols}-{seed}-{index + 1:03d}.json"


def _variant_level(
    variant, rows, cols, colors, seed, index, rng, folder, outputs, out, as_json, terminal_colors
) -> None:
    """Make, save and print one level of a sister game (they are not rated)."""
    wanted = colors if colors is not None else default_variant_colors(rows, cols, rng)
    level = make_variant_level(variant, rows, cols, wanted, rng)
    details = {"seed": seed, "index": index, "size": f"{rows}x{cols}", "variant": variant}
    puzzle = level.puzzle.with_source(Source(kind="generated", details=details))
    if folder is not None:
        path = _level_path(folder, rows, cols, seed, index, variant)
        outputs.write_text(path, puzzle_json_text(puzzle, level.solution.to_rows()))
    if as_json:
        record = {
            "index": index,
            "seed": seed,
            "size": puzzle.size,
            "variant": variant,
            "puzzle": json.loads(puzzle_json_text(puzzle)),
            "paths": {
                color.label: [list(cell) for cell in path]
                for color, path in zip(puzzle.colors, level.solution.paths, strict=True)
            },
            "seconds": round(level.seconds, 3),
        }
        out.write(json.dumps(record) + "\n")
    else:
        heading = f"level {index + 1} ({variant} {puzzle.size}, {len(puzzle.colors)} flows, seed {seed})"
        out.write(f"{heading}\n{render_puzzle(puzzle, terminal_colors)}\n")
    out.flush()


def _json_line(level: Level, seed: int, index: int) -> str:
    """The JSON Lines record of one level."""
    puzzle = level.puzzle
    record = {
        "index": index,
        "seed": seed,
        "size": puzzle.size,
        "puzzle": puzzle.to_rows(),
        "solution": level.solution.to_rows(),
        "colors": {color.label: color.name for color in puzzle.colors},
        "difficulty": round(level.rating.difficulty, 2),
        "band": level.rating.band,
        "rating": level.rating.as_dict(),
        "seconds": round(level.seconds, 3),
    }
    return json.dumps(record)


def _text(level: Level, seed: int, index: int, terminal_colors: int) -> str:
    """A heading and the drawn board of one level."""
    rating = level.rating
    heading = (
        f"level {index + 1} ({level.puzzle.size}, {len(level.puzzle.colors)} flows, seed {seed}): "
        f"difficulty {rating.difficulty:.1f} ({rating.band})"
    )
    return f"{heading}\n{render_puzzle(level.puzzle, terminal_colors)}\n"
