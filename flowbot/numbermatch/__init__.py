"""Number Match: read boards, find a winning line or prove there is none, find the best score, replay it.

The pure core: `board` (the model and moves), `prune` (sound dead ends), `search` (`solve`,
`solve_best`), `score`, `files` (reading boards); `replay` draws steps as text and `cli` runs a batch.
"""

from __future__ import annotations

from flowbot.numbermatch.board import ADD, Move, apply_move, find_pairs, is_won, make_board
from flowbot.numbermatch.cli import run_numbermatch
from flowbot.numbermatch.errors import NumberMatchInputError
from flowbot.numbermatch.files import load_boards, read_boards
from flowbot.numbermatch.rules import Rules, Scoring
from flowbot.numbermatch.search import Answer, BestAnswer, solve, solve_best

__all__ = [
    "ADD",
    "Answer",
    "BestAnswer",
    "Move",
    "NumberMatchInputError",
    "Rules",
    "Scoring",
    "apply_move",
    "find_pairs",
    "is_won",
    "load_boards",
    "make_board",
    "read_boards",
    "run_numbermatch",
    "solve",
    "solve_best",
]
