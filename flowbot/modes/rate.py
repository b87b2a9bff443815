"""`flowbot rate`: the human-style solver's verdict on each puzzle."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from flowbot.modes.solve_files import EXIT_BAD_INPUT, EXIT_SOLVED, load_all
from flowbot.progress import Progress
from flowbot.rate.human import KINDS
from flowbot.rate.score import rate


def run_rate(paths: Sequence[str], *, as_json: bool, out: TextIO, err: TextIO) -> int:
    """Rate every puzzle of every file; unreadable inputs are reported and make the exit status 2."""
    loaded = load_all(paths)
    progress = Progress(len(loaded), "rating", err, enabled=as_json)
    code = EXIT_SOLVED
    for outcome in loaded:
        if outcome.puzzle is None:
            progress.clear_line()
            err.write(f"flowbot: {outcome.error}\n")
            code = EXIT_BAD_INPUT
            progress.advance()
            continue
        rating = rate(outcome.puzzle)
        if as_json:
            record = {"source": outcome.source, "index": outcome.index, "puzzle": outcome.puzzle.to_rows()}
            record.update(rating.as_dict())
            out.write(json.dumps(record) + "\n")
        else:
            name = outcome.source if outcome.index == 0 else f"{outcome.source} #{outcome.index}"
            depth = ", ".join(f"{kind} {rating.depth[kind]}" for kind in KINDS if rating.depth[kind])
            verdict = (
                "deduction solves it"
                if rating.solved
                else f"deduction stops with {rating.open_cells} cells open"
            )
            out.write(
                f"{name}: {outcome.puzzle.size}, difficulty {rating.difficulty:.1f} ({rating.band}); "
                f"{verdict}; layers: {depth or 'none'}; widest layer {rating.width} moves\n"
            )
        out.flush()
        progress.advance(f"#{outcome.index}")
    progress.close()
    return code
