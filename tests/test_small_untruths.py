"""What the messages and the manual say is what the program does: pack names, scrape's refusals, the
status of a bad `--rules`, solve's `error` key, the hardest level's progress, the environment
variables, where a message sends the reader, and the live summary's `stopped`."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest

from flowbot.act.plan import PointerSettings
from flowbot.cli import main
from flowbot.errors import UsageError
from flowbot.generate.levels import make_level
from flowbot.modes.auto_clear import AutoClear
from flowbot.modes.scrape import PackFolder, scrape
from flowbot.profiles import check_name
from flowbot.progress import Progress
from tests.simulated_game import SimulatedGame

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)


@pytest.fixture(scope="module")
def levels():
    """Three small generated levels."""
    return [make_level(size, size, size, random.Random(size)).puzzle for size in (5, 6, 7)]


def loop_on(game: SimulatedGame, tmp_path, count: int | None = None) -> AutoClear:
    """The live loop on the in-process game, with short waits."""
    return AutoClear(game, game, FAST, None, count, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.2)  # fmt: skip


def page(name: str) -> str:
    """A page of the manual as text."""
    return (DOCS / name).read_text(encoding="utf-8")


def table_row(text: str, key: str) -> str:
    """The first table row of `text` whose first cell is `key` (in backquotes)."""
    found = re.search(rf"^\| `{re.escape(key)}` \|(.*)$", text, re.M)
    assert found, f"no row for `{key}`"
    return found.group(1)


def test_a_pack_name_that_starts_with_a_dot_is_refused_by_the_rule_the_message_and_page_state():
    with pytest.raises(UsageError, match="starting with a letter or digit") as refused:
        check_name(".hidden", "pack")
    assert "'.', '-' and '_'" in str(refused.value)  # every character of it is allowed: the start is not
    assert "starting with a letter or digit" in page("guarantees.md")
    assert check_name("a.hidden", "pack") == "a.hidden"


def test_a_file_in_a_pack_s_way_is_named_without_a_force_scrape_lacks(levels, tmp_path):
    scrape(loop_on(SimulatedGame(levels), tmp_path), PackFolder.open(tmp_path / "pack", "mini", False), 1,
           keep_images=True, progress=Progress(0, "test", enabled=False))  # fmt: skip
    (tmp_path / "pack" / "002.png").write_bytes(b"left by a run whose 002.json never came")
    folder = PackFolder.open(tmp_path / "pack", "mini", resume=True)
    quiet = Progress(0, "test", enabled=False)
    summary = scrape(loop_on(SimulatedGame(levels), tmp_path), folder, 2, keep_images=True, progress=quiet)
    assert summary.failed == 1 and "002.png: already exists" in summary.stopped
    assert "--force" not in summary.stopped and "--resume" in summary.stopped
    assert main(["scrape", "--force"]) == 64  # scrape has no --force to suggest


def test_a_bad_rules_is_a_command_line_error_in_both_commands(capsys):
    assert main(["auto-clear", "--numbermatch", "--rules", "bogus=1"]) == 64
    assert main(["auto-clear", "--numbermatch", "--rules", "diagonals=maybe"]) == 64
    assert "--rules: diagonals='maybe'" in capsys.readouterr().err
    assert main(["game", "--numbermatch", "--rules", "bogus=1"]) == 64
    statuses = page("commands/auto-clear.md").split("## Exit statuses", 1)[1]
    assert re.search(r"\b64\b[^;]*`--rules`", statuses), "auto-clear's page: 64 for a bad --rules"


def test_solve_json_has_an_error_key_exactly_when_its_page_says(tmp_path, capsys):
    files = {"good": "ABC\n...\nABC\n", "unsolvable": "A.B\n...\nB.A\n", "bad": "A.\n..\n"}
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text(text)
    main(["solve", "--json", *(str(tmp_path / f"{name}.txt") for name in files)])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [record["status"] for record in records] == ["solved", "unsolvable", "error"]
    for record in records:
        assert ("error" in record) == (record["status"] == "error"), record
    row = table_row(page("commands/solve.md").split("## JSON", 1)[1], "error")
    assert "only when the puzzle could not be read" in row and "unsolvable" in row


def test_the_hardest_level_s_progress_never_goes_down(monkeypatch, capsys):
    from flowbot.generate import optimize
    from flowbot.generate.optimize import Candidate
    from flowbot.modes import generate

    real = optimize.hardest
    # The second candidate is better by what the optimizer maximizes, though its difficulty is lower.
    better = [Candidate((), (), difficulty=9.0, score=10.0), Candidate((), (), difficulty=8.0, score=11.0)]

    def rising(rows, cols, colors, seed, total, workers, report, *, index, rated):
        for done, best in enumerate(better, 1):
            report(done, best)
            rated(done)
        return real(rows, cols, colors, seed, total, workers, index=index)

    monkeypatch.setattr(generate, "PROGRESS_EVERY", 0.0)  # a line after every candidate
    monkeypatch.setattr(optimize, "hardest", rising)
    size = ["--size", "5x5", "--iterations", "2", "--seed", "1", "--workers", "1"]
    assert main(["generate", "--hardest", *size]) == 0
    shown = [float(value) for value in re.findall(r"so far ([\d.]+)", capsys.readouterr().err)]
    assert shown[:2] == [10.0, 11.0] and shown == sorted(shown)


def _quoted_environment_variables() -> set[str]:
    """Every FLOWBOT_* name flowbot's source holds as a string: the environment variables it reads."""
    names = set()
    for path in (ROOT / "flowbot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                names |= set(re.findall(r"\bFLOWBOT_[A-Z_]+\b", node.value))
    return names


def test_every_environment_variable_flowbot_reads_is_in_the_manual():
    manual = "\n".join(path.read_text(encoding="utf-8") for path in DOCS.rglob("*.md"))
    names = _quoted_environment_variables()
    assert "FLOWBOT_SHARED" in names
    missing = sorted(name for name in names if name not in manual)
    assert not missing, f"not in docs/: {', '.join(missing)}"


def _messages() -> list[tuple[str, str]]:
    """(file, text) for every string in flowbot's source, f-strings' literal parts joined."""
    found = []
    for path in (ROOT / "flowbot").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                found.append((str(path.relative_to(ROOT)), node.value))
    return found


def test_no_message_sends_the_reader_to_the_readme_and_every_page_it_names_has_that_heading():
    problems = []
    for where, text in _messages():
        if "README" in text:
            problems.append(f"{where}: {text!r} (the README is the front door; help lives in docs/)")
        for name, heading in re.findall(r"docs/([\w/-]+\.md)(?:, '([^']+)')?", text):
            target = DOCS / name
            if not target.exists():
                problems.append(f"{where}: {text!r}: docs/{name} does not exist")
            elif heading and not re.search(rf"^#+ {re.escape(heading)}$", target.read_text(), re.M):
                problems.append(f"{where}: {text!r}: docs/{name} has no heading {heading!r}")
    assert not problems, "\n".join(problems)


def test_the_live_summary_s_stopped_is_what_its_page_says(levels, tmp_path):
    report = loop_on(SimulatedGame(levels[:2]), tmp_path, count=1).run()
    assert report.cleared == 1 and report.stopped == "1 level(s) done"  # a normal end: never null
    flow = page("commands/auto-clear.md").split("## JSON", 1)[1].split("With `--numbermatch`", 1)[0]
    row = table_row(flow, "stopped")
    assert "or null" not in row and "level(s) done" in row
