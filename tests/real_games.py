"""Run `flowbot auto-clear` on the third-party Flow games of ../shared/games and count what each game
says it won, with every press recorded (the harness behind scripts/bench_games.py and
tests/test_real_games.py).

Each run: an Xvfb of 1600x1000 of its own, the game's `start` (in a session of its own, so that
everything it starts is ended with it), `ready`, then `flowbot auto-clear --count N --json` with no
other flags. The wins are the game's, read from its judge as its SOURCE.md says: the `LEVEL-WON` lines
of the patched desktop games (numbered within a pack when the game prints no LEVEL-START), the
console lines of dom111-flow's and next-truong's observers, flowmaster's completion
toast and modal, saleh-flow's score jump. The web pages' text is read through chromium's DevTools
port, which the harness opens by putting a `chromium` in front of the real one on the PATH of
`start` (the page and the game are untouched).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.press_recorder import PressRecorder, control_kind, press_label

REPO = Path(__file__).resolve().parents[1]
GAMES_DIR = REPO.parent / "shared" / "games"
FINDINGS = Path("/tmp/harness-findings")
SCREEN = (1600, 1000)
DOM111_BOARDS = ("3x3", "6x5", "8x8", "15x15")


@dataclass(frozen=True)
class GameSpec:
    """What the harness must know of one game: what it needs to run and how it tells a win."""

    name: str
    judge: str  # "stdout", "console", "toast" or "score"
    levels: int  # levels in a row from level 1 that a full run asks for
    programs: tuple[str, ...] = ()
    pkg_config: tuple[str, ...] = ()  # pkg-config modules a desktop game's build needs
    debian: tuple[str, ...] = ()  # the Debian packages that give them, for the skip message


WEB = ("chromium", "xdotool", "import")
ALLEGRO = ("allegro-5", "allegro_image-5", "allegro_ttf-5", "allegro_audio-5", "allegro_acodec-5")
GAMES = {
    spec.name: spec
    for spec in (
        GameSpec("flowmaster", "toast", 10, WEB, debian=("chromium", "xdotool", "imagemagick")),
        GameSpec("qtflowfree", "stdout", 6, ("qmake", "make", "g++", "xdotool"),
                 ("Qt5Widgets", "Qt5Multimedia"),
                 ("qtbase5-dev", "qt5-qmake", "qtmultimedia5-dev", "build-essential", "xdotool")),
        GameSpec("allegro-flowfree", "stdout", 3, ("make", "g++", "xdotool"), ALLEGRO,
                 ("liballegro5-dev", "liballegro-image5-dev", "liballegro-ttf5-dev", "liballegro-audio5-dev",
                  "liballegro-acodec5-dev", "build-essential", "xdotool")),
        GameSpec("saleh-flow", "score", 7, WEB, debian=("chromium", "xdotool", "imagemagick")),
        GameSpec("dom111-flow", "console", 1, WEB, debian=("chromium", "xdotool", "imagemagick")),
        GameSpec("tk-kuroi", "stdout", 10, ("xdotool",), debian=("python3-tk", "xdotool")),
        GameSpec("racket-flow", "stdout", 10, ("racket", "raco", "xdotool"), debian=("racket", "xdotool")),
        GameSpec("next-truong", "console", 10, WEB, debian=("chromium", "xdotool", "imagemagick")),
    )
}  # fmt: skip


def game_names() -> list[str]:
    """The games of ../shared/games the harness knows, in the order of the issue's table."""
    return [name for name in GAMES if (GAMES_DIR / name / "start").is_file()]


