"""Which Shapes board a level is drawn on: the kind named in its source, checked against its links."""

from __future__ import annotations

from flowbot.errors import PuzzleError
from flowbot.model import Puzzle
from flowbot.shapes.board import ShapeBoard
from flowbot.shapes.kinds import SHAPES, shape_board


def board_shape(puzzle: Puzzle) -> ShapeBoard | None:
    """The cells a Shapes level is drawn with (None for a grid); PuzzleError when its links are not
    the named kind's, which would draw one board and play another."""
    if puzzle.kind != "shapes":
        return None
    details = puzzle.source.details if puzzle.source is not None else {}
    name = details.get("shape")
    if name not in SHAPES:
        raise PuzzleError(f"a Shapes level without a known kind of board to draw ({name!r})")
    board = shape_board(str(name))
    links = {((0, a), (0, b)) for a, b in board.links}
    if board.count != puzzle.cols or links != set(puzzle.shape_links):
        raise PuzzleError(f"a Shapes level whose cells are not the {name}'s")
    return board
