"""`python -m flowbot.play` as a person uses it: keys into a pseudo-terminal, the screen read back by pyte."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

import pexpect
import pyte
import pytest
from pyte.graphics import FG_BG_256

from flowbot.model import Puzzle
from flowbot.palette import display_rgb
from flowbot.play.colors import xterm_index
from flowbot.solve.sat import solve
from tests.test_play import COLUMNS, DEMO, solution_keys

ROOT = Path(__file__).resolve().parents[1]
# What a terminal in application cursor mode (the mode curses asks for) sends for each key.
KEYS = {"up": "\x1bOA", "down": "\x1bOB", "right": "\x1bOC", "left": "\x1bOD", "enter": "\r"}
# The terminal's reset sequences: leave the alternate screen, show the cursor again.
LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049l"
SHOW_CURSOR = b"\x1b[?25h"
WAIT_SECONDS = 5.0
# A frame is complete once the game has sent nothing for this long.
QUIET_SECONDS = 0.05


class _Screen(pyte.Screen):
    """A pyte screen that also knows REP (CSI n b, repeat the last character), which ncurses sends."""

    last = " "

    def draw(self, data: str) -> None:
        """Draw text, remembering its last character for REP."""
        if data:
            self.last = data[-1]
        super().draw(data)

    def repeat_last(self, count: int = 1, **_: object) -> None:
        """REP: draw the last character again `count` times."""
        self.draw(self.last * max(1, count))


class _Stream(pyte.ByteStream):
    """pyte's byte stream with REP routed to the screen."""

    csi: ClassVar[dict[str, str]] = {**pyte.ByteStream.csi, "b": "repeat_last"}


class Game:
    """The game in a pseudo-terminal: send keys, read the screen as pyte draws it."""

    def __init__(
        self,
        args: list[str],
        *,
        rows: int = 24,
        cols: int = 80,
        env: dict[str, str] | None = None,
        script: str | None = None,
    ) -> None:
        # LINES and COLUMNS (set by some test runners' workers) would pin curses to their size, deaf to
        # the pseudo-terminal's resizes: the terminal alone tells the size, as a person's does.
        dropped = ("NO_COLOR", "COLORTERM", "LINES", "COLUMNS")
        environ = {k: v for k, v in os.environ.items() if k not in dropped}
        environ.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", PYTHON=sys.executable)
        environ.update(env or {})
        # With a script, a shell runs it with the arguments as $1...; $PYTHON is this interpreter.
        program, argv = (
            (sys.executable, ["-m", "flowbot.play", *args])
            if script is None
            else ("/bin/sh", ["-c", script, "sh", *args])
        )
        self.child = pexpect.spawn(program, argv, dimensions=(rows, cols), env=environ, cwd=str(ROOT))
        self.screen = _Screen(cols, rows)
        self.stream = _Stream(self.screen)
        self.raw = bytearray()

    def pump(self, seconds: float = 0.05) -> bool:
        """Feed whatever output arrives within `seconds` to the screen; False when none came."""
        try:
            data = self.child.read_nonblocking(65536, timeout=seconds)
        except (pexpect.TIMEOUT, pexpect.EOF):
            return False
        self.raw += data
        self.stream.feed(data)
        return True

    def wait(self, condition: Callable[[], bool], what: str) -> None:
        """Read output until the condition holds and the screen is still; fail after a few seconds."""
        deadline = time.monotonic() + WAIT_SECONDS
        while not condition():
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}; screen:\n{self.text}")
            self.pump()
        # The rest of the frame (cells below the HUD, the cursor's move) may still be on its way.
        while self.pump(QUIET_SECONDS) and time.monotonic() < deadline:
            pass

    def wait_text(self, text: str) -> None:
        """Read output until the text is on screen."""
        self.wait(lambda: text in self.text, repr(text))

    def press(self, *keys: str) -> None:
        """Send keys by name ('up', 'enter') or as they are ('a')."""
        self.child.send("".join(KEYS.get(key, key) for key in keys))

    def exit_status(self) -> int | None:
        """Wait for the program to end; its exit status."""
        self.child.expect(pexpect.EOF, timeout=WAIT_SECONDS)
        self.raw += self.child.before or b""
        self.child.close()
        return self.child.exitstatus

    @property
    def text(self) -> str:
        """The screen as lines of text."""
        return "\n".join(self.screen.display)

    @property
    def cursor(self) -> tuple[int, int]:
        """Where the terminal's cursor is, (row, col)."""
        return self.screen.cursor.y, self.screen.cursor.x

    def cell_origin(self) -> tuple[int, int]:
        """The screen position of the board's top-left cell (just inside the border)."""
        for row, line in enumerate(self.screen.display):
            if "┌" in line:
                return row + 1, line.index("┌") + 1
        pytest.fail(f"no board on screen:\n{self.text}")

    def cell_at(self, cell: tuple[int, int]) -> pyte.screens.Char:
        """The first character of a board cell, with its colours and attributes."""
        top, left = self.cell_origin()
        return self.screen.buffer[top + cell[0]][left + 2 * cell[1]]


