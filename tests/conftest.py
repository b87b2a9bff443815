"""Shared fixtures: where the read-only shared corpus lives, skipping cleanly when it is absent."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.press_watch import PressWatch

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared puzzle corpus folder, or skip the test when this checkout has none beside it."""
    path = SHARED / "corpus"
    if not path.is_dir():
        pytest.skip("../shared/corpus is not present")
    return path


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """Failure screenshots of runs given no --artifacts go to a cache folder of the test run's own (the
    runs the tests start inherit it), never the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(autouse=True)
def no_shared_solvers():
    """Each test starts with no SAT solver kept from another test's boards: the solver shares one per
    board shape within a process, which would answer a test that swaps the solver out."""
    yield
    sat = sys.modules.get("flowbot.solve.sat")  # never imported here: some tests check what loads
    if sat is not None:
        sat.forget_shapes()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On pytest-xdist workers, the long tests first in every worker's share (see tests/long_first.py);
    every worker computes the same order, as xdist requires."""
    from tests.long_first import is_long, long_first

    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    items[:] = long_first(items, [is_long(item.nodeid) for item in items], workers)


def pytest_configure(config: pytest.Config) -> None:
    """Markers: `realgames` runs flowbot on the third-party games of ../shared/games (select it with
    `-m realgames`, leave it out with `-m "not realgames"`); `presses_by_test`. And the press watch."""
    config.addinivalue_line("markers", "realgames: flowbot plays a real third-party game of ../shared/games")
    config.addinivalue_line(
        "markers",
        "presses_by_test: the test's own code presses on the screen (tests of the game itself): its presses"
        " are counted, not held to the bot's rules",
    )
    config.addinivalue_line(
        "markers",
        "game_in_its_own_session: a harness starts a third-party game in a session of its own; every"
        " window of a process in another session than the test's is the game's",
    )
    _one_display_start_at_a_time(config)
    _watch_presses(config)
    # pytest-xdist's workers start with LINES=24 and COLUMNS=80 in their environment: passed on, they
    # would fix the size of every terminal a test opens (curses takes them over the terminal's own).
    for name in ("LINES", "COLUMNS"):
        os.environ.pop(name, None)
    # Every tesseract run of the tests' own (the press recorder's labels) on one thread, as flowbot's
    # are (flowbot/capture/ocr.py): the same words for a third of the CPU.
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")


def _one_display_start_at_a_time(config: pytest.Config) -> None:
    """Every VirtualDisplay started in a test process picks its number under a lock shared by the
    run's processes (tests/live_display.py): the suite runs on pytest-xdist's workers."""
    from flowbot.display import VirtualDisplay
    from tests.live_display import display_numbers_held

    start = VirtualDisplay.start

    def start_held(display: VirtualDisplay) -> None:
        """Start the display while no other test process picks a number."""
        with display_numbers_held():
            start(display)

    def restore() -> None:
        """Put the helper back."""
        VirtualDisplay.start = start

    VirtualDisplay.start = start_held
    config.add_cleanup(restore)


# --- every press on every display the tests start (tests/press_watch.py) ------------------------------

WATCH = pytest.StashKey["PressWatch"]()


def _watch_presses(config: pytest.Config) -> None:
    """Give every VirtualDisplay started in this process a press recorder, and every game a test starts
    a press log of its own account (inherited through the environment). FLOWBOT_PRESS_WATCH=0 leaves
    it out (to measure what it costs)."""
    if os.environ.get("FLOWBOT_PRESS_WATCH") == "0":
        return
    import tempfile

    from flowbot.display import VirtualDisplay
    from flowbot.game.presslog import ENV
    from tests.press_watch import PressWatch

    folder = tempfile.TemporaryDirectory(prefix="flowbot-presses-")
    watch = PressWatch(Path(folder.name) / "game-presses.jsonl")
    config.stash[WATCH] = watch
    start, stop, saved = VirtualDisplay.start, VirtualDisplay.stop, os.environ.get(ENV)

    def start_watched(display: VirtualDisplay) -> None:
        """Start the display, then its recorder."""
        start(display)
        watch.started(display.name)

    def stop_watched(display: VirtualDisplay) -> None:
        """Stop the recorder while its display is still there, then the display."""
        if display.process is not None:
            watch.stopping(display.name)
        stop(display)

    def restore() -> None:
        """Put the helper and the environment back, and remove the log."""
        VirtualDisplay.start, VirtualDisplay.stop = start, stop
        if saved is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = saved
        folder.cleanup()

    VirtualDisplay.start, VirtualDisplay.stop = start_watched, stop_watched
    os.environ[ENV] = str(watch.log)
    config.add_cleanup(restore)


@pytest.fixture
def press_watch(request) -> PressWatch:
    """The session's press watch (its recorders, the games' press log, the judged tests)."""
    return request.config.stash[WATCH]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test's presses are those from the start of its setup (a module's display and game start in
    its first test's setup)..."""
    if WATCH in item.config.stash:
        item.config.stash[WATCH].open_span()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """...to the end of its teardown; then the test fails when a press broke the bot's rules."""
    watch = item.config.stash.get(WATCH, None)
    if watch is None:
        return (yield)
    # Tests of the game press it themselves; the real games' harness judges its runs by its own
    # definition of the game (tests/real_games.py): their presses are counted only.
    judged = (
        item.get_closest_marker("presses_by_test") is None and item.get_closest_marker("realgames") is None
    )
    apart = item.get_closest_marker("game_in_its_own_session") is not None
    try:
        result = yield
    except BaseException:
        watch.close_span(item.nodeid, judged, apart)
        raise
    failures = watch.close_span(item.nodeid, judged, apart).failures()
    if failures:
        raise AssertionError(
            f"{len(failures)} press(es) broke the bot's rules (tests/press_watch.py):\n" + "\n".join(failures)
        )
    return result


def pytest_sessionfinish(session: pytest.Session) -> None:
    """On a pytest-xdist worker: hand the press figures to the controller, for its summary."""
    watch = session.config.stash.get(WATCH, None)
    output = getattr(session.config, "workeroutput", None)
    if watch is not None and output is not None:
        output["press_watch"] = watch.export()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """On pytest-xdist's controller: a worker ended; its press figures join the run's."""
    watch = node.config.stash.get(WATCH, None)
    figures = getattr(node, "workeroutput", {}).get("press_watch")
    if watch is not None and figures is not None:
        watch.merge(figures)


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    """The session's press figures: presses seen, outside the game, skips on unsolved levels, per test
    (a run on pytest-xdist's workers: theirs, merged)."""
    watch = config.stash.get(WATCH, None)
    if watch is None or not watch.displays():
        return
    terminalreporter.write_sep("-", "presses on the tests' displays (issue 22)")
    for line in watch.summary():
        terminalreporter.write_line(line)
