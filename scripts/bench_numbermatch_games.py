"""Number Match on third-party games, judged by each game: `flowbot auto-clear --numbermatch` with its
defaults against every game of ../shared/numbermatch-games, each started on a 1600x1000 virtual
display, with pairs, adds and boards counted by the game's own `judge.py` (never by flowbot's report).

    .venv/bin/python scripts/bench_numbermatch_games.py [--games numberama,thejas-nm] [--runs 1]
        [--random] [--timeout 240] [--json] [--logs DIR] [--grow N]

While the bot plays, the judge is polled; every board state it shows is also read from the screen
by flowbot's reader, and a state that reads otherwise is counted (`misread`); a board taller than
the screen is checked by the rows that show (each a row of the judge's board, in order: `partial`).
Per run: the judge's pairs and adds taken, won or lost, the bot's clicks and the clicks the game did
not take, the rules the bot found and its exit status. `--random` starts games that have a random
board on one; `--grow N` presses the game's add control N times before the bot starts (a board
taller than the screen; the counts start after them).
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
GAMES = HERE.parent / "shared" / "numbermatch-games"
SCREEN = (1600, 1000)
POLL = 0.25  # seconds between the judge's looks


@dataclass
class Run:
    """One game played: what the judge saw, and what the bot said."""

    game: str
    random_board: bool
    pairs: int = 0  # pairs the game took (judge)
    adds: int = 0  # adds the game made, pressed or by itself (judge)
    won: bool = False
    lost: bool = False
    remaining: int = -1
    states: int = 0  # distinct board states the judge showed
    read_ok: int = 0  # of those, read from the screen exactly as the judge showed them
    partial: int = 0  # of those, boards past the screen's edge: the rows on screen were the judge's
    misread: list[str] = field(default_factory=list)
    clicks: int = 0
    wrong_clicks: int = 0
    claimed_cleared: int = 0  # boards the bot says it cleared
    rules: dict = field(default_factory=dict)
    lessons: list[str] = field(default_factory=list)
    exit_status: int | None = None
    stopped: str | None = None
    seconds: float = 0.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The harness's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated game folders (default: all)")
    parser.add_argument("--runs", type=int, default=1, help="runs per game (default 1)")
    parser.add_argument("--random", action="store_true", help="a random board where the game offers one")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds a run may take (default 240)")
    parser.add_argument("--games-dir", default=str(GAMES), help="where the games are")
    parser.add_argument("--json", action="store_true", help="print each run as a JSON line")
    parser.add_argument("--logs", default="", help="a folder to keep each run's bot log in (-vv)")
    parser.add_argument(
        "--grow",
        type=int,
        default=0,
        help='press the game\'s "+" or "add" control N times before the bot starts',
    )
    return parser.parse_args(argv)


def judge(folder: Path, port: int) -> dict | None:
    """The game's own state from its judge, or None when it did not answer."""
    try:
        done = subprocess.run(
            [sys.executable, str(folder / "judge.py"), str(port)],
            capture_output=True, text=True, timeout=10, check=False,
        )  # fmt: skip
        return json.loads(done.stdout) if done.returncode == 0 and done.stdout.strip() else None
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        return None


def board_key(rows: list[list[int]] | tuple[str, ...]) -> tuple[int, ...]:
    """A board as flat digits (0 cleared) less its cleared slots at the end, for comparing a judge's
    rows with a reading's (a look may draw a cleared cell at the end blank, like no cell)."""
    flat = [int(char) if str(char).isdigit() else 0 for row in rows for char in row]
    while flat and not flat[-1]:
        flat.pop()
    return tuple(flat)


def start_game(folder: Path, random_board: bool) -> tuple[subprocess.Popen, int]:
    """The game's `start` on this process's DISPLAY; (process, DevTools port) once it says ready."""
    env = dict(os.environ, PY=sys.executable)
    if random_board:
        env["NM_RANDOM"] = "1"
    process = subprocess.Popen(
        [str(folder / "start")], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    port = None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout, process.stderr], [], [], 1.0)
        for stream in ready:
            line = stream.readline()
            if line.startswith("cdp_port="):
                port = int(line.split("=", 1)[1])
            if line.strip() == "ready" and port is not None:
                time.sleep(1.0)  # the first paint after the judge's ready
                return process, port
        if process.poll() is not None:
            break
    stop(process)
    raise SystemExit(f"{folder.name} did not start")


