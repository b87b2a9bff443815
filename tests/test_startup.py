"""Start-up: `flowbot solve` on a text puzzle loads only what a text puzzle needs, and the command line
that names one command builds that command's parser alone, with help as wide as before."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flowbot.cli import HelpFormatter, main

REPOSITORY = Path(__file__).resolve().parents[1]

# Never needed to solve a text puzzle: the screen, image and display libraries, the SAT solver's C
# module (a 5x5 is searched), and standard modules only writing, folders, JSON or the type checker use.
NOT_FOR_A_TEXT_SOLVE = (
    "cv2", "numpy", "pygame", "mss", "pyautogui", "PIL", "aiohttp", "pysolvers", "pysat",
    "shutil", "secrets", "json", "typing", "pathlib", "flowbot.capture", "flowbot.commands.auto_clear",
)  # fmt: skip


def _modules_after(argv: list[str] | None, cwd: Path) -> set[str]:
    """The modules a fresh `flowbot ARGV` process has loaded when it is done (the worktree's flowbot);
    with no ARGV, those of the bare interpreter in the same environment."""
    run = "code = 0\n" if argv is None else f"from flowbot.cli import main\ncode = main({argv!r})\n"
    listing = "sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n')\n"
    code = f"import sys\n{run}{listing}sys.exit(code)\n"
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=environment, capture_output=True, text=True, timeout=60
    )
    assert done.returncode in (0, 1), done.stderr  # 1: a puzzle without a solution
    listed = done.stderr.rpartition("\nMODULES ")[2]
    return set(listed.split())


def test_solving_a_text_puzzle_loads_no_library_it_does_not_need(tmp_path):
    puzzle = tmp_path / "level.txt"
    puzzle.write_text("R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n")
    # What the interpreter loads before flowbot runs (site, .pth files such as an editable
    # install's finder) is not flowbot's doing.
    loaded = _modules_after(["solve", str(puzzle)], tmp_path) - _modules_after(None, tmp_path)
    assert "flowbot.solve.sat" in loaded  # the check looks at a real solve
    unneeded = sorted(
        name for name in loaded for top in NOT_FOR_A_TEXT_SOLVE if name == top or name.startswith(top + ".")
    )
    assert unneeded == []


def test_solve_makes_no_log_records_so_it_runs_without_logging(tmp_path):
    # `flowbot solve` declares LOGS = False, so the command line leaves logging unloaded: were a
    # module it runs to log, a warning would lose its "WARNING name:" prefix. Every kind of input
    # and outcome of a solve is run here, and none may load logging.
    from flowbot.commands import solve
    from flowbot.model import Puzzle
    from tests.images import draw_board, png_bytes

    assert solve.LOGS is False
    shot = tmp_path / "shot.png"
    shot.write_bytes(png_bytes(draw_board(Puzzle.from_rows(["A.B", "...", "A.B"]), cell=50)))
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "001.txt").write_text("AB\nAB\n")
    (folder / "notes.md").write_text("not a puzzle\n")
    (tmp_path / "cross.txt").write_text("A.B\n.#.\nB.A\n")
    bare = _modules_after(None, tmp_path)
    for argv in (
        ["solve", "--json", "--unique", str(folder), str(tmp_path / "cross.txt")],
        ["solve", str(shot), "--overlay", str(tmp_path / "seen.png")],
    ):
        assert "logging" not in _modules_after(argv, tmp_path) - bare, argv
    assert "logging" in _modules_after(["-v", "solve", str(folder)], tmp_path)


def test_a_command_line_naming_a_command_imports_that_command_alone(tmp_path):
    puzzle = tmp_path / "level.txt"
    puzzle.write_text("AB\nAB\n")
    loaded = _modules_after(["-v", "solve", str(puzzle)], tmp_path)
    commands = sorted(name for name in loaded if name.startswith("flowbot.commands."))
    assert commands == ["flowbot.commands.solve"]


@pytest.mark.parametrize("argv", [["solv"], ["auto_clear"]])
def test_a_word_that_is_no_command_still_lists_every_command(argv, capsys):
    assert main(argv) == 64
    err = capsys.readouterr().err
    assert f"invalid choice: '{argv[0]}'" in err
    assert "'auto-clear'" in err and "'serve'" in err and "'solve'" in err


@pytest.mark.parametrize("columns", ["57", "140"])
def test_help_is_as_wide_as_shutil_finds_the_terminal(columns, monkeypatch):
    monkeypatch.setenv("COLUMNS", columns)
    assert HelpFormatter("flowbot")._width == shutil.get_terminal_size().columns - 2


def test_help_without_columns_or_a_terminal_is_80_wide(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(sys, "__stdout__", None)  # no stdout at all (pythonw, a daemon)
    assert HelpFormatter("flowbot")._width == 78


def test_flowbot_s_own_options_take_no_value():
    # The command a line names is its first word that is no option; an option of flowbot's own that
    # took a value would have that value read as the command.
    from flowbot.cli import build_parser

    parser = build_parser()
    own = [action for action in parser._actions if action.option_strings]
    assert own and all(action.nargs == 0 for action in own), [action.option_strings for action in own]


def test_the_program_sets_its_lasting_objects_aside_from_the_collector(tmp_path, monkeypatch, capsys):
    import gc
    import tomllib

    from flowbot.__main__ import entry

    scripts = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["flowbot"] == "flowbot.__main__:entry"  # python -m flowbot runs the same entry
    puzzle = tmp_path / "level.txt"
    puzzle.write_text("AB\nAB\n")
    monkeypatch.setattr(sys, "argv", ["flowbot", "solve", str(puzzle)])
    try:
        assert entry() == 0
        assert gc.get_freeze_count() > 0  # the shutdown's collection has nothing left to walk
        assert gc.isenabled()  # paused only while the command line loaded
    finally:
        gc.unfreeze()
    assert "AB" in capsys.readouterr().out


def test_the_collector_makes_no_pass_while_the_command_line_loads(tmp_path):
    # Every object made while flowbot.cli and what it needs load lives as long as the process: a pass
    # of the collector then is wasted work. A pass is seen as one made while flowbot.cli is in
    # sys.modules but has no `main` yet.
    setup = (
        "import gc\n"
        "passes = []\n"
        "def seen(phase, info):\n"
        "    cli = sys.modules.get('flowbot.cli')\n"
        "    if phase == 'start' and cli is not None and not hasattr(cli, 'main'):\n"
        "        passes.append(info['generation'])\n"
        "gc.callbacks.append(seen)\n"
    )
    assert _after_entry(tmp_path, setup, "said = len(passes)\n") == "0"


def test_inspect_is_imported_only_when_something_reads_it(tmp_path):
    # dataclasses imports inspect (with ast, dis and tokenize) only to write missing docstrings: a
    # text solve never reads it, so the program puts it off. Whoever reads it later gets all of it.
    after = (
        "said = sorted(name for name in ('ast', 'dis', 'tokenize') if name in sys.modules)\n"
        "import dataclasses\n"
        "from inspect import signature\n"
        "import inspect\n"
        "assert str(signature(divmod)) == '(x, y, /)'\n"
        "assert dataclasses.inspect.getsource is inspect.getsource\n"
        "assert sys.modules['inspect'] is inspect and 'ast' in sys.modules\n"
    )
    assert _after_entry(tmp_path, "", after) == "[]"


def _after_entry(tmp_path: Path, before: str, after: str) -> str:
    """What a fresh process that runs `before`, then the program (`entry`) on a 2x2 text puzzle, then
    `after`, has in `said` (the worktree's flowbot)."""
    puzzle = tmp_path / "level.txt"
    puzzle.write_text("AB\nAB\n")
    code = (
        f"import sys\n{before}sys.argv = ['flowbot', 'solve', {str(puzzle)!r}]\n"
        f"from flowbot.__main__ import entry\ncode = entry()\n{after}"
        "sys.stderr.write(f'\\nSAID {said}\\n')\nsys.exit(code)\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr.rpartition("\nSAID ")[2].strip()
