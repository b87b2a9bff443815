"""The rules of play: pipes drawn on a frozen puzzle by strokes of press, drag and release."""

from __future__ import annotations

from flowbot.model import Cell, Puzzle


class GameBoard:
    """A puzzle being played: one pipe (a list of cells from one of its dots) per colour, and a move count.

    The puzzle never changes; everything here does. A stroke is `press`, any number of `drag`, `release`.
    """

    def __init__(self, puzzle: Puzzle, *, interpolate: bool = False) -> None:
        self.puzzle = puzzle
        # Fill straight row or column jumps of the pointer cell by cell (the real game ignores them).
        self.interpolate = interpolate
        self.pipes: list[list[Cell]] = [[] for _ in puzzle.colors]
        self.moves = 0
        self.drawing: int | None = None
        self._before: tuple[tuple[Cell, ...], ...] = ()
        # The colour of the last stroke that counted: drawing it again at once is the same move.
        self._last_moved: int | None = None

    # --- strokes -----------------------------------------------------------------------------------

    def press(self, cell: Cell | None) -> bool:
        """Start a stroke on a dot (a new pipe from it) or a pipe cell (cut after it); False elsewhere."""
        if self.drawing is not None:
            self.release()
        if cell is None or not self.puzzle.on_board(cell):
            return False
        color = self.puzzle.endpoint_color(cell)
        if color is not None:
            before = self._snapshot()
            self.pipes[color] = [cell]
        else:
            color = self.owner(cell)
            if color is None:
                return False
            before = self._snapshot()
            pipe = self.pipes[color]
            del pipe[pipe.index(cell) + 1 :]
        self.drawing = color
        self._before = before
        return True

    def drag(self, cell: Cell | None) -> None:
        """The pointer entered a cell while the button is held: extend, backtrack or cut as the rules say."""
        if self.drawing is None or cell is None or not self.puzzle.on_board(cell):
            return
        head = self.pipes[self.drawing][-1]
        distance = abs(cell[0] - head[0]) + abs(cell[1] - head[1])
        if distance == 1:
            self._step(cell)
        elif distance > 1 and self.interpolate and (cell[0] == head[0] or cell[1] == head[1]):
            self._walk(head, cell)

    def release(self) -> bool:
        """End the stroke; True when it changed a pipe (a move, unless it redrew the last colour moved)."""
        if self.drawing is None:
            return False
        color, self.drawing = self.drawing, None
        changed = self._snapshot() != self._before
        if changed and color != self._last_moved:
            self.moves += 1
            self._last_moved = color
        return changed

    def restart(self) -> None:
        """Clear every pipe and the move count, as the game's restart button does."""
        self.pipes = [[] for _ in self.puzzle.colors]
        self.moves = 0
        self.drawing = None
        self._last_moved = None

    def _walk(self, head: Cell, target: Cell) -> None:
        """Step cell by cell along a row or column towards `target`, stopping where the rules stop it."""
        d_row = (target[0] > head[0]) - (target[0] < head[0])
        d_col = (target[1] > head[1]) - (target[1] < head[1])
        cell = head
        while cell != target:
            cell = (cell[0] + d_row, cell[1] + d_col)
            if not self.puzzle.on_board(cell) or not self._step(cell):
                return

    def _step(self, cell: Cell) -> bool:
        """Apply one move of the head onto a neighbouring cell; False when the rules refuse it."""
        assert self.drawing is not None
        pipe = self.pipes[self.drawing]
        if cell in pipe:  # backtracking over the pipe itself
            del pipe[pipe.index(cell) + 1 :]
            return True
        if self.is_connected(self.drawing):
            return False  # the head rests on the other dot until the stroke backs out of it
        dot = self.puzzle.endpoint_color(cell)
        if dot is not None and dot != self.drawing:
            return False  # another colour's dot is a wall
        other = self.owner(cell)
        if other is not None:
            # Cut the other pipe where it is crossed; it keeps the part from its own dot.
            del self.pipes[other][self.pipes[other].index(cell) :]
        pipe.append(cell)
        return True

    # --- what the board shows ----------------------------------------------------------------------

    def owner(self, cell: Cell) -> int | None:
        """The colour whose pipe covers the cell, or None."""
        for color, pipe in enumerate(self.pipes):
            if cell in pipe:
                return color
        return None

    def is_connected(self, color: int) -> bool:
        """True when the colour's pipe runs from one of its dots to the other."""
        pipe = self.pipes[color]
        return len(pipe) >= 2 and set(self.puzzle.endpoints[color]) == {pipe[0], pipe[-1]}

    @property
    def connected(self) -> int:
        """How many flows are connected."""
        return sum(self.is_connected(color) for color in range(len(self.pipes)))

    @property
    def covered(self) -> int:
        """How many cells pipes cover (a pipe's own dots included; a dot with no pipe is not)."""
        return sum(len(pipe) for pipe in self.pipes if len(pipe) >= 2)

    @property
    def pipe_percent(self) -> int:
        """The share of board cells under pipes, in whole percent, as the game's HUD shows it."""
        return self.covered * 100 // self.puzzle.cell_count

    @property
    def complete(self) -> bool:
        """True when every flow is connected and every cell is filled."""
        return self.connected == len(self.pipes) and self.covered == self.puzzle.cell_count

    @property
    def perfect(self) -> bool:
        """True when the level was completed with one move per flow."""
        return self.complete and self.moves == len(self.pipes)

    def to_rows(self) -> list[str]:
        """The board as row strings: dots and pipe cells carry their colour's label, walls '#', others '.'."""
        grid = [list(line) for line in self.puzzle.to_rows()]
        for color, pipe in enumerate(self.pipes):
            for row, col in pipe:
                grid[row][col] = self.puzzle.colors[color].label
        return ["".join(line) for line in grid]

    def _snapshot(self) -> tuple[tuple[Cell, ...], ...]:
        """The pipes as they stand; a lone dot counts as no pipe, so tapping a dot changes nothing."""
        return tuple(tuple(pipe) if len(pipe) >= 2 else () for pipe in self.pipes)
