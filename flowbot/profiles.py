"""Calibration profiles: what flowbot needs to know about one game window, saved as versioned JSON."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from flowbot.act.plan import PointerSettings
from flowbot.argtypes import POINTER_RANGES, Range, check_number, describe_value
from flowbot.capture.screen import Region
from flowbot.errors import FormatError, InputFileError, UsageError

PROFILE_SCHEMA_VERSION = 1
ADVANCES = ("dialog", "instant", "arrow")
PROFILE_MAX_BYTES = 1024 * 1024  # a profile is a few hundred bytes

# Screen positions and sizes: far beyond any screen (a 16K wall is 15360 wide), but finite.
COORDINATE_RANGE = Range(True, -100_000, 100_000)
SIDE_RANGE = Range(True, 1, 100_000)
GRID_RANGE = Range(True, 1, 200)


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


# Names Windows keeps for devices, whatever follows the first dot ("nul.json" is NUL too).
WINDOWS_DEVICES = frozenset(
    ["CON", "PRN", "AUX", "NUL"] + [f"{port}{n}" for port in ("COM", "LPT") for n in range(1, 10)]
)


def check_name(name: str, kind: str = "profile") -> str:
    """A profile (or pack) name is one file name: a letter or digit, then letters, digits, dot, dash,
    underscore (64 at most); never a path, never hidden, and on every system never one Windows cannot
    hold (a device name such as CON or NUL, a final dot), so profiles and packs move between machines."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name):
        raise UsageError(
            f"{kind} name {name!r}: use letters, digits, '.', '-' and '_' only, starting with a letter or "
            "digit (at most 64 characters)"
        )
    if name.endswith(".") or name.split(".")[0].upper() in WINDOWS_DEVICES:
        raise UsageError(f"{kind} name {name!r}: Windows cannot use it as a file name; choose another")
    return name


# Profiles that ship inside the package (the bundled game's), so a wheel install finds them too.
SHIPPED_PROFILES = Path(__file__).resolve().parent / "data" / "profiles"
USER_PROFILES = Path("calibration")


def profile_path(name: str, folder: Path | None = None) -> Path:
    """Where a profile lives: calibration/NAME.json in the working folder, else one flowbot ships."""
    check_name(name)
    if folder is not None:
        return folder / f"{name}.json"
    local = USER_PROFILES / f"{name}.json"
    if local.exists():
        return local
    shipped = SHIPPED_PROFILES / f"{name}.json"
    return shipped if shipped.exists() else local


def is_shipped(path: Path) -> bool:
    """True for a profile inside the installed package (never written to: it may be read-only)."""
    return path.resolve().parent == SHIPPED_PROFILES


def load_profile(name: str, folder: Path | None = None) -> Profile:
    """Read calibration/NAME.json; errors name the file, the field and what is wrong with it."""
    from flowbot.formats import read_input_bytes

    path = profile_path(name, folder)
    if not path.exists():
        raise InputFileError(f"{path}: no such profile (make one with `flowbot calibrate --name {name}`)")
    data = read_input_bytes(path, limit=PROFILE_MAX_BYTES)
    try:
        decoded = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise FormatError(f"{path}: not a readable profile: {error}") from None
    try:
        return profile_from_json(decoded)
    except (KeyError, TypeError, ValueError) as error:
        text = f"missing field {error}" if isinstance(error, KeyError) else str(error)
        raise FormatError(f"{path}: {text}") from None


def profile_from_json(data: object) -> Profile:
    """Build a Profile from its JSON object; ValueError/TypeError/KeyError name the field and the problem."""
    if not isinstance(data, dict):
        raise TypeError(f"a profile is a JSON object, got {describe_value(data)}")
    version = data.get("schema_version")
    if version != PROFILE_SCHEMA_VERSION or isinstance(version, bool):
        raise ValueError(f"schema_version {version!r} is not {PROFILE_SCHEMA_VERSION}")
    name = data["name"]
    if not isinstance(name, str):
        raise ValueError(f"name must be text, got {describe_value(name)}")
    grid = _object(data.get("grid"), "grid")
    advance = data.get("advance", "dialog")
    if advance not in ADVANCES:
        raise ValueError(f"advance {advance!r} is not one of {', '.join(ADVANCES)}")
    notes = data.get("notes", "")
    if not isinstance(notes, str):
        raise ValueError(f"notes must be text, got {describe_value(notes)}")
    return Profile(
        name=check_name(name),
        region=_region(data.get("region")),
        rows=_optional_whole(grid.get("rows"), "grid.rows", GRID_RANGE),
        cols=_optional_whole(grid.get("cols"), "grid.cols", GRID_RANGE),
        next_button=_point(data.get("next_button"), "next_button"),
        arrow_button=_point(data.get("arrow_button"), "arrow_button"),
        advance=advance,
        pointer=_pointer(data.get("pointer")),
        notes=notes,
    )


