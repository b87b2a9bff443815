"""Which windows are the game's, asked of a real X server: a popup the game's own program opens over
its board is the game; a window of another program is not."""

from __future__ import annotations

import shutil

import pytest

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")


@pytest.fixture(scope="module")
def display():
    """A virtual screen for this module's tests."""
    from tests.live_display import virtual_screen

    with virtual_screen(640, 480) as screen:
        yield screen


def shown(client, x: int, y: int, width: int, height: int, pid: int | None = None, transient=None):
    """A mapped top-level window of an X client, with _NET_WM_PID when given."""
    from Xlib import X, Xatom

    root = client.screen().root
    window = root.create_window(x, y, width, height, 0, X.CopyFromParent)
    if pid is not None:
        window.change_property(client.intern_atom("_NET_WM_PID"), Xatom.CARDINAL, 32, [pid])
    if transient is not None:
        window.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [transient.id])
    window.map()
    client.sync()
    return window


def test_the_games_popup_is_the_game_and_another_programs_window_is_not(display):
    from Xlib.display import Display

    from flowbot.live.windows import GameWindows

    game, other = Display(), Display()
    windows = GameWindows.open()
    assert windows is not None
    try:
        board = shown(game, 0, 0, 300, 300)
        popup = shown(game, 50, 50, 200, 100)  # same client, no process id: one program
        cover = shown(other, 60, 60, 100, 100)
        assert windows.same_game(board.id, popup.id)
        assert not windows.same_game(board.id, cover.id)
        # Process ids on both: one process with two connections is one game; a transient window too.
        helper = shown(other, 0, 0, 50, 50, pid=4242)
        tagged = shown(game, 0, 0, 50, 50, pid=4242)
        dialog = shown(other, 10, 10, 50, 50, transient=board)
        assert windows.same_game(tagged.id, helper.id)
        assert windows.same_game(board.id, dialog.id)
        assert not windows.same_game(tagged.id, shown(other, 0, 0, 20, 20, pid=4343).id)
    finally:
        windows.close()
        game.close()
        other.close()


def test_a_popup_whose_inner_window_goes_while_looked_at_is_still_the_game(display, monkeypatch):
    """A popup being built (or torn down) has windows within it that vanish between listing them and
    asking about them: its own id still names the program, so it is the game's, never a cover."""
    from Xlib import X, error
    from Xlib.display import Display
    from Xlib.xobject.drawable import Window

    from flowbot.live.windows import GameWindows

    game = Display()
    windows = GameWindows.open()
    assert windows is not None
    try:
        board = shown(game, 0, 0, 300, 300)
        popup = shown(game, 50, 50, 200, 100)
        inner = popup.create_window(10, 10, 50, 20, 0, X.CopyFromParent)
        inner.map()
        game.sync()
        asked = Window.get_full_property

        def vanishing(window, *args, **kwargs):
            if window.id == inner.id:
                raise error.BadWindow.__new__(error.BadWindow)  # destroyed since the tree was listed
            return asked(window, *args, **kwargs)

        monkeypatch.setattr(Window, "get_full_property", vanishing)
        assert windows.same_game(board.id, popup.id)
    finally:
        windows.close()
        game.close()
