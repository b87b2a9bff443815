"""A screenshot of any board flowbot reads, as one reading: the classic reader for plain square boards
(the one proven on every real screenshot), the variant reader for Bridges, Hexes, Warps and walls, the
Shapes reader for boards of any other cell shape (cubes, rings, mixed cells)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from flowbot.capture.image import decode_image
from flowbot.capture.read import Reading, image_source, read_puzzle
from flowbot.capture.shapes import ShapeReading, read_shapes
from flowbot.capture.shapes.graph import hexagon_outline, lattice_graph, square_outline
from flowbot.capture.variants import VariantReading, read_variant
from flowbot.capture.variants.reading import LABELS
from flowbot.capture.variants.shapes import line_directions, looks_square, shapes_kind
from flowbot.errors import CaptureError, UnreadableBoardError
from flowbot.model import Cell, Geometry, Puzzle, Source


@dataclass(frozen=True)
class ScreenshotReading:
    """A board read from a screenshot: the puzzle, where each cell's middle is, and each colour as seen.

    geometry is the grid of a square board (None for hexes); centres hold every cell's (x, y); shapes
    is the graph of cells of a Shapes board (None for the others), its cell n the puzzle's (0, n).
    """

    puzzle: Puzzle
    centres: dict[Cell, tuple[float, float]] = field(hash=False)
    cell_size: float
    seen_rgb: tuple[tuple[int, int, int], ...]
    geometry: Geometry | None = None
    shapes: ShapeReading | None = field(default=None, compare=False)


def read_screenshot(frame: np.ndarray) -> ScreenshotReading:
    """Read the board on a screenshot, whatever its kind; CaptureError when none can be read.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    # Lines slanted as a Shapes board's are: its reader goes first (the others would look for
    # seconds, then refuse it by kind); a board it cannot read goes the usual way, and so does a
    # board whose own lines are not a Shapes board's (a square board on a desktop of slanted lines).
    shapes_first = shapes_kind(line_directions(frame)) is not None
    shapes_error: CaptureError | None = None
    if shapes_first:
        try:
            shapes = read_shapes(frame)
        except CaptureError as error:
            shapes, shapes_error = None, error
        if shapes is not None and shapes_kind(line_directions(_board_part(frame, shapes))) is not None:
            return from_shapes(shapes)
    classic: Reading | None = None
    classic_error: CaptureError | None = None
    try:
        classic = read_puzzle(frame)
    except CaptureError as error:
        classic_error = error
    try:
        variant = read_variant(frame)
    except UnreadableBoardError as error:
        if classic is not None:
            return from_classic(classic)
        # A board of a kind flowbot cannot read yet (not even as Shapes): say so, by its kind, and
        # what the Shapes reader saw.
        if shapes_error is not None:
            error = UnreadableBoardError(f"{error} (as a Shapes board: {shapes_error})")
        return _shapes_else(frame, error, shapes_first)
    except CaptureError:
        if classic is not None:
            return from_classic(classic)
        # The classic reader names what it looked for and saw.
        return _shapes_else(frame, classic_error, shapes_first)
    if classic is not None and variant.kind == "square" and not variant.walls:
        return from_classic(classic)
    return from_variant(variant)


def _shapes_else(frame: np.ndarray, error: CaptureError, tried: bool) -> ScreenshotReading:
    """A board that neither the square nor the hex reader reads, read by the Shapes reader if it was
    not tried first and its board's own lines are not level and upright (a square board is the
    square readers' to read or refuse); else `error` raised."""
    if not tried:
        try:
            shapes = read_shapes(frame)
        except CaptureError:
            shapes = None
        if shapes is not None and not looks_square(line_directions(_board_part(frame, shapes))):
            return from_shapes(shapes)
    raise error from None


def _board_part(frame: np.ndarray, shapes: ShapeReading) -> np.ndarray:
    """The part of the frame a Shapes board's cells cover."""
    corners = np.concatenate([cell.outline for cell in shapes.cells])
    (left, top), (right, bottom) = corners.min(axis=0), corners.max(axis=0)
    return frame[top : bottom + 1, left : right + 1]


