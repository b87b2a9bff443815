"""The bundled desktop Flow Free game that people play and flowbot's bot plays in tests.

Modules: `board` (the rules), `session` (levels in order, results), `controls` (pointer and keys to
actions), `look` (themes and looks: colours, grid style, where the board and the win's controls go),
`layout` (where things sit in a window), `shapes` (which Shapes board a level is drawn on), `packs`
(shipped packs, folders of puzzles), `render` (drawing with pygame), `view` (one variant drawn and
played, for the window and the test double) and `app` (the window and its command line). Only
`render`, `view` and `app` use pygame; the rest is pure and loads without it.
"""

import os

# pygame greets on stdout when imported; the game's stdout carries only "game ready" for the bot.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
