"""The bundled Number Match game's state, pure: the board with each digit's look, selection, adds,
score, stages, and one result per board. The window (flowbot.game.numbermatch) only draws and clicks.

Each slot keeps its digit after it is cleared (the game shows it faint) and whether "+" added it
(shown blue). The rules are the solver's own (`find_pairs`, row removal, `_add` order), so what the
game accepts is exactly what the solver plans.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from flowbot.numbermatch.board import ADD, _remove, apply_move, find_pairs, rows_of
from flowbot.numbermatch.rules import DEFAULT_SCORING, Rules, Scoring
from flowbot.numbermatch.score import pair_points
from flowbot.numbermatch.search import WON, solve

STARTS = (27, 35)  # digits on a new board: the phone game's three rows, or its longer start
# A new board is drawn again until the solver finds a win within this many positions: a count, not
# seconds, so a seed deals the same boards on a slow or busy machine as on a fast one. Under the phone
# game's rules 99 % of random boards win within 1,500 positions; without diagonals about a fifth do
# within this many, so a board takes a few draws there (scripts/bench_numbermatch.py --nodes).
WINNABLE_NODES = 60_000
WINNABLE_TRIES = 40


@dataclass(slots=True)
class Slot:
    """One slot of the board: its digit, whether it is cleared, whether "+" put it there (blue)."""

    digit: int
    cleared: bool = False
    blue: bool = False


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One board's line of the results file."""

    stage: int
    board: tuple[str, ...]
    cleared: bool
    moves: int
    adds_used: int
    score: int

    def to_json(self) -> str:
        """The JSON line: {"stage", "board", "cleared", "moves", "adds_used", "score"}."""
        return json.dumps(
            {
                "stage": self.stage,
                "board": list(self.board),
                "cleared": self.cleared,
                "moves": self.moves,
                "adds_used": self.adds_used,
                "score": self.score,
            }
        )


def new_digits(rng: random.Random, count: int, rules: Rules) -> list[int]:
    """A fresh board of `count` digits 1-9 that the solver can clear under the rules the game plays
    (drawn again when it cannot)."""
    played = replace(rules, ends_without_pairs=ends_without_pairs(rules))
    digits = [rng.randint(1, 9) for _ in range(count)]
    for _ in range(WINNABLE_TRIES):
        if solve(digits, played, nodes=WINNABLE_NODES).status == WON:
            break
        digits = [rng.randint(1, 9) for _ in range(count)]
    return digits


def ends_without_pairs(rules: Rules) -> bool:
    """Whether the game ends a board the moment no pair is left: only when its rules say so (not
    known is played as the phone game, which lets "+" be pressed then)."""
    return rules.ends_without_pairs is True


