"""The bundled desktop Flow Free game: rules (board), screen layout, drawing (render) and the window (app).

Only `render` and `app` use pygame, and they import it themselves; the rules, layout, sessions and
packs are pure and load without it.
"""

import os

# pygame greets on stdout when imported; the game's stdout carries only "game ready" for the bot.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
