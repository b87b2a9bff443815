"""Key codes from curses turned into the key names the session understands."""

from __future__ import annotations

import curses

# Arrow keys as curses decodes them from terminfo (keypad mode on).
_CURSES_KEYS = {
    curses.KEY_UP: "up",
    curses.KEY_DOWN: "down",
    curses.KEY_LEFT: "left",
    curses.KEY_RIGHT: "right",
    curses.KEY_ENTER: "enter",
}
# Enter arrives as line feed or carriage return depending on the terminal's settings; space works too.
_CONTROL_KEYS = {10: "enter", 13: "enter", 32: "enter"}
# Arrow keys in both cursor modes, for terminals that send the other one than terminfo describes.
_ESCAPE_TAILS = {
    "[A": "up", "[B": "down", "[C": "right", "[D": "left",
    "OA": "up", "OB": "down", "OC": "right", "OD": "left",
}  # fmt: skip
_LETTERS = frozenset("aruqnph")

ESCAPE = 27


def key_name(code: int) -> str | None:
    """The name of a key code from getch ('up', 'enter', 'q', ...), or None for keys the game ignores."""
    if code in _CURSES_KEYS:
        return _CURSES_KEYS[code]
    if code in _CONTROL_KEYS:
        return _CONTROL_KEYS[code]
    if 0 <= code < 128 and chr(code).lower() in _LETTERS:
        return chr(code).lower()  # Caps Lock on should not stop the game
    return None


def escape_key(tail: str) -> str | None:
    """The arrow key of an escape sequence curses left undecoded, by what followed ESC (e.g. '[A')."""
    return _ESCAPE_TAILS.get(tail)