def read_screenshot_file(data: bytes, path: str) -> ScreenshotReading:
    """Read the board in an image file's bytes; the puzzle's source records the image, its size and the
    grid (square boards)."""
    frame = decode_image(data)
    reading = read_screenshot(frame)
    source = screenshot_source(data, path, frame, reading)
    return ScreenshotReading(
        reading.puzzle.with_source(source),
        reading.centres,
        reading.cell_size,
        reading.seen_rgb,
        reading.geometry,
        reading.shapes,
    )


def screenshot_source(data: bytes, path: str, frame: np.ndarray, reading: ScreenshotReading) -> Source:
    """Where a board read from an image file came from (see `image_source`); a Shapes board's cells'
    middles too, in pixels: its cells lie nowhere else."""
    source = image_source(data, path, frame, reading.geometry)
    if reading.shapes is None:
        return source
    cells = [[round(x, 1), round(y, 1)] for x, y in reading.shapes.centres]
    return replace(source, details={**source.details, "cells": cells})


def graph_of(reading: ScreenshotReading) -> ShapeReading:
    """Any board read as a graph of cells, each with its pixel outline and middle: a Shapes board as
    read; a square or hex board from its lattice (its cells' keys the puzzle's (row, col))."""
    if reading.shapes is not None:
        return reading.shapes
    puzzle, size, geometry = reading.puzzle, reading.cell_size, reading.geometry

    def outline(key: Cell) -> np.ndarray:
        """A cell's polygon: a hexagon, the grid's own square, or a square around its middle."""
        if puzzle.hex_lower is not None:
            return hexagon_outline(reading.centres[key], size)
        if geometry is None:
            return square_outline(reading.centres[key], size)
        (left, right), (top, bottom) = geometry.xs[key[1] : key[1] + 2], geometry.ys[key[0] : key[0] + 2]
        return np.rint([(left, top), (right, top), (right, bottom), (left, bottom)])

    keys = list(puzzle.cells())
    rows = puzzle.to_rows()
    letters = {key: rows[key[0]][key[1]] for key in keys}
    names = tuple(color.name for color in puzzle.colors)
    links = puzzle.links()
    return lattice_graph(keys, reading.centres, links, letters, outline, size, names, reading.seen_rgb)


def from_classic(reading: Reading) -> ScreenshotReading:
    """A square board read by the classic reader."""
    geometry = reading.geometry
    centres = {
        (row, col): geometry.center((row, col))
        for row in range(geometry.rows)
        for col in range(geometry.cols)
    }
    return ScreenshotReading(reading.puzzle, centres, geometry.cell_size, reading.seen_rgb, geometry)


def from_variant(reading: VariantReading) -> ScreenshotReading:
    """A board read by the variant reader, built into a puzzle of its kind."""
    letters = sorted({char for line in reading.lines for char in line if char in LABELS}, key=LABELS.index)
    names = dict(zip(letters, reading.names, strict=False)) if reading.names else None
    walls = [tuple(sorted(pair)) for pair in reading.walls]
    puzzle = Puzzle.from_lines(reading.kind, reading.lines, walls, reading.warps, names)
    return ScreenshotReading(puzzle, dict(reading.centres), reading.cell_size, reading.seen_rgb, None)


def from_shapes(reading: ShapeReading) -> ScreenshotReading:
    """A board of any cell shape, built into a Shapes puzzle: cell n is (0, n)."""
    letters = sorted({char for char in reading.letters if char in LABELS}, key=LABELS.index)
    names = dict(zip(letters, reading.names, strict=False)) if reading.names else None
    puzzle = Puzzle.from_shapes(reading.letters, reading.neighbours, names)
    centres = {(0, index): centre for index, centre in enumerate(reading.centres)}
    return ScreenshotReading(puzzle, centres, reading.cell_size, reading.seen_rgb, None, reading)
