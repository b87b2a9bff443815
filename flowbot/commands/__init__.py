"""The registry of `flowbot` commands: one module each, with its own parser and run function.

A command module has `NAME` (what the user types), `HELP` (one line for `flowbot --help`),
`add_arguments(parser)` and `run(args) -> int`. It may set `DESCRIPTION` (a longer text for its own
--help) and `RAW = True` when it parses its own arguments (then `run_raw(argv)` gets them untouched).
Modules import only argparse-level things at the top: heavy imports wait inside `run`, so that
`flowbot --help` and a typo stay instant.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# In the order `flowbot --help` lists them.
MODULES = (
    "solve",
    "read",
    "bench",
    "convert",
    "generate",
    "rate",
    "hint",
    "auto_clear",
    "play",
    "numbermatch",
    "game",
    "calibrate",
    "scrape",
    "demo",
    "serve",
    "screens",
)


def commands() -> list[ModuleType]:
    """Every command module, in the order of MODULES."""
    return [importlib.import_module(f"{__name__}.{name}") for name in MODULES]
