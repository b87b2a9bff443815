"""Calibration profiles: what flowbot needs to know about one game window, saved as versioned JSON."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from flowbot.act.plan import PointerSettings
from flowbot.capture.screen import Region
from flowbot.errors import FormatError, InputFileError, UsageError

PROFILE_SCHEMA_VERSION = 1
ADVANCES = ("dialog", "instant", "arrow")


@dataclass(frozen=True, slots=True)
class Profile:
    """One game's settings: where its window is, how to draw on it, how levels advance."""

    name: str
    region: Region | None = None  # the game window on screen; None: search the whole screen
    rows: int | None = None  # the grid size seen when calibrating (a check, not a constraint)
    cols: int | None = None
    next_button: tuple[int, int] | None = None  # where "next level" was, when it cannot be found
    arrow_button: tuple[int, int] | None = None  # the game's "skip to next level" arrow, if any
    advance: str = "dialog"  # dialog: click next level; instant: the next level loads by itself; arrow
    pointer: PointerSettings = field(default_factory=PointerSettings)
    notes: str = ""

    def to_json(self) -> dict:
        """The profile as the JSON object saved in calibration/NAME.json."""
        return {
            "schema_version": PROFILE_SCHEMA_VERSION,
            "name": self.name,
            "region": list(asdict(self.region).values()) if self.region else None,
            "grid": {"rows": self.rows, "cols": self.cols} if self.rows else None,
            "next_button": list(self.next_button) if self.next_button else None,
            "arrow_button": list(self.arrow_button) if self.arrow_button else None,
            "advance": self.advance,
            "pointer": asdict(self.pointer),
            "notes": self.notes,
        }


def check_name(name: str) -> str:
    """A profile name is a file name: letters, digits, dot, dash, underscore."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name):
        raise UsageError(f"profile name {name!r}: use letters, digits, '.', '-' and '_' only")
    return name


def profile_path(name: str, folder: Path | None = None) -> Path:
    """Where a profile lives: calibration/NAME.json in the working folder, else in flowbot's own checkout."""
    check_name(name)
    if folder is not None:
        return folder / f"{name}.json"
    local = Path("calibration") / f"{name}.json"
    if local.exists():
        return local
    shipped = Path(__file__).resolve().parents[1] / "calibration" / f"{name}.json"
    return shipped if shipped.exists() else local


def load_profile(name: str, folder: Path | None = None) -> Profile:
    """Read calibration/NAME.json; errors name the file and what is wrong."""
    path = profile_path(name, folder)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputFileError(
            f"{path}: no such profile (make one with `flowbot calibrate --name {name}`)"
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FormatError(f"{path}: not a readable profile: {error}") from None
    try:
        return profile_from_json(data)
    except (KeyError, TypeError, ValueError) as error:
        raise FormatError(f"{path}: {error}") from None


def profile_from_json(data: object) -> Profile:
    """Build a Profile from its JSON object (ValueError/TypeError/KeyError name the problem)."""
    if not isinstance(data, dict):
        raise TypeError("a profile is a JSON object")
    version = data.get("schema_version")
    if version != PROFILE_SCHEMA_VERSION:
        raise ValueError(f"schema_version {version!r} is not {PROFILE_SCHEMA_VERSION}")
    region = data.get("region")
    grid = data.get("grid") or {}
    advance = data.get("advance", "dialog")
    if advance not in ADVANCES:
        raise ValueError(f"advance {advance!r} is not one of {', '.join(ADVANCES)}")
    pointer = PointerSettings(**data.get("pointer", {}))
    return Profile(
        name=check_name(str(data["name"])),
        region=Region(*(int(value) for value in region)) if region else None,
        rows=grid.get("rows"),
        cols=grid.get("cols"),
        next_button=_point(data.get("next_button")),
        arrow_button=_point(data.get("arrow_button")),
        advance=advance,
        pointer=pointer,
        notes=str(data.get("notes", "")),
    )


def save_profile(profile: Profile, folder: Path = Path("calibration")) -> Path:
    """Write calibration/NAME.json atomically; returns the path."""
    from flowbot.formats import atomic_write_text, make_folder

    make_folder(folder)
    path = folder / f"{check_name(profile.name)}.json"
    atomic_write_text(path, json.dumps(profile.to_json(), indent=2) + "\n")
    return path


def save_tuned(profile: Profile, settings: PointerSettings) -> Path:
    """Save the profile again, where it was read from, with pointer settings self-tuning found."""
    from dataclasses import replace

    if profile.pointer == settings:
        return profile_path(profile.name)
    return save_profile(replace(profile, pointer=settings), profile_path(profile.name).parent)


def _point(value: object) -> tuple[int, int] | None:
    """An [x, y] pair, or None."""
    if value is None:
        return None
    x, y = value  # type: ignore[misc]
    return int(x), int(y)
