"""The manual, `--help` and the program agree: every command has a page in docs/commands/ whose Flags
table names exactly the flags its parser has, every command line in the README and the manual names
only flags its command has, every JSON output's keys are the ones its page lists, and every link in
the manual leads somewhere."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flowbot.cli import build_parser, main
from flowbot.commands import commands

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = DOCS / "commands"
# CI and the brief run these two lines as they are: the README opens with them, byte for byte.
FIRST_COMMANDS = (
    "```sh\n"
    "bash scripts/bootstrap && .venv/bin/flowbot demo\n"
    "bash scripts/bootstrap && .venv/bin/python -m ruff check . && .venv/bin/python -m pytest -q\n"
    "```\n"
)
README_MAX_LINES = 250
FLAG = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each command's parser by name ('flowbot' for the global flags); a command that parses its own
    arguments (`flowbot game`) gives its own parser."""
    parsers: dict[str, argparse.ArgumentParser] = {"flowbot": build_parser()}
    for module in commands():
        if getattr(module, "RAW", False):
            parsers[module.NAME] = module.build_parser()
        else:
            parser = argparse.ArgumentParser(prog=f"flowbot {module.NAME}")
            module.add_arguments(parser)
            parsers[module.NAME] = parser
    return parsers


def parser_flags(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string a parser takes, -h/--help and subcommands aside."""
    return {
        option
        for action in parser._actions
        if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
        for option in action.option_strings
    }


def page_section(name: str, title: str) -> str:
    """The text of one `## title` section of a command's page ('' when it has none)."""
    text = (PAGES / f"{name}.md").read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return found.group(1) if found else ""


def table_first_column(section: str) -> list[str]:
    """The first cell of each row of the section's tables, header and rule rows left out."""
    cells = []
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells.append(line.split("|")[1].strip())
    return [cell for cell in cells if cell not in ("flag", "key", "argument")]


def documented_flags(name: str) -> set[str]:
    """The flags the Flags table of a command's page names."""
    return {flag for cell in table_first_column(page_section(name, "Flags")) for flag in FLAG.findall(cell)}


def documented_keys(name: str, table: int = 0) -> set[str]:
    """The keys in the `table`-th table of the JSON section of a command's page."""
    section = page_section(name, "JSON")
    tables = re.findall(r"(?:^\|.*\n?)+", section, re.M)
    assert len(tables) > table, f"docs/commands/{name}.md: no JSON table number {table + 1}"
    return {cell.strip("`") for cell in table_first_column(tables[table])}


PARSERS = command_parsers()


def test_every_command_has_a_page_and_every_page_a_command():
    pages = {path.stem for path in PAGES.glob("*.md")}
    missing = sorted(set(PARSERS) - pages)
    assert not missing, f"commands with no page: {', '.join(f'docs/commands/{name}.md' for name in missing)}"
    stray = sorted(pages - set(PARSERS))
    assert not stray, f"pages for no command: {', '.join(f'docs/commands/{name}.md' for name in stray)}"


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_a_commands_page_names_exactly_its_flags(name):
    page = f"docs/commands/{name}.md"
    assert page_section(name, "Flags"), f"{page}: no '## Flags' section"
    has, documented = parser_flags(PARSERS[name]), documented_flags(name)
    problems = [
        f"{page}: the Flags table lacks {flag} (in `flowbot {name} --help`)"
        for flag in sorted(has - documented)
    ]
    problems += [
        f"{page}: the Flags table names {flag}, which `flowbot {name}` does not have"
        for flag in sorted(documented - has)
    ]
    assert not problems, "\n".join(problems)


def manual_files() -> list[Path]:
    """The README and every page of the manual."""
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


# `flowbot CMD ...` as typed: in a shell block, or one code span in prose.
COMMAND_LINE = re.compile(r"(?:^|[\s`(])(?:\.venv/bin/)?(?:python -m )?flowbot((?: [^`\n#|]*)?)")


def command_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text after `flowbot`) for each command line in a file: every line of a `sh`
    block, and each code span of prose."""
    found = []
    in_shell = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            in_shell = line.strip() == "```sh" and not in_shell
            continue
        pieces = [line.split("  #")[0]] if in_shell else re.findall(r"`([^`]+)`", line)
        for piece in pieces:
            for match in COMMAND_LINE.finditer(piece):
                found.append((number, match.group(1)))
    return found


def test_every_command_line_in_the_manual_names_only_flags_its_command_has():
    problems = []
    global_flags = parser_flags(PARSERS["flowbot"])
    for path in manual_files():
        where = path.relative_to(ROOT)
        for number, rest in command_lines(path):
            words = rest.split()
            while words and words[0].startswith("-"):
                words.pop(0)  # global flags such as -v
            if not words or not re.fullmatch(r"[a-z][a-z-]*", words[0]):
                continue  # `flowbot` alone, or the program named in prose
            name, tail = words[0], " ".join(words[1:])
            if name not in PARSERS:
                problems.append(f"{where}:{number}: `flowbot {name}` is not a command")
                continue
            known = parser_flags(PARSERS[name]) | global_flags | {"--help"}
            problems += [
                f"{where}:{number}: `flowbot {name}` has no {flag}"
                for flag in FLAG.findall(tail)
                if flag.startswith("--") and flag not in known
            ]
    assert not problems, "\n".join(problems)


def test_the_readme_is_the_front_door():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.startswith(FIRST_COMMANDS), "README.md must open with the two commands, byte for byte"
    lines = len(text.splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; the manual (docs/) holds the rest"


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_in_the_manual_leads_to_a_page_and_heading():
    problems = []
    for path in manual_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"[a-z]+:", target):
                    continue  # a web address
                file_part, _, anchor = target.partition("#")
                linked = (path.parent / file_part).resolve() if file_part else path
                where = f"{path.relative_to(ROOT)}:{number}"
                if not linked.exists():
                    problems.append(f"{where}: {target} does not exist")
                    continue
                if anchor and linked.suffix == ".md":
                    headings = re.findall(r"^#+ (.+)$", linked.read_text(encoding="utf-8"), re.M)
                    if anchor not in {slug(heading) for heading in headings}:
                        problems.append(f"{where}: {target}: no heading with that anchor")
    assert not problems, "\n".join(problems)


def run_json(capsys, *args) -> list[dict]:
    """Run `flowbot` in-process and decode each line it printed."""
    main([str(arg) for arg in args])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def keys_of(records: list[dict]) -> set[str]:
    """Every top-level key the records hold."""
    return {key for record in records for key in record}


def assert_keys(name: str, records: list[dict], table: int = 0) -> None:
    """The keys the records hold are exactly the ones the command's page lists."""
    seen, listed = keys_of(records), documented_keys(name, table)
    page = f"docs/commands/{name}.md"
    assert not seen - listed, f"{page}: the JSON table lacks {', '.join(sorted(seen - listed))}"
    assert not listed - seen, f"{page}: the JSON table lists {', '.join(sorted(listed - seen))}, not seen"


