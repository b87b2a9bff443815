"""Which of the display's top-level windows belong to the game: on X11, the windows of the program
that shows the board (its popups and dialog windows too, and any window transient for one of its),
so the board guard takes the game's own "level complete" window for the game, not a cover."""

from __future__ import annotations

import logging

from flowbot.capture.screen import X11Windows

log = logging.getLogger(__name__)

# How deep below a top-level window to look for the program's own window (a window manager's frame
# holds it one or two levels down).
DEPTH = 2


class GameWindows(X11Windows):
    """X11Windows that can also tell whether two top-level windows are one program's."""

    def same_game(self, game: int, other: int) -> bool:
        """True when `other` is the game's: the same program (its process id, or the same X client
        where no process id is given) or a window transient for the game's."""
        if game == other:
            return True
        mine, theirs = self._owner(game), self._owner(other)
        if mine is not None and mine == theirs:
            return True
        return self._transient_for(other, game)

    def _owner(self, window_id: int) -> tuple[str, int] | None:
        """The program behind a top-level window: ("pid", N) from _NET_WM_PID on it or a window within
        (a window manager's frame), else ("client", base) from its X resource id; None when gone."""
        try:
            pid = self._pid(self._display.create_resource_object("window", window_id), DEPTH)
        except self._errors:
            # The window itself is gone (then it covers nothing), or changed while looked at: its id
            # still tells the X client that made it.
            pid = None
        if pid is not None:
            return ("pid", pid)
        mask = self._display.display.info.resource_id_mask
        return ("client", window_id & ~mask)

    def _pid(self, window, depth: int) -> int | None:
        """The _NET_WM_PID on a window or, `depth` levels down, on one of its children."""
        atom = self._display.intern_atom("_NET_WM_PID")
        prop = window.get_full_property(atom, 0)
        if prop is not None and len(prop.value):
            return int(prop.value[0])
        if depth == 0:
            return None
        for child in window.query_tree().children:
            try:
                found = self._pid(child, depth - 1)
            except self._errors:
                continue  # a window within being made or destroyed right now (a popup being built)
            if found is not None:
                return found
        return None

    def _transient_for(self, window_id: int, game: int) -> bool:
        """True when a window (or one within it) says it is transient for the game's window (or one
        within it)."""
        try:
            window = self._display.create_resource_object("window", window_id)
            game_ids = {game, *(child.id for child in self._display.create_resource_object(
                "window", game).query_tree().children)}  # fmt: skip
            for candidate in [window, *window.query_tree().children]:
                parent = candidate.get_wm_transient_for()
                if parent is not None and parent.id in game_ids:
                    return True
        except self._errors:
            return False
        return False
