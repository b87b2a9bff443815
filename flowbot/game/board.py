"""The rules of play: pipes drawn on a frozen puzzle by strokes of press, drag and release."""

from __future__ import annotations

from flowbot.lattice import axis_of
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
        # Flows whose last stroke's release the game missed: the screen shows the pipe, but the game
        # counts it as not drawn (not connected, no cells covered) until a stroke of it is released.
        self.unsettled: set[int] = set()
        # False: a stroke stops at another flow's pipe instead of cutting it (the no-cut fault), and
        # the rest of that stroke draws nothing.
        self.cuts = True
        self._blocked = False

    # --- strokes -----------------------------------------------------------------------------------

    def press(self, cell: Cell | None) -> bool:
        """Start a stroke on a dot (a new pipe from it) or a pipe cell (cut after it); False elsewhere.

        On a bridge, only a pipe whose end rests there is taken up (two pipes may cross it).
        """
        if self.drawing is not None:
            self.release()
        self._blocked = False
        if cell is None or not self.puzzle.on_board(cell):
            return False
        color = self.puzzle.endpoint_color(cell)
        if color is not None:
            before = self._snapshot()
            self.pipes[color] = [cell]
        else:
            color = self._end_at(cell) if self.puzzle.is_bridge(cell) else self.owner(cell)
            if color is None:
                return False
            before = self._snapshot()
            pipe = self.pipes[color]
            del pipe[len(pipe) if self.puzzle.is_bridge(cell) else pipe.index(cell) + 1 :]
        self.drawing = color
        self._before = before
        return True

    def drag(self, cell: Cell | None) -> None:
        """The pointer entered a cell while the button is held: extend, backtrack or cut as the rules say."""
        if self.drawing is None or cell is None or not self.puzzle.on_board(cell) or self._blocked:
            return
        head = self.pipes[self.drawing][-1]
        straight = cell[0] == head[0] or cell[1] == head[1]
        if self.puzzle.linked(head, cell):
            self._step(cell)
        elif self.interpolate and self.puzzle.hex_lower is None and not self.puzzle.shape_links and straight:
            self._walk(head, cell)  # rows and columns: square boards only (a Shapes board is one "row")

    def joins(self, cell: Cell | None) -> bool:
        """True when a drag onto `cell` would join the pipe being drawn to its far dot."""
        if self.drawing is None or cell is None or self.joined(self.drawing):
            return False
        pipe = self.pipes[self.drawing]
        return (
            self.puzzle.endpoint_color(cell) == self.drawing
            and cell != pipe[0]
            and self.puzzle.linked(pipe[-1], cell)
        )

    def release(self, *, taken: bool = True) -> bool:
        """End the stroke; True when it changed a pipe (a move, unless it redrew the last colour moved).

        A release not `taken` (a game that missed it) ends the stroke with the pipe as drawn, but the
        game counts neither the move nor the flow until a later stroke of that flow is released.
        """
        if self.drawing is None:
            return False
        color, self.drawing = self.drawing, None
        if not taken:
            self.unsettled.add(color)
            return False
        # A flow whose last release was missed is new to the game when this one is taken: a move.
        changed = self._snapshot() != self._before or color in self.unsettled
        self.unsettled.discard(color)
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
        self.unsettled = set()

    def _walk(self, head: Cell, target: Cell) -> None:
        """Step cell by cell along a row or column towards `target`, stopping where the rules stop it."""
        d_row = (target[0] > head[0]) - (target[0] < head[0])
        d_col = (target[1] > head[1]) - (target[1] < head[1])
        cell = head
        while cell != target:
            before, cell = cell, (cell[0] + d_row, cell[1] + d_col)
            if not self.puzzle.linked(before, cell) or not self._step(cell):
                return

    def _step(self, cell: Cell) -> bool:
        """Apply one move of the head onto a linked cell; False when the rules refuse it."""
        assert self.drawing is not None
        pipe = self.pipes[self.drawing]
        head = pipe[-1]
        if len(pipe) >= 2 and cell == pipe[-2]:  # one step back
            pipe.pop()
            return True
        if len(pipe) >= 2 and self.puzzle.is_bridge(head) and axis_of(pipe[-2], head) != axis_of(head, cell):
            return False  # a pipe goes straight over a bridge
        slot = self._slot(head, cell)
        at = _slot_index(self.puzzle, pipe, slot)
        if at is not None:  # backtracking over the pipe itself
            del pipe[at + 1 :]
            return True
        if self.joined(self.drawing):
            return False  # the head rests on the other dot until the stroke backs out of it
        dot = self.puzzle.endpoint_color(cell)
        if dot is not None and dot != self.drawing:
            return False  # another colour's dot is a wall
        for other, other_pipe in enumerate(self.pipes):
            crossed = None if other == self.drawing else _slot_index(self.puzzle, other_pipe, slot)
            if crossed is not None and not self.cuts:
                self._blocked = True  # stopped at the other pipe, for the rest of the stroke
                return False
            if crossed is not None:
                # Cut the other pipe where it is crossed; it keeps the part from its own dot.
                del other_pipe[crossed:]
        pipe.append(cell)
        return True

    def _slot(self, head: Cell, cell: Cell) -> tuple[Cell, str | None]:
        """What a step from `head` takes of `cell`: the whole cell, or on a bridge one way across it."""
        return (cell, axis_of(head, cell)) if self.puzzle.is_bridge(cell) else (cell, None)

    def _end_at(self, cell: Cell) -> int | None:
        """The colour whose pipe ends on this cell (not at one of its dots), or None."""
        for color, pipe in enumerate(self.pipes):
            if len(pipe) >= 2 and pipe[-1] == cell:
                return color
        return None

    # --- what the board shows ----------------------------------------------------------------------

    def owner(self, cell: Cell) -> int | None:
        """The colour whose pipe covers the cell, or None."""
        for color, pipe in enumerate(self.pipes):
            if cell in pipe:
                return color
        return None

    def joined(self, color: int) -> bool:
        """True when the colour's pipe runs from one of its dots to the other, as the screen shows it."""
        pipe = self.pipes[color]
        return len(pipe) >= 2 and set(self.puzzle.endpoints[color]) == {pipe[0], pipe[-1]}

    def is_connected(self, color: int) -> bool:
        """True when the game counts the colour's flow connected: joined, and its last stroke released."""
        return self.joined(color) and color not in self.unsettled

    @property
    def connected(self) -> int:
        """How many flows are connected."""
        return sum(self.is_connected(color) for color in range(len(self.pipes)))

    @property
    def covered(self) -> int:
        """How many cells pipes cover (a pipe's own dots included; a dot with no pipe is not); a bridge
        counts once for each way a pipe crosses it. A flow whose release was missed covers none."""
        counted = (pipe for color, pipe in enumerate(self.pipes) if color not in self.unsettled)
        return sum(len(pipe) for pipe in counted if len(pipe) >= 2)

    @property
    def to_cover(self) -> int:
        """What `covered` is on a full board: every cell, and every bridge a second time."""
        return self.puzzle.cell_count + len(self.puzzle.bridges)

    @property
    def pipe_percent(self) -> int:
        """The share of board cells under pipes, in whole percent, as the game's HUD shows it."""
        return self.covered * 100 // self.to_cover

    @property
    def complete(self) -> bool:
        """True when every flow is connected and every cell is filled (a bridge both ways)."""
        return self.connected == len(self.pipes) and self.covered == self.to_cover

    @property
    def perfect(self) -> bool:
        """True when the level was completed with one move per flow."""
        return self.complete and self.moves == len(self.pipes)

    def to_rows(self) -> list[str]:
        """The board as row strings: dots and pipe cells carry their colour's label, walls '#', bridges '+',
        others '.'."""
        grid = [list(line) for line in self.puzzle.to_rows()]
        for color, pipe in enumerate(self.pipes):
            for row, col in pipe:
                if not self.puzzle.is_bridge((row, col)):
                    grid[row][col] = self.puzzle.colors[color].label
        return ["".join(line) for line in grid]

    def _snapshot(self) -> tuple[tuple[Cell, ...], ...]:
        """The pipes as they stand; a lone dot counts as no pipe, so tapping a dot changes nothing."""
        return tuple(tuple(pipe) if len(pipe) >= 2 else () for pipe in self.pipes)


def _slot_index(puzzle: Puzzle, pipe: list[Cell], slot: tuple[Cell, str | None]) -> int | None:
    """Where in a pipe a slot (a cell, or one way across a bridge) is taken, or None."""
    cell, axis = slot
    for index, here in enumerate(pipe):
        if here == cell and (axis is None or (index > 0 and axis_of(pipe[index - 1], here) == axis)):
            return index
    return None