def missing_requirements(name: str) -> str | None:
    """Why this game cannot run here (the missing program, package or folder named), or None."""
    spec = GAMES[name]
    if not (GAMES_DIR / name / "start").is_file():
        return f"{GAMES_DIR / name}/start is not present"
    if shutil.which("Xvfb") is None:
        return "Xvfb is not installed (Debian package xvfb)"
    for program in spec.programs:
        if shutil.which(program) is None:
            return f"{name} needs the program {program} (Debian packages: {' '.join(spec.debian)})"
    if name == "tk-kuroi" and not _has_tkinter():
        return f"{name} needs tkinter in /usr/bin/python3 (Debian packages: {' '.join(spec.debian)})"
    for module in spec.pkg_config:
        found = subprocess.run(["pkg-config", "--exists", module], check=False).returncode == 0
        if not found:
            return f"{name} needs the library {module} (Debian packages: {' '.join(spec.debian)})"
    try:
        import websocket  # noqa: F401  (the DevTools client, for the web pages' judges)
    except ImportError:
        if spec.judge in ("toast", "score"):
            return "the Python package websocket-client is not installed (it comes with selenium)"
    return None


def _has_tkinter() -> bool:
    """Whether Debian's own python3, the one tk-kuroi's `start` runs, has tkinter (python3-tk)."""
    python = os.environ.get("FLOW_PYTHON", "/usr/bin/python3")
    found = subprocess.run([python, "-c", "import tkinter"], capture_output=True, check=False)
    return found.returncode == 0


@dataclass
class Judge:
    """What the game said, in order: ('start', level) and ('won', level) with the time each was seen."""

    grace: float  # how late after the game decides this judge can see it (its polling interval and more)
    events: list[tuple[float, str, object]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, level: object) -> None:
        """One thing the game said, now (a win a polling judge sees again on its next look is kept once)."""
        with self.lock:
            if kind == "won" and any(k == "won" and lv == level for _, k, lv in self.events[-1:]):
                return
            self.events.append((time.monotonic(), kind, level))

    def wins(self) -> list[object]:
        """The levels the game judged won, each once, in order."""
        won: list[object] = []
        for _, kind, level in self.events:
            if kind == "won" and level not in won:
                won.append(level)
        return won

    def left_unwon(self) -> list[object]:
        """The levels the game moved on from without having judged them won (each a skip)."""
        left, level, won = [], None, False
        for _, kind, what in self.events:
            if kind == "start":
                if level is not None and not won:
                    left.append(level)
                level, won = what, False
            elif kind == "won" and what == level:
                won = True
        return left

    def won_at(self, moment: float) -> bool:
        """Whether the level on screen at `moment` had been judged won by then (a judge that sees
        the game late gets `grace` seconds)."""
        started = max((t for t, kind, _ in self.events if kind == "start" and t <= moment), default=-1.0)
        return any(kind == "won" and started <= t <= moment + self.grace for t, kind, _ in self.events)

    def moved_on_unwon(self, moment: float, within: float = 3.0) -> bool:
        """Whether another level started within `within` seconds after `moment` while the level shown
        at `moment` had not been judged won before that start (won after the press still counts: a
        press on a dot before the drag that won the level moved on from nothing)."""
        shown = max((t for t, kind, _ in self.events if kind == "start" and t <= moment), default=-1.0)
        return any(
            kind == "start"
            and moment <= t <= moment + within
            and not any(k == "won" and shown <= w <= t + self.grace for w, k, _ in self.events)
            for t, kind, _ in self.events
        )


@dataclass
class RunResult:
    """One run of flowbot on one game, as the game judged it and as flowbot reported it."""

    game: str
    board: str | None
    won_by_game: int = 0
    won_levels: list = field(default_factory=list)
    left_unwon: list = field(default_factory=list)  # levels the game moved on from unwon: skipped
    claimed: int | None = None
    won_by: list = field(default_factory=list)  # flowbot's evidence for each level it claimed
    exit_code: int | None = None
    stopped: str | None = None
    presses: int = 0
    presses_outside: list = field(default_factory=list)
    presses_on_skip: list = field(default_factory=list)
    control_presses: list = field(default_factory=list)
    clicks: list = field(default_factory=list)  # every press that did not drag, with its label
    wall_s: float = 0.0
    flowbot_stderr: str = ""
    screenshots: list = field(default_factory=list)
    skipped: str | None = None
    prepared: str | None = None  # what the harness did so the game builds here
    judge_events: list = field(default_factory=list)  # (seconds from flowbot's start, kind, level)

    @property
    def claimed_not_won(self) -> int:
        """Levels flowbot said it cleared beyond those the game judged won: a lower bound, as flowbot's
        report does not say which level each claim was for (claims 1, 2, 3 against wins 1, 2, 5 give 0)."""
        return max(0, (self.claimed or 0) - self.won_by_game)

    def as_dict(self) -> dict:
        """The result as JSON-ready values."""
        record = {key: value for key, value in self.__dict__.items()}
        record["claimed_not_won"] = self.claimed_not_won
        return record


