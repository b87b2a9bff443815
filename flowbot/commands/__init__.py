"""The registry of `flowbot` commands: one module each, with its own parser and run function.

A command module has `NAME` (what the user types), `HELP` (one line for `flowbot --help`),
`add_arguments(parser)` and `run(args) -> int`. It may set `DESCRIPTION` (a longer text for its own
--help), `RAW = True` when it parses its own arguments (then `run_raw(argv)` gets them untouched), and
`LOGS = False` when nothing it runs makes log records (then logging is set up only for -v).
Modules import only argparse-level things at the top: heavy imports wait inside `run`, so that
`flowbot --help` and a typo stay instant. A module's file is named after its command (`auto_clear.py`
for `auto-clear`), so a command line that names one imports that module alone (see `command`).
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


def command(name: str) -> ModuleType | None:
    """The module of the command the user typed as `name` (`auto-clear`), or None if none is so named."""
    module_name = name.replace("-", "_")
    # Only the typed spelling counts: `auto_clear` is no command, as argparse would say.
    if "_" in name or module_name not in MODULES:
        return None
    return importlib.import_module(f"{__name__}.{module_name}")