@pytest.fixture
def boards(tmp_path) -> dict[str, Path]:
    """A solvable puzzle, one with no solution, an unreadable file, a screenshot and a Shapes board."""
    from flowbot.formats import puzzle_json_text
    from flowbot.model import Puzzle
    from tests.images import draw_board, png_bytes

    good = Puzzle.from_rows(["ABC", "...", "ABC"])
    files = {
        "good": tmp_path / "good.txt",
        "unsolvable": tmp_path / "unsolvable.txt",
        "bad": tmp_path / "bad.txt",
        "shot": tmp_path / "shot.png",
    }
    files["good"].write_text("ABC\n...\nABC\n")
    files["unsolvable"].write_text("A.B\n...\nB.A\n")
    files["bad"].write_text("A.\n..\n")
    files["shot"].write_bytes(png_bytes(draw_board(good, cell=60)))
    files["shapes"] = tmp_path / "shapes.json"  # a Shapes board: cells joined by their own links
    files["shapes"].write_text(
        puzzle_json_text(Puzzle.from_shapes("A.AB.B", [(0, 1), (1, 2), (3, 4), (4, 5)]))
    )
    return files


def test_solve_json_keys_are_listed(boards, capsys):
    records = run_json(capsys, "solve", "--json", "--unique", boards["good"], boards["bad"], boards["shapes"])
    assert_keys("solve", records)


