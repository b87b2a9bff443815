"""`flowbot convert`: rewrite puzzle files of any supported format as flowbot JSON or text grids."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from flowbot.errors import FlowbotError
from flowbot.formats import (
    Outputs,
    check_output_folder,
    expand_folders,
    puzzle_json_text,
    text_grid_file_text,
)
from flowbot.graph_text import graph_text
from flowbot.modes.solve_files import EXIT_BAD_INPUT, EXIT_SOLVED, Outcome, load_all

SUFFIX = {"json": ".json", "grid": ".txt", "graph": ".txt"}


def output_name(outcome: Outcome, count_in_file: int, to: str) -> str:
    """The file name for one converted puzzle: the input's stem, numbered when a file held several."""
    stem = Path(outcome.source).stem
    if count_in_file > 1:
        stem = f"{stem}-{outcome.index + 1:03d}"
    return stem + SUFFIX[to]


def run_convert(
    paths: Sequence[str], *, out_dir: str, to: str, force: bool, err: TextIO, images_only: bool = False
) -> int:
    """Write each readable puzzle into `out_dir`, after checking every output name (see `Outputs`).

    All outputs are claimed before the first is written: a name two inputs would share, an input that
    would be written over, or an existing file without `force` stops the run with nothing written.
    With `images_only` (`flowbot read`), inputs that are not screenshots are refused one by one.
    """
    folder = Path(out_dir)
    outputs = Outputs(force=force, inputs=expand_folders(paths))
    # The folder itself is checked before the (possibly slow) reading of every screenshot.
    check_output_folder(folder)
    loaded = load_all(paths, err, images_only=images_only)
    per_file: dict[str, int] = {}
    for outcome in loaded:
        per_file[outcome.source] = per_file.get(outcome.source, 0) + 1
    code = EXIT_SOLVED
    planned: list[tuple[Path, Outcome]] = []
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
        planned.append((target, outcome))
    texts = []
    for target, outcome in planned:
        try:
            if to == "json":
                text = puzzle_json_text(outcome.puzzle)
            elif to == "graph":
                text = graph_text(outcome.puzzle, str(target))
            else:
                text = text_grid_file_text(outcome.puzzle, target)
        except FlowbotError as error:
            err.write(f"flowbot: {error}\n")
            code = EXIT_BAD_INPUT
            continue
        texts.append((target, _describe(outcome), text))
    outputs.claim_all([(target, what) for target, what, _ in texts])
    written = 0
    for target, _, text in texts:
        outputs.write_text(target, text)
        written += 1
    err.write(f"wrote {written} of {len(loaded)} puzzle(s) to {folder}\n")
    return code


def _describe(outcome: Outcome) -> str:
    """Which input a puzzle came from, for a message about its output."""
    return outcome.source if outcome.index == 0 else f"{outcome.source} #{outcome.index + 1}"
