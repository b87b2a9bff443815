"""Scraping levels into pack folders, and calibration profiles."""

from __future__ import annotations

import json
import random

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture.screen import Region
from flowbot.errors import FormatError, InputFileError, UsageError
from flowbot.formats import load_puzzles
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from flowbot.modes.scrape import PackFolder, scrape
from flowbot.profiles import Profile, load_profile, save_profile
from flowbot.progress import Progress
from tests.boards import canonical
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)


@pytest.fixture(scope="module")
def levels():
    """Three small generated levels."""
    return [make_level(size, size, size, random.Random(size)).puzzle for size in (5, 6, 7)]


def loop_on(game: SimulatedGame, tmp_path) -> AutoClear:
    """The live loop on the in-process game, with short waits."""
    return AutoClear(game, game, FAST, None, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2)  # fmt: skip


def quiet() -> Progress:
    """A progress bar that draws nothing."""
    return Progress(0, "test", enabled=False)


def test_scrape_saves_each_level_in_order_and_stops_at_the_end_of_the_pack(levels, tmp_path):
    game = SimulatedGame(levels)
    folder = PackFolder.open(tmp_path / "pack", "mini", resume=False)
    summary = scrape(loop_on(game, tmp_path), folder, None, keep_images=True, progress=quiet())
    assert summary.saved == ["001.json", "002.json", "003.json"]
    # The last level's only button goes back to level 1: never pressed, so the pack ends there.
    assert "end of the pack" in summary.stopped and "'back to level 1'" in summary.stopped
    for name, puzzle in zip(summary.saved, levels, strict=True):
        saved = load_puzzles(tmp_path / "pack" / name)[0]
        assert saved.to_rows() == canonical(puzzle.to_rows())
        assert saved.source.kind == "screen" and saved.source.details["image"] == name.replace(
            ".json", ".png"
        )
    assert json.loads((tmp_path / "pack" / "pack.json").read_text())["pack"] == "mini"
    assert (tmp_path / "pack" / "002.png").read_bytes()[:4] == b"\x89PNG"


def test_resume_continues_the_numbering_and_skips_what_is_saved(levels, tmp_path):
    first = SimulatedGame(levels)
    folder = PackFolder.open(tmp_path / "pack", "mini", resume=False)
    scrape(loop_on(first, tmp_path), folder, 1, keep_images=False, progress=quiet())
    again = SimulatedGame(levels)  # the game was restarted: level 1 shows again
    folder = PackFolder.open(tmp_path / "pack", "mini", resume=True)
    summary = scrape(loop_on(again, tmp_path), folder, 2, keep_images=False, progress=quiet())
    assert summary.skipped == 1
    assert summary.saved == ["002.json", "003.json"]


def test_a_pack_folder_never_mixes_or_overwrites(levels, tmp_path):
    game = SimulatedGame(levels)
    folder = PackFolder.open(tmp_path / "pack", "mini", resume=False)
    scrape(loop_on(game, tmp_path), folder, 1, keep_images=False, progress=quiet())
    with pytest.raises(UsageError, match="already holds 1 level"):
        PackFolder.open(tmp_path / "pack", "mini", resume=False)
    with pytest.raises(UsageError, match="refusing to mix"):
        PackFolder.open(tmp_path / "pack", "other", resume=True)
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match="not a flowbot pack folder"):
        PackFolder.open(stranger, "mini", resume=True)


def test_profiles_round_trip_and_bad_ones_are_named(tmp_path):
    profile = Profile(
        "phone", Region(10, 20, 400, 800), 9, 9, (200, 500), None, "instant", FAST, "scrcpy window"
    )
    path = save_profile(profile, tmp_path)
    assert path.name == "phone.json"
    assert load_profile("phone", tmp_path) == profile
    with pytest.raises(InputFileError, match="no such profile"):
        load_profile("absent", tmp_path)
    (tmp_path / "broken.json").write_text('{"schema_version": 1, "name": "broken", "advance": "teleport"}')
    with pytest.raises(FormatError, match="advance 'teleport'"):
        load_profile("broken", tmp_path)
    with pytest.raises(UsageError, match="profile name"):
        load_profile("../escape")


def test_the_bundled_game_profile_is_shipped():
    profile = load_profile("flowbot-game")
    assert profile.advance == "dialog" and profile.pointer.moves_per_cell == 1


class _DiskFull:
    """Outputs whose level files cannot be written (the disk filled up after pack.json)."""

    def __init__(self, real) -> None:
        self.real = real

    def write_text(self, path, text: str) -> None:
        from flowbot.errors import OutputFileError

        if path.name != "pack.json":
            raise OutputFileError(f"{path}: cannot write: No space left on device")
        self.real.write_text(path, text)

    def write_bytes(self, path, data: bytes) -> None:
        self.write_text(path, "")


def test_a_scrape_that_saves_no_level_leaves_no_pack_folder_behind(levels, tmp_path):
    game = SimulatedGame(levels)
    where = tmp_path / "packs" / "mini"
    folder = PackFolder.open(where, "mini", resume=False)
    folder.outputs = _DiskFull(folder.outputs)
    summary = scrape(loop_on(game, tmp_path / "artifacts"), folder, None, keep_images=False, progress=quiet())
    assert summary.saved == [] and "No space left" in summary.stopped
    assert not (tmp_path / "packs").exists()


def test_a_resumed_scrape_that_saves_nothing_keeps_what_was_there(levels, tmp_path):
    game = SimulatedGame(levels)
    scrape(loop_on(game, tmp_path), PackFolder.open(tmp_path / "pack", "mini", resume=False), 1,
           keep_images=False, progress=quiet())  # fmt: skip
    folder = PackFolder.open(tmp_path / "pack", "mini", resume=True)
    folder.outputs = _DiskFull(folder.outputs)
    again = loop_on(SimulatedGame(levels[1:]), tmp_path)
    summary = scrape(again, folder, 1, keep_images=False, progress=quiet())
    assert summary.saved == []
    assert sorted(path.name for path in (tmp_path / "pack").iterdir()) == ["001.json", "pack.json"]
