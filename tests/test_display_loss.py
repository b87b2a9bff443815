"""The display dying under a live command: one line, its own exit status (13), no traceback, and no
call to the dead display after the first that found it gone (python-xlib can hang on one)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from flowbot import cli, display
from flowbot.act.pointer import PyAutoGuiPointer
from flowbot.capture.screen import Region
from flowbot.errors import DisplayLost

live = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")


@pytest.fixture(autouse=True)
def fresh_display_state(monkeypatch):
    """Each test starts with the display not known to be gone, and not used."""
    monkeypatch.setattr(display, "_lost", [])
    monkeypatch.setattr(display, "_used", [])


@pytest.fixture
def kill_server():
    """A function that kills a VirtualDisplay's X server as a crash would, keeping its number from the
    displays other workers start meanwhile (they take the lowest free one): a client must find the
    display gone, not a stranger's server there refusing its cookie. The number is given back after."""
    held: list[str] = []

    def kill(screen: display.VirtualDisplay) -> None:
        """Mark the lock file ours (a live process: the number is not free), then kill the server."""
        number = screen.name.lstrip(":")
        Path(f"/tmp/.X{number}-lock").write_text(f"{os.getpid():10d}\n")  # the X servers' format
        held.append(number)
        screen.process.kill()
        screen.process.wait()

    yield kill
    for number in held:
        lock = Path(f"/tmp/.X{number}-lock")
        with contextlib.suppress(OSError, ValueError):
            if int(lock.read_text()) == os.getpid():
                Path(f"/tmp/.X11-unix/X{number}").unlink(missing_ok=True)
                lock.unlink()


class _DeadGui:
    """pyautogui on a display that has gone: python-xlib's own errors, and a count of calls."""

    PAUSE = FAILSAFE = MINIMUM_DURATION = None

    class FailSafeException(Exception):
        """pyautogui's fail-safe."""

    def __init__(self) -> None:
        self.calls = []

    def moveTo(self, x, y):  # pyautogui's names
        self.calls.append("moveTo")
        raise TypeError("'BrokenPipeError' object is not subscriptable")  # what python-xlib raises

    def failSafeCheck(self):
        self.calls.append("failSafeCheck")

    def mouseDown(self):
        self.calls.append("mouseDown")

    def mouseUp(self):
        self.calls.append("mouseUp")


def test_a_pointer_on_a_dead_display_stops_with_display_lost_and_calls_it_no_more(monkeypatch):
    monkeypatch.setattr(display, "display_alive", lambda *args, **kwargs: False)
    gui = _DeadGui()
    pointer = PyAutoGuiPointer(Region(0, 0, 100, 100), gui)
    pointer.down()
    with pytest.raises(DisplayLost, match="went away while moving the mouse") as lost:
        pointer.move(10, 10)
    assert lost.value.exit_code == 13
    pointer.release()  # nothing is held on a display that is gone: no call made
    with pytest.raises(DisplayLost):
        pointer.move(20, 20)
    assert gui.calls == ["failSafeCheck", "mouseDown", "moveTo"] and not pointer.held


def test_an_error_of_a_live_display_is_not_taken_for_its_loss(monkeypatch):
    monkeypatch.setattr(display, "display_alive", lambda *args, **kwargs: True)
    pointer = PyAutoGuiPointer(Region(0, 0, 100, 100), _DeadGui())
    with pytest.raises(TypeError):
        pointer.move(10, 10)
    assert not display.display_lost()


class _BrokenGui(_DeadGui):
    """python-xlib's error when the server closed the connection."""

    def moveTo(self, *args):
        from Xlib.error import ConnectionClosedError

        self.calls.append("moveTo")
        raise ConnectionClosedError("server")


