"""`flowbot rate`: the human-style solver's verdict on each puzzle."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from flowbot.modes.solve_files import EXIT_BAD_INPUT, EXIT_SOLVED, EXIT_UNSOLVED, load_all
from flowbot.progress import Progress
from flowbot.rate.human import KINDS
from flowbot.rate.score import rate
from flowbot.solve.sat import solve

# When deduction stops, the SAT solver says whether there is a solution at all; this bounds that look.
SOLVABLE_CHECK_SECONDS = 30.0


def run_rate(paths: Sequence[str], *, as_json: bool, out: TextIO, err: TextIO, steps: bool = False) -> int:
    """Rate every puzzle of every file; 2 when an input is unreadable, else 1 when one has no solution.

    A puzzle with no solution gets no difficulty: it is reported as unsolvable. With `steps`, the
    solver's record follows: each layer's kind, how many moves it made, and their reasons.
    """
    loaded = load_all(paths, err)
    progress = Progress(len(loaded), "rating", err, enabled=as_json)
    code = EXIT_SOLVED
    for outcome in loaded:
        if outcome.puzzle is None:
            progress.clear_line()
            err.write(f"flowbot: {outcome.error}\n")
            code = EXIT_BAD_INPUT
            progress.advance()
            continue
        name = outcome.source if outcome.index == 0 else f"{outcome.source} #{outcome.index}"
        if outcome.puzzle.bridges:  # a flow crossing a bridge needs rules the rater does not have
            progress.clear_line()
            err.write(
                f"flowbot: {name}: a bridges board: the rater does not reason about flows crossing "
                "on a bridge yet (flowbot solve solves it)\n"
            )
            code = EXIT_BAD_INPUT
            progress.advance()
            continue
        rating = rate(outcome.puzzle)
        # Deduction that finishes proves a solution; when it stops, ask the solver whether one exists.
        if not rating.solved:
            status = solve(outcome.puzzle, timeout=SOLVABLE_CHECK_SECONDS).status
            if status == "unsolvable":
                code = max(code, EXIT_UNSOLVED)
                if as_json:
                    record = {"source": outcome.source, "index": outcome.index, "status": "unsolvable"}
                    record.update(puzzle=outcome.puzzle.to_rows(), difficulty=None, band=None)
                    out.write(json.dumps(record) + "\n")
                else:
                    out.write(f"{name}: {outcome.puzzle.size}, no solution: nothing to rate\n")
                out.flush()
                progress.advance(f"#{outcome.index}")
                continue
        _write_rating(outcome, name, rating, as_json, steps, out)
        out.flush()
        progress.advance(f"#{outcome.index}")
    progress.close()
    return code


def _write_rating(outcome, name: str, rating, as_json: bool, steps: bool, out: TextIO) -> None:
    """Write one puzzle's rating (a JSON line, or a line for a person), with its steps when asked."""
    if as_json:
        record = {"source": outcome.source, "index": outcome.index, "status": "rated"}
        record["puzzle"] = outcome.puzzle.to_rows()
        record.update(rating.as_dict())
        if steps:
            record["steps"] = [
                {"kind": step.kind, "moves": len(step.moves), "why": _reasons(step)} for step in rating.steps
            ]
        out.write(json.dumps(record) + "\n")
    else:
        depth = ", ".join(f"{kind} {rating.depth[kind]}" for kind in KINDS if rating.depth[kind])
        verdict = (
            "deduction solves it" if rating.solved else f"deduction stops with {rating.open_cells} cells open"
        )
        out.write(
            f"{name}: {outcome.puzzle.size}, difficulty {rating.difficulty:.1f} ({rating.band}); "
            f"{verdict}; layers: {depth or 'none'}; widest layer {rating.width} moves\n"
        )
        if steps:
            for number, step in enumerate(rating.steps, 1):
                reasons = _reasons(step)
                extra = len(reasons) - 1
                more = f" (and {extra} more reason{'s' if extra > 1 else ''})" if extra else ""
                out.write(f"  {number:3}. {step.kind}, {len(step.moves)} moves: {reasons[0]}{more}\n")


def _reasons(step) -> list[str]:
    """The distinct reasons of a step's moves, in order."""
    return list(dict.fromkeys(move[3] for move in step.moves))
