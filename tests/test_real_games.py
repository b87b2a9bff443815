"""flowbot on the real third-party games of ../shared/games: no level claimed that the game did not
judge won, no press off the game's windows, no press of a skip, restart or auto-solve control (nor of
a move-on control on a level the game had not judged won). The press recorder and the judge's clock
are tested on their own first. The long runs (every level, two runs each) are in
scripts/bench_games.py; these are short: a level or two of each game."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from tests.press_recorder import PressRecorder, control_kind, press_label
from tests.real_games import GAMES, Judge, WinOrder, game_names, missing_requirements, run_game

# (game, board, levels asked): short runs, a couple of minutes in all on 2 cores.
SHORT_RUNS = [
    pytest.param("qtflowfree", None, 2, id="qtflowfree"),
    pytest.param("allegro-flowfree", None, 1, id="allegro-flowfree"),
    pytest.param("saleh-flow", None, 1, id="saleh-flow"),
    pytest.param("flowmaster", None, 1, id="flowmaster"),
    pytest.param("dom111-flow", "3x3", 1, id="dom111-flow-3x3"),
    pytest.param("tk-kuroi", None, 1, id="tk-kuroi"),
    pytest.param("racket-flow", None, 1, id="racket-flow"),
    pytest.param("next-truong", None, 1, id="next-truong"),
]


def test_judge_counts_a_win_only_on_the_level_it_was_for():
    """A win seen within the judge's grace after a press counts; a level started since does not."""
    judge = Judge(grace=0.5)
    judge.events = [(10.0, "start", 1), (12.0, "won", 1), (13.0, "start", 2), (20.0, "won", 2)]
    judge.events.append((20.1, "won", 2))  # a win seen twice counts once
    assert judge.wins() == [1, 2]
    assert judge.won_at(12.5) and judge.won_at(11.6)  # 11.6 + 0.5 grace reaches the win at 12.0
    assert not judge.won_at(11.0)
    assert not judge.won_at(14.0)  # level 2 started at 13.0: level 1's win is not level 2's
    assert judge.won_at(20.0)
    judge.events += [(21.0, "start", 3), (22.0, "start", 4), (23.0, "won", 4)]
    assert judge.left_unwon() == [3]  # level 3 was moved on from before the game judged it won


def test_the_harness_knows_every_game_of_the_shared_folder():
    """Every game folder with a `start` has its judge and level count here (and so in bench_games)."""
    from tests.real_games import GAMES_DIR

    if not GAMES_DIR.is_dir():
        pytest.skip(f"{GAMES_DIR} is not present")
    folders = {start.parent.name for start in GAMES_DIR.glob("*/start")}
    assert folders <= set(GAMES), folders - set(GAMES)
    assert set(game_names()) == folders


def test_wins_numbered_within_a_pack_name_each_level_once_and_show_skips():
    """A game printing only `LEVEL-WON n`: a lower number starts the next pack (its level 1 is not
    the first pack's), and a jump of two leaves the level between unwon."""
    judge = Judge(grace=0.3)
    judge.add("start", 1)
    order = WinOrder(judge)
    for number in ("1", "2", "4", "1", "2"):
        judge.add("won", order.won(number))
    assert judge.wins() == [1, 2, 4, "2-1", "2-2"]
    assert judge.left_unwon() == [3]


def test_a_press_before_the_drag_that_won_its_level_moved_on_from_nothing():
    """A tap on a dot, then the drag that wins, then the next level: the tap skipped nothing."""
    judge = Judge(grace=0.5)
    judge.events = [(10.0, "start", 1), (12.0, "won", 1), (12.5, "start", 2), (14.0, "start", 3)]
    assert not judge.moved_on_unwon(11.0)  # level 1 was won (at 12.0) before level 2 started
    assert judge.moved_on_unwon(13.0)  # level 2 was never won before level 3 started
    assert not judge.moved_on_unwon(5.0)  # nothing started within 3 s


@pytest.mark.parametrize(
    ("label", "kind"),
    [("Auto Solve", "skip"), ("Restart", "skip"), ("Skip Area (50)", "skip"), ("Next Level", "move-on"),
     ("Continue", "move-on"), ("NEXT", "move-on"), ("Good job!", None), ("", None)],
)  # fmt: skip
def test_control_kind_names_skips_and_move_ons(label, kind):
    """Labels that skip, restart or auto-solve, and labels that move on, are told apart."""
    assert control_kind(label) == kind