def test_a_broken_connection_is_the_display_lost_even_while_its_socket_still_answers(monkeypatch):
    # A killed Xvfb's socket once took connections for a moment: the broken connection decides.
    monkeypatch.setattr(display, "display_alive", lambda *args, **kwargs: True)
    pointer = PyAutoGuiPointer(Region(0, 0, 100, 100), _BrokenGui())
    with pytest.raises(DisplayLost, match="went away while moving the mouse"):
        pointer.move(10, 10)
    assert display.display_lost()


def test_closing_a_broken_connection_is_no_error_and_marks_the_display_lost(monkeypatch):
    monkeypatch.setattr(display, "display_alive", lambda *args, **kwargs: True)

    def close():
        raise ConnectionResetError(104, "Connection reset by peer")

    display.close_connection(close)
    assert display.display_lost()


@pytest.mark.parametrize("alive", [False, True])
def test_an_adapters_own_error_on_a_display_just_gone_is_the_display_lost(monkeypatch, alive):
    # pyautogui connects on its first use: the pointer adapter's "cannot read the mouse position"
    # when the display went while calibrate waited for a person's answer.
    from flowbot.act.pointer import PointerError

    monkeypatch.setattr(display, "display_alive", lambda *args, **kwargs: alive)
    display.note_connected()
    raises = pytest.raises(PointerError if alive else DisplayLost)
    with raises as raised, display.display_call("reading the pointer's position"):
        raise PointerError("cannot read the mouse position: Can't connect to display")
    assert display.display_lost() is not alive
    assert alive or "went away while reading the pointer's position" in str(raised.value)


def test_the_cli_turns_a_display_library_error_into_one_line_and_status_13(monkeypatch, capsys):
    def run(argv):
        display.note_connected()
        raise AssertionError()  # what mss raises capturing from a dead display

    monkeypatch.setattr(cli, "run", run)
    monkeypatch.setattr(display, "display_alive", lambda *args, **kwargs: False)
    assert cli.main(["screens"]) == 13
    assert capsys.readouterr().err.count("\n") == 1


def test_an_error_with_no_display_used_is_not_blamed_on_one(monkeypatch):
    monkeypatch.setattr(cli, "run", lambda argv: 1 / 0)
    monkeypatch.setattr(display, "display_alive", lambda *args, **kwargs: False)
    with pytest.raises(ZeroDivisionError):
        cli.main(["solve"])


@pytest.mark.parametrize(("server", "alive"), [("hangs up", False), ("answers", True), ("is slow", True)])
def test_a_display_is_alive_only_while_its_server_answers_the_x_greeting(server, alive):
    # A server being killed still takes a connection for a moment, then closes it unanswered.
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    assert port > 6000

    def serve():
        connection, _ = listener.accept()
        with connection:
            connection.recv(12)
            if server == "answers":
                connection.sendall(bytes(8))  # "Failed", as to a client without the cookie
            elif server == "is slow":
                time.sleep(0.5)

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        assert display.display_alive(f"127.0.0.1:{port - 6000}", timeout=0.2) is alive
    finally:
        thread.join()
        listener.close()


@live
def test_display_alive_tells_a_running_x_server_from_a_killed_one(kill_server):
    with display.VirtualDisplay(320, 240) as screen:
        assert display.display_alive()
        kill_server(screen)
        assert not display.display_alive()
    assert display.display_alive("")  # no X display named: cannot be told, so not called gone
    assert display.display_lost() is False
    display.mark_lost("drawing")
    with display.VirtualDisplay(320, 240):
        assert not display.display_lost()  # a new server: the lost one was an earlier one


# The moments the display is killed at, each waited for from outside the bot (its own pointer watch
# or the game's --results), so that the kill lands there every run:
# - "drag": the bot holds the mouse button down (a Flow stroke, a Number Match click);
# - "verdict": the game took the level (Flow without a dialog moves on at once and writes its result;
#   Number Match writes a cleared board's and deals the next): the bot is checking what it did;
# - "next level": Flow's dialog clicked (the game wrote the level's result as it left it), or Number
#   Match's next board pressed: the bot is on the next level.
MOMENTS = ("drag", "verdict", "next level")
# A slow stroke for "drag": the kill lands while the button is held even on a loaded machine.
DRAGGING = ("--move-delay", "0.1")


