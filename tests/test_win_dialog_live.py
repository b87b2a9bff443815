"""For real, on Xvfb with the bundled game's window: `auto-clear --count 1` twice in a row with no
profile clears a level each time (the second run starts on the first's win dialog, and presses its
"next level"); and the game's window unmapped right after a win stops the bot with one line naming
it and status 11, not after waiting for a level that cannot come."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

from flowbot.formats import write_puzzle_json
from flowbot.generate.levels import make_level

pytestmark = pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("xdotool") is None, reason="needs Xvfb and xdotool"
)

SCREEN = (1600, 1000)
TITLE = "flowbot dialog game"


@pytest.fixture
def game(tmp_path, request):
    """The bundled game (three 5x5 levels) in the middle of a 1600x1000 Xvfb, stopped afterwards;
    a test's indirect parameter adds options to `flowbot game`."""
    options = list(getattr(request, "param", []))
    from flowbot.display import VirtualDisplay
    from tests.test_live_safety import WINDOW, start_window, stop

    folder = tmp_path / "pack"
    folder.mkdir()
    for index in range(3):
        level = make_level(5, 5, 4, random.Random(60 + index)).puzzle
        write_puzzle_json(level, folder / f"{index + 1:03d}.json")
    at = ((SCREEN[0] - WINDOW[0]) // 2, (SCREEN[1] - WINDOW[1]) // 2)
    with VirtualDisplay(*SCREEN):
        process = start_window(
            [sys.executable, "-m", "flowbot", "game", "--folder", str(folder), "--results",
             str(tmp_path / "results.jsonl"), "--size", f"{WINDOW[0]}x{WINDOW[1]}", "--title", TITLE,
             *options],
            at,
        )  # fmt: skip
        try:
            yield process
        finally:
            stop(process)


def _bot(*options: str, verbose: bool = False) -> subprocess.Popen:
    """`flowbot auto-clear` with no profile (a scratch folder holds none), as its own process."""
    return subprocess.Popen(
        [sys.executable, "-m", "flowbot", *(["-v"] if verbose else []), "auto-clear", *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tempfile.mkdtemp(prefix="flowbot-"),
    )  # fmt: skip


def test_two_runs_in_a_row_each_clear_a_level(game, tmp_path):
    for run in (1, 2):
        bot = _bot("--count", "1", "--artifacts", str(tmp_path))
        out, err = bot.communicate(timeout=90)
        assert bot.returncode == 0, f"run {run}: {out}{err}"
        assert "cleared 1 of 1" in out, out


# A move is not here: one that lands after the press, as the next level loads, is rightly followed
# (tests/test_window_fate_live.py names a move on the game's clock, and real moves on real X).
@pytest.mark.parametrize(
    ("fate", "words"), [("hidden", "was hidden"), ("closed", "was closed"), ("covered", "covers")]
)
def test_the_window_changed_right_after_a_win_is_named_with_status_11(game, tmp_path, fate, words):
    from flowbot.capture.screen import Region
    from tests.test_live_safety import PointerWatch
    from tests.test_window_fate import _client, _window

    watch = PointerWatch()
    try:
        window_id = str(watch.top_level_named(TITLE))
    finally:
        watch.stop()
    bot = _bot("--count", "2", "--artifacts", str(tmp_path), verbose=True)
    seen = []
    for line in bot.stderr:  # its log: the first level won, the move-on step begins
        seen.append(line)
        if "moving on from the level won" in line:
            break
    changed, cover = time.monotonic(), None
    if fate == "hidden":
        subprocess.run(["xdotool", "windowunmap", window_id], check=True)
    elif fate == "closed":
        game.kill()  # the game's process gone, its window with it
    else:  # another program's window over the middle of the board, mapped at once
        cover = _client()
        _window(cover, Region(SCREEN[0] // 2 - 100, SCREEN[1] // 2 - 80, 200, 160))
    try:
        out, err = bot.communicate(timeout=60)
    finally:
        if cover is not None:
            cover.close()
    ended = time.monotonic()
    assert bot.returncode == 11, "".join(seen) + out + err
    stops = [line for line in err.splitlines() if line.startswith("flowbot: ")]
    assert len(stops) == 1 and words in stops[0], err
    assert "Traceback" not in err
    # Named at once (a picture saved), not after 8 s of waiting for a level; within 2 s by the bot's
    # clock (tests/test_window_fate_live.py), with room here for a loaded machine.
    assert ended - changed < 5.0


@pytest.mark.parametrize("game", [["--fault", "popup-window"]], indirect=True, ids=["popup-window"])
def test_the_games_own_popup_window_over_the_board_is_no_cover(game, tmp_path):
    # The game shows its win message in a window of its own, over the board: part of the game.
    bot = _bot("--count", "2", "--artifacts", str(tmp_path))
    out, err = bot.communicate(timeout=90)
    assert bot.returncode == 0, out + err
    assert "cleared 2 of 2" in out, out


@pytest.mark.parametrize("game", [["--fault", "next-under-popup"]], indirect=True, ids=["next-under-popup"])
def test_a_popup_of_the_game_over_the_next_level_is_closed_before_that_level_is_read(game, tmp_path):
    # The win puts the next level in place and, a tenth of a second later (the bot has seen the new
    # level by then), opens a window of the game's own over its lower rows, whose "Continue" only closes
    # it: the rows above it are not a level to play (read, they are a smaller board or none); the popup
    # is pressed first, and every level played is the game's whole. Without the look at the game's
    # windows the bot waited for a board under the popup and stopped (3 runs of 3).
    import json

    bot = _bot("--count", "3", "--artifacts", str(tmp_path), "--json")
    out, err = bot.communicate(timeout=150)
    assert bot.returncode == 0, out + err
    report = json.loads(out.strip().splitlines()[-1])
    assert [level["size"] for level in report["per_level"]] == ["5x5"] * 3, out
    assert report["cleared"] == 3, out
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [(record["level"], record["solved"]) for record in records][:3] == [
        (1, True),
        (2, True),
        (3, True),
    ]


MODAL = ["--next-button", "modal", "--theme", "light"]


@pytest.mark.parametrize("game", [MODAL], indirect=True, ids=["modal"])
def test_a_modal_over_the_washed_out_window_is_the_win_and_its_arrow_button_moves_on(game, tmp_path):
    # The whole window washed out at once behind a card in Finnish: "Uudelleen" (again) beside a filled
    # "Seuraava" ending in a small arrow (flowbot.game.modal). The arrow button, never the other, is
    # pressed, and each level counts on the next level that press brings, the last one asked too.
    import json

    bot = _bot("--count", "2", "--artifacts", str(tmp_path))
    out, err = bot.communicate(timeout=120)
    assert bot.returncode == 0, out + err
    assert "cleared 2 of 2" in out, out
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [(record["level"], record["solved"]) for record in records] == [(1, True), (2, True)]