def run_game(
    name: str,
    count: int,
    board: str | None = None,
    tag: str = "",
    timeout: float | None = None,
    extra: tuple[str, ...] = (),
) -> RunResult:
    """Start the game on a display of its own, let `flowbot auto-clear --count N --json` play it, and
    return what the game judged and what flowbot claimed; everything started is ended."""

    result = RunResult(name, board)
    reason = missing_requirements(name)
    if reason:
        result.skipped = reason
        return result
    with _ended_by_sigterm():
        return _run(result, count, board, tag, timeout, extra)


@contextlib.contextmanager
def _ended_by_sigterm():
    """While a run lasts, SIGTERM (a `timeout` around the harness) raises SystemExit, so that the game's
    session and the display are ended on the way out instead of left running."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(number, frame):
        """Leave through every `finally` on the way up."""
        raise SystemExit(128 + number)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(
    result: RunResult, count: int, board: str | None, tag: str, timeout: float | None, extra: tuple[str, ...]
) -> RunResult:
    """run_game's body, for a game that can run here."""
    from flowbot.display import VirtualDisplay

    name = result.game
    spec = GAMES[name]
    label = f"{name}{'-' + board if board else ''}{'-' + tag if tag else ''}"
    FINDINGS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"bench-games-{name}-") as work, VirtualDisplay(*SCREEN):
        work_dir = Path(work)
        env = dict(os.environ)
        devtools_port = None
        if spec.judge in ("toast", "score"):
            devtools_port = _free_port()
            env["PATH"] = f"{_chromium_shim(work_dir, devtools_port)}:{env['PATH']}"
        if board:
            env["FLOW_LEVEL"] = board
        console = work_dir / "console.log"
        env["FLOW_CONSOLE_LOG"] = str(console)
        judge = Judge(grace=0.3 if spec.judge == "stdout" else 0.8)
        start, result.prepared = prepare(name, work_dir)
        with open(work_dir / "start.err", "w") as errors:
            game = subprocess.Popen(
                [str(start)], stdout=subprocess.PIPE, stderr=errors, text=True, env=env,
                start_new_session=True,  # a session of its own: everything it starts is ended with it
            )  # fmt: skip
        ready = threading.Event()
        stdout_lines: list[str] = []
        threading.Thread(target=_read_stdout, args=(game, judge, ready, stdout_lines), daemon=True).start()
        stop_judge = threading.Event()
        started = time.monotonic()
        bot = subprocess.CompletedProcess([], None, "", "")
        try:
            if not ready.wait(300) or "ready" not in stdout_lines:
                error = (work_dir / "start.err").read_text(errors="replace")[-600:]
                raise RuntimeError(f"{name}'s start did not print ready: {error.strip()}")
            if spec.judge == "console":
                judge.add("start", board or 1)
                _thread(_tail_console, console, judge, stop_judge, board)
            elif devtools_port is not None:
                _thread(_poll_page, devtools_port, spec.judge, judge, stop_judge)
            time.sleep(1.0)  # the page judge's first look at the level
            started = time.monotonic()
            with PressRecorder() as recorder:
                bot = _run_flowbot(count, env, work_dir, timeout or 90 + 60 * count, extra)
                result.wall_s = round(time.monotonic() - started, 1)
                time.sleep(2.0)  # a win the judge sees late still counts
            game_pids = _session_pids(game.pid)
            result.exit_code, result.flowbot_stderr = bot.returncode, bot.stderr[-1500:]
            report = _last_json(bot.stdout)
            result.claimed = report.get("cleared") if report else None
            levels = (report or {}).get("per_level", [])
            result.won_by = [level.get("won_by") for level in levels if level.get("cleared")]
            result.stopped = report.get("stopped") if report else None
            result.screenshots = _save_screens(label, report, work_dir)
            _classify(result, recorder.presses, judge, game_pids, started, label)
        finally:
            stop_judge.set()
            _end_session(game)
        result.won_levels = judge.wins()
        result.left_unwon = judge.left_unwon()
        result.judge_events = [
            (round(t - started, 2), kind, str(level)) for t, kind, level in judge.events if t >= started - 5
        ]
        result.won_by_game = len(result.won_levels)
        (FINDINGS / f"{label}-flowbot.log").write_text(bot.stdout + bot.stderr)
        (FINDINGS / f"{label}.json").write_text(json.dumps(result.as_dict(), indent=1))
    return result


