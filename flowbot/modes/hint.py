"""`flowbot hint`: the next reasoning step for a puzzle file or a screenshot, drawn on the screenshot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from flowbot.errors import InputFileError, PuzzleError, UnsupportedBoardError, UsageError
from flowbot.formats import (
    atomic_write_bytes,
    check_output,
    is_image_bytes,
    read_input_bytes,
    read_text_file,
)
from flowbot.loader import puzzle_in_folder, read_entries
from flowbot.model import Puzzle
from flowbot.rate.hint import Hint, next_hint
from flowbot.solve.sat import solve


def run_hint(
    path: str,
    *,
    state: str | None,
    index: int,
    picture: str | None,
    as_json: bool,
    force: bool,
    out: TextIO,
) -> int:
    """Print the next step for the puzzle in `path` from the drawn position in `state` (none drawn
    when None); for a screenshot also write the step drawn on it to `picture`. A folder gives its
    `index`-th puzzle, its other files skipped as `solve` skips them."""
    if Path(path).is_dir():
        path, index = puzzle_in_folder(path, index)
    data = read_input_bytes(path)
    reading = None
    if is_image_bytes(data):
        from flowbot.capture.screenshot import read_screenshot_file

        reading = read_screenshot_file(data, path)
        puzzle = reading.puzzle
        target = check_output(picture or default_picture(path), force=force, inputs=[path])
    else:
        if picture is not None:
            raise UsageError("--picture needs a screenshot: a puzzle file has no picture to draw on")
        puzzle = _one_puzzle(path, index)
    if puzzle.bridges:  # the same refusal as rate's, with the same status
        raise UnsupportedBoardError(
            f"{path}: a bridges board: hints do not reason about flows crossing on a bridge yet "
            "(flowbot solve solves it)"
        )
    drawn = read_text_file(state).splitlines() if state is not None else None
    # The solution only judges what was drawn; the hint itself comes from reasoning alone.
    solution = None
    if drawn is not None:
        result = solve(puzzle, allow_touching=False)
        solution = result.solution if result.status == "solved" else None
    try:
        hint = next_hint(puzzle, drawn, solution)
    except PuzzleError as error:
        raise PuzzleError(f"{state}: {error}") from None
    if as_json:
        record = {"source": path, "puzzle": puzzle.to_rows(), "hint": hint.as_dict(puzzle)}
        record["text"] = hint.text(puzzle)
    if reading is not None:
        _draw_hint(data, reading, hint, puzzle, target)
        if as_json:
            record["picture"] = str(target)
    if as_json:
        out.write(json.dumps(record) + "\n")
    else:
        out.write(hint.text(puzzle) + "\n")
        if reading is not None:
            out.write(f"picture: {target}\n")
    return 0


def _draw_hint(data: bytes, reading, hint, puzzle, target) -> None:
    """Write the screenshot with the hint drawn on it to `target`: on the grid of a square board, else
    over the cells read (a Shapes board's outlines, other boards' middles)."""
    from flowbot.capture.image import decode_image
    from flowbot.capture.overlay import draw_hint, encode_png
    from flowbot.modes.hint_picture import draw_cells_hint

    frame = decode_image(data)
    step = (
        list(hint.joins),
        list(hint.colored),
        [cell for cell in hint.cells() if cell not in hint.wrong],
        list(hint.wrong),
        hint.text(puzzle),
    )
    if reading.geometry is not None:
        image = draw_hint(frame, reading.geometry, reading.seen_rgb, *step)
    else:
        image = draw_cells_hint(frame, reading, *step)
    atomic_write_bytes(target, encode_png(image))


def default_picture(path: str) -> str:
    """Where the picture of a screenshot's hint goes by default: NAME.hint.png in the current folder."""
    return f"{Path(path).stem}.hint.png"


def _one_puzzle(path: str, index: int) -> Puzzle:
    """The puzzle at `index` in a puzzle file."""
    entries = read_entries(path)
    if not 0 <= index < len(entries):
        raise InputFileError(f"{path}: has {len(entries)} puzzle(s); --index {index} is not one of them")
    entry = entries[index]
    if entry.error is not None:
        raise entry.error
    assert entry.puzzle is not None
    return entry.puzzle


__all__ = ["Hint", "default_picture", "run_hint"]
