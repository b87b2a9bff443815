"""`flowbot play [PATH]`: load the levels, check the terminal, then hand over to the curses shell."""

from __future__ import annotations

from flowbot.errors import UsageError
from flowbot.play.levels import load_levels
from flowbot.play.session import PlaySession


def run_play(path: str | None, *, size: str | None = None, seed: int | None = None) -> int:
    """Play the puzzles of a file, screenshot or folder, or generated levels when `path` is None.

    `size` ('RxC', default 7x7) and `seed` apply to generated levels only. Unreadable input and an
    unusable terminal raise a FlowbotError before the screen is touched. Returns the exit status 0.
    """
    levels = load_levels(path, size=size, seed=seed)
    # Imported here: the rest of the package (session, view) is usable where curses is not.
    try:
        from flowbot.play.terminal import check_terminal, run_terminal
    except ImportError as error:  # Windows without windows-curses (pip installs it with flowbot there)
        raise UsageError(f"flowbot play needs curses ({error}): pip install windows-curses") from None

    check_terminal()
    return run_terminal(PlaySession(levels, background=True))
