"""`flowbot convert`: rewrite puzzle files of any supported format as flowbot JSON or text grids."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from flowbot.errors import FlowbotError, OutputFileError
from flowbot.formats import make_folder, write_puzzle_json, write_text_grid
from flowbot.modes.solve_files import EXIT_BAD_INPUT, EXIT_SOLVED, Outcome, load_all

SUFFIX = {"json": ".json", "grid": ".txt"}


def output_name(outcome: Outcome, count_in_file: int, to: str) -> str:
    """The file name for one converted puzzle: the input's stem, numbered when a file held several."""
    stem = Path(outcome.source).stem
    if count_in_file > 1:
        stem = f"{stem}-{outcome.index + 1:03d}"
    return stem + SUFFIX[to]


def run_convert(
    paths: Sequence[str], *, out_dir: str, to: str, force: bool, err: TextIO, images_only: bool = False
) -> int:
    """Write each readable puzzle into `out_dir`; never overwrite unless forced, and report each failure.

    With `images_only` (`flowbot read`), inputs that are not screenshots are refused one by one.
    """
    folder = make_folder(out_dir)
    loaded = load_all(paths)
    per_file: dict[str, int] = {}
    for outcome in loaded:
        per_file[outcome.source] = per_file.get(outcome.source, 0) + 1
    code = EXIT_SOLVED
    written = 0
    for outcome in loaded:
        if outcome.puzzle is None:
            err.write(f"flowbot: {outcome.error}\n")
            code = EXIT_BAD_INPUT
            continue
        if images_only and (outcome.puzzle.source is None or outcome.puzzle.source.kind != "image"):
            err.write(f"flowbot: {outcome.source}: not a screenshot (PNG or JPEG)\n")
            code = EXIT_BAD_INPUT
            continue
        target = folder / output_name(outcome, per_file[outcome.source], to)
        try:
            if target.exists() and not force:
                raise OutputFileError(f"{target}: already exists (use --force to replace it)")
            if to == "json":
                write_puzzle_json(outcome.puzzle, target)
            else:
                write_text_grid(outcome.puzzle, target)
        except FlowbotError as error:
            err.write(f"flowbot: {error}\n")
            code = EXIT_BAD_INPUT
            continue
        written += 1
    err.write(f"wrote {written} of {len(loaded)} puzzle(s) to {folder}\n")
    return code
