"""Number Match's confirmations: after a move, what the screen must show for the move to count (the
board the rules say, where the view should be), how long a board unchanged is given before a move
is taken as refused, whether a board's last pair emptied it, and when the next board shows. Each
is a look the engine's watch (flowbot.live.watch) repeats on the injected clock."""

from __future__ import annotations

from flowbot.live.watch import tries, until
from flowbot.modes.numbermatch_view import LOOK_PAUSE, LOOKS, WIDTH, BoardRun, View, locate
from flowbot.numbermatch.board import Move
from flowbot.numbermatch.game import board_text
from flowbot.numbermatch.read import NumberMatchReadError

NEW_BOARD_WAIT = 5.0  # seconds for the next stage's board to show
REFUSE_SECONDS = 6.0  # a board unchanged this long after a move: the game refused it (a loaded browser lags)


class Confirming:
    """What confirms a move (a role of NumberMatchClear: it reads `view`, `rules`, `clock`, `look`)."""

    def wait_for_change(self) -> None:
        """Before a move is taken as refused: the screen must go on showing the board as it was
        before the move for REFUSE_SECONDS (a browser under load takes a click late)."""
        assert self.view is not None
        before = self.view.reading.rows

        def look() -> bool | None:
            """True once the screen shows something else than the board before the move."""
            try:
                return True if self.look().reading.rows != before else None
            except NumberMatchReadError:
                return True

        until(self.clock, REFUSE_SECONDS, look, LOOK_PAUSE)

    def left_over(self, move: Move) -> bool:
        """After what should have been the board's last pair: True when the board still shows (the
        screen as before the pair for REFUSE_SECONDS, or that pair's cells cleared and digits left
        elsewhere); False when it is gone, or a new board shows (other digits at the pair's cells)."""
        assert self.view is not None
        before = self.view
        left = until(
            self.clock, REFUSE_SECONDS, lambda: self.left_after(before, move), LOOK_PAUSE, first_pause=True
        )
        return left != "gone"

    def left_after(self, before: View, move: Move) -> str | None:
        """One look after a board's last pair: 'gone' (no board, another place, other digits at the
        pair's cells), 'left' (the pair's cells cleared and digits left elsewhere), None while the
        screen shows the board as before the pair (not taken yet: a loaded browser takes clicks late)."""
        try:
            view = self.look()
        except NumberMatchReadError:
            return "gone"
        grid = view.reading.grid
        if abs(grid.xs[0] + view.frame.left - before.reading.grid.xs[0] - before.frame.left) > 2:
            return "gone"
        text = view.reading.rows
        if text == before.reading.rows:
            return None
        shown = [(row - before.top, col) for row, col in (divmod(index, WIDTH) for index in (move.a, move.b))]
        if any(not 0 <= row < len(text) for row, _ in shown):
            return "gone"
        if all(not text[row][col].isdigit() for row, col in shown):
            return "left" if any(char.isdigit() for line in text for char in line) else "gone"
        return "gone"

    def confirm(self, cells: tuple[int, ...], adds_left: int, board: BoardRun) -> bool:
        """True once the screen shows `cells` where the view should be (a few looks, as games lag)."""
        assert self.view is not None
        expected = board_text(cells, WIDTH)
        predicted = self.view.top

        def look() -> View | None:
            """One look: the view when it shows the board expected, with the adds expected."""
            try:
                view = self.look()
            except NumberMatchReadError:
                return None
            top = locate(expected, view.reading, predicted)
            badge = view.reading.adds_left
            if top is None or not (badge is None or badge == adds_left or not self.rules.adds_limited):
                return None
            view.top = top
            return view

        view = tries(self.clock.sleep, LOOKS, look, LOOK_PAUSE)
        if view is None:
            return False
        self.view = view
        board.most_rows = max(board.most_rows, len(expected))  # rows the game has shown
        return True

    def next_board_shows(self) -> bool:
        """After a board was cleared: True once a new board shows whole (a new board starts at its
        top) and is not the last view of the old one (the screen may not have caught up yet); False
        when none comes within NEW_BOARD_WAIT (a game that ends on a won screen)."""
        old = self.view.reading.rows if self.view is not None else None

        def look() -> bool | None:
            """True when a new board shows whole."""
            try:
                view = self.look()
            except NumberMatchReadError:
                return None
            return True if view.reading.whole and view.reading.rows != old else None

        return bool(until(self.clock, NEW_BOARD_WAIT, look, LOOK_PAUSE))
