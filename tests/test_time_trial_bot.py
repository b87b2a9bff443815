"""auto-clear plays the bundled game's Time Trial as it is, in-process: each new board right after a win
is a level cleared, and the end screen ("Time's up!") ends the run cleanly with a summary."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.act.tuning import start_tuner
from flowbot.capture import ocr
from flowbot.capture.ocr import Word
from flowbot.game.trial import LevelMaker, TrialSession, generated
from flowbot.live.clock import ManualClock
from flowbot.live.game_over import game_over_message
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0, settle=False)


class Clock(ManualClock):
    """Game time that moves on as the bot looks at the screen and waits (no real waiting)."""

    def __init__(self) -> None:
        super().__init__(100.0)


class TimedGame(SimulatedGame):
    """The in-process game where every look at the screen costs `per_grab` seconds of game time."""

    def __init__(self, *args, clock: Clock, per_grab: float, **kwargs) -> None:
        super().__init__(*args, clock=clock, **kwargs)
        self.clock, self.per_grab = clock, per_grab

    def grab(self, region=None):
        """What the screen shows, a moment later."""
        self.clock.advance(self.per_grab)
        return super().grab(region)


@pytest.fixture
def trial():
    """A 5x5 time trial of 5 seconds on a clock the test drives, and its results."""
    clock = Clock()
    results: list = []
    maker = LevelMaker(generated(5, 5, seed=11))
    session = TrialSession(maker, 5, report=results.append, clock=clock)
    yield session, clock, results
    maker.close()


@pytest.mark.parametrize("per_grab", [0.05, 0.13, 0.31])
def test_a_time_trial_is_played_to_its_end_screen_and_stops_cleanly(trial, tmp_path, per_grab):
    if not ocr.available():
        pytest.skip("tesseract is not installed")
    session, clock, results = trial
    game = TimedGame(None, session=session, clock=clock, per_grab=per_grab)
    loop = AutoClear(game, game, FAST, None, None, artifacts=tmp_path, clock=clock,
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    report = loop.run()
    assert session.over
    assert report.halt is None and report.failure_image is None, report.summary()
    assert report.stopped.startswith("the game is over: Time's up!"), report.stopped
    # Never a level the game did not count; the last one may go uncounted when the end screen
    # covered its win at once (no evidence left on screen that it was won).
    assert report.cleared == len(report.levels) >= 3
    assert session.solved - 1 <= report.cleared <= session.solved
    assert [result.solved for result in results][: session.solved] == [True] * session.solved
    assert not list(tmp_path.iterdir())  # no failure screenshot


def test_a_tuned_run_plays_the_trial_too(trial, tmp_path):
    if not ocr.available():
        pytest.skip("tesseract is not installed")
    session, clock, _ = trial
    game = TimedGame(None, session=session, clock=clock, per_grab=0.05)
    loop = AutoClear(game, game, PointerSettings(), None, None, artifacts=tmp_path, clock=clock,
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    loop.tuner = start_tuner(PointerSettings())
    report = loop.run()
    assert report.halt is None and report.stopped.startswith("the game is over"), report.summary()
    # Never a level the game did not count; the last one may go uncounted when the end screen
    # covered its win at once (no evidence left on screen that it was won).
    assert report.cleared == len(report.levels) >= 3
    assert session.solved - 1 <= report.cleared <= session.solved
    assert report.levels[0].retries == 1  # the game fills no jumps: drawn again cell by cell
    assert report.pointer.endswith("ended on 'cells, no pauses'")


class DroppingGame(TimedGame):
    """The trial in-process, where the game loses the end of one stroke (a frame it never sampled, on a
    busy machine): the level is left one flow short while the clock line says "solved 2"."""

    def __init__(self, *args, drop_on: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.drop_on, self.dropping, self.strokes = drop_on, False, 0

    def down(self) -> None:
        """A press: the stroke to lose is the first one of level `drop_on`."""
        self.dropping = self.session.solved == self.drop_on and self.strokes == 0
        super().down()

    def move(self, x: float, y: float) -> None:
        """Motion, lost while the stroke is being dropped (the button stays held)."""
        if self.dropping and self.held:
            self.x, self.y = x, y
            return
        super().move(x, y)

    def up(self) -> None:
        """Release; only the first stroke of the level is ever lost."""
        if self.session.solved == self.drop_on:
            self.strokes += 1
        self.dropping = False
        super().up()


def test_a_level_the_game_did_not_take_is_not_counted_because_the_clock_line_says_solved(trial, tmp_path):
    """The trial's status line always says "solved N": a win word that showed before drawing is no win,
    so the level is drawn again (the game counts it) instead of being counted as cleared."""
    if not ocr.available():
        pytest.skip("tesseract is not installed")
    session, clock, results = trial
    game = DroppingGame(None, session=session, clock=clock, per_grab=0.05, drop_on=2)
    loop = AutoClear(game, game, FAST, None, None, artifacts=tmp_path, clock=clock,
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    report = loop.run()
    assert game.strokes >= 1, "the dropped level was never played"
    assert report.stopped.startswith("the game is over: Time's up!"), report.summary()
    # The last level may go uncounted when the end screen covers its win at once.
    assert session.solved - 1 <= report.cleared <= session.solved and report.cleared > 2
    assert report.levels[2].retries >= 1  # the level that lost a stroke was drawn again
    assert [result.solved for result in results][: session.solved] == [True] * session.solved


def test_a_half_drawn_level_read_as_another_board_is_drawn_again_not_counted(trial, tmp_path, monkeypatch):
    """A game that dropped moves leaves a half-drawn board, which the reader may take for another board
    (pipe ends look like dots): while the level's dots show where they were and some of its cells are
    still empty, it is the same level, drawn again, not a new one nor one under a dialog."""
    if not ocr.available():
        pytest.skip("tesseract is not installed")
    import flowbot.modes.auto_clear as auto_clear
    from flowbot.capture.read import Reading, read_puzzle
    from flowbot.model import Puzzle

    session, clock, results = trial
    game = DroppingGame(None, session=session, clock=clock, per_grab=0.05, drop_on=1)
    misreads = []

    def misreading(frame, source=None, near=None):
        """The real reader, but a half-drawn board comes out with one more dot pair (pipes as dots)."""
        reading = read_puzzle(frame, source, near)
        board = session.board
        if board.covered > len(reading.puzzle.endpoints) * 2 and not board.complete:
            rows = [list(line) for line in reading.puzzle.to_rows()]
            empty = [(r, c) for r, line in enumerate(rows) for c, mark in enumerate(line) if mark == "."]
            for row, col in empty[:2]:
                rows[row][col] = "Z"
            misreads.append(1)
            puzzle = Puzzle.from_rows(["".join(line) for line in rows])
            return Reading(puzzle, reading.geometry, (*reading.seen_rgb, (250, 250, 250)))
        return reading

    monkeypatch.setattr(auto_clear, "read_puzzle", misreading)
    loop = AutoClear(game, game, FAST, None, None, artifacts=tmp_path, clock=clock,
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    report = loop.run()
    assert misreads, "the half-drawn board was never read"
    assert report.stopped.startswith("the game is over: Time's up!"), report.summary()
    assert session.solved - 1 <= report.cleared <= session.solved and report.cleared > 1
    assert report.levels[1].retries >= 1
    assert [result.solved for result in results][: session.solved] == [True] * session.solved


def word(text: str) -> Word:
    """A word as OCR gives it (the box does not matter here)."""
    return Word(text, 0, 0, 10, 10, 90.0)


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        (
            ["0%", "Time's", "up!", "12", "levels", "solved", "in", "60", "seconds", "OOO"],
            "Time's up! 12 levels solved in 60 seconds",
        ),
        (["Time", "is", "up"], "Time is up"),
        (["GAME", "OVER"], "GAME OVER"),
        (["time", "0:12", "solved", "3"], None),  # the trial's clock line is no end screen
        (["You", "won!", "Next", "level"], None),
    ],
)
def test_end_screens_are_told_from_other_words(texts, message):
    assert game_over_message([word(text) for text in texts]) == message


# --- live, on a virtual display: the real game window, mss and pyautogui ----------------------------


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
@pytest.mark.parametrize(
    "game_options",
    [("--sample-per-frame", "--interpolate"), ("--sample-per-frame",)],
    ids=["fills jumps", "no fill"],
)
def test_auto_clear_defaults_play_a_short_live_time_trial(tmp_path, game_options):
    """A 10-second trial: every level the bot counts is one the game counts, and the end screen ends
    the run with exit 0, on a game that reads the pointer once per frame, filling jumps or not."""
    if not ocr.available():
        pytest.skip("tesseract is not installed")
    from flowbot.display import VirtualDisplay

    results = tmp_path / "results.jsonl"
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    with VirtualDisplay(640, 1024):
        env.update({key: os.environ[key] for key in ("DISPLAY", "XAUTHORITY") if key in os.environ})
        game = subprocess.Popen(
            [sys.executable, "-m", "flowbot", "game", "--time-trial", "10", "--board", "5x5", "--seed", "4",
             "--results", str(results), "--size", "540x960", *game_options],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert game.stdout.readline().strip() == "game ready", game.stderr.read()
            bot = subprocess.run(
                [sys.executable, "-m", "flowbot", "auto-clear", "--json", "--artifacts", str(tmp_path)],
                capture_output=True, text=True, timeout=90, check=False,
            )  # fmt: skip
        finally:
            game.terminate()
            game.wait(timeout=10)
    assert bot.returncode == 0, bot.stdout + bot.stderr
    figures = json.loads(bot.stdout.strip().splitlines()[-1])
    assert figures["stopped"].startswith("the game is over: Time's up!"), figures
    solved = [json.loads(line)["solved"] for line in results.read_text().splitlines()]
    # The bot and the game agree on every level but, at most, the one being played as time ran out
    # (the end screen over a level may be taken for its win, or a win in the last frame missed).
    assert figures["cleared"] == figures["levels"] >= 1, figures
    assert abs(figures["cleared"] - sum(solved)) <= 1, (figures, solved)
    assert set(figures["timing_ms_median"]) == {"capture", "read", "solve", "plan", "draw", "verify", "next"}
    assert "ended on" in figures["pointer"]


def test_the_end_screen_shown_over_a_level_not_taken_is_no_win(trial, tmp_path):
    """Time runs out while a level is drawn and one stroke was lost: the end screen ("Time's up! 1
    levels solved") carries a win word that was not there before, but it is the end, not a win."""
    if not ocr.available():
        pytest.skip("tesseract is not installed")
    session, clock, _ = trial
    game = DroppingGame(None, session=session, clock=clock, per_grab=0.05, drop_on=1)
    real_up = game.up

    def up_then_time_is_up():
        real_up()
        if session.solved == 1 and game.strokes == 1:
            clock.advance(10)  # the trial ends after the second level's first (lost) stroke

    game.up = up_then_time_is_up
    loop = AutoClear(game, game, FAST, None, None, artifacts=tmp_path, clock=clock,
                     settle_timeout=1.0, verify_timeout=0.3)  # fmt: skip
    report = loop.run()
    assert report.stopped.startswith("the game is over: Time's up!"), report.summary()
    assert report.cleared == session.solved == 1, report.summary()
