"""Failure pictures go to one place: the per-user cache folder by the platform's convention unless
`--artifacts DIR` names one, made when missing, the path said in the stop message."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from flowbot.act.plan import PointerSettings
from flowbot.act.pointer import RecordingPointer
from flowbot.artifacts import artifacts_folder, default_folder, save_failure_picture
from flowbot.capture.screen import ImageScreen
from flowbot.errors import OutputFileError
from flowbot.live.clock import ManualClock
from flowbot.modes.auto_clear import AutoClear

HOME = Path("/home/ada")


@pytest.mark.parametrize(
    ("platform", "environ", "expected"),
    [
        ("linux", {}, HOME / ".cache" / "flowbot"),
        ("linux", {"XDG_CACHE_HOME": "/var/cache/ada"}, Path("/var/cache/ada/flowbot")),
        ("linux", {"XDG_CACHE_HOME": "relative/cache"}, HOME / ".cache" / "flowbot"),  # invalid: ignored
        ("darwin", {"XDG_CACHE_HOME": "/ignored"}, HOME / "Library" / "Caches" / "flowbot"),
        (
            "win32",
            {"LOCALAPPDATA": "C:/Users/ada/AppData/Local"},
            Path("C:/Users/ada/AppData/Local/flowbot/Cache"),
        ),
        ("win32", {}, HOME / "AppData" / "Local" / "flowbot" / "Cache"),
    ],
)
def test_the_default_folder_follows_the_platforms_convention(platform, environ, expected):
    assert default_folder(environ, platform, HOME) == expected


def test_no_artifacts_flag_means_the_default_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if default_folder() != tmp_path / "flowbot":
        pytest.skip("not an XDG platform")
    assert artifacts_folder(None) == tmp_path / "flowbot"
    assert artifacts_folder("pictures") == Path("pictures")


def test_a_missing_folder_is_made_at_the_first_picture(tmp_path):
    folder = tmp_path / "not" / "yet"
    path = save_failure_picture(folder, "level-1-no-board", b"\x89PNG\r\n\x1a\n")
    assert path.parent == folder and path.read_bytes().startswith(b"\x89PNG")
    assert path.name.startswith("flowbot-level-1-no-board-")


def test_a_folder_that_cannot_be_made_is_named(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(OutputFileError, match=f"{blocker / 'sub'}: cannot make the folder"):
        save_failure_picture(blocker / "sub", "x", b"")


def blank_run(**options) -> AutoClear:
    """The live loop on a screen with no board: it stops at once and keeps the frame."""
    screen = ImageScreen([np.zeros((600, 400, 3), dtype=np.uint8)])
    return AutoClear(screen, RecordingPointer(), PointerSettings(), None, 1, clock=ManualClock(),
                     settle_timeout=0.2, verify_timeout=0.2, **options)  # fmt: skip


def test_the_stop_message_names_the_picture_in_a_folder_made_for_it(tmp_path):
    folder = tmp_path / "new" / "folder"
    report = blank_run(artifacts=folder).run()
    assert report.failure_image is not None
    picture = Path(report.failure_image)
    assert picture.parent == folder and picture.is_file()
    assert f"screenshot of the failure: {picture}" in report.summary()


def test_without_artifacts_the_picture_goes_to_the_cache_not_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    report = blank_run().run()
    picture = Path(report.failure_image)
    assert picture.parent == default_folder()
    assert picture.is_file()
    assert not list(tmp_path.glob("*.png"))
