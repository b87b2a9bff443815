"""Where the live bot keeps the screenshots it could not handle: one per-user cache folder by the
platform's convention, or the folder `--artifacts DIR` names; made when missing, at the first picture."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from flowbot.errors import OutputFileError


def default_folder(
    environ: Mapping[str, str] | None = None, platform: str | None = None, home: Path | None = None
) -> Path:
    """The per-user cache folder for failure pictures: `%LOCALAPPDATA%\\flowbot\\Cache` on Windows,
    `~/Library/Caches/flowbot` on macOS, `$XDG_CACHE_HOME/flowbot` (default `~/.cache/flowbot`) elsewhere."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    home = Path.home() if home is None else home
    if platform == "win32":
        base = environ.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return Path(base) / "flowbot" / "Cache"
    if platform == "darwin":
        return home / "Library" / "Caches" / "flowbot"
    # The XDG rule: a relative $XDG_CACHE_HOME is invalid and ignored.
    xdg = environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else home / ".cache") / "flowbot"


def artifacts_folder(given: str | os.PathLike[str] | None) -> Path:
    """The folder `--artifacts` names, or the default one when it names none."""
    return Path(given) if given is not None else default_folder()


def save_failure_picture(folder: Path, name: str, png: bytes) -> Path:
    """Write `flowbot-NAME-YYYYmmdd-HHMMSS.png` into `folder` (made, with its parents, when missing);
    OutputFileError names the folder when it cannot be made or written."""
    from flowbot.formats import atomic_write_bytes

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFileError(
            f"{folder}: cannot make the folder for failure screenshots: {error.strerror}"
        ) from None
    path = folder / f"flowbot-{name}-{time.strftime('%Y%m%d-%H%M%S')}.png"
    atomic_write_bytes(path, png)
    return path