def prepare(name: str, work: Path) -> tuple[Path, str | None]:
    """The `start` to run, and what was done to make the game build. A Qt resource file naming sound
    files the package lacks (files over the size kept were not stored) stops the build at its first
    line; a copy of the game with silent WAV files in their place builds, and plays the same."""
    folder = GAMES_DIR / name
    missing = [
        sound
        for qrc in (folder / "src").glob("*.qrc")
        for sound in re.findall(r"<file>([^<]+\.wav)</file>", qrc.read_text())
        if not (folder / "src" / sound).exists()
    ]
    if not missing:
        return folder / "start", None
    copy = work / name
    shutil.copytree(folder, copy)
    for sound in missing:
        _silent_wav(copy / "src" / sound)
    return copy / "start", f"silent WAV placeholders for {', '.join(missing)} (missing from the package)"


def _silent_wav(path: Path) -> None:
    """A tenth of a second of silence, 8 kHz mono 16-bit."""
    import wave

    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(b"\0\0" * 800)


def _thread(target, *args) -> None:
    """Run target(*args) in a daemon thread."""
    threading.Thread(target=target, args=args, daemon=True).start()


@dataclass
class WinOrder:
    """Levels of a game that says only its wins (`LEVEL-WON n`, numbered within a pack), played in
    order: a number lower than the last starts the next pack (tk-kuroi's 6x6 after its 5x5 level 30),
    and a number past the next one means the levels between were moved on from unwon (a skip)."""

    judge: Judge
    pack: int = 1
    last: int = 0

    def won(self, number: str) -> object:
        """The level a `LEVEL-WON number` is for (its pack named after the first), noted with a start
        of each level since the last win, this one included: the game says nothing when a level
        starts, so a start is known only once a later win shows it was reached."""
        if not number.isdigit():
            return number
        level = int(number)
        if level <= self.last:
            self.pack, self.last = self.pack + 1, 0
        started = {what for _, kind, what in self.judge.events if kind == "start"}
        for reached in range(self.last + 1, level + 1):
            if self.label(reached) not in started:  # level 1's start may be the harness's own
                self.judge.add("start", self.label(reached))
        self.last = level
        return self.label(level)

    def label(self, level: int) -> object:
        """A level's name: its number, with its pack's after the first ('2-1')."""
        return level if self.pack == 1 else f"{self.pack}-{level}"


def _read_stdout(game: subprocess.Popen, judge: Judge, ready: threading.Event, lines: list[str]) -> None:
    """The desktop games' judge lines: LEVEL-START n, LEVEL-WON [n]; and start's own `ready`. A game
    that prints no LEVEL-START has its levels in order (WinOrder)."""
    level: object = None
    order: WinOrder | None = WinOrder(judge)
    for line in game.stdout:
        line = line.strip()
        lines.append(line)
        if line == "ready":
            ready.set()
        elif line.startswith("LEVEL-START"):
            level, order = line.split()[-1], None
            judge.add("start", level)
        elif line.startswith("HALFWAY-DONE"):
            judge.add("halfway", level)  # every pair joined, cells left empty: not a win
        elif line.startswith("LEVEL-WON"):
            parts = line.split()
            if len(parts) > 1 and order is not None:
                judge.add("won", order.won(parts[1]))
            else:
                judge.add("won", parts[1] if len(parts) > 1 else level)
    ready.set()  # start ended: the caller sees it has exited


