"""Issue 12, files and input: no output replaces an input or an existing file without --force, no
board is lost to a shared output name, stale temp files go, hostile input is refused at the gate."""

from __future__ import annotations

import _thread
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from flowbot import formats
from flowbot.argtypes import describe_value
from flowbot.cli import main
from flowbot.errors import CaptureError, FormatError, OutputFileError
from flowbot.formats import TEMP_SUFFIX, Outputs, clean_stale_temps
from flowbot.model import Puzzle
from flowbot.profiles import load_profile
from tests.images import draw_board, jpeg_bytes, png_bytes

GOOD = ".....\n.DC.A\nA.D..\nEB.B.\n.EC..\n"
ROOT = Path(__file__).resolve().parents[1]


def run_cli(args, capsys):
    """Run `flowbot` in-process; return (exit code, stdout, stderr)."""
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def screenshot(path: Path, encode=png_bytes) -> Path:
    """A screenshot of the GOOD board."""
    path.write_bytes(encode(draw_board(Puzzle.from_rows(GOOD.split()), cell=50)))
    return path


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file under a folder (hidden ones too) and its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def no_screen(monkeypatch):
    """Fail the test if a command looks at the screen: its files must be checked before that."""

    def refuse(*args, **kwargs):
        raise AssertionError("the screen was grabbed before the output path was checked")

    monkeypatch.setattr("flowbot.capture.screen.MssScreen", refuse)