@pytest.fixture
def games() -> Iterator[Callable[..., Game]]:
    """Start games; any still running at the end of the test are killed."""
    started: list[Game] = []

    def start(*args: str, **options: object) -> Game:
        """Start one game."""
        game = Game(list(args), **options)  # type: ignore[arg-type]
        started.append(game)
        return game

    yield start
    for game in started:
        game.child.close(force=True)  # hangs up on a game still running (it exits cleanly on SIGHUP)


@pytest.fixture
def demo_file(tmp_path: Path) -> Path:
    """A 5x5 puzzle as a text grid."""
    path = tmp_path / "demo.txt"
    path.write_text("\n".join(DEMO) + "\n")
    return path


def test_hud_cursor_and_a_pipe_drawn_by_keys(games, demo_file):
    game = games(str(demo_file))
    game.wait_text("flows: 0/5   moves: 0   pipe: 0%")
    assert "level 1/1  demo.txt" in game.text
    top, left = game.cell_origin()
    assert game.cursor == (top, left)  # the top-left cell
    assert game.cell_at((1, 0)).data == "D"
    game.press("enter", "right")
    game.wait_text("pipe: 8%")
    assert game.cursor == (top, left + 2)
    red = FG_BG_256[xterm_index(display_rgb(Puzzle.from_rows(DEMO), 0))]
    assert game.cell_at((0, 1)).bg == red
    assert game.cell_at((0, 0)).bg == red
    assert game.cell_at((0, 3)).bg == "default"
    game.press("left")  # back over the pipe: shorter again
    game.wait_text("pipe: 0%")
    assert game.cell_at((0, 1)).bg == "default"
    game.press("q")
    assert game.exit_status() == 0


def test_arrow_keys_in_normal_cursor_mode_work_too(games, demo_file):
    game = games(str(demo_file))
    game.wait_text("flows: 0/5")
    top, left = game.cell_origin()
    game.press("\x1b[B", "\x1b[C", "\x1b[C")
    game.wait(lambda: game.cursor == (top + 1, left + 4), "the cursor at row 2, col 3")


def test_playing_the_solution_by_keys_shows_solved(games, demo_file):
    solution = solve(Puzzle.from_rows(DEMO)).solution
    assert solution is not None
    game = games(str(demo_file))
    game.wait_text("flows: 0/5")
    game.press(*solution_keys(solution))
    game.wait_text("Solved in 5 moves (perfect)")
    assert "flows: 5/5   moves: 5   pipe: 100%" in game.text
    assert "that was the last level" in game.text


def test_a_shows_the_solution_within_seconds(games):
    game = games("--size", "5x5", "--seed", "11")
    game.wait_text("flows: 0/")
    started = time.monotonic()
    game.press("a")
    game.wait_text("Solved")
    assert time.monotonic() - started < 4
    assert "pipe: 100%" in game.text
    game.press("n")  # generated levels never run out
    game.wait_text("level 2/2  generated 5x5, seed 11")


def test_undo_restart_and_levels_of_a_folder(games, tmp_path):
    (tmp_path / "1.txt").write_text("\n".join(COLUMNS) + "\n")
    (tmp_path / "2.txt").write_text("\n".join(DEMO) + "\n")
    game = games(str(tmp_path))
    game.wait_text("level 1/2  1.txt")
    game.press("enter", "down", "down")
    game.wait_text("flows: 1/3")
    game.press("r")
    game.wait_text("restarted (u undoes)")
    assert "flows: 0/3   moves: 0" in game.text
    game.press("u")
    game.wait_text("flows: 1/3   moves: 1")
    game.press("u")
    game.wait_text("flows: 0/3")
    game.press("u")
    game.wait_text("nothing to undo")
    game.press("n")
    game.wait_text("level 2/2  2.txt")
    game.press("p")
    game.wait_text("level 1/2  1.txt")


