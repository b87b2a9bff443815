"""Turn pointer and key input, in window pixels, into game actions; pure, so tests need no window."""

from __future__ import annotations

from flowbot.game.faults import Faults
from flowbot.game.layout import Dialog, Layout
from flowbot.game.session import Session
from flowbot.game.winscreen import level_list, win_screen

# Keys for people at a keyboard; the bot uses only the pointer.
KEY_ACTIONS = {
    "r": "restart",
    "right": "next",
    "n": "next",
    "left": "previous",
    "p": "previous",
    "escape": "quit",
    "q": "quit",
}


class Controls:
    """Routes input to the session: the dialog's button, the bottom buttons, then the board's cells."""

    def __init__(self, session: Session, *, dialog: bool = True, faults: Faults | None = None) -> None:
        self.session = session
        self.dialog = dialog  # False: no dialog ever shows, so nothing covers a completed board
        self.faults = faults or Faults()
        self.listing = False  # the win-screen fault's level list shows in place of everything

    def screen(self) -> str | None:
        """What takes the whole window in place of the board: 'levels' (the level list), 'win' (the
        win-screen fault's win), or None."""
        if self.listing:
            return "levels"
        board = self.session.board
        won = board.complete and board.drawing is None and not self.session.closed
        return "win" if won and self.faults.spec.win_screen else None

    def shown_dialog(self) -> Dialog | None:
        """The dialog over the board now, as the faults let it show (None: nothing covers the board)."""
        session = self.session
        return self.faults.dialog(session.board, session.dialog() if self.dialog else None)

    def pointer_down(self, x: float, y: float, layout: Layout) -> str:
        """A press of the main button at a pixel of the window drawn with `layout`; returns what it hit:
        'arrow next' or 'arrow previous', 'dialog', 'button NAME', 'board', or 'nothing' (a closed game,
        the page, or the board under a dialog)."""
        session = self.session
        self.faults.new_stroke()
        if session.closed:
            return "nothing"
        screen = self.screen()
        if screen is not None:  # it covers the whole window: nothing else is there to press
            return self._screen_press(screen, x, y, layout)
        arrow = layout.arrow_at(x, y)
        if arrow is not None:  # the skip arrows work at any time, over a dialog or not
            session.skip(forward=arrow == "next")
            return f"arrow {arrow}"
        dialog = self.shown_dialog()
        placed = layout.dialog
        button = None if dialog is None or dialog.button is None or placed is None else placed.button
        if button is not None and button.contains(x, y):
            session.next()
            return "dialog"
        if button is not None and placed is not None and placed.style == "modal":
            return self._modal_press(x, y, placed.other)
        action = layout.button_at(x, y)
        if action is None and layout.next_box is not None and layout.next_box.contains(x, y):
            action = "next"  # the "Next Level" push button always shown: it moves on, won or not
        if action is not None:
            self.act(action)
            return f"button {action}"
        # A dialog covers the board: presses under it do nothing, as in the game; nor do presses
        # on a won board whose message is elsewhere (a popup window, a dialog that closed).
        board = session.board
        if dialog is None and not self.faults.holds_board(board.complete and board.drawing is None):
            cell = layout.geometry.cell_at(x, y)
            if cell is not None:
                session.touch()
            board.cuts = self.faults.cuts
            board.press(cell)
            return "board" if cell is not None else "nothing"
        return "nothing"

    def _modal_press(self, x: float, y: float, other) -> str:
        """A press on the modal look's win dialog off its move-on button: its other button plays the
        level again ('dialog again'); anywhere else does nothing, as the dimmed page takes no input."""
        if other is not None and other.contains(x, y):
            self.session.restart()
            return "dialog again"
        return "nothing"

    def _screen_press(self, screen: str, x: float, y: float, layout: Layout) -> str:
        """A press on the win screen ('win continue' moves on, 'win levels' leaves the won level for
        the list) or on the level list ('level N' opens level N); 'nothing' between the words."""
        session = self.session
        if screen == "win":
            action = win_screen(layout.width, layout.height).action_at(x, y)
            if action == "continue":
                session.next()
            elif action == "levels":
                session.leave()
                self.listing = True
            return "nothing" if action is None else f"win {action}"
        boxes = level_list(layout.width, layout.height, len(session.levels))
        chosen = next((index for index, box in enumerate(boxes) if box.contains(x, y)), None)
        if chosen is None:
            return "nothing"
        self.listing = False
        session.open(chosen)
        return f"level {chosen + 1}"

    def pointer_move(self, x: float, y: float, layout: Layout, *, held: bool = True) -> None:
        """The pointer moved to a pixel; with the button held it draws, without it any stroke ends."""
        board = self.session.board
        if board.drawing is None or self.session.closed:
            return
        if not held:  # the release happened where we could not see it (outside the window)
            self._end_stroke()
            return
        cell = layout.geometry.cell_at(x, y)
        if board.joins(cell) and self.faults.refuses_last_step():
            return  # the last-step fault: the flow stops one step short of its far dot
        board.drag(cell)

    def pointer_up(self) -> None:
        """The main button was released: the stroke ends."""
        self.faults.new_stroke()
        self._end_stroke()

    def _end_stroke(self) -> None:
        """End the stroke being drawn (its release missed if the lost-release fault says so); a stroke
        that wins then gets what the faults do at once on a win."""
        board = self.session.board
        if board.drawing is None:
            return  # a release with no stroke rolls no dice, so a seed gives the same game
        board.release(taken=not self.faults.loses_release())
        if not board.complete or self.session.closed:
            return
        action = self.faults.at_win()
        if action == "next":
            self.session.next()
        elif action == "record":
            self.session.leave()  # reported now; the level stays shown and is not reported again

    def key(self, name: str) -> bool:
        """A key press by pygame key name; False when it asks to quit."""
        action = KEY_ACTIONS.get(name)
        if action == "quit":
            return False
        if action is not None and not self.session.closed:
            self.act(action)
        return True

    def act(self, action: str) -> None:
        """Run a named action: 'previous', 'restart' or 'next'."""
        session = self.session
        if action == "previous":
            session.previous()
        elif action == "restart":
            session.restart()
        elif action == "next":
            session.next()
        else:
            raise ValueError(f"unknown action {action!r}")
