"""Long tests first on every worker: the suite's order so that pytest-xdist's first split of the tests
(contiguous shares, one per worker) gives each worker an equal part of the long tests, at the front.

The long tests (a real game, a live window played for tens of seconds, Number Match boards searched)
then run while every worker is busy, and the short ones left at the end of each share are what idle
workers take over from others; a long test started last would keep the whole run waiting for it.
The names below are from `pytest --durations=60` (over about 15 s of wall time on this machine).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

LONG = (
    "tests/test_real_games.py::test_flowbot_never_claims",
    "tests/test_numbermatch_live.py::test_ten_boards_in_a_row",
    "tests/test_numbermatch_clear.py::test_rules_",
    "tests/test_numbermatch_clear.py::test_a_board_scrolled",
    "tests/test_numbermatch_clear.py::test_a_plus_",
    "tests/test_numbermatch_clear.py::test_a_window_shorter",
    "tests/test_numbermatch_clear.py::test_boards_are_cleared",
    "tests/test_numbermatch_clear.py::test_a_line_that_runs_out",
    "tests/test_numbermatch_clear.py::test_a_game_that_ends_when_no_pair",
    "tests/test_numbermatch_scroll.py::test_a_board_changed_while_scrolling",
    "tests/test_numbermatch_scroll.py::test_a_page_that_scrolls_only_by_the_wheel",
    "tests/test_numbermatch_games.py::",
    "tests/test_numbermatch_game.py::test_a_seed_deals_the_same_boards",
    "tests/test_auto_clear_confirmed.py::",
    "tests/test_clock_answers.py::test_a_",
    "tests/test_live.py::test_fast_drags_fail",
    "tests/test_live.py::test_scrape_the_real_game",
    "tests/test_live.py::test_the_whole_demo_pack",
    "tests/test_live.py::test_variants_of_the_game",
    "tests/test_live_scale.py::test_every_command_finds",
    "tests/test_live_safety.py::test_a_run_that_does_not_reach",
    "tests/test_hint.py::test_first_hint_on_every_real_screenshot",
    "tests/test_time_trial_bot.py::test_auto_clear_defaults_play",
    "tests/test_auto_clear_lag.py::",
    "tests/test_win_dialog_live.py::",
)


def is_long(nodeid: str) -> bool:
    """True for a test named in LONG."""
    return nodeid.startswith(LONG)


def shares(total: int, workers: int) -> list[int]:
    """The sizes of the first split of `total` tests over `workers` (as the worksteal scheduler makes
    it: each in turn takes what is left divided by the workers still to serve)."""
    sizes = []
    left = total
    for served in range(workers):
        size = left // (workers - served)
        sizes.append(size)
        left -= size
    return sizes


def long_first(items: Sequence[T], long: Sequence[bool], workers: int) -> list[T]:
    """The items reordered so each worker's share starts with its part of the long ones (dealt in
    turn), the rest keeping their order; unchanged with fewer than two workers."""
    if workers < 2 or not any(long):
        return list(items)
    longs = [item for item, flag in zip(items, long, strict=True) if flag]
    rest = [item for item, flag in zip(items, long, strict=True) if not flag]
    ordered: list[T] = []
    for worker, size in enumerate(shares(len(items), workers)):
        mine = longs[worker::workers]
        take = max(0, size - len(mine))
        ordered.extend(mine + rest[:take])
        rest = rest[take:]
    return ordered + rest
