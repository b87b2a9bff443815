"""`flowbot demo`: start the bundled game, let the bot clear a pack, close it, and show what happened."""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TextIO

import numpy as np

from flowbot.act.plan import PointerSettings
from flowbot.capture.screen import Region
from flowbot.display import end_process
from flowbot.errors import FlowbotError, OutputFileError
from flowbot.formats import Outputs
from flowbot.progress import Progress

# The bundled game's profile: it handles every queued mouse event, so it takes drags with no pauses.
BUNDLED_PROFILE = "flowbot-game"
WINDOW = (540, 960)
DEMO_PACK = "demo"


class DemoError(FlowbotError):
    """The demo could not run: the game did not start, or stopped."""

    exit_code = 7


def run_demo(
    *,
    levels: int | None,
    as_json: bool,
    record: str | None,
    out: TextIO,
    err: TextIO,
    force: bool = False,
) -> int:
    """Play the bundled demo pack under a display (a virtual one when there is none).

    The recording's path is checked before the run; a --record file that exists is replaced only with
    `force`, while the default flowbot-demo.gif is flowbot's own and is replaced on each headless run.
    """
    from flowbot.display import VirtualDisplay
    from flowbot.system import needs_virtual_display

    headless = needs_virtual_display()
    outputs = Outputs(force=force or record is None)
    record = record or ("flowbot-demo.gif" if headless else None)
    if record is not None:
        outputs.claim(record, "the recording")
        check_can_create(Path(record))
    started = time.perf_counter()
    # A stop (Ctrl-C, SIGTERM, SIGHUP) before the bot's loop took over propagates to the command,
    # whose --json line says so (flowbot.commands.demo); the loop turns a stop into its report.
    with (
        VirtualDisplay(*_screen_size()) if headless else contextlib.nullcontext(),
        tempfile.TemporaryDirectory() as tmp,
    ):
        results = Path(tmp) / "results.jsonl"
        game = _start_game(results, levels)
        try:
            report, frames = _play(levels, err, record is not None, headless)
        finally:
            end_process(game)  # the game writes its results on the way out
        solved = _solved_by_game(results)
    seconds = time.perf_counter() - started
    wanted = levels if levels is not None else _pack_size()  # what was asked, also of a run cut short
    _tell(report, solved, wanted, seconds, as_json, out, err)
    try:
        if record is not None and frames:
            _write_gif(frames, record, outputs)
            (err if as_json else out).write(f"recording of the run: {record}\n")
    except KeyboardInterrupt as stop:
        stop.summarised = True  # the run's line is out already: the command adds none
        raise
    if report.halt is not None:
        raise report.halt  # after the summary: a stop (a signal, the fail-safe) is no pass; its own status
    return 0 if solved >= wanted and wanted > 0 else 1


def _tell(report, solved: int, wanted: int, seconds: float, as_json: bool, out: TextIO, err: TextIO) -> None:
    """The run's summary in words, and with --json its one JSON line on stdout (the words on stderr)."""
    words = err if as_json else out
    words.write(report.summary() + "\n")
    words.write(f"the game confirms {solved} of {wanted} level(s) solved\n")
    if not as_json:
        return
    draws = [level.timing.draw_s for level in report.levels]
    record_line = {
        "levels": wanted,
        "solved_by_game": solved,
        "bot_overhead_ms_median": round(report.overhead_median_ms(), 1),
        "draw_s_median": round(statistics.median(draws), 3) if draws else 0.0,
        "draw_s_total": round(sum(draws), 3),
        "seconds": round(seconds, 2),
        "stopped": report.stopped,
        "interrupted": _interrupted(report.halt),
    }
    out.write(json.dumps(record_line) + "\n")


def _interrupted(halt: FlowbotError | None) -> bool:
    """True when what ended the run early was a stop signal (Ctrl-C, SIGTERM, SIGHUP, ...)."""
    from flowbot.act.pointer import Interrupted

    return isinstance(halt, Interrupted)


def _screen_size() -> tuple[int, int]:
    """The virtual screen: room for the game window and a little more."""
    return WINDOW[0] + 100, WINDOW[1] + 64