@dataclass
class NumberMatchGame:
    """A game: stages one after another, each a new board; clicks select and clear, "+" adds."""

    rng: random.Random
    start: int = 27
    rules: Rules = field(default_factory=Rules)
    scoring: Scoring = DEFAULT_SCORING
    report: Callable[[BoardResult], None] | None = None  # called with each board's result as it is left
    stage: int = 1
    score: int = 0
    slots: list[Slot] = field(default_factory=list)
    selected: int | None = None
    adds_left: int = 0
    moves: int = 0
    first_rows: tuple[str, ...] = ()
    stage_score: int = 0  # the score when this board began

    def __post_init__(self) -> None:
        """Deal the first board."""
        self.deal()

    # --- what is shown ---------------------------------------------------------------------------

    @property
    def cells(self) -> tuple[int, ...]:
        """The board as the solver sees it: digits, 0 for a cleared slot."""
        return tuple(0 if slot.cleared else slot.digit for slot in self.slots)

    @property
    def row_count(self) -> int:
        """Rows of the board (the last may be part full)."""
        return -(-len(self.slots) // self.rules.width)

    def rows_text(self) -> tuple[str, ...]:
        """The board as truth-file rows: digits, '.' cleared, '_' for the empty slots after the last."""
        return board_text(self.cells, self.rules.width)

    @property
    def stuck(self) -> bool:
        """No pair left and no add left (or a game that ends when no pair is left): the board is over."""
        if not self.slots or find_pairs(self.cells, self.rules):
            return False
        return self.adds_left == 0 or ends_without_pairs(self.rules)

    @property
    def ended_early(self) -> bool:
        """The board is over with adds unused (the rules end a board the moment no pair is left)."""
        return self.stuck and self.adds_left > 0

    # --- actions ---------------------------------------------------------------------------------

    def deal(self) -> None:
        """A new board for the current stage."""
        digits = new_digits(self.rng, self.start, self.rules)
        self.slots = [Slot(digit) for digit in digits]
        self.selected = None
        self.adds_left = self.rules.adds
        self.moves = 0
        self.first_rows = self.rows_text()
        self.stage_score = self.score

    def click(self, index: int | None) -> bool:
        """A click on slot `index` (None: off the board). Returns True when it cleared a pair."""
        if index is None or not 0 <= index < len(self.slots) or self.slots[index].cleared:
            self.selected = None
            return False
        if self.selected is None or self.selected == index:
            self.selected = None if self.selected == index else index
            return False
        a, b = sorted((self.selected, index))
        if (a, b) not in find_pairs(self.cells, self.rules):
            self.selected = index  # the phone game moves the selection to the new cell
            return False
        self.selected = None
        self._clear(a, b)
        return True

    def add(self) -> bool:
        """The "+" button: append digits (blue) after the last slot as the rules add them (a copy of
        the live ones, or a generated row); False when none are left, or refused while a pair is
        left where the rules add only when stuck, or on a board that is over."""
        if self.adds_left <= 0 or not self.slots or self.stuck:
            return False
        if self.rules.add_when_stuck and find_pairs(self.cells, self.rules):
            return False
        cells = self.cells
        added = apply_move(cells, ADD, self.rules)[len(cells) :]
        self.slots.extend(Slot(digit, blue=True) for digit in added)
        self.adds_left -= 1
        self.moves += 1
        self.selected = None
        return True

    def leave(self, cleared: bool) -> BoardResult:
        """Report this board (cleared or not) and return its result."""
        result = BoardResult(
            self.stage,
            self.first_rows,
            cleared,
            self.moves,
            self.rules.adds - self.adds_left,
            self.score - self.stage_score,
        )
        if self.report is not None:
            self.report(result)
        return result

    def give_up(self) -> None:
        """A stuck (or abandoned) board: report it not cleared and deal a new one for the same stage."""
        self.leave(False)
        self.deal()

    def _clear(self, a: int, b: int) -> None:
        """Clear a pair, take away the rows it emptied, score it; a cleared board moves to the next stage."""
        width = self.rules.width
        after, taken = _remove(bytes(self.cells), a, b, width, self.rules.clear_rows)
        self.score += pair_points(a, b, taken, not after, self.rules, self.scoring)
        self.slots[a].cleared = True
        self.slots[b].cleared = True
        if self.rules.clear_rows:
            kept = [row for row in rows_of(self.slots, width) if not all(slot.cleared for slot in row)]
            self.slots = [slot for row in kept for slot in row]
        else:
            self.slots = self.slots[: len(after)]  # only emptied rows at the bottom go
        self.moves += 1
        if not self.slots:
            self.leave(True)
            self.stage += 1
            self.deal()
        elif self.rules.auto_add and not find_pairs(self.cells, self.rules):
            self.add()  # a game that adds by itself when no pair is left


def board_text(cells: tuple[int, ...], width: int) -> tuple[str, ...]:
    """Rows as in the truth files: digits, '.' for a cleared slot, '_' padding the last row."""
    rows = []
    for row in rows_of(cells, width):
        text = "".join(str(value) if value else "." for value in row)
        rows.append(text + "_" * (width - len(text)))
    return tuple(rows)