def dead_pid() -> int:
    """The id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


# --- 7. an output never replaces an input, an existing file only with --force ---------------------------


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_overlay_never_replaces_its_own_screenshot(tmp_path, capsys, monkeypatch, force):
    shot = screenshot(tmp_path / "shot.png")
    before = shot.read_bytes()
    monkeypatch.chdir(tmp_path)
    for spelling in (shot, "shot.png", "./sub/../shot.png"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        code, out, err = run_cli(["solve", shot, "--overlay", spelling, *force], capsys)
        assert code == 73 and out == "", err
        assert "is an input of this run; refusing to write over it" in err
    os.link(shot, tmp_path / "same-file.png")  # another name of the same file
    code, _, err = run_cli(["solve", shot, "--overlay", tmp_path / "same-file.png", *force], capsys)
    assert code == 73 and "is an input" in err
    assert shot.read_bytes() == before


def test_overlay_replaces_an_existing_file_only_with_force(tmp_path, capsys):
    shot = screenshot(tmp_path / "shot.png")
    kept = tmp_path / "seen.png"
    kept.write_bytes(b"not an image, and precious")
    code, out, err = run_cli(["solve", shot, "--overlay", kept], capsys)
    assert code == 73 and out == "" and err.count("\n") == 1
    assert "seen.png: already exists (use --force to replace it)" in err
    assert kept.read_bytes() == b"not an image, and precious"
    code, _, err = run_cli(["solve", shot, "--overlay", kept, "--force"], capsys)
    assert code == 0, err
    assert kept.read_bytes().startswith(b"\x89PNG")


def test_overlay_path_is_checked_before_solving(tmp_path, capsys):
    shot = screenshot(tmp_path / "shot.png")
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file, not a folder\n")
    code, out, err = run_cli(["solve", "--json", shot, "--overlay", blocker / "seen.png"], capsys)
    assert code == 73 and out == ""  # nothing was solved or printed first
    assert "is not a folder" in err
    code, out, err = run_cli(["solve", "--json", shot, "--overlay", tmp_path], capsys)
    assert code == 64 and out == ""  # a folder is no PNG name


def test_calibrate_check_picture_is_not_replaced_without_force(tmp_path, capsys, no_screen):
    picture = tmp_path / "check.png"
    picture.write_bytes(b"a file someone wanted")
    code, _, err = run_cli(["calibrate", "--check", "--picture", picture], capsys)
    assert code == 73 and "check.png: already exists (use --force to replace it)" in err
    assert picture.read_bytes() == b"a file someone wanted"


def test_the_default_check_picture_is_flowbots_own_and_replaced(tmp_path, monkeypatch, no_screen):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "flowbot-check.png").write_bytes(b"the last check")
    # The path passes its check (the default is replaced each time); the test's stand-in screen stops it.
    with pytest.raises(AssertionError, match="the screen was grabbed"):
        main(["calibrate", "--check"])


# --- 8. two outputs of one name: refused before anything is written --------------------------------------


def test_read_of_two_screenshots_with_one_stem_writes_nothing(tmp_path, capsys):
    screenshot(tmp_path / "good.png")
    screenshot(tmp_path / "good.jpg", jpeg_bytes)
    out = tmp_path / "out"
    code, _, err = run_cli(
        ["read", tmp_path / "good.png", tmp_path / "good.jpg", "--out", out, "--force"], capsys
    )
    assert code == 73
    assert "good.json: two outputs of this run have this name" in err
    assert "good.png" in err and "good.jpg" in err
    assert not out.exists() or files_in(out) == {}


def test_convert_of_two_files_with_one_name_writes_nothing(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.txt").write_text(GOOD)
    (tmp_path / "sub" / "a.txt").write_text("A.A\nB.B\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.json").write_text("untouched\n")
    code, _, err = run_cli(
        ["convert", tmp_path / "a.txt", tmp_path / "sub" / "a.txt", "--out", out, "--force"], capsys
    )
    assert code == 73 and "a.json: two outputs of this run have this name" in err
    assert files_in(out) == {"keep.json": b"untouched\n"}
    assert "wrote" not in err


def test_convert_never_writes_over_an_input_even_with_force(tmp_path, capsys):
    board = tmp_path / "board.json"
    run_cli(["convert", _write(tmp_path / "board.txt", GOOD), "--out", tmp_path], capsys)
    before = board.read_bytes()
    code, _, err = run_cli(["convert", board, "--out", tmp_path, "--force"], capsys)
    assert code == 73 and "board.json: is an input of this run" in err
    assert board.read_bytes() == before


def test_generate_checks_every_name_before_the_first_level(tmp_path, capsys):
    out = tmp_path / "levels"
    out.mkdir()
    (out / "5x5-7-002.json").write_text("an older level\n")
    code, stdout, err = run_cli(
        ["generate", "--size", "5x5", "--count", "3", "--seed", "7", "--out", out], capsys
    )
    assert code == 73 and stdout == "" and "5x5-7-002.json: already exists" in err
    assert files_in(out) == {"5x5-7-002.json": b"an older level\n"}


# --- 9. profiles, temp files, scrape, demo ---------------------------------------------------------------


def test_calibrate_name_never_replaces_a_profile_without_force(tmp_path, capsys, no_screen):
    folder = tmp_path / "calibration"
    folder.mkdir()
    (folder / "phone.json").write_text("{}\n")
    code, _, err = run_cli(["calibrate", "--name", "phone", "--folder", folder], capsys)
    assert code == 73 and "phone.json: already exists (use --force to replace it)" in err
    assert (folder / "phone.json").read_text() == "{}\n"


def test_stale_temp_files_of_dead_runs_are_removed_by_the_next_write(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    dead = out / f".one.json.{dead_pid()}.0a0b0c0d{TEMP_SUFFIX}"
    live = out / f".one.json.{os.getppid()}.0a0b0c0e{TEMP_SUFFIX}"
    old = out / f".one.json.{os.getppid()}.0a0b0c0f{TEMP_SUFFIX}"
    other = out / ".not-ours.tmp"
    for path in (dead, live, old, other):
        path.write_text("half a file")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    code, _, err = run_cli(["convert", _write(tmp_path / "one.txt", GOOD), "--out", out], capsys)
    assert code == 0, err
    assert sorted(files_in(out)) == sorted(["one.json", live.name, other.name])


def test_a_write_killed_with_sigkill_leaves_a_temp_the_next_write_removes(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    script = (
        "import os, sys, time\n"
        "from flowbot import formats\n"
        "os.fsync = lambda fd: (print('writing', flush=True), time.sleep(60))\n"
        f"formats.atomic_write_text({str(out / 'one.json')!r}, 'x')\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    try:
        assert child.stdout.readline() == "writing\n"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    [left] = files_in(out)
    assert left.endswith(TEMP_SUFFIX) and left.startswith(".one.json.")
    code, _, err = run_cli(["convert", _write(tmp_path / "one.txt", GOOD), "--out", out], capsys)
    assert code == 0, err
    assert sorted(files_in(out)) == ["one.json"]


def test_a_file_that_appears_after_the_check_is_kept(tmp_path):
    outputs = Outputs(force=False)
    target = outputs.claim(tmp_path / "level.json")
    target.write_text("written by someone else meanwhile\n")
    with pytest.raises(OutputFileError, match="already exists"):
        outputs.write_text(target, "ours\n")
    assert files_in(tmp_path) == {"level.json": b"written by someone else meanwhile\n"}
    assert clean_stale_temps(tmp_path) == []


def test_a_failed_scrape_leaves_no_pack_json(tmp_path):
    from flowbot.modes.scrape import PackFolder, scrape
    from flowbot.progress import Progress

    class NoBoard:
        """A game loop on a screen that shows no board."""

        stop_requested = False
        last_reason = "nothing like a board"

        def first_board(self):
            return None

    folder = PackFolder.open(tmp_path / "pack", "mini", resume=False)
    summary = scrape(NoBoard(), folder, None, False, Progress(0, "test", enabled=False))
    assert summary.saved == [] and summary.stopped == "no board on screen (nothing like a board)"
    assert not (tmp_path / "pack").exists()


@pytest.mark.parametrize("pack", ["../../evil", "/tmp/evil", "a/b", "..", ".hidden", ""])
def test_pack_names_are_checked_like_profile_names(tmp_path, capsys, monkeypatch, no_screen, pack):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["scrape", "--pack", pack], capsys)
    assert code == 64 and f"pack name {pack!r}: use letters, digits" in err
    assert files_in(tmp_path) == {}


def test_demo_record_path_is_checked_before_the_run(tmp_path, capsys, monkeypatch):
    from flowbot.modes import demo

    def no_game(*args, **kwargs):
        raise AssertionError("the game started before the recording's path was checked")

    monkeypatch.setattr(demo, "_start_game", no_game)
    monkeypatch.setenv("DISPLAY", ":99")  # not headless: no virtual display either
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    code, _, err = run_cli(["demo", "--record", blocker / "run.gif"], capsys)
    assert code == 73 and "is not a folder" in err
    existing = tmp_path / "run.gif"
    existing.write_bytes(b"GIF89a an older run")
    code, _, err = run_cli(["demo", "--record", existing], capsys)
    assert code == 73 and "run.gif: already exists (use --force to replace it)" in err
    assert existing.read_bytes() == b"GIF89a an older run"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs a /proc file system")
def test_demo_record_in_a_folder_that_takes_no_files_is_refused_before_the_run(capsys, monkeypatch):
    from flowbot.modes import demo

    def no_game(*args, **kwargs):
        raise AssertionError("the game started before the recording's folder was tried")

    monkeypatch.setattr(demo, "_start_game", no_game)
    monkeypatch.setenv("DISPLAY", ":99")
    # /proc passes a permission check for root, yet no file can be made in it.
    code, _, err = run_cli(["demo", "--record", "/proc/x.gif"], capsys)
    assert code == 73 and "/proc/x.gif: cannot write" in err


# --- 11. numeric ranges, also where profiles load them ---------------------------------------------------


@pytest.mark.parametrize(
    ("pointer", "message"),
    [
        ({"moves_per_cell": "abc"}, "pointer.moves_per_cell must be a number (1 to 100), got the text 'abc'"),
        ({"moves_per_cell": 1000000000}, "pointer.moves_per_cell must be 1 to 100, got 1000000000"),
        (
            {"moves_per_cell": 2.5},
            "pointer.moves_per_cell must be a whole number (1 to 100), got 2.5 (a number with a fraction)",
        ),
        ({"move_delay": float("nan")}, "pointer.move_delay must be 0 to 5 s, got NaN"),
        ({"flow_pause": float("inf")}, "pointer.flow_pause must be 0 to 5 s, got infinity"),
        ({"release_pause": True}, "pointer.release_pause must be a number (0 to 5 s), got true"),
        ({"per_frame": 1}, "pointer.per_frame must be true or false, got 1"),
        ({"settle": "yes"}, "pointer.settle must be true or false, got the text 'yes'"),
        (
            {"speed": 3},
            "pointer.speed is not a pointer setting (known: corners_only, flow_pause, move_delay, "
            "moves_per_cell, per_frame, release_pause, settle)",
        ),
    ],
)
def test_a_bad_profile_field_says_which_and_why(tmp_path, pointer, message):
    profile = {"schema_version": 1, "name": "phone", "pointer": pointer}
    (tmp_path / "phone.json").write_text(json.dumps(profile))  # json writes NaN and Infinity as such
    with pytest.raises(FormatError) as caught:
        load_profile("phone", tmp_path)
    assert str(caught.value) == f"{tmp_path / 'phone.json'}: {message}"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("region", [0, 0, "wide", 10], "region width must be a number (1 to 100000), got the text 'wide'"),
        ("region", [0, 0, 0, 10], "region width must be 1 to 100000, got 0"),
        ("region", [1, 2, 3], "region must be [left, top, width, height] or null, got a list"),
        ("next_button", ["1", 2], "next_button.x must be a number (-100000 to 100000), got the text '1'"),
        (
            "grid",
            {"rows": 1.5},
            "grid.rows must be a whole number (1 to 200), got 1.5 (a number with a fraction)",
        ),
        ("name", 7, "name must be text, got 7"),
    ],
)
def test_bad_profile_places_are_named(tmp_path, field, value, message):
    profile = {"schema_version": 1, "name": "phone", field: value}
    (tmp_path / "phone.json").write_text(json.dumps(profile))
    with pytest.raises(FormatError) as caught:
        load_profile("phone", tmp_path)
    assert str(caught.value).endswith(message)
    assert "invalid literal" not in str(caught.value)


def test_the_command_line_and_profiles_share_one_range_table():
    from flowbot.act.plan import PointerSettings
    from flowbot.argtypes import POINTER_RANGES, check_number

    defaults = PointerSettings()
    for name, allowed in POINTER_RANGES.items():
        assert check_number(getattr(defaults, name), allowed, name) == getattr(defaults, name)


# --- 13. decompression bombs: refused from the header, before decoding ---------------------------------


def _png_claiming(width: int, height: int) -> bytes:
    """A small, valid PNG whose header claims a huge picture (its data is a few bytes of zeros)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 4096))
        + chunk(b"IEND", b"")
    )