def test_rate_json_keys_are_listed(boards, capsys):
    records = run_json(capsys, "rate", "--json", "--steps", boards["good"], boards["unsolvable"])
    assert_keys("rate", records)


def test_hint_json_keys_are_listed(boards, capsys, tmp_path):
    records = run_json(capsys, "hint", "--json", boards["good"])
    records += run_json(capsys, "hint", "--json", boards["shot"], "--picture", tmp_path / "hint.png")
    assert_keys("hint", records)


def test_generate_json_keys_are_listed(capsys):
    assert_keys("generate", run_json(capsys, "generate", "--json", "--size", "5x5", "--seed", "1"))
    variant = run_json(capsys, "generate", "--json", "--variant", "hexes", "--size", "5x5", "--seed", "1")
    assert_keys("generate", variant, table=1)


def numbermatch_screenshot() -> bytes:
    """A PNG of the bundled Number Match game's first board."""
    pygame = pytest.importorskip("pygame")
    import random

    import cv2

    from flowbot.game.numbermatch import NumberMatchView
    from flowbot.game.render import surface_to_bgr
    from flowbot.numbermatch.game import NumberMatchGame

    game = NumberMatchGame(random.Random(11))
    pygame.font.init()
    surface = pygame.Surface((540, 960))
    NumberMatchView(game, (540, 960)).draw(surface)
    return cv2.imencode(".png", surface_to_bgr(surface))[1].tobytes()


def test_numbermatch_json_keys_are_listed(tmp_path, capsys):
    (tmp_path / "boards.txt").write_text("123456789\n987654321\n\n1\n")
    (tmp_path / "shot.png").write_bytes(numbermatch_screenshot())
    records = run_json(capsys, "numbermatch", "--json", tmp_path / "boards.txt", tmp_path / "shot.png")
    records += run_json(capsys, "numbermatch", "--json", "--best", "--timeout", "5", tmp_path / "boards.txt")
    (tmp_path / "bad.txt").write_text("12345678x\n")
    records += run_json(capsys, "numbermatch", "--json", tmp_path / "bad.txt")
    assert_keys("numbermatch", records)


def test_serve_answer_keys_are_listed(boards):
    from flowbot.serve.service import analyse

    answers = [analyse(boards["shot"].read_bytes(), "shot.png"), analyse(numbermatch_screenshot(), "nm.png")]
    assert [answer["game"] for answer in answers] == ["flow", "numbermatch"]
    assert_keys("serve", answers)


def test_game_results_keys_are_listed():
    from flowbot.game.session import LevelResult

    lines = [LevelResult(1, ("AB", "AB"), True, 2, 1.5).to_json()]
    lines.append(LevelResult(2, ("A.A",), False, 0, 0.5, "hexes").to_json())
    lines.append(LevelResult(3, ("AB", "AB"), False, 0, 0.5, left_by="skip arrow >").to_json())
    lines.append(LevelResult(4, ("A..A",), True, 1, 0.5, "shapes", shape="ring", links=((0, 1),)).to_json())
    assert_keys("game", [json.loads(line) for line in lines])


@pytest.fixture(scope="module")
def blank_display():
    """An empty virtual screen of the test's own."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    from tests.live_display import virtual_screen

    with virtual_screen(800, 600):
        yield


def live_run(*args: str) -> tuple[int, dict]:
    """The exit status and the one JSON line of a live command on the empty screen (it stops: no board
    there)."""
    completed = subprocess.run(
        [sys.executable, "-m", "flowbot", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )
    (line,) = completed.stdout.splitlines()  # with --json, stdout is the JSON line alone
    return completed.returncode, json.loads(line)


def test_live_json_keys_are_listed_and_a_run_that_stops_short_exits_4(blank_display, tmp_path):
    """Flow's and Number Match's live bots both stop short with status 4 (the guarantees page's), not
    the fail-safe's 10."""
    code, summary = live_run("auto-clear", "--dry-run", "--count", "1", "--artifacts", str(tmp_path))
    assert code == 4
    assert_keys("auto-clear", [summary])
    code, summary = live_run("auto-clear", "--numbermatch", "--count", "1")
    assert code == 4
    assert_keys("auto-clear", [summary], table=1)
    code, summary = live_run("screens", "--no-probe")
    assert code == 0
    assert_keys("screens", [summary])