def _start_game(results: Path, levels: int | None) -> subprocess.Popen:
    """Start `flowbot game` on the demo pack and wait until its window is up."""
    # The bot must see the window: no off-screen SDL driver, and the window at the top-left.
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    command = [sys.executable, "-m", "flowbot", "game", "--pack", DEMO_PACK, "--results", str(results),
               "--size", f"{WINDOW[0]}x{WINDOW[1]}"]  # fmt: skip
    game = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = _read_line(game, timeout=30)
    if line.strip() != "game ready":
        end_process(game)
        problem = (game.stderr.read() if game.stderr else "").strip().splitlines()
        raise DemoError(
            f"the bundled game did not start: {problem[-1] if problem else line.strip() or 'no output'}"
        )
    return game


def _read_line(process: subprocess.Popen, timeout: float) -> str:
    """The next line the process prints, or '' after `timeout` seconds."""
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return lines[0] if lines else ""


def check_can_create(path: Path) -> None:
    """Refuse, before the run, a file that cannot be created where it is to go, found by creating and
    removing a scratch file beside it: the folder's permission bits do not tell (root may write
    anywhere they allow, yet not in /proc, on a read-only mount or a full disk)."""
    folder = path.parent if str(path.parent) else Path(".")
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent  # the folders still to be made would be made in this one
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".flowbot-check-"):
            pass
    except OSError as error:
        raise OutputFileError(f"{path}: cannot write: {error.strerror or error} (in {folder})") from None


def _play(levels: int | None, err: TextIO, recording: bool, headless: bool):
    """Run the bot on the screen; record frames meanwhile when asked."""
    from flowbot.act.pointer import open_pointer
    from flowbot.capture.monitors import look_at_the_game
    from flowbot.capture.screen import MssScreen
    from flowbot.modes.auto_clear import AutoClear

    screen = MssScreen()
    # On a virtual screen the window sits at the top-left; on a desktop the bot finds it itself.
    region = Region(0, 0, *WINDOW) if headless else None
    look_at_the_game(screen, region)
    recorder = _Recorder(region or screen.bounds) if recording else None
    try:
        pointer = open_pointer(screen, region or screen.bounds)
        count = levels if levels is not None else _pack_size()
        loop = AutoClear(screen, pointer, bundled_settings(), region, count)
        progress = Progress(count, "demo", err)
        if recorder is not None:
            recorder.start()
        report = loop.run(progress)
        progress.close()
    finally:
        frames = recorder.stop() if recorder is not None else []
        screen.close()
    return report, frames


def bundled_settings() -> PointerSettings:
    """The pointer settings of the bundled game's shipped profile."""
    from flowbot.profiles import load_profile

    return load_profile(BUNDLED_PROFILE).pointer


def _pack_size() -> int:
    """How many levels the demo pack has."""
    from flowbot.game.packs import levels_from

    return len(levels_from(DEMO_PACK, None))


def _solved_by_game(results: Path) -> int:
    """Levels the game itself judged solved, from its results file."""
    if not results.exists():
        return 0
    records = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    return sum(1 for record in records if record.get("solved") is True)


class _Recorder:
    """Grabs the screen a few times a second on its own thread, for an animated GIF of the run."""

    def __init__(self, region: Region, interval: float = 0.25, width: int = 270) -> None:
        self.region, self.interval, self.width = region, interval, width
        self.frames: list[np.ndarray] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        """Begin recording."""
        self._thread.start()

    def stop(self) -> list[np.ndarray]:
        """End recording and return the frames (RGB)."""
        self._stop.set()
        if self._thread.ident is not None:  # a stop or an error may come before it was started
            self._thread.join(timeout=5)
        return self.frames

    def _run(self) -> None:
        """Grab until stopped (mss connections are per thread, so this one opens its own)."""
        import cv2

        from flowbot.capture.screen import MssScreen

        screen = MssScreen()
        try:
            while not self._stop.is_set() and len(self.frames) < 2000:
                pixels = screen.grab(self.region).pixels
                scale = self.width / pixels.shape[1]
                small = cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
                self.frames.append(cv2.cvtColor(small, cv2.COLOR_BGR2RGB))
                self._stop.wait(self.interval)
        finally:
            screen.close()


def _write_gif(frames: list[np.ndarray], path: str, outputs: Outputs) -> None:
    """Save frames as an animated GIF, atomically, under the run's overwrite rules."""
    import io

    from PIL import Image

    images = [Image.fromarray(frame) for frame in frames]
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], duration=250, loop=0)
    outputs.write_bytes(path, buffer.getvalue())