@live
@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool")
@pytest.mark.parametrize("command", ["auto-clear", "scrape"])
@pytest.mark.parametrize("moment", MOMENTS)
def test_killing_the_display_mid_flow_run_ends_with_one_line_and_status_13(
    tmp_path, command, moment, kill_server
):
    from tests.test_live_safety import GAME_AT, SCREEN, TITLE, WINDOW, start_window

    folder, results, pack = _levels(tmp_path), tmp_path / "results.jsonl", tmp_path / "scraped"
    looks = ["--no-dialog"] if moment == "verdict" else []
    game_command = [sys.executable, "-m", "flowbot", "game", "--folder", str(folder), "--results",
                    str(results), "--size", f"{WINDOW[0]}x{WINDOW[1]}", "--title", TITLE, *looks]  # fmt: skip
    options = ["--out", str(pack)] if command == "scrape" else []
    options += [*DRAGGING] if moment == "drag" else []
    with display.VirtualDisplay(*SCREEN) as screen:
        game = start_window(game_command, GAME_AT)
        bot = _start_bot(tmp_path, command, "--count", "3", *options)
        out, err = _killed_at(screen, bot, _moment(moment, results, next_level="up"), kill_server)
        game_status = _ended(game, 10)
    _assert_one_line_and_status_13(bot, err, game_status)
    # Where the kill landed, by the game's own account: mid-drag no level was left, else level 1 solved.
    left = [(result["level"], result["solved"]) for result in _results(results)]
    assert left == ([] if moment == "drag" else [(1, True)]), left
    if command == "auto-clear":
        # The summary before the line; a level the game took may not be counted yet (not yet checked).
        assert re.match(r"cleared [01] of 3 .*stopped: the display .* went away", out), out
    else:
        kept = sorted(pack.glob("[0-9][0-9][0-9].json"))
        assert kept and f"saved {len(kept)}," in out and "went away" in out, out  # what was saved is kept


@live
@pytest.mark.parametrize("moment", MOMENTS)
def test_killing_the_display_mid_run_ends_the_number_match_bot_with_one_line_and_status_13(
    tmp_path, moment, kill_server
):
    from tests.test_numbermatch_live import WINDOW
    from tests.test_numbermatch_live import start_game as start_numbermatch

    results = tmp_path / "results.jsonl"
    with display.VirtualDisplay(700, 800) as screen:
        game = start_numbermatch(results, "--seed", "3")
        bot = _start_bot(tmp_path, "auto-clear", "--numbermatch", "--count", "3",
                         "--region", f"0,0,{WINDOW[0]},{WINDOW[1]}")  # fmt: skip
        out, err = _killed_at(screen, bot, _moment(moment, results, next_level="press"), kill_server)
        game_status = _ended(game, 10)
    _assert_one_line_and_status_13(bot, err, game_status)
    left = [result["cleared"] for result in _results(results)]
    assert left == ([] if moment == "drag" else [True]), left
    # The summary first; the board the game took may not be counted yet (the bot had not seen it go).
    assert re.match(r"cleared [01] of 3 Number Match boards .*stopped: the display .* went away", out), out


def _start_bot(tmp_path: Path, command: str, *options: str) -> subprocess.Popen:
    """`flowbot COMMAND` as its own process on this checkout's code, in the test's folder (where any
    failure picture goes)."""
    return subprocess.Popen(
        [sys.executable, "-m", "flowbot", command, *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )  # fmt: skip


def _killed_at(
    screen: display.VirtualDisplay,
    bot: subprocess.Popen,
    wait: Callable[[subprocess.Popen], None],
    kill_server: Callable[[display.VirtualDisplay], None],
) -> tuple[str, str]:
    """Kill the display's server once `wait(bot)` returns; the bot's stdout and stderr once it ended."""
    try:
        wait(bot)
        kill_server(screen)
        return bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()


def _assert_one_line_and_status_13(bot: subprocess.Popen, err: str, game_status: str) -> None:
    """What every kill must give: one line on stderr saying so, status 13, no traceback, the game gone."""
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("\r")]  # not progress
    assert len(lines) == 1 and lines[0].startswith("flowbot: the display") and "went away" in lines[0], err
    assert bot.returncode == 13, err
    assert game_status.startswith("exited"), "the game outlived its display"


