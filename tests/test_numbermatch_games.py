"""The Number Match bot against a third-party game, judged by the game (scripts/bench_numbermatch_games.py):
skipped where the games, chromium, Xvfb or websocket-client are missing."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED

GAMES = SHARED / "numbermatch-games"
SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "bench_numbermatch_games.py"


def harness():
    """The harness script as a module."""
    spec = importlib.util.spec_from_file_location("bench_numbermatch_games", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_boards_compare_with_cleared_cells_at_the_end_left_out() -> None:
    """A judge's row of trailing zeros and a reading's empty slots are the same board's end."""
    bench = harness()
    assert bench.board_key([[1, 2, 0], [0, 0, 0]]) == (1, 2)
    assert bench.board_key(("12.", "___")) == (1, 2)
    assert bench.board_key([[0, 3], [4, 0]]) == (0, 3, 4)


def test_a_board_past_the_screen_is_checked_by_the_rows_that_show() -> None:
    """The rows read from a screen showing part of a board must be the judge's rows, in order."""
    bench = harness()
    state = {"rows": [[1, 2, 3, 4, 5, 6, 7, 8, 9], [0, 0, 5, 1, 1, 2, 3, 4, 6], [7, 8]]}
    shown = tuple(bench.row_key(row) for row in ("..5112346", "78_______"))
    assert bench.shows_part(shown, state)
    assert not bench.shows_part(tuple(bench.row_key(row) for row in ("..5112346", "123456789")), state)
    assert not bench.shows_part((), state)
    # A board scrolled down by whole rows reads as a whole board, flat: its rows still compare.
    assert bench.shows_part(bench.row_runs((0, 0, 5, 1, 1, 2, 3, 4, 6, 7, 8)), state)
    assert bench.row_runs("no grid") == ()


def test_a_board_is_grown_with_a_pair_of_touching_digits_first() -> None:
    """The harness's pair before an add: two touching digits in a row that are equal or sum to 10."""
    bench = harness()
    assert bench.touching_pair(("123456789", ".19.55...")) == (1, 1)
    assert bench.touching_pair(("1.9", "248")) is None


@pytest.mark.skipif(
    not (GAMES / "thejas-nm" / "start").exists()
    or shutil.which("chromium") is None
    or shutil.which("Xvfb") is None,
    reason="../shared/numbermatch-games, chromium or Xvfb is missing",
)
@pytest.mark.game_in_its_own_session  # the harness's `start` (a server and chromium) is the game
def test_a_light_mobile_game_stage_is_won_as_its_judge_says() -> None:
    """thejas-nm (blank cleared cells, a generated "+" row, "+" refused while a pair is left, rows that
    stay): the bot with its defaults wins stage 1, every state the judge showed read exactly, and
    no board is claimed that the game did not take; a click not taken taught a rule."""
    pytest.importorskip("websocket")
    bench = harness()
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(*bench.SCREEN):
        run = bench.play(GAMES / "thejas-nm", random_board=False, timeout=240)
    assert run.claimed_cleared <= int(run.won), run
    assert run.read_ok == run.states and not run.misread, run.misread
    assert run.won, run
    assert run.wrong_clicks <= 2 * len(run.lessons), run
