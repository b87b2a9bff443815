"""`flowbot solve`: solve every puzzle in the given files and report each as text or JSON Lines."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from flowbot.errors import FlowbotError, UsageError
from flowbot.formats import Outputs
from flowbot.loader import empty_folder_error, puzzle_inputs, read_entries
from flowbot.model import Puzzle, Solution
from flowbot.modes.solve_image import check_overlay_path, is_image_file, write_overlay
from flowbot.progress import Progress
from flowbot.render import render_puzzle, render_solution
from flowbot.solve.sat import SolveResult, expect, solve

# typing is for the type checker alone: its import is a few percent of a small solve's start-up.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

# Exit codes of the solve contract: worst outcome wins.
EXIT_SOLVED, EXIT_UNSOLVED, EXIT_BAD_INPUT = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Outcome:
    """One puzzle's fate: where it came from, the puzzle, and the result or the error."""

    source: str
    index: int
    puzzle: Puzzle | None
    result: SolveResult | None
    error: str | None = None

    @property
    def status(self) -> str:
        """`solved`, `unsolvable`, `timeout` or `error`."""
        return "error" if self.result is None else self.result.status


def load_all(paths: Sequence[str], err: TextIO | None = None, images_only: bool = False) -> list[Outcome]:
    """Read every puzzle of every file (folders give the files that hold puzzles, see `puzzle_inputs`;
    how many they skipped is said on `err`); unreadable ones become error outcomes."""
    inputs = puzzle_inputs(paths, images_only=images_only)
    for note in inputs.notes() if err is not None else ():
        err.write(f"flowbot: {note}\n")
    loaded = []
    for path in inputs.files:
        if os.path.isdir(path):
            loaded.append(Outcome(path, 0, None, None, empty_folder_error(path, inputs)))
            continue
        try:
            entries = read_entries(path)
        except FlowbotError as error:
            loaded.append(Outcome(path, 0, None, None, str(error)))
            continue
        for entry in entries:
            error = None if entry.error is None else str(entry.error)
            loaded.append(Outcome(path, entry.source.index, entry.puzzle, None, error))
    return loaded


def solve_outcomes(
    loaded: Sequence[Outcome], *, unique: bool = False, timeout: float | None = None
) -> Iterator[Outcome]:
    """Solve each loaded puzzle in order; error outcomes pass through unchanged."""
    expect(outcome.puzzle for outcome in loaded if outcome.puzzle is not None)
    for outcome in loaded:
        if outcome.puzzle is None:
            yield outcome
            continue
        result = solve(outcome.puzzle, unique=unique, timeout=timeout)
        yield Outcome(outcome.source, outcome.index, outcome.puzzle, result)


def outcome_record(outcome: Outcome, unique: bool = False) -> dict:
    """The JSON Lines record of one outcome, in the documented key order."""
    puzzle, result = outcome.puzzle, outcome.result
    solution = result.solution if result is not None and result.status == "solved" else None
    record: dict = {
        "source": outcome.source,
        "index": outcome.index,
        "status": outcome.status,
        "puzzle": puzzle.to_rows() if puzzle is not None else None,
        "solution": solution.to_rows() if solution is not None else None,
        "paths": {},
        "colors": {},
        "seconds": round(result.seconds, 6) if result is not None else 0.0,
    }
    if puzzle is not None:
        record["colors"] = {color.label: color.name for color in puzzle.colors if color.name}
    if solution is not None:
        record["paths"] = {
            puzzle.colors[index].label: [list(cell) for cell in path]
            for index, path in enumerate(solution.paths)
        }
        record["strict"] = result.strict
    if puzzle is not None and puzzle.kind == "shapes":
        record["graph"] = shapes_graph(puzzle, solution)
    if unique and result is not None:
        record["unique"] = result.unique
    if outcome.error is not None:
        record["error"] = outcome.error
    return record


