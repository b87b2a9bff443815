"""What lets the suite run on several pytest-xdist workers at once: one display number picked at a time
across the test processes, the press watch's figures carried from a worker to the controller, and no
terminal size inherited from a worker's environment."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from tests.live_display import NUMBERS_LOCK, display_numbers_held
from tests.press_watch import PressWatch, Span

# Another process trying the lock without waiting: prints "free" or "held".
TRY_LOCK = (
    "import fcntl, sys\n"
    "with open(sys.argv[1], 'a') as handle:\n"
    "    try:\n"
    "        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
    "    except BlockingIOError:\n"
    "        print('held')\n"
    "    else:\n"
    "        print('free')\n"
)


def other_process_finds_the_lock() -> str:
    """What another process finds when it tries the display numbers' lock."""
    tried = subprocess.run([sys.executable, "-c", TRY_LOCK, str(NUMBERS_LOCK)], capture_output=True,
                           text=True, timeout=60, check=True)  # fmt: skip
    return tried.stdout.strip()


@pytest.mark.skipif(sys.platform == "win32", reason="no flock")
def test_the_display_numbers_lock_keeps_other_processes_out_and_is_reentrant():
    with display_numbers_held():
        assert other_process_finds_the_lock() == "held"
        with display_numbers_held():  # the same process again (a start inside a held stretch)
            assert other_process_finds_the_lock() == "held"
        assert other_process_finds_the_lock() == "held"  # still held by the outer one
    # Free again (another worker may take it for a moment: then "held", so try a few times).
    assert any(other_process_finds_the_lock() == "free" for _ in range(20))


@pytest.mark.skipif(sys.platform == "win32", reason="no flock")
def test_a_thread_waits_for_the_display_numbers_lock_held_by_another_thread():
    inside, order = threading.Event(), []

    def second():
        inside.wait(10)
        with display_numbers_held():
            order.append("second")

    thread = threading.Thread(target=second)
    thread.start()
    with display_numbers_held():
        inside.set()
        thread.join(0.3)  # kept out while the first holds it
        order.append("first")
    thread.join(10)
    assert order == ["first", "second"]


def test_a_workers_press_figures_reach_the_controllers_summary(tmp_path):
    worker = PressWatch(tmp_path / "worker.jsonl")
    worker.displays_elsewhere = 2  # as if two displays had had recorders on the worker
    worker.overhead = 0.4
    judged = Span("tests/test_x.py::test_a", presses=3, taken=3, moves_on=1)
    judged.outside.append("a press at (1, 2) on the bare root window, pid None")
    worker.spans = [judged, Span("tests/test_x.py::test_b", presses=2, taken=2, judged=False)]
    controller = PressWatch(tmp_path / "controller.jsonl")
    assert controller.displays() == 0
    controller.merge(worker.export())
    assert controller.displays() == 2 and controller.overhead == pytest.approx(0.4)
    assert controller.spans == worker.spans
    summary = controller.summary()
    assert summary[0].startswith("presses recorded on 2 display(s) in 2 test(s) (1 judged, 1 not")
    assert "outside the game 1," in summary[0]
    assert summary[2].endswith("tests/test_x.py::test_b  [not judged]")


def test_no_terminal_size_is_inherited_from_the_environment():
    # pytest-xdist's workers start with LINES and COLUMNS set; the conftest drops them, or every
    # terminal a test opens would be 80x24 to curses whatever its real size.
    assert "LINES" not in os.environ and "COLUMNS" not in os.environ


def test_every_workers_first_share_starts_with_its_part_of_the_long_tests():
    from tests.long_first import long_first, shares

    items = list(range(23))
    long = [item in (3, 9, 10, 21) for item in items]
    ordered = long_first(items, long, 3)
    assert sorted(ordered) == items  # nothing lost or doubled
    starts = [0, *accumulate_sizes(shares(23, 3))][:3]
    assert [ordered[start] for start in starts] == [3, 9, 10]  # one long test at the front of each share
    assert ordered[starts[0] + 1] == 21  # the fourth dealt to the first worker, right after its first
    assert [item for item in ordered if not long[item]] == [item for item in items if not long[item]]
    assert long_first(items, long, 1) == items


def accumulate_sizes(sizes):
    """Where each share after the first starts."""
    total, out = 0, []
    for size in sizes:
        total += size
        out.append(total)
    return out