def stop(process: subprocess.Popen) -> None:
    """End a process group this harness started (the game's server and browser with it)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


def read_screen(screen) -> tuple[int, ...] | tuple[tuple[int, ...], ...] | str:
    """The board on the screen as flowbot reads it (flat, as `board_key`), or when it runs past the
    screen the rows that show (as `row_key`), or the reader's error."""
    from flowbot.numbermatch.read import NumberMatchReadError, read_board

    try:
        reading = read_board(screen.grab().pixels, "the screen")
    except NumberMatchReadError as error:
        return str(error)
    if reading.rectified or not reading.whole:
        try:
            reading = read_board(screen.grab().pixels, "the screen", straighten=False)
        except NumberMatchReadError as error:
            return str(error)
    if reading.whole:
        return board_key(reading.rows)
    return tuple(row_key(row) for row in reading.rows)


def row_runs(read: tuple | str) -> tuple[tuple[int, ...], ...]:
    """A screen's reading as rows (`row_key`), flat or by rows; () for an error."""
    if isinstance(read, str) or not read:
        return ()
    if isinstance(read[0], tuple):
        return read  # type: ignore[return-value]
    flat = list(read)
    return tuple(row_key(flat[start : start + 9]) for start in range(0, len(flat), 9))


def row_key(row) -> tuple[int, ...]:
    """One row as WIDTH digits (0 cleared or empty), from a judge's list or a reading's text."""
    values = [int(char) if str(char).isdigit() else 0 for char in row]
    return tuple(values + [0] * (9 - len(values)))


def shows_part(rows: tuple[tuple[int, ...], ...], state: dict) -> bool:
    """True when the rows read from a screen that shows only part of the board are rows of the
    judge's board, in order, one after another (and at least one row)."""
    judged = [row_key(row) for row in state["rows"]]
    count = len(rows)
    return count > 0 and any(
        tuple(judged[top : top + count]) == rows for top in range(len(judged) - count + 1)
    )


def play(folder: Path, random_board: bool, timeout: float, log: Path | None = None, grow: int = 0) -> Run:
    """One run: start the game, run the bot with defaults, follow the judge until the bot ends; with
    `log`, the bot's log (-vv) is written there; with `grow`, the board is grown by that many adds
    first (a board taller than the screen)."""
    from flowbot.capture.screen import MssScreen

    run = Run(folder.name, random_board)
    game, port = start_game(folder, random_board)
    screen = MssScreen()
    started = time.monotonic()
    bot = None
    try:
        grow_board(screen, grow)
        first = judge(folder, port)
        if first is None:
            raise SystemExit(f"{folder.name}: the judge did not answer")
        verbose = ["-vv"] if log is not None else []
        # A log goes straight to its file: a pipe read only at the end would fill and stop the bot.
        errors = log.open("w") if log is not None else subprocess.PIPE
        bot = subprocess.Popen(
            [sys.executable, "-m", "flowbot", *verbose, "auto-clear", "--numbermatch", "--json"],
            cwd=HERE, stdout=subprocess.PIPE, stderr=errors, text=True, start_new_session=True,
        )  # fmt: skip
        last, seen = first, set()
        follow = lambda: judge(folder, port)  # noqa: E731 - the judge's look now
        check(run, screen, first, seen, follow)
        while bot.poll() is None and time.monotonic() - started < timeout:
            time.sleep(POLL)
            now = judge(folder, port)
            if now is None:
                continue
            count(run, last, now)
            check(run, screen, now, seen, follow)
            last = now
        if bot.poll() is None:
            stop(bot)
        out, err = bot.communicate(timeout=10)
        if log is not None:
            errors.close()  # type: ignore[union-attr]
            err = log.read_text()
        time.sleep(0.5)
        final = judge(folder, port) or last
        count(run, last, final)
        run.won = bool(final.get("won"))
        run.lost = bool(final.get("lost") or final.get("game_over"))
        run.remaining = int(final.get("remaining", -1))
        run.exit_status = bot.returncode
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if lines:
            summary = json.loads(lines[-1])
            run.clicks, run.wrong_clicks = summary.get("clicks", 0), summary.get("wrong_clicks", 0)
            run.claimed_cleared = summary.get("cleared", 0)
            run.rules, run.lessons = summary.get("rules", {}), summary.get("lessons", [])
            run.stopped = summary.get("stopped")
        else:
            run.stopped = err.strip().splitlines()[-1] if err.strip() else None
    finally:
        if bot is not None:
            stop(bot)
        screen.close()
        stop(game)
    run.seconds = round(time.monotonic() - started, 1)
    return run


