"""`flowbot numbermatch`: solve every Number Match board in files or screenshots; JSON Lines or a replay."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TextIO

from flowbot.numbermatch.board import Cells, Move, _add, _remove, rows_of
from flowbot.numbermatch.replay import render_board, replay_text
from flowbot.numbermatch.rules import DEFAULT_SCORING, Rules, Scoring
from flowbot.numbermatch.search import TIMEOUT, WON, Answer, BestAnswer, solve, solve_best
from flowbot.numbermatch.sources import expand, load
from flowbot.progress import Progress

# Exit codes, worst outcome wins: all answered, some not answered in time, some input unreadable.
EXIT_ANSWERED, EXIT_TIMEOUT, EXIT_BAD_INPUT = 0, 1, 2

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """One board's fate: its file, its place there, the board, and the answer or the error."""

    source: str
    index: int
    count: int
    cells: Cells | None
    answer: Answer | BestAnswer | None
    error: str | None = None
    rows: tuple[str, ...] | None = None  # a screenshot's rows as read (digits, '.', '_')
    adds_left: int | None = None  # a screenshot's "+" badge, when it was read

    @property
    def status(self) -> str:
        """`won`, `no-win`, `timeout` or `error`."""
        return "error" if self.answer is None else self.answer.status

    @property
    def name(self) -> str:
        """The board as a person names it: the file, and which board when the file holds several."""
        return self.source if self.count == 1 else f"{self.source} (board {self.index + 1})"


def run_numbermatch(
    paths: Sequence[str],
    *,
    adds: int,
    as_json: bool,
    best: bool,
    timeout: float | None,
    out: TextIO,
    err: TextIO,
    colors: bool,
    wrap: bool = True,
    diagonals: bool = True,
    scoring: Scoring | None = None,
) -> int:
    """Solve each board of each file, print each answer as it comes, and return the exit code.

    0: every board won or proved unwinnable (with `best`: every best score proved optimal);
    1: some board ran out of time; 2: some file or board could not be read (the others still run).
    `timeout` is seconds per board (None: no limit).
    """
    rules = Rules(adds=adds, wrap=wrap, diagonals=diagonals)
    scoring = scoring or DEFAULT_SCORING
    loaded = load_all(paths, rules)
    # The replay goes to the terminal in text mode, so the bar would only get in its way there.
    progress = Progress(len(loaded), "numbermatch", err, enabled=as_json)
    outcomes = []
    for entry in loaded:
        outcome = entry
        if entry.cells is not None:
            answer = _answer(entry.cells, rules_for(entry, rules), scoring, best=best, timeout=timeout)
            outcome = replace(entry, answer=answer)
        outcomes.append(outcome)
        if outcome.error is not None:
            progress.clear_line()
            err.write(f"flowbot: {outcome.error}\n")
        if as_json:
            # ASCII JSON: valid UTF-8 in any locale, undecodable file name bytes as \udcXX.
            out.write(json.dumps(outcome_record(outcome, rules_for(outcome, rules))) + "\n")
            progress.advance(outcome.name)
        elif outcome.cells is not None:
            out.write(
                text_report(outcome, rules_for(outcome, rules), scoring if best else None, colors) + "\n"
            )
        out.flush()
    progress.close()
    return exit_code(outcomes)


def load_all(paths: Sequence[str], rules: Rules) -> list[Outcome]:
    """Every board of every file or screenshot (folders give their images, else their files), unanswered;
    an unreadable one becomes an error outcome."""
    loaded = []
    for path in expand(list(paths)):
        for entry in load(path, rules):
            loaded.append(
                Outcome(
                    entry.source,
                    entry.index,
                    entry.count,
                    entry.cells,
                    None,
                    entry.error,
                    entry.rows,
                    entry.adds_left,
                )
            )
    return loaded


def rules_for(outcome: Outcome, rules: Rules) -> Rules:
    """The rules a board is solved with: a screenshot's badge says how many adds are left."""
    if outcome.adds_left is None:
        return rules
    return replace(rules, adds=outcome.adds_left)


