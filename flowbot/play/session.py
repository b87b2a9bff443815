"""The terminal game's state and key handling, with no terminal: key names in, board and cursor out.

Keys (by name): up, down, left, right move the cursor; enter picks up a colour on a dot or a pipe and
drops it anywhere else; h shows the next reasoning step (and why) and marks its cells; a shows the
solver's solution; u undoes; r restarts; n and p change level;
q quits. While a colour is picked up the cursor is the head of its pipe, so moving draws the pipe.

Undo works stroke by stroke: each level keeps a stack of boards, one pushed when a colour is picked
up (kept only if the stroke changed something), before a restart and before a replay. `u` pops it,
so it takes back the last stroke, restart or replay; pressed while drawing, it cancels the stroke.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from flowbot.errors import FlowbotError
from flowbot.game.board import GameBoard
from flowbot.model import Cell, Puzzle, Solution
from flowbot.play.animation import Animation
from flowbot.play.levels import LevelList, PlayLevel
from flowbot.solve.sat import SolveResult, solve

MOVES: dict[str, Cell] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
# Enough to undo a whole level played stroke by stroke; the oldest states go first.
UNDO_LIMIT = 500
# A board from a screenshot can be big; the player should not wait long for `a`.
SOLVE_SECONDS = 10.0


@dataclass(slots=True)
class _LevelState:
    """One level as the player left it: the board, the cursor, and the boards to undo back to."""

    board: GameBoard
    cursor: Cell = (0, 0)
    undo: list[GameBoard] = field(default_factory=list)


def solve_puzzle(puzzle: Puzzle) -> SolveResult:
    """The solver `a` uses: SAT with a time limit."""
    return solve(puzzle, timeout=SOLVE_SECONDS)


class PlaySession:
    """A game of levels played with keys; each level keeps its board, cursor and undo stack while visited."""

    def __init__(
        self,
        levels: LevelList,
        *,
        solver: Callable[[Puzzle], SolveResult] = solve_puzzle,
        background: bool = False,
    ) -> None:
        """With `background`, `a` solves in a thread and `poll` starts the replay when the answer comes,
        so the terminal keeps answering keys (q above all) while a big board is solved."""
        self.levels = levels
        self.solver = solver
        self.background = background
        self._pending: _PendingSolve | None = None
        self.index = 0
        self.message = levels.note
        self.animation: Animation | None = None
        self._states: dict[int, _LevelState] = {}
        # The cells the last hint points at; shown until the next key.
        self.hint_cells: frozenset[Cell] = frozenset()
        self._solutions: dict[int, Solution] = {}

    # --- what is shown -----------------------------------------------------------------------------

    @property
    def level(self) -> PlayLevel:
        """The level being played."""
        return self.levels[self.index]

    @property
    def board(self) -> GameBoard:
        """The board of the level being played."""
        return self._state.board

    @property
    def cursor(self) -> Cell:
        """The cell under the cursor, (row, col) from the top-left."""
        return self._state.cursor

    @property
    def holding(self) -> int | None:
        """The colour picked up (its pipe follows the cursor), or None."""
        return self.board.drawing

    @property
    def solving(self) -> bool:
        """True while `a` waits for the solver working in the background."""
        return self._pending is not None

    @property
    def animating(self) -> bool:
        """True while the solver's solution is being drawn."""
        return self.animation is not None

    @property
    def solved(self) -> bool:
        """True when every flow is connected and every cell filled."""
        return self.board.drawing is None and self.board.complete and not self.animating

    def status(self) -> str:
        """The one line under the board: what is going on, or what to do next."""
        if self.animating:
            return "showing the solver's solution (any key skips to the end)"
        if self.solved:
            perfect = " (perfect)" if self.board.perfect else ""
            moves = f"in {self.board.moves} move{'' if self.board.moves == 1 else 's'}"
            if self.index + 1 < len(self.levels) or self.levels.endless:
                return f"Solved {moves}{perfect} - n: next level"
            return f"Solved {moves}{perfect} - that was the last level (p goes back, q quits)"
        if self.message:
            return self.message
        if self.holding is not None:
            return f"drawing {self.color_name(self.holding)}: arrows draw, Enter drops"
        return "Enter on a dot picks up its colour"

    def needs_solver(self) -> bool:
        """True when `a` would have to run the solver first (the level's solution is not known yet)."""
        return self.level.solution is None and self.index not in self._solutions

    def color_name(self, color: int) -> str:
        """A colour as the player sees it named: its label, and its palette name when known."""
        item = self.board.puzzle.colors[color]
        return item.label if item.name is None else f"{item.label} ({item.name})"

    # --- input ---------------------------------------------------------------------------------------

    def press(self, key: str) -> bool:
        """Handle one key by name; False when the player quits."""
        if key == "q":
            return False
        self.message = ""
        self.hint_cells = frozenset()
        if self._pending is not None:
            # Any other key stops the wait; the solver's thread is left to finish on its own.
            self._pending = None
            self.message = "stopped waiting for the solver"
            if key == "a":
                return True
        if self.animating:
            # Any key but undo (which takes the replay back) shows the end at once.
            if key == "u":
                self._undo()
            else:
                self._finish_animation()
            return True
        if key in MOVES:
            self._move(*MOVES[key])
        elif key == "enter":
            self._enter()
        elif key == "u":
            self._undo()
        elif key == "r":
            self._restart()
        elif key == "a":
            self._animate()
        elif key == "h":
            self._hint()
        elif key == "n":
            self._next()
        elif key == "p":
            self._previous()
        return True

    def poll(self) -> bool:
        """Start the replay if the background solver has answered; True when something changed."""
        pending = self._pending
        if pending is None or not pending.done.is_set():
            return False
        self._pending = None
        if pending.index != self.index:
            return False
        solution = self._accept(pending.result, pending.error)
        if solution is not None:
            self._start_animation(solution)
        return True

    def tick(self) -> None:
        """Play one tick of the replay (the terminal calls this at the animation's pace)."""
        if self.animation is None:
            return
        cell = self.animation.advance(self.board)
        if cell is not None:
            self._state.cursor = cell
        if self.animation.done:
            self.animation = None

    # --- actions -------------------------------------------------------------------------------------

    def _move(self, d_row: int, d_col: int) -> None:
        """Move the cursor one cell; with a colour held, draw (or shorten, or cut) its pipe there."""
        puzzle = self.board.puzzle
        row, col = self.cursor
        target = (min(max(row + d_row, 0), puzzle.rows - 1), min(max(col + d_col, 0), puzzle.cols - 1))
        if target == self.cursor:
            return
        color = self.holding
        if color is None:
            self._state.cursor = target
            return
        cut = self.board.owner(target)
        self.board.drag(target)
        if self.board.pipes[color][-1] != target:
            self.message = self._refusal(target)  # the cursor stays on the pipe's head
            return
        self._state.cursor = target
        if cut is not None and cut != color:
            self.message = f"cut {self.color_name(cut)}"
        if self.board.is_connected(color):
            # Reaching the other dot completes the flow and lets go of it, as lifting a finger would.
            self.board.release()
            self.message = f"{self.color_name(color)} connected"

    def _refusal(self, target: Cell) -> str:
        """Why the pipe's head could not move onto a cell."""
        puzzle = self.board.puzzle
        dot = puzzle.endpoint_color(target)
        if dot is not None:
            return f"the {self.color_name(dot)} dot is in the way"
        if not puzzle.on_board(target):
            return "that cell is not part of the board"
        return "the pipe cannot go there"

    def _enter(self) -> None:
        """Pick up the colour under the cursor, or drop the one held."""
        board = self.board
        if board.drawing is not None:
            self._drop()
            return
        before = self._copy(board)
        if not board.press(self.cursor):
            self.message = "nothing here to pick up: Enter on a dot or a pipe"
            return
        self._push(before)

    def _drop(self) -> None:
        """End the stroke in hand, if any; one that changed nothing leaves nothing to undo."""
        if self.board.drawing is not None and not self.board.release() and self._state.undo:
            self._state.undo.pop()

    def _undo(self) -> None:
        """Put back the board as it was before the last stroke, restart or replay (or the stroke in hand)."""
        self.animation = None
        if not self._state.undo:
            self.message = "nothing to undo"
            return
        self._state.board = self._state.undo.pop()
        self.message = "undone"

    def _restart(self) -> None:
        """Clear every pipe of this level (undo brings them back)."""
        self._drop()
        board = self.board
        if board.covered == 0 and board.moves == 0:
            return  # nothing drawn and nothing counted: nothing to restart
        self._push(self._copy(board))
        board.restart()
        self.message = "restarted (u undoes)"

    def _hint(self) -> None:
        """Show the next reasoning step from the pipes drawn so far, and mark its cells."""
        from flowbot.errors import PuzzleError
        from flowbot.rate.hint import Hint, hint_from, position_from_paths, wrong_cells
        from flowbot.rate.human import Contradiction

        if self.holding is not None:
            self.board.release()
        puzzle = self.board.puzzle
        pipes = [pipe if len(pipe) >= 2 else [] for pipe in self.board.pipes]
        solution = self.level.solution or self._solutions.get(self.index)
        try:
            state = position_from_paths(puzzle, pipes)
            wrong = wrong_cells(state, solution) if solution is not None else []
            if wrong:
                hint = Hint("undo", (), (), "it is not in the level's one solution", wrong=tuple(wrong))
            else:
                hint = hint_from(state)
        except (PuzzleError, Contradiction) as broken:
            why = getattr(broken, "why", str(broken))
            self.message = f"hint: something drawn cannot be finished ({why}) - undo it"
            return
        self.hint_cells = frozenset(hint.cells())
        if hint.wrong:
            self.message = f"hint: take the pipe off the marked cell{'s' if len(hint.wrong) > 1 else ''}"
        else:
            self.message = f"hint: {hint.line(puzzle)}"

    def _animate(self) -> None:
        """Clear the board and start drawing the solver's solution (in the background: once it comes)."""
        if self.background and self.needs_solver():
            self._pending = _PendingSolve(self.solver, self.level.puzzle, self.index)
            self.message = "solving... (any key stops waiting, q quits)"
            return
        solution = self._solution()
        if solution is None:
            return
        self._start_animation(solution)

    def _start_animation(self, solution: Solution) -> None:
        """Clear the board (undoably) and start drawing `solution`."""
        self._drop()
        self._push(self._copy(self.board))
        self.board.restart()
        self.animation = Animation(solution)

    def _finish_animation(self) -> None:
        """Draw the rest of the replay at once."""
        assert self.animation is not None
        cell = self.animation.advance(self.board, -1)
        if cell is not None:
            self._state.cursor = cell
        self.animation = None

    def _solution(self) -> Solution | None:
        """The level's solution (known, cached or solved now); None with a message when there is none."""
        if self.level.solution is not None:
            return self.level.solution
        if self.index not in self._solutions:
            try:
                result = self.solver(self.level.puzzle)
            except FlowbotError as error:
                return self._accept(None, error)
            return self._accept(result, None)
        return self._solutions[self.index]

    def _accept(self, result: SolveResult | None, error: FlowbotError | None) -> Solution | None:
        """Keep the solver's solution of the current level, or say why there is none."""
        if error is not None or result is None:
            self.message = f"the solver failed: {error}"
            return None
        if result.solution is None:
            self.message = (
                "the solver finds no solution for this board"
                if result.status == "unsolvable"
                else "the solver ran out of time on this board"
            )
            return None
        self._solutions[self.index] = result.solution
        return result.solution

    def _next(self) -> None:
        """Go to the next level, making one when the levels are generated."""
        if self.index + 1 >= len(self.levels):
            if not self.levels.endless:
                self.message = "this is the last level (p goes back)"
                return
            try:
                self.levels.grow()
            except FlowbotError as error:
                self.message = f"cannot make another level: {error}"
                return
        self._show(self.index + 1)

    def _previous(self) -> None:
        """Go back one level."""
        if self.index == 0:
            self.message = "this is the first level"
            return
        self._show(self.index - 1)

    def _show(self, index: int) -> None:
        """Leave the level (ending any stroke) for another, as it was left."""
        self._drop()
        self.index = index

    # --- state ---------------------------------------------------------------------------------------

    @property
    def _state(self) -> _LevelState:
        """The state of the level being played, made on the first visit."""
        state = self._states.get(self.index)
        if state is None:
            state = self._states[self.index] = _LevelState(GameBoard(self.level.puzzle))
        return state

    def _push(self, board: GameBoard) -> None:
        """Remember a board to undo back to."""
        stack = self._state.undo
        stack.append(board)
        del stack[:-UNDO_LIMIT]

    @staticmethod
    def _copy(board: GameBoard) -> GameBoard:
        """A copy of the board's changing state that shares its frozen puzzle."""
        return copy.deepcopy(board, {id(board.puzzle): board.puzzle})


class _PendingSolve:
    """One level solved in a daemon thread: a quitting player never waits for it."""

    def __init__(self, solver: Callable[[Puzzle], SolveResult], puzzle: Puzzle, index: int) -> None:
        self.index = index
        self.result: SolveResult | None = None
        self.error: FlowbotError | None = None
        self.done = threading.Event()
        threading.Thread(
            target=self._run, args=(solver, puzzle), name="flowbot-play-solve", daemon=True
        ).start()

    def _run(self, solver: Callable[[Puzzle], SolveResult], puzzle: Puzzle) -> None:
        """Solve and note the answer (a FlowbotError is an answer too)."""
        try:
            self.result = solver(puzzle)
        except FlowbotError as error:
            self.error = error
        finally:
            self.done.set()
