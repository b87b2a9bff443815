"""A line of words just past the board (a level's header: its title a step above the top line, its
counters just above it) is no row of the board, though its letters' strokes line up with the lattice
and close a cell or two of a row of holes; a shaped board's own outer row of empty cells stays."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from flowbot.capture.board import Board, without_text_edges
from flowbot.capture.read import read_puzzle
from flowbot.capture.variants import read_variant
from flowbot.model import Geometry, Puzzle
from tests.boards import canonical
from tests.images import draw_board

SQUARE = (".....", "A..B.", "CBCD.", ".....", "D...A")
# Shaped boards whose top (or bottom) row is mostly holes and holds no dot: a real row all the same.
SHAPED_TOP = ("#.###", "A..B.", "CBCD.", ".....", "D...A")
SHAPED_BOTTOM = ("A..B.", "CBCD.", ".....", "D...A", "###.#")
SHAPED_LEFT = ("#A..B", ".CBCD", "#....", "#D..A")
TITLE = "level 10  5x5"
COUNTERS = "flows: 0/4  moves: 0  best: -  pipe: 0%"
GREY = (168, 168, 168)
SCREEN = (1600, 1000)
LEFT = 600


def top_of(cell: int) -> int:
    """The board's top line: room for two lines of header above it."""
    return 2 * cell + 100


def drawn(rows: tuple[str, ...], cell: int) -> np.ndarray:
    """A 1600x1000 frame (BGR) of the board: 1 px grey lines on black, as a desktop game draws it."""
    puzzle, margin = Puzzle.from_rows(list(rows)), (LEFT, top_of(cell))
    return draw_board(puzzle, cell=cell, margin=margin, size=SCREEN, line_rgb=GREY, line_width=1, hud=False)


def with_header(frame: np.ndarray, cell: int) -> np.ndarray:
    """The frame with the level's header above the board, in white: the counters a quarter of a cell
    above the top line, the title (baseline) four fifths of a cell above it."""
    top, scale = top_of(cell), cell / 100
    font, ink = cv2.FONT_HERSHEY_SIMPLEX, (255, 255, 255)
    cv2.putText(frame, COUNTERS, (LEFT + 2, top - cell // 4), font, 0.8 * scale, ink, 1, cv2.LINE_AA)
    title_at = (LEFT + cell // 2, top - round(0.8 * cell))
    cv2.putText(frame, TITLE, title_at, font, 1.1 * scale, ink, 1, cv2.LINE_AA)
    return frame


HEADED = [SQUARE, SHAPED_TOP, SHAPED_BOTTOM]
HEADED_IDS = ["square", "shaped top", "shaped bottom"]


@pytest.mark.parametrize("rows", HEADED, ids=HEADED_IDS)
@pytest.mark.parametrize("cell", [48, 64, 80])
def test_a_header_a_step_above_the_board_is_not_a_row(rows, cell):
    # At 48 and 64 px the header's letters close one cell of a row of holes above the board: the
    # board read one row too tall (6x5), the bot could not play it.
    frame = with_header(drawn(rows, cell), cell)
    assert read_puzzle(frame).puzzle.to_rows() == canonical(list(rows))


@pytest.mark.parametrize("rows", HEADED, ids=HEADED_IDS)
def test_the_variant_reader_leaves_the_header_out_too(rows):
    frame = with_header(drawn(rows, 48), 48)
    assert read_variant(frame).lines == tuple(canonical(list(rows)))


@pytest.mark.parametrize(
    "rows", [SHAPED_TOP, SHAPED_BOTTOM, SHAPED_LEFT], ids=["shaped top", "shaped bottom", "shaped left"]
)
@pytest.mark.parametrize("cell", [48, 80])
def test_an_outer_row_of_empty_cells_among_holes_stays(rows, cell):
    assert read_puzzle(drawn(rows, cell)).puzzle.to_rows() == canonical(list(rows))


def grown(rows: int, cols: int, cell: int, *, above: bool) -> Geometry:
    """The grid of a board of `rows` x `cols` drawn by `drawn`, grown by one row above it (or one
    column left of it)."""
    top, left = top_of(cell) - (cell if above else 0), LEFT - (0 if above else cell)
    xs = tuple(float(left + cell * col) for col in range(cols + 1 + (0 if above else 1)))
    ys = tuple(float(top + cell * row) for row in range(rows + 1 + (1 if above else 0)))
    return Geometry(xs, ys)


def test_a_row_of_holes_whose_cell_holds_letters_is_trimmed():
    cell = 80
    frame = drawn(SQUARE, cell)
    # Words across the place (0, 2) of the row above the board; the rest of that row are holes.
    cv2.putText(frame, "moves 0", (LEFT + 2 * cell + 4, top_of(cell) - 30), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                (255, 255, 255), 1, cv2.LINE_AA)  # fmt: skip
    board = Board(grown(5, 5, cell, above=True), frozenset({(0, 0), (0, 1), (0, 3), (0, 4)}))
    trimmed = without_text_edges(frame, board, frozenset())
    assert trimmed.geometry == Geometry(board.geometry.xs, board.geometry.ys[1:])
    assert trimmed.holes == frozenset()


def test_a_column_of_holes_whose_cell_holds_letters_is_trimmed():
    cell = 80
    frame = drawn(SQUARE, cell)
    cv2.putText(frame, "Lv", (LEFT - cell + 16, top_of(cell) + 2 * cell + 50), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                (255, 255, 255), 2, cv2.LINE_AA)  # fmt: skip
    holes = frozenset((row, 0) for row in range(5)) - {(2, 0)}
    board = Board(grown(5, 5, cell, above=False), holes)
    trimmed = without_text_edges(frame, board, frozenset())
    assert trimmed.geometry == Geometry(board.geometry.xs[1:], board.geometry.ys)


def test_a_row_of_holes_with_an_empty_cell_or_a_dot_stays():
    cell = 80
    frame = drawn(SQUARE, cell)
    # The place (0, 2) of the row above the board is as empty as a cell: a shaped board's own row.
    board = Board(grown(5, 5, cell, above=True), frozenset({(0, 0), (0, 1), (0, 3), (0, 4)}))
    assert without_text_edges(frame, board, frozenset()) == board
    # Words there, but a dot in that row: a row with an endpoint is the board's.
    cv2.putText(frame, "moves 0", (LEFT + 2 * cell + 4, top_of(cell) - 30), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                (255, 255, 255), 1, cv2.LINE_AA)  # fmt: skip
    assert without_text_edges(frame, board, frozenset({(0, 0)})) == board
