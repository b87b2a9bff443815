"""The README's front matter: its picture is near the top, committed, small, and exactly what
scripts/make_readme_picture.py makes from the bundled pack; the phone section comes before the
live bot's first five minutes."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SCRIPT = ROOT / "scripts" / "make_readme_picture.py"
MAX_BYTES = 60 * 1024


def readme() -> str:
    """The README as text."""
    return README.read_text(encoding="utf-8")


def picture_path() -> Path:
    """The one picture the README shows, from its Markdown image link."""
    found = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme())
    assert len(found) == 1, f"README.md shows {len(found)} pictures; it has one"
    return ROOT / found[0]


def picture_script():
    """scripts/make_readme_picture.py as a module."""
    spec = importlib.util.spec_from_file_location("make_readme_picture", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_shows_its_picture_before_the_install_steps():
    text = readme()
    assert text.index("![") < text.index("## Install"), "the picture is near the top"
    assert picture_path() == picture_script().PICTURE


def test_the_picture_is_committed_small_and_a_png():
    picture = picture_path()
    data = picture.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < MAX_BYTES, f"{picture.name} is {len(data)} bytes; keep it under {MAX_BYTES}"
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(["git", "check-ignore", "-q", str(picture)], cwd=ROOT, check=False)
    assert ignored.returncode == 1, f"{picture} is ignored by git: the README would show nothing"


def test_the_script_makes_the_committed_picture_from_the_bundled_pack():
    pytest.importorskip("pygame")
    made = picture_script().picture_bytes()
    assert made == picture_path().read_bytes(), "run scripts/make_readme_picture.py and commit the picture"
    assert "shared" not in SCRIPT.read_text(encoding="utf-8"), "the picture comes from the package alone"


def test_the_phone_section_names_both_phones_and_the_page_before_the_live_bot_s_first_minutes():
    text = readme()
    start, end = text.index("## On your phone"), text.index("## The live bot: the first five minutes")
    assert start < end
    section = text[start:end]
    for needed in ("Android", "scrcpy", "USB debugging", "iPhone", "QuickTime", "flowbot auto-clear",
                   "flowbot serve"):  # fmt: skip
        assert needed in section, f"README.md's 'On your phone' lacks {needed!r}"
