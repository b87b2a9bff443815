"""The code paths that differ on Windows and macOS, run here by pretending to be them."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from flowbot import system


def test_stop_signals_are_those_the_system_has(monkeypatch):
    assert system.signals_here() == tuple(
        int(getattr(signal, name)) for name in system.STOP_SIGNAL_NAMES if hasattr(signal, name)
    )
    # Windows' signal module: SIGINT, SIGTERM and SIGBREAK, no SIGHUP or SIGQUIT.
    for name in ("SIGHUP", "SIGQUIT"):
        monkeypatch.delattr(signal, name, raising=False)
    monkeypatch.setattr(signal, "SIGBREAK", 21, raising=False)
    assert system.signals_here() == (int(signal.SIGINT), int(signal.SIGTERM), 21)


def test_a_live_run_installs_its_stop_handlers_where_sighup_does_not_exist(monkeypatch):
    from flowbot.act.pointer import stop_signals

    installed = []
    monkeypatch.delattr(signal, "SIGHUP", raising=False)
    monkeypatch.delattr(signal, "SIGQUIT", raising=False)
    monkeypatch.setattr(signal, "signal", lambda number, handler: installed.append(number) or signal.SIG_DFL)
    with stop_signals():
        pass
    assert int(signal.SIGINT) in installed and int(signal.SIGTERM) in installed
    assert all(number not in installed for number in (1, 3))  # SIGHUP, SIGQUIT on Linux


def test_sigquit_stops_a_live_run_cleanly_where_it_exists():
    from flowbot.act.pointer import Interrupted, stop_signals

    if not hasattr(signal, "SIGQUIT"):
        pytest.skip("no SIGQUIT here")
    with stop_signals() as watch:
        os.kill(os.getpid(), signal.SIGQUIT)
        time.sleep(0.05)
    assert watch.received == signal.SIGQUIT
    error = watch.error()
    assert isinstance(error, Interrupted) and error.exit_code == 128 + signal.SIGQUIT


def test_the_terminal_game_sets_handlers_only_for_signals_the_system_has(monkeypatch):
    from flowbot.play import terminal

    installed = []
    monkeypatch.delattr(signal, "SIGHUP", raising=False)
    monkeypatch.setattr(signal, "signal", lambda number, handler: installed.append(number) or signal.SIG_DFL)
    terminal._install_handlers()
    assert installed == [int(signal.SIGINT), int(signal.SIGTERM)]


@pytest.mark.parametrize(
    ("platform", "environ", "expected"),
    [
        ("linux", {}, True),
        ("linux", {"DISPLAY": ":0"}, False),
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, True),  # mss and pyautogui need X (XWayland's DISPLAY)
        ("freebsd14", {}, True),
        ("win32", {}, False),
        ("cygwin", {}, False),
        ("darwin", {}, False),
    ],
)
def test_xvfb_is_started_only_on_linux_with_no_display(platform, environ, expected):
    assert system.needs_virtual_display(platform, environ) is expected


def test_the_demo_on_windows_without_display_starts_no_xvfb(monkeypatch, tmp_path):
    from flowbot.modes import demo

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.delenv("DISPLAY", raising=False)
    started = []
    monkeypatch.setattr("flowbot.display.VirtualDisplay.start", lambda self: started.append(self))
    monkeypatch.setattr(
        demo, "_start_game", lambda *args: (_ for _ in ()).throw(RuntimeError("game started"))
    )
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError, match="game started"):
        demo.run_demo(levels=1, as_json=False, record=None, out=sys.stdout, err=sys.stderr)
    assert started == []
    assert not (tmp_path / "flowbot-demo.gif").exists()


def test_stale_temp_cleanup_never_signals_a_process_on_windows(monkeypatch, tmp_path):
    from flowbot import formats

    stale = tmp_path / f".level.json.{os.getpid() + 1}.abc{formats.TEMP_SUFFIX}"
    stale.write_text("{}")
    monkeypatch.setattr(sys, "platform", "win32")
    # On Windows os.kill(pid, 0) would end that process: it must not be called at all.
    monkeypatch.setattr(os, "kill", lambda *args: pytest.fail("os.kill called on Windows"))
    assert formats.clean_stale_temps(tmp_path) == []  # young, and its writer may be alive: kept
    old = time.time() - formats.STALE_TEMP_SECONDS - 60
    os.utime(stale, (old, old))
    assert formats.clean_stale_temps(tmp_path) == [stale]


def test_the_terminal_check_skips_terminfo_on_windows(monkeypatch):
    from flowbot.play import terminal

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(terminal.curses, "setupterm", lambda *args: pytest.fail("setupterm on Windows"))
    terminal.check_terminal()


def test_flowbot_play_without_curses_says_what_to_install(monkeypatch):
    from flowbot.errors import UsageError
    from flowbot.play import app

    monkeypatch.setitem(sys.modules, "flowbot.play.terminal", None)  # `import curses` failing, as on Windows
    with pytest.raises(UsageError, match="pip install windows-curses"):
        app.run_play(None, size="5x5", seed=1)


def test_windows_curses_is_a_pinned_dependency_on_windows_only():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    pins = [pin for pin in project["project"]["dependencies"] if pin.startswith("windows-curses")]
    assert pins == ["windows-curses==2.4.2; sys_platform == 'win32'"]


@pytest.mark.parametrize("name", ["CON", "nul", "Aux.pack", "com1", "LPT9", "pack."])
def test_pack_and_profile_names_windows_cannot_hold_are_refused_everywhere(name):
    from flowbot.errors import UsageError
    from flowbot.profiles import check_name

    with pytest.raises(UsageError, match="Windows cannot use it"):
        check_name(name, "pack")


@pytest.mark.parametrize("name", ["console", "nullable", "com10", "aux-1", "my.pack", "CONS"])
def test_names_that_only_look_like_devices_are_fine(name):
    from flowbot.profiles import check_name

    assert check_name(name) == name


def test_serve_waits_for_a_stop_where_the_event_loop_has_no_signal_handlers():
    import asyncio

    from flowbot.serve.server import _wait_for_stop

    async def main() -> bool:
        loop = asyncio.get_running_loop()

        def refuse(*args):
            raise NotImplementedError  # as Windows' proactor event loop does

        loop.add_signal_handler = refuse
        waiting = asyncio.ensure_future(_wait_for_stop())
        await asyncio.sleep(0.05)
        running = not waiting.done()  # waiting (Ctrl-C cancels asyncio.run's task), not crashed
        waiting.cancel()
        return running

    assert asyncio.run(main())


def test_a_new_file_on_windows_is_moved_in_by_a_rename_that_never_replaces(monkeypatch, tmp_path):
    from flowbot import formats
    from flowbot.errors import OutputFileError

    real_rename = os.rename

    def windows_rename(source, target):
        """Windows' rename: refuses an existing target."""
        if os.path.lexists(target):
            raise FileExistsError(17, "Cannot create a file when that file already exists", str(target))
        real_rename(source, target)

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(os, "rename", windows_rename)
    monkeypatch.setattr(os, "link", lambda *args: pytest.fail("hard link tried on Windows"))
    target = tmp_path / "001.json"
    formats.atomic_write_bytes(target, b"first", replace=False)
    with pytest.raises(OutputFileError, match="already exists"):
        formats.atomic_write_bytes(target, b"second", replace=False)
    assert target.read_bytes() == b"first"
    assert [path.name for path in tmp_path.iterdir()] == ["001.json"]  # no temp left behind
