"""The wheel carries everything a command needs: built offline, installed into a fresh venv, and run from
an empty folder (no checkout beside it), each command a user meets first works as from the checkout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.serve_helpers import _ADDRESS, RunningServer, post_image, request
from tests.test_docs import documented_keys

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOT = SHARED / "screenshots" / "JoSSte__pyFlowfreeSolver__s21_screen_05_05.jpg"
NUMBERMATCH = SHARED / "numbermatch" / "screenshots"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv holding only the built wheel of this checkout; its dependencies come from the
    running venv's site-packages through a path file, so nothing is downloaded."""
    try:
        import setuptools
    except ImportError:
        pytest.skip("setuptools is not installed (pip install -e '.[test]')")
    if tuple(int(part) for part in setuptools.__version__.split(".")[:2]) < (70, 1):
        pytest.skip(f"setuptools {setuptools.__version__} cannot build a wheel by itself (70.1 or later)")
    base = tmp_path_factory.mktemp("wheel")
    wheels = base / "dist"
    # A copy of the checkout: the build's scratch folders (build/, *.egg-info) stay out of the repository.
    source = base / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__", ".*cache"),
    )
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            wheels,
            source,
        ]
    )
    (wheel,) = wheels.glob("flowbot-*.whl")
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel])
    fresh = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).strip())
    # Appended after the fresh venv's own site-packages: the wheel's flowbot is found first.
    (fresh / "flowbot-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return venv


@pytest.fixture
def empty_folder(tmp_path) -> Path:
    """An empty working folder, away from the checkout."""
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


def flowbot(
    venv: Path, folder: Path, *args: str, timeout: float = 300, **env: str
) -> subprocess.CompletedProcess:
    """Run the installed `flowbot` in `folder`, with nothing of the checkout on the path."""
    environment = {
        key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "FLOWBOT_SHARED")
    }
    environment.update(env)
    return subprocess.run(
        [venv / "bin" / "flowbot", *args],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def test_the_installed_package_is_the_wheel_not_the_checkout(installed, empty_folder):
    """The fresh venv imports flowbot from its own site-packages (else the other tests prove nothing)."""
    where = subprocess.run(
        [installed / "bin" / "python", "-c", "import flowbot; print(flowbot.__file__)"],
        cwd=empty_folder,
        capture_output=True,
        text=True,
        check=True,
        env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
    ).stdout
    assert Path(where).resolve().is_relative_to(installed.resolve()), where


def test_the_wheel_carries_the_bundled_profile_packs_and_page(installed, empty_folder):
    """The bundled game's profile loads from the wheel, and the packs and page files are in it."""
    result = flowbot(installed, empty_folder, "game", "--list-packs")
    assert result.returncode == 0, result.stderr
    assert "5x5" in result.stdout
    code = (
        "from flowbot.profiles import load_profile; from flowbot.serve import app; from pathlib import Path; "
        "print(load_profile('flowbot-game').name); "
        "print(sorted(p.name for p in (Path(app.__file__).parent / 'page').iterdir()))"
    )
    shown = subprocess.run(
        [installed / "bin" / "python", "-c", code], cwd=empty_folder, capture_output=True, text=True
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0] == "flowbot-game"
    assert "index.html" in shown.stdout


def test_demo_runs_from_the_wheel(installed, empty_folder):
    """`flowbot demo` finds the bundled game's profile from any folder (it once said "no such profile")."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    environment = {"DISPLAY": ""}
    result = flowbot(installed, empty_folder, "demo", "--levels", "1", "--json", timeout=600, **environment)
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.splitlines()  # with --json, stdout is the JSON line alone
    figures = json.loads(line)
    assert figures["solved_by_game"] == figures["levels"] == 1, figures
    assert set(figures) == documented_keys("demo"), "docs/commands/demo.md: its JSON table and demo disagree"


def test_solve_a_screenshot_from_the_wheel(installed, empty_folder):
    """`flowbot solve SHOT` reads and solves a screenshot."""
    if not SCREENSHOT.is_file():
        pytest.skip(f"{SCREENSHOT} is not present")
    result = flowbot(installed, empty_folder, "solve", "--json", str(SCREENSHOT))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[0])["status"] == "solved"


def test_numbermatch_a_screenshot_from_the_wheel(installed, empty_folder):
    """`flowbot numbermatch SHOT` reads a Number Match screenshot."""
    shots = sorted(NUMBERMATCH.glob("*.jpg")) if NUMBERMATCH.is_dir() else []
    if not shots:
        pytest.skip(f"no screenshots in {NUMBERMATCH}")
    result = flowbot(installed, empty_folder, "numbermatch", "--json", "--timeout", "20", str(shots[0]))
    assert result.returncode in (0, 1), result.stderr
    record = json.loads(result.stdout.splitlines()[0])
    assert record.get("error") is None, record


def test_serve_answers_one_upload_from_the_wheel(installed, empty_folder):
    """`flowbot serve` serves its page from the wheel and answers one screenshot upload."""
    if not SCREENSHOT.is_file():
        pytest.skip(f"{SCREENSHOT} is not present")
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    environment["PYTHONUNBUFFERED"] = "1"
    process = subprocess.Popen(
        [installed / "bin" / "flowbot", "serve", "--port", "0", "--workers", "1"],
        cwd=empty_folder,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()  # the first line names the address; blocks until the server is up
    found = _ADDRESS.search(line)
    if found is None:
        process.kill()
        raise AssertionError(f"flowbot serve did not start: {line}{process.communicate()}")
    server = RunningServer(process, found.group(1))
    try:
        status, page, _ = request(server, "GET", "/")
        assert status == 200 and b"<html" in page.lower()
        status, answer = post_image(server, SCREENSHOT.read_bytes(), SCREENSHOT.name)
        assert status == 200, answer
        assert answer["puzzle"]
    finally:
        code, _, err = server.stop()
    assert code == 143, err  # SIGTERM, as from the checkout


def _run(command: list) -> str:
    """Run a build step; its output on failure."""
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True)
    assert result.returncode == 0, f"{command}: {result.stdout}{result.stderr}"
    return result.stdout


def test_what_a_run_learns_about_a_shipped_profile_goes_to_the_users_copy(tmp_path, monkeypatch):
    """The shipped profile is never written to (an installed package may be read-only): a learned next
    button is saved to calibration/ in the working folder, which is read first from then on."""
    from flowbot.profiles import SHIPPED_PROFILES, load_profile, profile_path, update_profile

    monkeypatch.chdir(tmp_path)
    shipped = (SHIPPED_PROFILES / "flowbot-game.json").read_bytes()
    path = update_profile(load_profile("flowbot-game"), next_button=(12, 34))
    assert path.resolve() == (tmp_path / "calibration" / "flowbot-game.json").resolve()
    assert (SHIPPED_PROFILES / "flowbot-game.json").read_bytes() == shipped
    assert profile_path("flowbot-game").resolve() == path.resolve()
    assert load_profile("flowbot-game").next_button == (12, 34)
