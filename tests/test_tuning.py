"""Self-tuning of the pointer settings: the ladder, the tuner's steps, and the live loop tuning itself
in-process on games that take fast input, fill jumps, or read the pointer once per frame."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from flowbot.act.plan import PointerSettings
from flowbot.act.tuning import FRAME, LADDER, Rung, Tuner, start_tuner
from flowbot.capture.verdict import not_taken, same_level_showing
from flowbot.capture.verdict import rgb_to_lab as _lab
from flowbot.cli import build_parser
from flowbot.commands.pointer_options import explicit_pointer
from flowbot.game.faults import Faults, FaultSpec
from flowbot.game.session import Session
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from flowbot.profiles import Profile, load_profile, save_profile, save_tuned
from tests.clocks import HookedClock
from tests.simulated_game import SimulatedGame


@pytest.fixture(scope="module")
def levels():
    """Three generated levels of growing size."""
    return [make_level(side, side, side - 1, random.Random(side)).puzzle for side in (5, 6, 7)]


# --- the ladder and the tuner ------------------------------------------------------------------------


def test_the_ladder_runs_from_jumps_with_no_pauses_past_the_safe_defaults():
    first = LADDER[0].settings
    assert first.jumps and first.move_delay == first.release_pause == first.flow_pause == 0
    assert not first.settle
    names = [rung.name for rung in LADDER]
    assert len(set(names)) == len(LADDER) and len({rung.settings for rung in LADDER}) == len(LADDER)
    defaults = names.index("safe defaults")
    assert LADDER[defaults].settings == PointerSettings()
    # A game that reads the pointer once per frame and fills nothing needs cells a frame each or more,
    # and every rung after that spends at least as long in each cell.
    cells = names.index("cells, a frame each")
    assert not LADDER[cells].settings.jumps and LADDER[cells].settings.move_delay >= FRAME
    per_cell = [rung.settings.move_delay * rung.settings.moves_per_cell for rung in LADDER[cells:]]
    assert per_cell == sorted(per_cell) and LADDER[-1].settings.move_delay > PointerSettings().move_delay


def test_the_tuner_steps_down_one_rung_per_drop_and_keeps_what_worked():
    kept: list[Rung] = []
    tuner = Tuner(on_proven=kept.append)
    assert tuner.rung == LADDER[0] and tuner.probing and tuner.steps_left() == len(LADDER) - 1
    assert tuner.dropped() and tuner.rung == LADDER[1] and tuner.probing
    tuner.worked()
    tuner.worked()  # a second level at the same rung changes nothing
    assert kept == [LADDER[1]] and not tuner.probing
    assert tuner.dropped() and tuner.rung == LADDER[2] and tuner.probing  # a later level failed
    tuner.worked()
    assert kept == [LADDER[1], LADDER[2]]
    assert tuner.steps == [
        f"dropped cells at {LADDER[0].name!r}",
        f"kept {LADDER[1].name!r}",
        f"dropped cells at {LADDER[1].name!r}",
        f"kept {LADDER[2].name!r}",
    ]


def test_after_enough_levels_in_a_row_it_goes_back_up_to_what_worked_before():
    tuner = Tuner(start=2, proven=True, patience=3)
    assert tuner.dropped() and tuner.dropped() and tuner.rung == LADDER[4]  # a busy moment
    for _ in range(2):
        tuner.worked()
    assert tuner.rung == LADDER[4]
    tuner.worked()  # three in a row: rung 3 never worked, rung 2 did
    assert tuner.rung == LADDER[2] and not tuner.probing
    assert tuner.dropped() and tuner.rung == LADDER[3] and tuner.probing  # it did not hold
    assert tuner.patience == 6  # so the next try back up waits longer
    tuner.worked()
    assert tuner.rung == LADDER[3]


def test_at_the_slowest_rung_there_is_nothing_slower():
    tuner = Tuner(start=len(LADDER) - 1)
    assert not tuner.probing  # the slowest rung gets the full time to show a win
    assert not tuner.dropped() and tuner.rung == LADDER[-1]
    with pytest.raises(ValueError):
        Tuner(start=len(LADDER))


def test_what_is_tuned_and_where_it_starts():
    assert start_tuner(PointerSettings()).rung == LADDER[0]  # the defaults: tune from the top
    saved = start_tuner(LADDER[2].settings)  # a profile that tuning saved: start there, trusted
    assert saved.rung == LADDER[2] and saved.proven
    assert start_tuner(PointerSettings(move_delay=0.004)) is None  # set by hand: left alone


@pytest.mark.parametrize(
    ("argv", "explicit"),
    [
        ([], False),
        (["--profile", "x"], False),
        (["--move-delay", "0.02"], True),
        (["--corners-only"], True),
        (["--no-settle"], True),
        (["--moves-per-cell", "1"], True),
    ],
)
def test_explicit_pointer_flags_switch_tuning_off(argv, explicit):
    assert explicit_pointer(build_parser().parse_args(["auto-clear", *argv])) is explicit


def test_tuned_settings_are_saved_in_the_profile_it_came_from(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_profile(Profile("my-game", advance="instant", notes="hand notes"), tmp_path / "calibration")
    profile = load_profile("my-game")
    path = save_tuned(profile, LADDER[1].settings)
    assert path.resolve() == tmp_path / "calibration" / "my-game.json"
    again = load_profile("my-game")
    assert again.pointer == LADDER[1].settings and again.advance == "instant" and again.notes == "hand notes"
    assert start_tuner(again.pointer).rung == LADDER[1]
    assert sorted(p.name for p in (tmp_path / "calibration").iterdir()) == ["my-game.json"]  # no leftovers
    assert json.loads(path.read_text())["pointer"]["moves_per_cell"] == 1


def test_every_rung_saved_in_a_profile_is_read_back_as_that_rung(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_profile(Profile("my-game"), tmp_path / "calibration")
    for rung in LADDER:
        save_tuned(load_profile("my-game"), rung.settings)
        assert load_profile("my-game").pointer == rung.settings, rung.name


# --- the live loop tuning itself, in-process -------------------------------------------------------------


class PerFrameGame:
    """A SimulatedGame that reads the pointer once per frame: a position counts only when the pointer
    rests there for a frame (a sleep of at least FRAME), and a release only when a frame passes before
    the next press (else the game sees the button still held and the press as a drag)."""

    def __init__(self, game: SimulatedGame, frame: float = 0.016) -> None:
        self.game, self.frame = game, frame
        self.bounds = game.bounds
        self.pending: tuple[float, float] | None = None
        self.held = self.press_pending = self.release_pending = False

    def grab(self, region=None):
        """What the screen shows (a look takes more than a frame)."""
        self.sleep(self.frame)
        return self.game.grab(region)

    def move(self, x: float, y: float) -> None:
        """The pointer moves; the game sees it at its next frame, if it is still there."""
        self.pending = (x, y)

    def down(self) -> None:
        """The button goes down; seen at the next frame."""
        if self.release_pending:  # no frame since the release: the game never saw it
            self.release_pending, self.press_pending = False, False
            return
        self.press_pending = True

    def up(self) -> None:
        """The button goes up; seen at the next frame."""
        if self.press_pending:  # pressed and released within a frame: never seen
            self.press_pending = False
            return
        self.release_pending = self.held

    def sleep(self, seconds: float) -> None:
        """Time passes: a frame reads the pointer where it rests."""
        if seconds < self.frame:
            return
        if self.pending is not None:
            self.game.x, self.game.y = self.pending
            if self.held and not self.release_pending:
                self.game.move(*self.pending)
        if self.press_pending:
            self.game.down()
            self.held, self.press_pending = True, False
        elif self.release_pending:
            self.game.up()
            self.held, self.release_pending = False, False
        self.pending = None


def loop_for(screen, pointer, sleep, count: int, tmp_path) -> AutoClear:
    """The live loop with the defaults and self-tuning, quick timeouts."""
    loop = AutoClear(screen, pointer, PointerSettings(), None, count, artifacts=tmp_path,
                     clock=HookedClock(sleep), settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    loop.tuner = start_tuner(PointerSettings())
    return loop


def game_with(levels, interpolate: bool) -> SimulatedGame:
    """The bundled game in-process (no dialog: the next level comes by itself), filling jumps or not."""
    from flowbot.game.look import Variant

    results: list = []
    game = SimulatedGame(levels, variant=Variant(dialog=False), delay=0.0,
                         session=Session(levels, report=results.append, interpolate=interpolate))  # fmt: skip
    game.results = results
    return game


def test_a_game_that_takes_every_event_and_fills_jumps_keeps_the_fastest_rung(levels, tmp_path):
    game = game_with(levels, interpolate=True)
    report = loop_for(game, game, lambda s: None, 3, tmp_path).run()
    assert report.cleared == 3, report.summary()
    assert [level.retries for level in report.levels] == [0, 0, 0]
    assert report.pointer == f"kept {LADDER[0].name!r}; ended on {LADDER[0].name!r}"
    assert len(game.results) >= 2 and all(result.solved for result in game.results)  # the game's verdict


def test_a_game_that_drops_jumps_is_drawn_again_cell_by_cell_and_the_level_counts(levels, tmp_path):
    game = game_with(levels, interpolate=False)
    report = loop_for(game, game, lambda s: None, 3, tmp_path).run()
    assert report.cleared == 3, report.summary()
    assert [level.retries for level in report.levels] == [1, 0, 0]
    assert report.pointer.endswith(f"ended on {LADDER[1].name!r}")
    assert len(game.results) >= 2 and all(result.solved for result in game.results)  # the game's verdict


@pytest.mark.parametrize(("interpolate", "rung"), [(True, 2), (False, 6)], ids=["fills jumps", "no fill"])
def test_a_game_that_reads_once_per_frame_is_tuned_down_until_it_takes_the_level(
    levels, tmp_path, interpolate, rung
):
    game = game_with(levels[:2], interpolate=interpolate)
    polling = PerFrameGame(game)
    report = loop_for(polling, polling, polling.sleep, 2, tmp_path).run()
    assert report.cleared == 2, report.summary()
    assert report.pointer.endswith(f"ended on {LADDER[rung].name!r}"), report.pointer
    # Each try the game did not take stepped one rung down (a flow drawn again is tapped first, and the
    # tap's pause may let a retry at a faster rung through, so the steps may fall on either level).
    assert sum(level.retries for level in report.levels) == rung
    assert game.results and all(result.solved for result in game.results)  # the game's verdict


@pytest.mark.parametrize("seed", range(6))
def test_a_game_that_loses_motion_events_is_cleared_on_the_slowest_rung(levels, tmp_path, seed):
    # The bundled game's lossy fault drops 30% of motion events; a lost move must not lose its cell.
    game = game_with(levels, interpolate=False)
    game.view.faults = Faults(FaultSpec(lossy=0.3, seed=seed))
    loop = loop_for(game, game, lambda s: None, 3, tmp_path)
    defaults = [rung.name for rung in LADDER].index("safe defaults")
    loop.tuner = Tuner(start=defaults)
    report = loop.run()
    assert report.cleared == 3, report.summary()
    ended = report.pointer.rsplit("ended on ", 1)[1]
    assert ended in [repr(rung.name) for rung in LADDER[defaults + 1 :]], report.pointer
    assert sum(result.solved for result in game.results) >= 2  # the game's verdict


def test_a_later_level_that_fails_steps_back_and_still_counts(levels, tmp_path):
    game = game_with(levels, interpolate=True)
    loop = loop_for(game, game, lambda s: None, 3, tmp_path)
    first = loop.play_level

    def then_stop_filling(number, sighting, report):
        """From level 2 the game no longer fills jumps (as if another game took over)."""
        if number == 2:
            game.session.interpolate = game.session.board.interpolate = False
        return first(number, sighting, report)

    loop.play_level = then_stop_filling
    report = loop.run()
    assert report.cleared == 3, report.summary()
    assert [level.retries for level in report.levels] == [0, 1, 0]
    assert report.pointer == (
        f"kept {LADDER[0].name!r}; dropped cells at {LADDER[0].name!r}; kept {LADDER[1].name!r}; "
        f"ended on {LADDER[1].name!r}"
    )


@pytest.mark.parametrize("name", ["text button", "win banner", "light", "small board"])
def test_tuned_defaults_clear_the_looks_of_the_bundled_game(name, levels, tmp_path):
    """A won board under a button, pushed down by a banner, on a light page, small on a big screen."""
    from flowbot.capture import ocr
    from tests.test_auto_clear_looks import LOOKS, NEEDS_OCR

    if name in NEEDS_OCR and not ocr.available():
        pytest.skip("tesseract is not installed")
    variant, size = LOOKS[name]
    game = SimulatedGame(levels, size=size, variant=variant)
    report = loop_for(game, game, lambda s: None, 3, tmp_path).run()
    assert report.cleared == 3, report.summary()
    assert [result.solved for result in game.results] == [True, True]
    assert report.pointer.endswith(f"ended on {LADDER[1].name!r}")  # the game fills no jumps


# --- telling a level not taken from a level won under something ------------------------------------------


def lab_board(rows: int, cols: int, fill) -> np.ndarray:
    """A (rows, cols, 3) Lab board of one colour."""
    board = np.empty((rows, cols, 3))
    board[:, :] = fill
    return board


def test_the_same_level_shows_while_most_of_its_dots_keep_their_colour():
    before = lab_board(3, 3, (10.0, 0.0, 0.0))
    dots = [(0, 0), (0, 2), (2, 0), (2, 2)]
    for row, col in dots:
        before[row, col] = (50.0, 60.0, 40.0)
    now = before.copy()
    now[1, 1] = (50.0, -40.0, 30.0)  # a pipe drawn: not a dot
    assert same_level_showing(now, before, dots)
    now[0, 0] = (90.0, 0.0, 0.0)  # one dot covered of four: still the level
    assert same_level_showing(now, before, dots)
    now[2, 2] = now[0, 2] = (10.0, 0.0, 0.0)  # most dots gone: another level, or something over it
    assert not same_level_showing(now, before, dots)
    assert not same_level_showing(now, before, [])


def test_cells_not_taken_are_empty_or_another_flows_not_covered():
    red, green = (230, 40, 40), (40, 200, 60)
    before = lab_board(1, 4, (5.0, 0.0, 0.0))
    now = before.copy()
    now[0, 1] = _lab(green)  # red's cell showing green: a pipe drawn wrong
    now[0, 2] = (85.0, 0.0, 2.0)  # light grey: a button over a won board
    now[0, 3] = np.nan  # off the frame
    owner = {(0, 0): 0, (0, 1): 0, (0, 2): 0, (0, 3): 1}
    cells = [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert not_taken(now, before, (red, green), owner, cells) == [(0, 0), (0, 1)]