CONSOLE_WON = re.compile(r'"LEVEL-WON(?: (\w+))?"')


def _tail_console(path: Path, judge: Judge, stop: threading.Event, board: str | None = None) -> None:
    """The web pages' observers: a console message in chromium's log, `LEVEL-WON` for dom111-flow's
    one board, `LEVEL-WON n` for next-truong's levels, in order (WinOrder)."""
    seen = 0
    order = WinOrder(judge)
    while not stop.is_set():
        if path.exists():
            lines = path.read_text(errors="replace").splitlines()
            for line in lines[seen:]:
                won = CONSOLE_WON.search(line)
                if won and won.group(1) is None:
                    judge.add("won", board or 1)
                elif won:
                    judge.add("won", order.won(won.group(1)))
                elif '"LEVEL-UNWON"' in line:
                    judge.add("unwon", board or 1)
            seen = len(lines)
        stop.wait(0.2)


TOAST = re.compile(r"Area\s+(\d+)\s*\S\s*Level\s+(\d+)\s+complete", re.IGNORECASE)
HEADER = re.compile(r"Area\s+(\d+)\s*\S\s*Level\s+(\d+)(?!\s+complete)", re.IGNORECASE)
SCORE = re.compile(r"Score:\s*(\d+)")
TITLE_LEVEL = re.compile(r"Level\s+(\d+)")


def _poll_page(port: int, kind: str, judge: Judge, stop: threading.Event) -> None:
    """The web pages' judges, from the page's own text: flowmaster's 'Area a - Level n complete!'
    toast (an en dash in the page) and its completion modal ('Next Level' beside 'Replay'),
    saleh-flow's 'Score:' rising."""
    client = None
    level: object = None
    score: int | None = None
    while not stop.is_set():
        try:
            client = client or DevTools(port)
            text = client.text()
        except Exception:  # the page is loading or navigating: look again
            client = None
            stop.wait(0.3)
            continue
        if kind == "toast":
            toasts = {found.start() for found in TOAST.finditer(text)}
            headers = [found.groups() for found in HEADER.finditer(text) if found.start() not in toasts]
            if headers and headers[0] != level:
                level = headers[0]
                judge.add("start", level)
            for match in TOAST.finditer(text):
                judge.add("won", match.groups())
            if "Next Level" in text and "Replay" in text and level is not None:
                judge.add("won", level)
        else:
            title = TITLE_LEVEL.search(text)
            if title and title.group(1) != level:
                level = title.group(1)
                judge.add("start", level)
            found = SCORE.search(text)
            if found:
                now = int(found.group(1))
                if score is not None and now > score:
                    judge.add("won", level)
                score = now
        stop.wait(0.15)