def _jpeg_claiming(width: int, height: int) -> bytes:
    """A real small JPEG with its frame header (SOF0) edited to claim another size."""
    data = bytearray(jpeg_bytes(np.full((80, 80, 3), 40, dtype=np.uint8)))
    at = data.index(b"\xff\xc0")
    data[at + 5 : at + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


@pytest.mark.parametrize("make", [_png_claiming, _jpeg_claiming])
def test_a_decompression_bomb_is_refused_before_decoding(tmp_path, capsys, monkeypatch, make):
    import cv2

    def no_decoding(*args, **kwargs):
        raise AssertionError("pixels were decoded")

    monkeypatch.setattr(cv2, "imdecode", no_decoding)
    bomb = tmp_path / "bomb.img"
    bomb.write_bytes(make(20000, 20000))
    started = time.perf_counter()
    code, _, err = run_cli(["solve", bomb], capsys)
    assert code == 2 and time.perf_counter() - started < 2
    assert (
        err == f"flowbot: {bomb}: the image is 20000x20000 px, over the 50 megapixel limit "
        "(larger than any screen); refused before decoding\n"
    )


def test_image_size_reads_headers_without_decoding():
    from flowbot.capture.image import image_size

    assert image_size(_png_claiming(1234, 567)) == (1234, 567)
    assert image_size(_jpeg_claiming(640, 480)) == (640, 480)
    with pytest.raises(CaptureError):
        image_size(b"\x89PNG\r\n\x1a\nshort")


# --- 14. only regular files are read -----------------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path):
    """A FIFO; a watchdog opens its other end after a few seconds, so a reader that blocks ends the test."""
    path = tmp_path / "board.txt"
    os.mkfifo(path)
    stop = threading.Event()

    def watchdog():
        deadline = time.monotonic() + 5
        while not stop.wait(0.05):
            if time.monotonic() > deadline:
                try:
                    os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    continue  # no reader yet
                return

    threading.Thread(target=watchdog, daemon=True).start()
    yield path
    stop.set()


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "{}"],
        ["rate", "{}"],
        ["bench", "{}", "--repeat", "1"],
        ["numbermatch", "{}"],
        ["convert", "{}", "--out", "{out}"],
        ["read", "{}", "--out", "{out}"],
    ],
)
def test_a_fifo_is_refused_at_once(tmp_path, capsys, fifo, command):
    args = [
        str(fifo) if part == "{}" else str(tmp_path / "out") if part == "{out}" else part for part in command
    ]
    started = time.perf_counter()
    code, _, err = run_cli(args, capsys)
    assert time.perf_counter() - started < 3, "the FIFO was opened and read"
    assert code == 2  # like every other unreadable input, whichever command is given it
    assert f"{fifo}: is a FIFO (named pipe), not a regular file" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused(capsys, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    code, _, err = run_cli(["solve", device], capsys)
    assert code == 2 and err == f"flowbot: {device}: is a character device, not a regular file\n"


def test_the_input_gate_refuses_big_files_from_their_size(tmp_path):
    from flowbot.errors import InputFileError

    big = tmp_path / "big.txt"
    with open(big, "wb") as handle:
        handle.truncate(formats.MAX_FILE_BYTES + 1)  # sparse: no 64 MB written
    with pytest.raises(InputFileError, match="larger than 64 MB"):
        formats.read_input_bytes(big)


# --- 15. interrupts and time limits ------------------------------------------------------------------------


class _StuckSolver:
    """A stand-in for pysat's solver whose SAT call runs until it is interrupted."""

    def __init__(self, *args, **kwargs):
        self._stop = threading.Event()
        self.interrupted = False
        self.budgeted = False

    def conf_budget(self, budget):
        self.budgeted = budget != -1

    def prop_budget(self, budget):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def append_formula(self, clauses):
        pass

    def delete(self):
        pass

    def solve_limited(self, expect_interrupt=False):
        assert expect_interrupt, "only an interruptible call can be stopped"
        if self.budgeted:
            return None  # the budget runs out: this call is a long one
        self._stop.wait(30)
        return None

    def solve(self):
        raise AssertionError("a plain solve() cannot be interrupted")

    def interrupt(self):
        self.interrupted = True
        self._stop.set()

    def clear_interrupt(self):
        pass


def test_ctrl_c_during_a_sat_call_is_one_line_and_exit_130(tmp_path, capsys, monkeypatch):
    from flowbot.solve import sat

    monkeypatch.setattr(sat, "_backend", lambda: _StuckSolver)
    monkeypatch.setattr(sat, "searchable", lambda puzzle: False)  # this 5x5 goes to the SAT solver
    board = _write(tmp_path / "board.txt", GOOD)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    started = time.perf_counter()
    try:
        code, _, err = run_cli(["solve", board], capsys)
    finally:
        timer.cancel()
    assert code == 130 and err == "flowbot: interrupted\n"
    assert time.perf_counter() - started < 3


def test_the_solve_time_limit_stops_a_sat_call(tmp_path, capsys, monkeypatch):
    from flowbot.solve import sat

    monkeypatch.setattr(sat, "_backend", lambda: _StuckSolver)
    monkeypatch.setattr(sat, "searchable", lambda puzzle: False)  # this 5x5 goes to the SAT solver
    board = _write(tmp_path / "board.txt", GOOD)
    started = time.perf_counter()
    code, out, _ = run_cli(["solve", "--json", "--timeout", "0.3", board], capsys)
    assert code == 1 and json.loads(out)["status"] == "timeout"
    assert time.perf_counter() - started < 3


def test_a_real_sigint_during_a_sat_call_exits_130_without_a_traceback(tmp_path):
    if not Path("/proc/self/task").is_dir():
        pytest.skip("needs /proc to see the solver's thread")
    # A big open board: the solver works on it for many seconds (60 at most, the default limit).
    size = 120
    rows = ["." * size for _ in range(size)]
    rows[0] = "A" + "." * (size - 2) + "B"
    rows[-1] = "B" + "." * (size - 2) + "A"
    board = _write(tmp_path / "big.txt", "\n".join(rows) + "\n")
    child = subprocess.Popen([sys.executable, "-m", "flowbot", "solve", str(board)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    tasks = Path(f"/proc/{child.pid}/task")
    deadline = time.monotonic() + 30
    # The SAT call runs in a thread of its own: send the signal once it is there.
    while child.poll() is None and time.monotonic() < deadline and len(list(tasks.iterdir())) < 2:
        time.sleep(0.005)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=20)
    assert child.returncode == 130 and err == "flowbot: interrupted\n"


def test_numbermatch_looks_at_the_clock_at_every_position(monkeypatch):
    from flowbot.numbermatch import search
    from flowbot.numbermatch.rules import Rules
    from tests.test_numbermatch_search import HARD_NO_WIN

    real = search._pairs

    def slow_pairs(*args):
        time.sleep(0.004)  # a position on a board grown by many adds
        return real(*args)

    monkeypatch.setattr(search, "_pairs", slow_pairs)
    started = time.perf_counter()
    answer = search.solve(HARD_NO_WIN, Rules(adds=0), timeout=0.2)
    assert answer.status == search.TIMEOUT
    assert time.perf_counter() - started < 0.6


def test_play_answers_q_while_the_solver_works(monkeypatch):
    from flowbot.play.levels import LevelList, PlayLevel
    from flowbot.play.session import PlaySession
    from flowbot.solve.sat import solve

    release = threading.Event()

    def slow_solver(puzzle):
        release.wait(30)
        return solve(puzzle)

    puzzle = Puzzle.from_rows(GOOD.split())
    levels = LevelList([PlayLevel(puzzle, "good")])
    session = PlaySession(levels, solver=slow_solver, background=True)
    started = time.perf_counter()
    assert session.press("a") is True
    assert session.solving and "solving" in session.status()
    assert session.press("q") is False
    assert time.perf_counter() - started < 0.2
    # The same session, left open: the replay starts once the answer comes.
    release.set()
    deadline = time.monotonic() + 10
    while not session.poll() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert session.animating


# --- 17. rate, bench, numbermatch messages ----------------------------------------------------------------


def test_rate_reports_an_unsolvable_board_as_unsolvable(tmp_path, capsys):
    board = _write(tmp_path / "no.txt", "A.B\n.#.\nB.A\n")
    code, out, _ = run_cli(["rate", board], capsys)
    assert code == 1 and out == f"{board}: 3x3, no solution: nothing to rate\n"
    code, out, _ = run_cli(["rate", "--json", board], capsys)
    record = json.loads(out)
    assert code == 1 and record["status"] == "unsolvable" and record["difficulty"] is None


def test_bench_names_each_skipped_file_and_counts_them(tmp_path, capsys, monkeypatch):
    from flowbot.modes import bench

    monkeypatch.setattr(bench, "_one_call_wall", lambda files, repeat: 0.0)
    good = _write(tmp_path / "good.txt", GOOD)
    bad = _write(tmp_path / "bad.txt", "A..\n")
    empty = _write(tmp_path / "empty.txt", "")
    code, out, err = run_cli(["bench", good, bad, empty, "--repeat", "1"], capsys)
    assert code == 0
    assert f"skipped: {bad}: colour 'A' has 1 endpoint" in err
    assert f"skipped: {empty}: file is empty" in err
    assert "skipped 2 unreadable puzzle(s) or file(s)" in err
    assert "1 puzzles: 1 solved (2 skipped as unreadable)" in out


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[[1, 1.5, 2]]", "column 2: 1.5 (a number with a fraction) is not a digit 0-9"),
        ("[[1, true, 2]]", "column 2: true is not a digit 0-9"),
        ('{"rows": [7]}', "row 1: expected a string or a list of digits, got 7"),
        ('{"rows": [[1, 2], 1.5]}', "row 2: expected a string or a list of digits, got 1.5 (a number"),
    ],
)
def test_numbermatch_json_says_what_it_got(tmp_path, capsys, text, said):
    path = _write(tmp_path / "board.json", text)
    code, _, err = run_cli(["numbermatch", path], capsys)
    assert code == 2 and said in err and "got int" not in err


def test_describe_value_names_json_values():
    assert describe_value(True) == "true" and describe_value(None) == "null"
    assert describe_value(1.5) == "1.5 (a number with a fraction)"
    assert describe_value(float("nan")) == "NaN" and describe_value(3) == "3"


def _write(path: Path, text: str) -> Path:
    """Write a text file for a test."""
    path.write_text(text)
    return path


def test_a_sat_call_cancelled_before_its_worker_runs_never_touches_the_solver():
    from flowbot.solve.sat import _SatCall

    class Untouchable:
        def solve_limited(self, expect_interrupt=False):
            raise AssertionError("the solver was used after the call was cancelled (it may be freed)")

        def interrupt(self):
            raise AssertionError("no need to interrupt a call that never began")

    call = _SatCall(Untouchable())
    call.cancel()
    call.work()  # the worker runs late, e.g. after Ctrl-C cut Thread.start() short
    assert call.done.is_set() and call.error is None