def _drawn_press(face: tuple[int, int, int] | None, ink: tuple[int, int, int], page: tuple[int, int, int]):
    """A press at the middle of a screen crop with 'Next Level' written on a button face (or on the bare
    page when face is None), and 'Restart' on the page beside it."""
    import cv2
    import numpy as np

    from tests.press_recorder import Press

    crop = np.full((90, 360, 3), page, np.uint8)
    if face is not None:
        cv2.rectangle(crop, (110, 25), (250, 65), face, -1)
    cv2.putText(crop, "Next Level", (118, 53), cv2.FONT_HERSHEY_SIMPLEX, 0.7, ink, 2, cv2.LINE_AA)
    cv2.putText(crop, "Restart", (5, 53), cv2.FONT_HERSHEY_SIMPLEX, 0.7, ink, 2, cv2.LINE_AA)
    return Press(0.0, 1180, 545, 1, 1, crop=crop, crop_origin=(1000, 500))


@pytest.mark.parametrize(
    ("face", "ink", "page"),
    [((80, 200, 80), (0, 0, 0), (255, 255, 255)), ((40, 60, 20), (0, 0, 0), (250, 250, 250)),
     (None, (255, 255, 255), (0, 0, 0)), (None, (20, 20, 20), (255, 255, 255))],
    ids=["dark ink on a green button", "dark ink on a dark button", "white on black", "black on white"],
)  # fmt: skip
def test_press_label_reads_the_control_under_the_press(face, ink, page):
    """The label of the button pressed is read, not its neighbour's, on a coloured face or bare text."""
    if shutil.which("tesseract") is None:
        pytest.skip("reading labels needs the program tesseract (Debian package tesseract-ocr)")
    assert press_label(_drawn_press(face, ink, page)) == "Next Level"


@pytest.fixture
def xmessage_screen():
    """A virtual screen with xmessage's window at (100, 100): 'Auto Solve' and 'Next Level' buttons."""
    for program in ("Xvfb", "xmessage", "xdotool", "tesseract"):
        if shutil.which(program) is None:
            pytest.skip(f"the press recorder's test needs the program {program}")
    from flowbot.display import VirtualDisplay, end_process

    with VirtualDisplay(800, 600):
        window = subprocess.Popen(
            ["xmessage", "-geometry", "+100+100", "-buttons", "Auto Solve:1,Next Level:0", "a board"]
        )
        try:
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                search = ["xdotool", "search", "--class", "Xmessage"]
                found = subprocess.run(search, capture_output=True, text=True)
                if found.stdout.strip():
                    break
                time.sleep(0.1)
            time.sleep(0.5)  # mapped and drawn
            yield found.stdout.split()[0]
        finally:
            end_process(window)


@pytest.mark.presses_by_test  # it presses the bare root and a skip button on purpose
def test_press_recorder_sees_root_and_window_presses_clicks_and_drags(xmessage_screen):
    """A click on the bare root, a drag in the window and a click on a button: each with the window
    under it, click or drag, and the button's label read from the screen just before the press."""
    geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", xmessage_screen],
                              capture_output=True, text=True).stdout  # fmt: skip
    box = dict(line.split("=") for line in geometry.split())
    left, top, height = (int(box[key]) for key in ("X", "Y", "HEIGHT"))
    # xmessage's buttons sit in a row along the bottom, 'Auto Solve' first.
    button_x, button_y = left + 30, top + height - 12
    with PressRecorder() as recorder:
        subprocess.run(["xdotool", "mousemove", "700", "500", "click", "1"], check=True)
        subprocess.run(["xdotool", "mousemove", str(left + 10), str(top + 5), "mousedown", "1",
                        "mousemove", str(left + 40), str(top + 5), "mouseup", "1"], check=True)  # fmt: skip
        subprocess.run(["xdotool", "mousemove", str(button_x), str(button_y), "click", "1"], check=True)
        time.sleep(0.5)
    root, drag, button = recorder.presses
    assert (root.x, root.y, root.window, root.is_click) == (700, 500, 0, True)
    assert drag.window != 0 and "Xmessage" in drag.wm_class and not drag.is_click and drag.travel >= 29
    assert button.window == drag.window and button.is_click
    assert control_kind(press_label(button)) == "skip", press_label(button)


@pytest.mark.realgames
@pytest.mark.parametrize(("game", "board", "count"), SHORT_RUNS)
def test_flowbot_never_claims_a_level_the_game_did_not_judge_won_nor_presses_off_it(game, board, count):
    """A short run of `flowbot auto-clear --count N` with no flags on a real game: its claims are the
    game's wins at most, and no press lands off the game's windows or on a skip control."""
    assert game in GAMES
    reason = missing_requirements(game)
    if reason:
        pytest.skip(reason)
    result = run_game(game, count, board, tag="test")
    if result.skipped:
        pytest.skip(result.skipped)
    summary = (
        f"won {result.won_levels}, claimed {result.claimed} (won by {result.won_by}), "
        f"exit {result.exit_code}: {result.stopped}"
    )
    assert result.claimed is not None, f"flowbot gave no JSON report: {result.flowbot_stderr}"
    assert result.claimed <= result.won_by_game, summary
    assert result.presses_outside == [], summary
    assert result.presses_on_skip == [], summary
    assert result.left_unwon == [], summary