def test_a_small_terminal_gets_a_message_until_it_is_enlarged(games, demo_file):
    game = games(str(demo_file), rows=8, cols=30)
    game.wait(lambda: "enlarge the window" in " ".join(game.text.split()), "the too-small message")
    message = " ".join(game.text.split())
    assert message == "terminal is 30x8; this 5x5 board needs 36x10 - enlarge the window or press q"
    game.screen.resize(24, 80)
    game.child.setwinsize(24, 80)
    game.wait_text("flows: 0/5")
    top, left = game.cell_origin()
    assert game.cell_at((0, 0)).data == "A"
    assert game.cursor == (top, left)


def test_no_color_draws_letters_and_marks_the_cursor_in_reverse(games, demo_file):
    game = games(str(demo_file), env={"NO_COLOR": "1"})
    game.wait_text("flows: 0/5")
    game.press("enter", "right")
    game.wait_text("pipe: 8%")
    top, left = game.cell_origin()
    assert game.screen.display[top][left : left + 4] == "A─A "  # a dot, linked to a pipe cell
    assert game.cell_at((0, 1)).reverse
    assert not game.cell_at((0, 0)).reverse
    colours = {(char.fg, char.bg) for line in game.screen.buffer.values() for char in line.values()}
    assert colours == {("default", "default")}


def test_an_eight_colour_terminal_draws_coloured_letters(games, demo_file):
    game = games(str(demo_file), env={"TERM": "xterm"})
    game.wait_text("flows: 0/5")
    game.press("enter", "right")
    game.wait_text("pipe: 8%")
    top, left = game.cell_origin()
    assert game.screen.display[top][left : left + 4] == "A─A "
    assert game.cell_at((0, 0)).fg == game.cell_at((0, 1)).fg == "red"
    assert game.cell_at((0, 2)).fg == "green"
    assert game.cell_at((0, 1)).reverse  # the cursor


def test_q_exits_with_status_0_and_the_terminal_restored(games, demo_file):
    # A shell runs the game, then shows the exit status and the terminal settings it was left with.
    script = '"$PYTHON" -m flowbot.play "$1"; echo "status=$?"; stty -a'
    game = games(str(demo_file), script=script)
    game.wait_text("flows: 0/5")
    game.press("q")
    assert game.exit_status() == 0
    after = bytes(game.raw).decode(errors="replace")
    assert "status=0" in after
    settings = after.split("status=0", 1)[1].replace(";", " ").split()
    assert {"icanon", "echo", "icrnl"} <= set(settings)  # cooked mode again, as the shell had it
    assert LEAVE_ALTERNATE_SCREEN in game.raw
    assert SHOW_CURSOR in game.raw


@pytest.mark.parametrize("stop", ["sigterm", "ctrl-c"])
def test_sigterm_and_ctrl_c_exit_cleanly(games, demo_file, stop):
    game = games(str(demo_file))
    game.wait_text("flows: 0/5")
    if stop == "sigterm":
        game.child.kill(signal.SIGTERM)
    else:
        game.press("\x03")
    assert game.exit_status() == 0
    assert LEAVE_ALTERNATE_SCREEN in game.raw
    assert b"Traceback" not in game.raw


def test_unreadable_input_is_one_line_before_the_screen_is_touched(games, tmp_path):
    (tmp_path / "bad.txt").write_text("A.\n..\n")
    game = games(str(tmp_path / "bad.txt"))
    assert game.exit_status() == 2
    assert game.raw.startswith(b"flowbot play: ")
    assert b"colour 'A' has 1 endpoint" in game.raw
    assert b"\x1b[" not in game.raw  # curses never started


def test_q_is_answered_at_once_while_a_big_board_is_solved(games, tmp_path):
    # 60x60 with two flows: the solver takes seconds on it, and q must not wait for it.
    size = 60
    rows = ["." * size for _ in range(size)]
    rows[0] = "A" + "." * (size - 2) + "B"
    rows[-1] = "B" + "." * (size - 2) + "A"
    board = tmp_path / "big.txt"
    board.write_text("\n".join(rows) + "\n")
    game = games(str(board), rows=size + 10, cols=2 * size + 20)
    game.wait_text("flows: 0/2")
    game.press("a")
    game.wait_text("solving")
    started = time.monotonic()
    game.press("q")
    assert game.exit_status() == 0
    assert time.monotonic() - started < 1.5