def _results(path: Path) -> list[dict]:
    """The game's results file, a line a level (none when it wrote nothing)."""
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _levels(tmp_path):
    """Three 7x7 levels, as the safety tests use."""
    import random

    from flowbot.formats import write_puzzle_json
    from flowbot.generate.levels import make_level

    folder = tmp_path / "pack"
    folder.mkdir()
    for index in range(3):
        write_puzzle_json(
            make_level(7, 7, 5, random.Random(40 + index)).puzzle, folder / f"{index + 1:03d}.json"
        )
    return folder


def _moment(moment: str, results: Path, next_level: str) -> Callable[[subprocess.Popen], None]:
    """The wait for one of the MOMENTS; on the next level, the mouse button `next_level` ("up": the
    click that moved on is done; "press": the first on the next board)."""
    if moment == "drag":
        return _until_held
    return _until_left(results, next_level if moment == "next level" else None)


def _until_left(results: Path, then: str | None, timeout: float = 60) -> Callable[[subprocess.Popen], None]:
    """A wait until the game wrote its first result (the level left: taken, or moved on from); then,
    with `then`, until the mouse button is "up" (the click that moved on done) or a new "press"."""

    def wait(bot: subprocess.Popen) -> None:
        deadline = time.monotonic() + timeout
        while not (results.exists() and results.read_text().strip()):
            assert bot.poll() is None, f"the bot ended first: {bot.communicate()}"
            assert time.monotonic() < deadline, f"the game left no level in {timeout} s"
            time.sleep(0.01)
        if then is not None:
            _until_pointer(bot, then, timeout)

    return wait


def _until_held(bot: subprocess.Popen, timeout: float = 60) -> None:
    """Wait until the bot holds the mouse button down."""
    _until_pointer(bot, "down", timeout)


def _until_pointer(bot: subprocess.Popen, state: str, timeout: float = 60) -> None:
    """Wait until the mouse button is `state`: "down", "up", or a "press" begun after this call (seen by
    a watcher of its own, closed before the display is killed)."""
    from tests.test_live_safety import PointerWatch

    watch = PointerWatch()
    try:
        if state in ("up", "press"):  # a click still down as the game moved on is not the next one
            watch.wait(lambda seen: not seen.held or bot.poll() is not None, timeout)
        if state in ("down", "press"):
            watch.wait(lambda seen: seen.held or bot.poll() is not None, timeout)
        assert watch.held == (state != "up") and bot.poll() is None, (
            f"the bot ended first: {bot.communicate()}"
        )
    finally:
        watch.stop()


def _ended(process: subprocess.Popen, timeout: float) -> str:
    """Whether a process ended by itself within `timeout` s (it is killed otherwise)."""
    try:
        return f"exited {process.wait(timeout)}"
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.wait()
        return "still running: killed"


def test_a_virtual_display_never_takes_a_number_another_server_still_listens_on(tmp_path):
    import socket

    from tests.live_display import display_numbers_held

    # A server whose socket file is gone but who still listens on the abstract socket: stand-in.
    with display.VirtualDisplay(320, 240) as first:
        number = int(first.name[1:])
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with display_numbers_held():  # no other test process takes the number in between
                first.stop()
                listener.bind(f"\0/tmp/.X11-unix/X{number}")
                listener.listen(1)
            with display.VirtualDisplay(320, 240) as second:
                assert second.name != f":{number}"
                assert second.process.poll() is None
        finally:
            listener.close()


