"""The auto-clear JSON line says `interrupted`: true when a stop signal ended the run mid-loop, false
when it ended on its own (done, or any other stop), for Flow and Number Match alike."""

from __future__ import annotations

import os
import random
import signal

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.act.pointer import FailSafeError, Interrupted
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from flowbot.modes.auto_clear_run import report_record
from flowbot.modes.numbermatch_clear import ClearReport, _json_record
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)


@pytest.fixture(scope="module")
def levels():
    """Three small generated levels."""
    return [make_level(5, 5, 4, random.Random(seed)).puzzle for seed in range(3)]


def _loop(game, tmp_path) -> AutoClear:
    """The Flow loop on the simulated game, on its clock."""
    return AutoClear(game, game, FAST, None, 3, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2)  # fmt: skip


def test_a_signal_mid_loop_says_interrupted(levels, tmp_path):
    game = SimulatedGame(levels)
    real_up = game.up

    def up_then_signal():
        real_up()
        os.kill(os.getpid(), signal.SIGTERM)  # a service manager stopping the run mid-level

    game.up = up_then_signal
    report = _loop(game, tmp_path).run()
    line = report_record(report, 3)
    assert line["interrupted"] is True
    assert line["stopped"] == "interrupted by SIGTERM"


def test_a_run_that_ends_on_its_own_is_not_interrupted(levels, tmp_path):
    game = SimulatedGame(levels)
    report = _loop(game, tmp_path).run()
    assert report.cleared == 3
    assert report_record(report, 3)["interrupted"] is False


def test_another_stop_is_not_an_interruption():
    from flowbot.live.report import Report

    assert report_record(Report(halt=FailSafeError()), 3)["interrupted"] is False


@pytest.mark.parametrize(
    ("halt", "said"),
    [(Interrupted(signal.SIGHUP), True), (None, False), (FailSafeError(), False)],
    ids=["signal", "done", "fail-safe"],
)
def test_number_match_says_it_too(halt, said):
    assert _json_record(ClearReport(count=1, halt=halt), 1)["interrupted"] is said