def exit_code(outcomes: Sequence[Outcome]) -> int:
    """2 when some input was unreadable, else 1 when a board timed out (or its best is unproved), else 0."""
    if any(outcome.status == "error" for outcome in outcomes):
        return EXIT_BAD_INPUT
    for outcome in outcomes:
        answer = outcome.answer
        if outcome.status == TIMEOUT or (isinstance(answer, BestAnswer) and not answer.optimal):
            return EXIT_TIMEOUT
    return EXIT_ANSWERED


def outcome_record(outcome: Outcome, rules: Rules) -> dict:
    """The JSON Lines record of one board, keys in their documented order.

    Moves are on the board as it stands at that move, (row, col) from 0; `digits` are the two digits.
    """
    answer = outcome.answer
    record: dict = {
        "source": outcome.source,
        "index": outcome.index,
        "status": outcome.status,
        "moves": [] if answer is None else moves_json(outcome.cells or (), answer.moves, rules),
        "nodes": 0 if answer is None else answer.nodes,
        "seconds": 0.0 if answer is None else round(answer.seconds, 6),
    }
    if outcome.rows is not None:
        record["board"] = list(outcome.rows)
    elif outcome.cells is not None:
        record["board"] = board_rows(outcome.cells, rules.width)
    if outcome.cells is not None:
        record["adds"] = rules.adds
    if outcome.adds_left is not None:
        record["adds_left"] = outcome.adds_left
    if answer is not None:
        record["adds_used"] = sum(move.is_add for move in answer.moves)
    if isinstance(answer, BestAnswer):
        record["score"] = answer.score
        record["optimal"] = answer.optimal
        record["first_win_score"] = answer.first_win_score
    if outcome.error is not None:
        record["error"] = outcome.error
    return record


def moves_json(cells: Sequence[int], moves: Sequence[Move], rules: Rules) -> list[dict]:
    """Moves as JSON objects: {"type": "pair", "a": [row, col], "b": [row, col], "digits": [x, y]} or add."""
    board = bytes(cells)
    records: list[dict] = []
    for move in moves:
        if move.is_add:
            records.append({"type": "add"})
            board = _add(board)
            continue
        records.append({
            "type": "pair",
            "a": list(divmod(move.a, rules.width)),
            "b": list(divmod(move.b, rules.width)),
            "digits": [board[move.a], board[move.b]],
        })  # fmt: skip
        board = _remove(board, move.a, move.b, rules.width)[0]
    return records


def board_rows(cells: Sequence[int], width: int) -> list[str]:
    """The board as text rows: digits, '.' for a cleared slot."""
    return ["".join(str(value) if value else "." for value in row) for row in rows_of(cells, width)]


def text_report(outcome: Outcome, rules: Rules, scoring: Scoring | None, colors: bool) -> str:
    """A heading with the verdict, then the replay of the line (or the board when there is none)."""
    answer = outcome.answer
    assert answer is not None and outcome.cells is not None
    figures = f"{answer.nodes:,} positions, {answer.seconds:.3f} s"
    adds = f"{rules.adds} add{'s' if rules.adds != 1 else ''}"
    if isinstance(answer, BestAnswer):
        proof = "proved optimal" if answer.optimal else "best found in time, not proved optimal"
        first = (
            "" if answer.first_win_score is None else f"; the first win found scored {answer.first_win_score}"
        )
        heading = f"{outcome.name}: best score {answer.score} ({proof}{first}); {figures}"
    elif answer.status == WON:
        used = sum(move.is_add for move in answer.moves)
        heading = f"{outcome.name}: won in {len(answer.moves)} moves ({used} of {adds} used); {figures}"
    elif answer.status == TIMEOUT:
        heading = f"{outcome.name}: no win found and none ruled out in time; {figures}"
    else:
        heading = f"{outcome.name}: no win is possible with {adds} (exhaustive search: {figures})"
    if answer.moves:
        return f"{heading}\n\n{replay_text(outcome.cells, answer.moves, rules, colors, scoring)}\n"
    return f"{heading}\n{render_board(outcome.cells, rules.width)}\n"


def _answer(
    cells: Cells, rules: Rules, scoring: Scoring, *, best: bool, timeout: float | None
) -> Answer | BestAnswer:
    """Search one board for a win, or for the best score."""
    if best:
        return solve_best(cells, rules, scoring, timeout=timeout)
    return solve(cells, rules, timeout=timeout)