def shapes_graph(puzzle: Puzzle, solution: Solution | None) -> dict:
    """A Shapes board as a graph (its cell n is the puzzle's [0, n]): each cell's middle in the
    screenshot's pixels (when read from one), the pairs of neighbours, and each colour's path as cell
    numbers."""
    details = puzzle.source.details if puzzle.source is not None else {}
    paths = {}
    for index, path in enumerate(solution.paths if solution is not None else ()):
        paths[puzzle.colors[index].label] = [cell[1] for cell in path]
    return {
        "cells": details.get("cells"),
        "neighbours": sorted([a[1], b[1]] for a, b in puzzle.links()),
        "paths": paths,
    }


def exit_code(outcomes: Sequence[Outcome]) -> int:
    """0 when all solved, 1 when some had no solution in time, 2 when some input was unreadable."""
    statuses = {outcome.status for outcome in outcomes}
    if "error" in statuses:
        return EXIT_BAD_INPUT
    if statuses - {"solved"}:
        return EXIT_UNSOLVED
    return EXIT_SOLVED


def run_solve(
    paths: Sequence[str],
    *,
    as_json: bool,
    unique: bool,
    timeout: float | None,
    out: TextIO,
    err: TextIO,
    colors: int,
    overlay: str | None = None,
    force: bool = False,
) -> int:
    """Solve, print each outcome as it comes (JSON Lines or boards), and return the exit code.

    The overlay file is checked before anything is read or solved: never the screenshot itself, and
    an existing file only with `force`.
    """
    outputs = Outputs(force=force, inputs=paths)
    if overlay is not None:
        if len(paths) != 1 or not is_image_file(paths[0]):
            raise UsageError("--overlay needs exactly one screenshot (PNG or JPEG) to draw on")
        check_overlay_path(overlay)
        outputs.claim(overlay, "the overlay")
    outcomes = []
    loaded = load_all(paths, err)
    # Boards go to the terminal in text mode, so the bar would only get in their way there.
    progress = Progress(len(loaded), "solving", err, enabled=as_json)
    for outcome in solve_outcomes(loaded, unique=unique, timeout=timeout):
        outcomes.append(outcome)
        if outcome.error is not None:
            progress.clear_line()
            err.write(f"flowbot: {outcome.error}\n")
        if as_json:
            import json  # only --json needs it: here it is no cost to a text solve's start-up

            # ASCII JSON (json's default): valid UTF-8 in any locale, a file name's bytes that are not
            # UTF-8 escaped as \udcXX (which json.loads gives back as the same name).
            out.write(json.dumps(outcome_record(outcome, unique)) + "\n")
            out.flush()
            progress.advance(f"{outcome.source} #{outcome.index}")
        elif outcome.puzzle is not None:
            out.write(_text_report(outcome, unique, colors))
            out.flush()
    progress.close()
    if overlay is not None and outcomes[0].puzzle is not None:
        result = outcomes[0].result
        write_overlay(paths[0], result.solution if result is not None else None, overlay, outputs)
        err.write(f"overlay written to {overlay}\n")
    return exit_code(outcomes)


def _text_report(outcome: Outcome, unique: bool, colors: int) -> str:
    """A heading line and the drawn board for one puzzle."""
    puzzle, result = outcome.puzzle, outcome.result
    assert puzzle is not None and result is not None
    name = outcome.source if outcome.index == 0 else f"{outcome.source} #{outcome.index}"
    flows = f"{len(puzzle.colors)} flows"
    size = f"{puzzle.size} {puzzle.kind}" if puzzle.is_graph else puzzle.size
    if puzzle.kind == "shapes":  # one row of cells joined by their links: the count says it
        size = f"{puzzle.cell_count} cells shapes"
    timing = f"{result.seconds * 1000:.1f} ms"
    if result.status == "solved" and result.solution is not None:
        notes = [] if result.strict else ["paths touch themselves"]
        if unique:
            notes.append("unique" if result.unique else "more than one solution")
        extra = f" ({', '.join(notes)})" if notes else ""
        heading = f"{name}: {size}, {flows}, solved in {timing}{extra}"
        return f"{heading}\n{render_solution(result.solution, colors)}\n"
    verdict = "no solution" if result.status == "unsolvable" else "timed out"
    return f"{name}: {size}, {flows}, {verdict} after {timing}\n{render_puzzle(puzzle, colors)}\n"
