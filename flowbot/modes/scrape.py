"""`flowbot scrape`: save each level on screen as flowbot JSON, numbered in order, then move on."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from flowbot.act.plan import PointerSettings
from flowbot.capture.read import Reading
from flowbot.capture.screen import Frame, Region
from flowbot.errors import FlowbotError, OutputFileError, UsageError
from flowbot.formats import (
    atomic_write_bytes,
    atomic_write_text,
    load_puzzles,
    make_folder,
    write_puzzle_json,
)
from flowbot.model import Source
from flowbot.modes.auto_clear import AutoClear, AutoClearError, Report
from flowbot.progress import Progress

MANIFEST = "pack.json"
PACK_SCHEMA_VERSION = 1


@dataclass
class ScrapeSummary:
    """What a scrape did."""

    folder: Path
    saved: list[str] = field(default_factory=list)
    skipped: int = 0
    failed: int = 0
    stopped: str = ""

    def text(self) -> str:
        """The lines a person reads at the end."""
        return (
            f"saved {len(self.saved)}, skipped {self.skipped}, failed {self.failed} in {self.folder}\n"
            f"stopped: {self.stopped}"
        )


@dataclass
class PackFolder:
    """A folder of one pack's levels: NNN.json in order, and a manifest naming the pack."""

    path: Path
    pack: str
    next_number: int = 1
    known: dict[tuple[str, ...], str] = field(default_factory=dict)  # board rows -> file name

    @classmethod
    def open(cls, path: Path, pack: str, resume: bool) -> PackFolder:
        """Create the folder, or continue it with --resume; never mix packs, never overwrite."""
        folder = cls(path, pack)
        manifest = path / MANIFEST
        levels = sorted(path.glob("[0-9][0-9][0-9].json")) if path.is_dir() else []
        if manifest.exists():
            try:
                recorded = json.loads(manifest.read_text(encoding="utf-8")).get("pack")
            except (OSError, ValueError, AttributeError) as error:
                raise OutputFileError(f"{manifest}: not a readable pack manifest: {error}") from None
            if recorded != pack:
                raise UsageError(f"{path} holds pack {recorded!r}; refusing to mix in pack {pack!r}")
        elif levels or (path.is_dir() and any(path.iterdir())):
            raise UsageError(f"{path} is not empty and is not a flowbot pack folder; choose another --out")
        if levels and not resume:
            raise UsageError(
                f"{path} already holds {len(levels)} level(s) of {pack!r}; add --resume to continue it"
            )
        for level in levels:
            puzzle = load_puzzles(level)[0]
            folder.known[tuple(puzzle.to_rows())] = level.name
        folder.next_number = int(levels[-1].stem) + 1 if levels else 1
        make_folder(path)
        if not manifest.exists():
            record = {
                "schema_version": PACK_SCHEMA_VERSION,
                "pack": pack,
                "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
            }
            atomic_write_text(manifest, json.dumps(record, indent=2) + "\n")
        return folder

    def save(self, reading: Reading, frame: Frame, keep_image: bool) -> str:
        """Write the next NNN.json (and NNN.png when asked); returns the file name."""
        from flowbot.capture.overlay import encode_png

        name = f"{self.next_number:03d}"
        height, width = frame.pixels.shape[:2]
        details = {
            "pack": self.pack,
            "level": self.next_number,
            "width": width,
            "height": height,
            "origin": [frame.left, frame.top],
            "grid": {
                "xs": [round(x, 1) for x in reading.geometry.xs],
                "ys": [round(y, 1) for y in reading.geometry.ys],
            },
        }
        if keep_image:
            atomic_write_bytes(self.path / f"{name}.png", encode_png(frame.pixels))
            details["image"] = f"{name}.png"
        puzzle = reading.puzzle.with_source(Source(kind="screen", details=details))
        write_puzzle_json(puzzle, self.path / f"{name}.json")
        self.known[tuple(puzzle.to_rows())] = f"{name}.json"
        self.next_number += 1
        return f"{name}.json"


def run_scrape(
    *,
    count: int | None,
    out_dir: str | None,
    pack: str | None,
    profile,
    keep_images: bool,
    resume: bool,
    settings: PointerSettings,
    region: Region | None,
    out: TextIO,
    err: TextIO,
) -> int:
    """Scrape from the real screen with the real mouse; print the summary; return the exit code."""
    from flowbot.act.pointer import PyAutoGuiPointer, stop_signals
    from flowbot.capture.screen import MssScreen, X11Windows

    if pack is None and out_dir is None:
        raise UsageError("name the pack (--pack NAME) or the folder to fill (--out DIR)")
    pack = pack or Path(out_dir).name
    folder = PackFolder.open(Path(out_dir) if out_dir else Path("captured_puzzles") / pack, pack, resume)
    screen = MssScreen()
    windows = None
    try:
        region = region or (profile.region if profile else None)
        screen.check_region(region)
        windows = X11Windows.open()
        pointer = PyAutoGuiPointer(region or screen.bounds)
        loop = AutoClear(screen, pointer, settings, region, artifacts=folder.path, windows=windows)
        if profile is not None:
            loop.advance, loop.next_button, loop.arrow_button = (
                profile.advance,
                profile.next_button,
                profile.arrow_button,
            )
        with stop_signals(lambda signum: setattr(loop, "stop_requested", True)) as signals:
            summary = scrape(loop, folder, count, keep_images, Progress(count or 0, "scrape", err))
    finally:
        screen.close()
        if windows is not None:
            windows.close()
    if signals.received is not None:
        summary.stopped = str(signals.error())
    out.write(summary.text() + "\n")
    if signals.received is not None:
        raise signals.error()  # after the summary: the CLI adds its one line and exits 128 + the signal
    short = count is not None and len(summary.saved) < count
    return 0 if summary.failed == 0 and summary.saved and not short else AutoClearError.exit_code


def scrape(
    loop: AutoClear, folder: PackFolder, count: int | None, keep_images: bool, progress: Progress
) -> ScrapeSummary:
    """Save level after level until `count`, the end of the pack, a level that comes back, or a failure."""
    summary = ScrapeSummary(folder.path)
    report = Report()
    previous: list[str] | None = None
    first = True
    try:
        while count is None or len(summary.saved) < count:
            if loop.stop_requested:
                summary.stopped = "interrupted (Ctrl-C)"
                break
            frame, reading, capture_ms, read_ms = loop.wait_for_board(previous, first=first)
            if reading is None:
                summary.stopped = (
                    "no board on screen"
                    if first
                    else "the level did not change after moving on: end of the pack"
                )
                break
            rows = tuple(reading.puzzle.to_rows())
            if rows in folder.known:
                if first:  # resuming where a level already saved is showing: move past it
                    summary.skipped += 1
                else:
                    summary.stopped = f"a level already saved came back ({folder.known[rows]})"
                    break
            else:
                summary.saved.append(folder.save(reading, frame, keep_images))
                progress.advance(summary.saved[-1])
            first = False
            previous = list(rows)
            if count is not None and len(summary.saved) >= count:
                break
            geometry = reading.geometry.shifted(frame.left, frame.top)
            if loop.advance != "arrow":
                loop.play_level(folder.next_number, frame, reading, capture_ms, read_ms, report)
            loop.next_level(geometry)
    except AutoClearError as error:
        summary.failed += 1
        summary.stopped = str(error)
    except FlowbotError as error:
        summary.failed += 1
        summary.stopped = str(error)
    progress.close()
    summary.stopped = summary.stopped or f"{len(summary.saved)} level(s) saved"
    return summary
