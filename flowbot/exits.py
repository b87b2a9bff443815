"""Every exit status flowbot ends with and what it means: the one table the manual's is made from
(`exit_table()`), checked against the error classes' own `exit_code` by tests/test_exits.py."""

from __future__ import annotations

# (statuses, meaning): one row per meaning, in the order of the statuses.
EXIT_STATUSES: tuple[tuple[tuple[int, ...], str], ...] = (
    ((0,), "done"),
    ((1,), "a puzzle has no solution or ran out of time (`solve`, `rate`, `numbermatch`)"),
    (
        (2,),
        "an input could not be read or used (missing, not a regular file, too big, not a puzzle or "
        "screenshot, a board of a kind the command does not work on); the rest of the batch still runs",
    ),
    ((3,), "the solver could not run"),
    (
        (4,),
        "the live bot stopped short (`auto-clear`, `auto-clear --numbermatch`, `scrape`): a level or board "
        "not taken or unreadable, no level came, fewer than `--count` cleared",
    ),
    ((5,), "the pointer was asked to leave the game window, or the mouse cannot be driven"),
    ((6,), "no display to play on"),
    ((7,), "the demo could not run"),
    (
        (8,),
        "calibration found no board, or one with no solution, or had no terminal to ask in (`--manual`, "
        "or after automatic detection failed)",
    ),
    (
        (9,),
        "another bot already plays on this display (`auto-clear`, `scrape`, `auto-clear --numbermatch`): "
        "the message names its pid and command; nothing was pressed",
    ),
    ((10,), "the fail-safe: the pointer was thrown into a screen corner"),
    (
        (11,),
        "the game's board is gone: its window closed, was hidden, moved or was covered (while drawing, "
        "or between levels), or the screen shrank from under it (stopped before pressing)",
    ),
    (
        (12,),
        "the screen and the mouse disagree on scale or reach (HiDPI, several monitors); stopped before "
        "pressing",
    ),
    (
        (13,),
        "the display went away mid-run (its X server ended or the connection broke); the summary of "
        "what was done is printed first",
    ),
    ((64,), "a command line flowbot cannot act on (unknown option, number out of range, bad name)"),
    (
        (73,),
        "an output cannot or must not be written (exists without `--force`, is an input, two outputs of "
        "one name, a folder that takes no file); nothing was written",
    ),
    (
        (74,),
        "stdout is closed or cannot be written (`>&-`, a full disk): a closed one is refused before the "
        "command runs; stderr is never needed (the status is the same without it)",
    ),
    (
        (129, 130, 131, 143),
        "stopped by SIGHUP, Ctrl-C, SIGQUIT or SIGTERM (the button released, the summary printed)",
    ),
    ((141,), "the reader of the output went away (`| head`)"),
)


def meaning(status: int) -> str:
    """What an exit status means; KeyError for one flowbot never ends with."""
    for statuses, text in EXIT_STATUSES:
        if status in statuses:
            return text
    raise KeyError(status)


def exit_table() -> str:
    """The table as Markdown, for the manual."""
    rows = ["| status | meaning |", "|---|---|"]
    for statuses, text in EXIT_STATUSES:
        rows.append(f"| {', '.join(map(str, statuses))} | {text.replace('|', chr(92) + '|')} |")
    return "\n".join(rows) + "\n"
