"""What `flowbot serve` does with one upload, with no web framework in sight: check, read, solve, draw.

`analyse(data)` answers a dict that is one line of `flowbot solve --json` plus what the page needs:
`overlay` (the solution drawn over the screenshot, a PNG data URL), `game`, `image` (its size),
`grid` (where a square board's lines lie, in pixels; null for other boards), `centres` (every
cell's pixel middle), `hints` (one entry per flow, in the order a hint reveals them: its cells and
the pixel points of its pipe) and `file` (the puzzle as flowbot JSON). A Number Match screenshot
answers the same keys with `game: "numbermatch"` (see `flowbot.serve.numbermatch`). Every answer has
`scale`: how many pixels of the upload one pixel of the answer spans (1, or 2, 4, 8 for a picture
over WORK_PIXELS, read shrunk; `image` is then the shrunk size, and every point is on it).
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Callable, Sequence

import numpy as np

from flowbot.errors import CaptureError, FlowbotError
from flowbot.formats import image_format, puzzle_to_json

# The largest upload accepted. A phone screenshot is 0.2-3 MB, a 12-megapixel phone photo 3-6 MB.
MAX_UPLOAD_BYTES = 16 * 1024 * 1024

# Larger than this, an image is refused from its header, before a pixel is decoded. A phone photo is
# 12 MP (36 MB decoded); a PNG of a few kilobytes can claim 100000x100000 (30 GB decoded).
MAX_UPLOAD_PIXELS = 24_000_000

# The pixels a worker reads at most: the cost of reading grows faster than the pixel count (a black
# 24-megapixel PNG of 70 KB took 3-9 s), so a larger picture is decoded at a half, a quarter or an
# eighth of its size, chosen from its header. Every screenshot known is under 3.7 megapixels; a
# 12-megapixel phone photo is read at 3.
WORK_PIXELS = 4_000_000

# A screenshot's board solves in milliseconds; a misread giant board must not hold a worker for long.
SOLVE_TIMEOUT = 20.0

# The name a screenshot gets in the puzzle file when the upload gives none worth keeping.
DEFAULT_NAME = "upload"

# Games drawn on a light background, tried first on a light picture; and what "light" is. Every Flow
# screenshot known (dark boards) has a median grey under 90, every Number Match one (white grid, also
# photos of a phone) over 95.
LIGHT_GAMES = frozenset({"numbermatch"})
LIGHT_MEDIAN = 92


class RefusedUpload(FlowbotError):
    """An upload refused before any reading: empty, too large, not an image, or too many pixels."""

    def __init__(self, message: str, http_status: int) -> None:
        super().__init__(message)
        self.http_status = http_status

    def __reduce__(self):
        """Rebuilt whole when it comes back from a worker process."""
        return RefusedUpload, (str(self), self.http_status)


def analyse(data: bytes, name: str | None = None, *, timeout: float = SOLVE_TIMEOUT) -> dict:
    """Check, decode, read, solve and draw one uploaded screenshot; the page's and the API's answer.

    Raises RefusedUpload for bytes that are refused unread, CaptureError when no game's board reads.
    `name` is only a label for the puzzle file (never used as a path).
    """
    width, height = check_upload(data)
    factor = reduction(width, height)
    frame = decode_reduced(data, factor)
    label = safe_name(name)
    errors: list[FlowbotError] = []
    for _game, reader in likely_first(frame, game_readers()):
        try:
            return {**reader(frame, data, label, timeout), "scale": factor}
        except CaptureError as error:
            errors.append(error)
    # The trouble of the game the picture looks like is the one told: that reader names what it
    # looked for and saw.
    raise errors[0]


def analysed_json(data: bytes, name: str | None) -> bytes:
    """`analyse` as compact JSON bytes, made where the analysis runs: the megabyte of JSON that the
    overlay makes would otherwise hold the server's event loop."""
    return json.dumps(analyse(data, name), ensure_ascii=False, separators=(",", ":")).encode()


Reader = Callable[[np.ndarray, bytes, str, float], dict]


def game_readers() -> Sequence[tuple[str, Reader]]:
    """Each game's screenshot analyser, in the order tried on a dark picture; the first that reads the
    image answers. Each answers the same keys (`game` says which); a CaptureError passes it on."""
    from flowbot.serve.numbermatch import analyse_numbermatch

    return (("flow", analyse_flow), ("numbermatch", analyse_numbermatch))


def likely_first(frame: np.ndarray, readers: Sequence[tuple[str, Reader]]) -> list[tuple[str, Reader]]:
    """The readers with the games drawn on a light background first when the picture is light.

    Only the order changes (every reader is still tried), but it matters for time: Flow's readers
    search a Number Match photo for seconds before they give up, while Number Match's reader refuses
    a Flow screenshot in a tenth of a second.
    """
    if not looks_light(frame):
        return list(readers)
    return sorted(readers, key=lambda entry: entry[0] not in LIGHT_GAMES)


def looks_light(frame: np.ndarray) -> bool:
    """True when the picture's median brightness is light (judged on every 8th pixel: cheap)."""
    sample = frame[::8, ::8]
    return float(np.median(sample.mean(axis=2))) >= LIGHT_MEDIAN


def reduction(width: int, height: int) -> int:
    """By how much a picture of width x height is shrunk to be read within WORK_PIXELS: 1, 2, 4 or 8
    (the factors a decoder can shrink by as it decodes)."""
    for factor in (1, 2, 4):
        if width * height <= WORK_PIXELS * factor * factor:
            return factor
    return 8


