"""The popup-window fault's win message: a small top-level X window of the game's own process,
transient for the game's window and marked with its pid, as games whose "level complete" is a
window of its own show it. Drawn with pygame, shown through python-xlib (SDL has one window)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from flowbot.display import DisplayError
from flowbot.game.layout import Box, Dialog

SIZE = (400, 210)  # the popup's width and height in pixels at the 540x960 reference window
BUTTON = (200, 46)
CHUNK_ROWS = 32  # rows per image request: small requests fit every server's request size
FILL = (25, 25, 25)
INK = (255, 255, 255)

__all__ = ["PopupWindow", "game_window_id", "popup_button"]


def game_window_id(driver: str, info: Mapping[str, object]) -> int:
    """The X id of the game's window, from SDL's video driver name and window info; DisplayError
    when the game does not run on X (the popup is an X window transient for it)."""
    window = info.get("window")
    if driver != "x11" or not isinstance(window, int):
        raise DisplayError(
            f"--fault popup-window opens an X11 window beside the game's, and the game runs on {driver}"
        )
    return window


def popup_button(width: int, height: int) -> Box:
    """Where the popup's "Next level" button sits in its own pixels: centred near its bottom."""
    scale = width / SIZE[0]
    button_width, button_height = BUTTON[0] * scale, BUTTON[1] * scale
    return Box((width - button_width) / 2, height - button_height - 18 * scale, button_width, button_height)


class PopupWindow:
    """The game's popup: opened when a message is shown, replaced when it changes, closed when none."""

    def __init__(self, parent: int) -> None:
        from Xlib import display as xdisplay
        from Xlib.error import DisplayError as XDisplayError

        from flowbot.display import quiet_x_client

        try:
            with quiet_x_client():
                self.display = xdisplay.Display()
        except XDisplayError as error:
            raise DisplayError(f"--fault popup-window cannot reach the X display: {error}") from None
        self.parent = self.display.create_resource_object("window", parent)
        self.window = None
        self.dialog: Dialog | None = None
        self.size = (0, 0)
        self._pixels = b""

    def show(self, dialog: Dialog | None, centre: tuple[float, float], scale: float) -> None:
        """Show `dialog` centred on a point of the game's window (None: no popup); `scale` sizes it."""
        if dialog == self.dialog and (dialog is None) == (self.window is None):
            return
        self._destroy()
        self.dialog = dialog
        if dialog is None:
            return
        from Xlib import X, Xatom

        width, height = round(SIZE[0] * scale), round(SIZE[1] * scale)
        origin = self.display.screen().root.translate_coords(self.parent, 0, 0)
        x, y = round(origin.x + centre[0] - width / 2), round(origin.y + centre[1] - height / 2)
        screen = self.display.screen()
        window = screen.root.create_window(
            x, y, width, height, 0, screen.root_depth,
            background_pixel=screen.black_pixel,
            event_mask=X.ExposureMask | X.ButtonPressMask,
        )  # fmt: skip
        window.set_wm_name(dialog.title)
        window.set_wm_class("flowbot-popup", "flowbot game")
        # python-xlib's set_wm_transient_for packs a bare id where a list is wanted.
        window.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [self.parent.id])
        atom = self.display.intern_atom
        window.change_property(atom("_NET_WM_PID"), Xatom.CARDINAL, 32, [os.getpid()])
        kind = atom("_NET_WM_WINDOW_TYPE_DIALOG")
        window.change_property(atom("_NET_WM_WINDOW_TYPE"), Xatom.ATOM, 32, [kind])
        window.map()
        self.window, self.size = window, (width, height)
        self._pixels = _drawn(dialog, width, height, scale)
        self._paint()

    def pressed(self) -> bool:
        """Handle the popup's events; True when its button was pressed (the game then moves on)."""
        from Xlib import X

        hit = False
        while self.display.pending_events():
            event = self.display.next_event()
            if self.window is None or getattr(event, "window", None) != self.window:
                continue
            if event.type == X.Expose and event.count == 0:
                self._paint()
            elif event.type == X.ButtonPress and event.detail == 1:
                hit = hit or popup_button(*self.size).contains(event.event_x, event.event_y)
        return hit

    def close(self) -> None:
        """Close the popup and the connection."""
        self._destroy()
        self.display.close()

    def _paint(self) -> None:
        """Put the drawn popup on its window, a band of rows per request."""
        from Xlib import X

        if self.window is None:
            return
        width, height = self.size
        gc = self.window.create_gc()
        stride = width * 4
        for top in range(0, height, CHUNK_ROWS):
            rows = min(CHUNK_ROWS, height - top)
            band = self._pixels[top * stride : (top + rows) * stride]
            self.window.put_image(gc, 0, top, width, rows, X.ZPixmap, 24, 0, band)
        gc.free()
        self.display.flush()

    def _destroy(self) -> None:
        """Take the popup window away."""
        if self.window is not None:
            self.window.destroy()
            self.display.flush()
            self.window = None
        self.dialog = None


def _drawn(dialog: Dialog, width: int, height: int, scale: float) -> bytes:
    """The popup's pixels, 32 bits each (blue, green, red, unused) as a 24-bit X server takes them."""
    import pygame

    surface = pygame.Surface((width, height))
    surface.fill(FILL)
    pygame.draw.rect(surface, INK, surface.get_rect(), max(2, round(3 * scale)))
    title = pygame.font.Font(None, round(44 * scale)).render(dialog.title, True, INK)
    surface.blit(title, title.get_rect(center=(width / 2, 34 * scale)))
    font = pygame.font.Font(None, round(28 * scale))
    for index, text in enumerate(dialog.lines[:2]):
        line = font.render(text, True, INK)
        surface.blit(line, line.get_rect(center=(width / 2, (72 + 28 * index) * scale)))
    button = popup_button(width, height)
    rect = pygame.Rect(round(button.x), round(button.y), round(button.width), round(button.height))
    pygame.draw.rect(surface, INK, rect, max(2, round(3 * scale)))
    label = pygame.font.Font(None, round(34 * scale)).render(dialog.button or "OK", True, INK)
    surface.blit(label, label.get_rect(center=rect.center))
    return pygame.image.tobytes(surface, "BGRA")