def _object(value: object, key: str) -> dict:
    """A JSON object field (null or absent: empty)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{key} must be an object or null, got {describe_value(value)}")
    return value


def save_tuned(profile: Profile, settings: PointerSettings) -> Path:
    """Save the profile again, where it was read from, with pointer settings self-tuning found."""
    return update_profile(profile, pointer=settings)


def update_profile(profile: Profile, **changes: object) -> Path:
    """Save a profile again where it was read from, with what a run learned (tuned pointer settings,
    the control that moved on); its other fields as the file holds them now."""
    from dataclasses import replace

    path = profile_path(profile.name)
    current = load_profile(profile.name) if path.exists() else profile
    updated = replace(current, **changes)
    if updated == current:
        return path
    # What a run learns about a shipped profile goes to the user's copy, which is read first from then on.
    folder = USER_PROFILES if is_shipped(path) else path.parent
    return save_profile(updated, folder, force=True)


# The pointer settings that are true or false (the others are numbers in POINTER_RANGES).
POINTER_FLAGS = ("corners_only", "settle", "per_frame")


def _pointer(value: object) -> PointerSettings:
    """The 'pointer' object, each number checked against the same ranges as the command line."""
    fields = _object(value, "pointer")
    known = set(POINTER_RANGES) | set(POINTER_FLAGS)
    unknown = sorted(set(fields) - known)
    if unknown:
        raise ValueError(f"pointer.{unknown[0]} is not a pointer setting (known: {', '.join(sorted(known))})")
    settings: dict[str, object] = {}
    for key, allowed in POINTER_RANGES.items():
        if key in fields:
            settings[key] = check_number(fields[key], allowed, f"pointer.{key}")
    for key in POINTER_FLAGS:
        if key in fields:
            if not isinstance(fields[key], bool):
                raise ValueError(f"pointer.{key} must be true or false, got {describe_value(fields[key])}")
            settings[key] = fields[key]
    return PointerSettings(**settings)


def _optional_whole(value: object, key: str, allowed: Range) -> int | None:
    """A whole number inside `allowed`, or None."""
    return None if value is None else int(check_number(value, allowed, key))


def _region(value: object) -> Region | None:
    """The 'region' [left, top, width, height] list, or None."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 4:
        raise ValueError(f"region must be [left, top, width, height] or null, got {describe_value(value)}")
    names = ("region left", "region top", "region width", "region height")
    ranges = (COORDINATE_RANGE, COORDINATE_RANGE, SIDE_RANGE, SIDE_RANGE)
    left, top, width, height = (
        int(check_number(item, allowed, key)) for item, allowed, key in zip(value, ranges, names, strict=True)
    )
    return Region(left, top, width, height)


def _point(value: object, key: str) -> tuple[int, int] | None:
    """An [x, y] pair of whole numbers, or None."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{key} must be [x, y] or null, got {describe_value(value)}")
    x, y = (
        int(check_number(v, COORDINATE_RANGE, f"{key}.{axis}")) for v, axis in zip(value, "xy", strict=True)
    )
    return x, y


def new_profile_path(name: str, folder: Path, force: bool) -> Path:
    """Where `calibrate --name` will save, checked before calibrating: an existing profile needs --force."""
    from flowbot.formats import check_output

    return check_output(folder / f"{check_name(name)}.json", force=force)


def save_profile(profile: Profile, folder: Path = Path("calibration"), *, force: bool = False) -> Path:
    """Write calibration/NAME.json atomically; an existing profile is replaced only with `force`."""
    from flowbot.formats import Outputs

    outputs = Outputs(force=force)
    path = outputs.claim(folder / f"{check_name(profile.name)}.json", "the profile")
    outputs.write_text(path, json.dumps(profile.to_json(), indent=2) + "\n")
    return path