def grow_board(screen, adds: int) -> None:
    """Grow the board past the screen before the bot starts: `adds` times, take a pair of touching
    digits in a row (a pair in every version of the game) and press the add control, found as the
    bot finds it (the "+" read with the board, else a control labelled "add"), through pyautogui.
    The pair first keeps the added digits from lining up with the rows above (a board that repeats
    itself row for row reads the same wherever it is scrolled)."""
    if adds <= 0:
        return
    from flowbot.act.pointer import import_pyautogui
    from flowbot.numbermatch.controls import find_add_control
    from flowbot.numbermatch.read import read_board

    gui = import_pyautogui()
    gui.PAUSE = 0
    for _ in range(adds):
        reading = read_board(screen.grab().pixels, "the screen", straighten=False)
        pair = touching_pair(reading.rows)
        if pair is not None:
            row, col = pair
            for at in (col, col + 1):
                gui.click(*reading.grid.center(row, at))
                time.sleep(0.3)
            time.sleep(0.7)
        frame = screen.grab().pixels
        reading = read_board(frame, "the screen", straighten=False)
        point = reading.plus or find_add_control(frame, reading.grid)
        if point is None:
            raise SystemExit('no "+" or "add" control to grow the board with')
        gui.click(*point)
        time.sleep(1.0)


def touching_pair(rows: tuple[str, ...]) -> tuple[int, int] | None:
    """The first two touching digits in a row that pair (equal or summing to 10), as (row, col) of
    the left one, or None."""
    for row, text in enumerate(rows):
        for col in range(len(text) - 1):
            left, right = text[col], text[col + 1]
            if left.isdigit() and right.isdigit() and (left == right or int(left) + int(right) == 10):
                return row, col
    return None


def count(run: Run, before: dict, after: dict) -> None:
    """Pairs and adds between two judge looks: a pair clears two digits, an add adds some."""
    if "total_moves" in after and before.get("total_moves") is not None:
        pairs = max(0, int(after["total_moves"]) - int(before["total_moves"]))
    else:
        pairs = max(0, board_cleared(after) - board_cleared(before)) // 2
    run.pairs += pairs
    if (
        len(board_key(after["rows"])) > len(board_key(before["rows"]))
        and after["remaining"] > before["remaining"] - 2 * pairs
    ):
        run.adds += 1


def board_cleared(state: dict) -> int:
    """Slots cleared on a judge's board (cleared cells of emptied rows that went count as gone, so
    this is used only between looks a quarter second apart, one move at a time)."""
    return sum(1 for row in state["rows"] for value in row if not value)


def check(run: Run, screen, state: dict, seen: set, follow) -> None:
    """Read a board state the judge shows for the first time, and count it read or misread (a state
    the game left before the screen could be read is not counted either way)."""
    key = board_key(state["rows"])
    if not key or key in seen or state.get("won") or state.get("lost") or state.get("game_over"):
        return
    seen.add(key)
    read: tuple | str = ""
    for _ in range(3):  # the screen may not have painted the judge's state yet
        read = read_screen(screen)
        if read == key:
            run.states += 1
            run.read_ok += 1
            return
        # Rows that show of a board past the screen; or a board scrolled down by whole rows under a
        # header that stays, which looks whole (a row cut at the header's edge looks like the top).
        rows = row_runs(read)
        if rows and shows_part(rows, state):
            run.states += 1
            run.read_ok += 1
            run.partial += 1
            return
        time.sleep(0.15)
        now = follow()
        if now is None or board_key(now["rows"]) != key:
            return  # the game moved on: this state cannot be checked
    run.states += 1
    if isinstance(read, str):
        shown = read
    elif read and isinstance(read[0], tuple):
        shown = "part " + "/".join("".join(map(str, row)) for row in read)
    else:
        shown = "".join(map(str, read))
    run.misread.append(f"judge {''.join(map(str, key))} read {shown}")


def describe(run: Run) -> str:
    """One line for a person."""
    ending = "won" if run.won else "lost" if run.lost else "not finished"
    return (
        f"{run.game}{' (random)' if run.random_board else ''}: pairs {run.pairs}, adds {run.adds}, "
        f"{ending} ({run.remaining} left), read {run.read_ok}/{run.states} states "
        f"({run.partial} past the screen, their rows on it), "
        f"clicks {run.clicks} ({run.wrong_clicks} not taken), bot exit {run.exit_status}, {run.seconds} s; "
        f"lessons: {run.lessons}; stopped: {run.stopped}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run every game the asked number of times on one virtual display; print the runs."""
    args = parse_args(argv)
    sys.path.insert(0, str(HERE))
    from flowbot.display import VirtualDisplay

    folder = Path(args.games_dir)
    names = [name for name in args.games.split(",") if name] or sorted(
        path.name for path in folder.iterdir() if (path / "start").exists()
    )
    runs = []
    logs = Path(args.logs) if args.logs else None
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
    with VirtualDisplay(*SCREEN):
        for name in names:
            for number in range(args.runs):
                log = logs / f"{name}-{number + 1}.log" if logs is not None else None
                run = play(folder / name, args.random, args.timeout, log, args.grow)
                runs.append(run)
                if args.json:
                    print(json.dumps(asdict(run)), flush=True)
                else:
                    print(describe(run), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