def test_x_clients_connecting_from_several_threads_leave_stdout_as_it_was():
    # Two threads connecting at once each saved and restored sys.stdout: the second could put back
    # the first's StringIO, and everything printed after (a --json report) was lost.
    import sys
    import threading

    real = sys.stdout
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()

    def first():
        with display.quiet_x_client():
            first_in.set()
            second_in.wait(0.5)  # the second inside too, unless kept out until this one is done
        first_out.set()

    def second():
        first_in.wait(5)
        with display.quiet_x_client():
            second_in.set()
            first_out.wait(5)  # leave after the first

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sys.stdout is real


def test_a_display_number_whose_server_was_killed_is_free_again(tmp_path):
    # Killed servers leave their lock and socket files: a long day of tests once left every number
    # from :90 to :199 taken by files of servers long gone.
    lock = Path("/tmp/.X250-lock")
    if lock.exists():
        pytest.skip("display :250 is in use here")
    dead = subprocess.Popen(["true"])
    dead.wait()
    try:
        lock.write_text(f"{dead.pid:>10}\n")
        assert not display._lock_held(250)
        lock.write_text(f"{os.getpid():>10}\n")
        assert display._lock_held(250)
    finally:
        lock.unlink(missing_ok=True)
    assert not display._lock_held(250)


@live
@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool")
@pytest.mark.parametrize("answered", [0, 1], ids=["at-the-first-question", "after-the-first-corner"])
def test_killing_the_display_while_calibrate_asks_ends_with_one_line_and_status_13(
    tmp_path, answered, kill_server
):
    # Calibrating by pointing waits on a person: the display may go between two answers.
    from tests.test_live_safety import SCREEN, start_game

    with display.VirtualDisplay(*SCREEN) as screen:
        game = start_game(_levels(tmp_path), tmp_path)
        with _asking(tmp_path, "calibrate", "--name", "probe", "--manual") as (bot, answer):
            for _ in range(answered):
                answer("BOTTOM-RIGHT")
            kill_server(screen)
            answer(None)
            _, err = bot.communicate(timeout=30)
        game_status = _ended(game, 10)
    _assert_one_line_and_status_13(bot, err, game_status)
    assert not (tmp_path / "calibration").exists()  # no profile of a display that went


@live
def test_calibrate_on_a_display_already_gone_is_one_line_and_status_6(tmp_path, kill_server):
    with display.VirtualDisplay(320, 240) as screen:
        kill_server(screen)
        checked = subprocess.run(
            [sys.executable, "-m", "flowbot", "calibrate", "--check"], capture_output=True, text=True,
            cwd=tmp_path, timeout=60,
        )  # fmt: skip
    assert "Traceback" not in checked.stderr, checked.stderr
    lines = [line for line in checked.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("flowbot: "), checked.stderr
    assert checked.returncode == 6, checked.stderr


@contextlib.contextmanager
def _asking(tmp_path: Path, *command: str):
    """`flowbot COMMAND` with a terminal for its questions: yields the process and `answer(expected,
    text)`, which types `text` and Enter to the question asked (then waits for the one containing
    `expected`, when given)."""
    terminal, their_end = os.openpty()  # --manual asks only where a person can answer
    bot = subprocess.Popen(
        [sys.executable, "-m", "flowbot", *command], stdin=their_end, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )  # fmt: skip
    os.close(their_end)
    shown = []

    def until(words: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while words not in "".join(shown):
            assert bot.poll() is None, f"it ended first: {''.join(shown)}"
            assert time.monotonic() < deadline, f"no question with {words!r} in {timeout} s: {''.join(shown)}"
            shown.append(os.read(bot.stdout.fileno(), 4096).decode())

    def answer(expected: str | None, text: str = "") -> None:
        os.write(terminal, text.encode() + b"\n")
        if expected is not None:
            until(expected)

    try:
        until("TOP-LEFT")
        yield bot, answer
    finally:
        if bot.poll() is None:
            bot.kill()
        os.close(terminal)