def decode_reduced(data: bytes, factor: int) -> np.ndarray:
    """The upload's pixels, (H / factor, W / factor, 3) uint8 BGR; a JPEG is shrunk while it is decoded,
    so its full-size pixels are never held. CaptureError if damaged or tiny."""
    from flowbot.capture.image import MIN_SIDE, decode_image

    if factor == 1:
        return decode_image(data)
    import cv2

    flags = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}
    frame = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags[factor])
    if frame is None:
        raise CaptureError("the image data cannot be decoded")
    if min(frame.shape[:2]) < MIN_SIDE:
        raise CaptureError(f"the image, shrunk {factor} times to be read, is too small to hold a board")
    return frame


def check_upload(data: bytes) -> tuple[int, int]:
    """Refuse an upload that is empty, too large, not an image, or holds too many pixels (from its
    header); else its (width, height)."""
    from flowbot.capture.image import image_size

    if not data:
        raise RefusedUpload("the upload is empty: choose a screenshot", 400)
    if len(data) > MAX_UPLOAD_BYTES:
        raise RefusedUpload(
            f"the file is {len(data) / 1e6:.1f} MB, over the {MAX_UPLOAD_BYTES // 2**20} MB limit", 413
        )
    kind = image_format(data)
    if kind is None:
        raise RefusedUpload("the file is not an image: upload a PNG or JPEG screenshot", 415)
    width, height = image_size(data, kind)
    if width * height > MAX_UPLOAD_PIXELS:
        raise RefusedUpload(
            f"the image is {width}x{height} px, over the {MAX_UPLOAD_PIXELS // 1_000_000} megapixel "
            "limit; refused before decoding",
            413,
        )
    return width, height


def safe_name(name: str | None) -> str:
    """The upload's file name as a label: its last component, printable, at most 100 characters."""
    if not name:
        return DEFAULT_NAME
    last = name.replace("\\", "/").rsplit("/", 1)[-1]
    printable = "".join(char for char in last if char.isprintable()).strip()
    return printable[:100] or DEFAULT_NAME


def analyse_flow(frame: np.ndarray, data: bytes, name: str, timeout: float) -> dict:
    """Read any Flow board on the frame (square, Bridges, Hexes, Warps, walls, Shapes), solve it, and
    answer the `solve --json` keys plus the page's.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    from flowbot.capture.overlay import draw_cells_overlay, draw_overlay, draw_shapes_overlay, encode_png
    from flowbot.capture.screenshot import read_screenshot, screenshot_source
    from flowbot.modes.solve_files import Outcome, outcome_record
    from flowbot.solve.sat import solve

    started = time.perf_counter()
    reading = read_screenshot(frame)
    height, width = frame.shape[:2]
    geometry = reading.geometry
    source = screenshot_source(data, name, frame, reading)
    grid = source.details.get("grid")
    puzzle = reading.puzzle.with_source(source)
    result = solve(puzzle, timeout=timeout)
    record = outcome_record(Outcome(name, 0, puzzle, result))
    record.setdefault("error", _unsolved_message(result.status, timeout))
    solution = result.solution if result.status == "solved" else None
    if geometry is not None:
        picture = draw_overlay(frame, geometry, reading.seen_rgb, solution)
    elif reading.shapes is not None:
        picture = draw_shapes_overlay(frame, reading.shapes, reading.seen_rgb, solution)
    else:
        picture = draw_cells_overlay(frame, reading.centres, reading.cell_size, reading.seen_rgb, solution)
    centres = reading.centres
    record.update(
        game="flow",
        kind=puzzle.kind,
        overlay="data:image/png;base64," + base64.b64encode(encode_png(picture)).decode("ascii"),
        image={"width": width, "height": height},
        name=name,
        grid=grid,
        cell_size=round(reading.cell_size, 1),
        centres=[[row, col, *_rounded(centres[row, col])] for row, col in sorted(centres)],
        endpoints=[
            {
                "label": color.label,
                "rgb": list(rgb),
                "cells": [list(cell) for cell in pair],
                "points": [_rounded(centres[cell]) for cell in pair],
            }
            for color, pair, rgb in zip(puzzle.colors, puzzle.endpoints, reading.seen_rgb, strict=True)
        ],
        hints=flow_hints(puzzle, solution, centres, reading.seen_rgb),
        file=puzzle_to_json(puzzle, solution.to_rows() if solution is not None else None),
        elapsed=round(time.perf_counter() - started, 6),
    )
    return record


def flow_hints(puzzle, solution, centres, seen_rgb) -> list[dict]:
    """One hint per flow, shortest first (a short flow is the one a person finds first), with its pipe.

    Each hint: `label`, `name` (palette name or null), `rgb` (as seen), `cells` ([row, col] from one
    endpoint to the other; a bridge cell is in both flows crossing it) and `points` ([x, y] pixel
    centres of those cells on the screenshot, from `centres`: {(row, col): (x, y)}).
    """
    if solution is None:
        return []
    hints = []
    for index, path in enumerate(solution.paths):
        color = puzzle.colors[index]
        hints.append({
            "type": "flow",
            "label": color.label,
            "name": color.name,
            "rgb": list(seen_rgb[index]),
            "cells": [list(cell) for cell in path],
            "points": [_rounded(centres[cell]) for cell in path],
        })  # fmt: skip
    hints.sort(key=lambda hint: (len(hint["cells"]), hint["label"]))
    return hints


def _rounded(point: tuple[float, float]) -> list[float]:
    """A pixel point as JSON: [x, y] to a tenth of a pixel."""
    return [round(float(point[0]), 1), round(float(point[1]), 1)]


def _unsolved_message(status: str, timeout: float) -> str | None:
    """The sentence for a board that was read but not solved (None when it was solved)."""
    if status == "unsolvable":
        return "the board as read has no solution: flowbot probably misread it (check the outline)"
    if status == "timeout":
        return f"no solution found within {timeout:g} s"
    return None