class DevTools:
    """A small Chrome DevTools Protocol client: the text of the first page."""

    def __init__(self, port: int) -> None:
        import urllib.request

        import websocket

        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as answer:
            targets = json.load(answer)
        page = next(target for target in targets if target.get("type") == "page")
        url = page["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, timeout=5, suppress_origin=True)
        self.next_id = 0

    def text(self) -> str:
        """document.body.innerText of the page."""
        self.next_id += 1
        expression = "document.body ? document.body.innerText : ''"
        params = {"expression": expression, "returnByValue": True}
        self.socket.send(json.dumps({"id": self.next_id, "method": "Runtime.evaluate", "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                return message["result"]["result"].get("value") or ""


def _chromium_shim(work: Path, port: int) -> Path:
    """A folder whose `chromium` runs the real one with a DevTools port (nothing else changed)."""
    real = shutil.which("chromium")
    folder = work / "bin"
    folder.mkdir()
    shim = folder / "chromium"
    flags = f'--remote-debugging-port={port} --remote-allow-origins="*"'
    shim.write_text(f'#!/bin/sh\nexec {real} {flags} "$@"\n')
    shim.chmod(0o755)
    return folder


def _free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _run_flowbot(
    count: int, env: dict, work: Path, timeout: float, extra: tuple[str, ...] = ()
) -> subprocess.CompletedProcess:
    """`flowbot auto-clear --count N --json` with no other flag (but `extra`, for trying settings by
    hand), in a folder of its own (for its pictures)."""
    command = [str(REPO / ".venv" / "bin" / "flowbot"), "auto-clear", "--count", str(count), "--json", *extra]
    try:
        return subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else expired.stdout or ""
        err = expired.stderr.decode() if isinstance(expired.stderr, bytes) else expired.stderr or ""
        err += f"\n(harness: timed out after {timeout:.0f} s)"
        return subprocess.CompletedProcess(command, -9, out, err)


def _last_json(stdout: str) -> dict | None:
    """The last JSON object line of flowbot's output."""
    for line in reversed(stdout.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                continue
    return None


def _save_screens(label: str, report: dict | None, work: Path) -> list[str]:
    """The screen at the end of the run and flowbot's own failure picture, under /tmp/harness-findings."""
    import cv2
    import mss
    import numpy as np

    saved = []
    with mss.MSS() as grabber:
        shot = np.asarray(grabber.grab(grabber.monitors[0]))[:, :, :3]
    path = FINDINGS / f"{label}-end.png"
    cv2.imwrite(str(path), shot)
    saved.append(str(path))
    failure = (report or {}).get("failure_image")
    if failure:
        source = Path(failure) if Path(failure).is_absolute() else work / failure
        if source.exists():
            target = FINDINGS / f"{label}-flowbot-{source.name}"
            shutil.copy(source, target)
            saved.append(str(target))
    return saved


def _classify(
    result: RunResult, presses: list, judge: Judge, game_pids: set[int], started: float, label: str
) -> None:
    """Presses off the game's windows, and presses of a control that skips, restarts, auto-solves, or
    moves on from a level the game had not judged won: by the label read around the press, or by the
    judge (a click after which the game started another level that it had not judged won)."""
    import cv2

    result.presses = len(presses)
    game_windows = {press.window for press in presses if press.pid in game_pids}
    starts = [t for t, kind, _ in judge.events if kind == "start"]
    for press in presses:
        # A window with no pid is the game's: the display is the run's own and flowbot opens none.
        owned = press.pid is None or press.pid in game_pids or press.window in game_windows
        if press.window == 0 or not owned:
            result.presses_outside.append(dict(press.as_dict(), time=round(press.time - started, 2)))
        if not press.is_click:
            continue
        text = press_label(press)
        kind = control_kind(text)
        won = judge.won_at(press.time)
        moved_on = any(press.time <= t <= press.time + 3.0 for t in starts)
        left_unwon = judge.moved_on_unwon(press.time)
        record = dict(press.as_dict(), time=round(press.time - started, 2), label=text, kind=kind)
        record.update(level_won=won, new_level_followed=moved_on, left_unwon=left_unwon)
        result.clicks.append(record)
        if kind is not None:
            result.control_presses.append(record)
        if kind == "skip" or (not won and (kind == "move-on" or left_unwon)):
            result.presses_on_skip.append(record)
            if press.frame is not None:
                picture = press.frame.copy()
                cv2.circle(picture, (press.x, press.y), 14, (255, 0, 255), 3)  # where the press went
                path = FINDINGS / f"{label}-skip-{len(result.presses_on_skip)}.png"
                cv2.imwrite(str(path), picture)
                record["screenshot"] = str(path)


def _session_pids(session: int) -> set[int]:
    """Every process in the session `start` leads (it and all it started)."""
    pids = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[3]) == session:  # field 6 of stat: the session id
            pids.add(int(entry.name))
    return pids


def _end_session(game: subprocess.Popen) -> None:
    """End `start` and everything in its session: SIGTERM (its own clean-up runs), then SIGKILL."""
    pids = _session_pids(game.pid)
    for pid in pids:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _session_pids(game.pid):
        time.sleep(0.2)
    for pid in _session_pids(game.pid):
        _signal(pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        game.wait(5)


def _signal(pid: int, number: int) -> None:
    """Send a signal to one process of ours, which may have ended already."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, number)
