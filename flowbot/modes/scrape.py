"""`flowbot scrape`: save each level on screen as flowbot JSON, numbered in order, then move on."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from flowbot.act.plan import PointerSettings
from flowbot.artifacts import default_folder
from flowbot.capture.read import Reading
from flowbot.capture.screen import Frame, Region
from flowbot.cellmap import CentreMap
from flowbot.errors import DisplayLost, FlowbotError, OutputFileError, StopRun, UsageError
from flowbot.formats import (
    Outputs,
    check_output_folder,
    load_puzzles,
    puzzle_json_text,
    read_input_bytes,
)
from flowbot.live.loop import LiveLoop
from flowbot.live.report import AutoClearError, Report
from flowbot.model import Source
from flowbot.profiles import check_name
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
    halt: StopRun | None = None  # a stop that has its own exit status (the display lost, the fail-safe)

    def text(self) -> str:
        """The lines a person reads at the end."""
        return (
            f"saved {len(self.saved)}, skipped {self.skipped}, failed {self.failed} in {self.folder}\n"
            f"stopped: {self.stopped}"
        )


class LevelOutputs(Outputs):
    """A pack folder's outputs: never forced, and a file in the way is named with what to do about it
    (scrape has no --force: it never replaces a file)."""

    def write_bytes(self, path, data: bytes) -> None:
        """Write a new file atomically; OutputFileError, saying how to go on, when one is in the way."""
        try:
            super().write_bytes(path, data)
        except OutputFileError:
            if not os.path.lexists(path):
                raise
            raise OutputFileError(
                f"{os.fsdecode(path)}: already exists, and scrape never replaces a file in a pack folder: "
                "move it away, then run again with --resume"
            ) from None


@dataclass
class PackFolder:
    """A folder of one pack's levels: NNN.json in order, and a manifest naming the pack."""

    path: Path
    pack: str
    next_number: int = 1
    known: dict[tuple[str, ...], str] = field(default_factory=dict)  # board rows -> file name

    outputs: Outputs = field(default_factory=LevelOutputs)  # never forced: a level file is never replaced
    manifest_written: bool = False
    made: list[Path] = field(default_factory=list)  # the folders this run will make, the pack's first
    wrote_manifest: bool = False  # this run wrote pack.json (so it may take it back)

    @classmethod
    def open(cls, path: Path, pack: str, resume: bool) -> PackFolder:
        """Check the folder, or continue it with --resume; never mix packs, never overwrite.

        Nothing is created here: the folder and its pack.json appear with the first level saved, so a
        scrape that saves nothing leaves nothing behind.
        """
        folder = cls(path, pack)
        folder.made = [at for at in (path, *path.parents) if not at.exists()]
        manifest = path / MANIFEST
        levels = sorted(path.glob("[0-9][0-9][0-9].json")) if path.is_dir() else []
        if manifest.exists():
            try:
                recorded = json.loads(read_input_bytes(manifest).decode("utf-8")).get("pack")
            except (FlowbotError, ValueError, AttributeError) as error:
                raise OutputFileError(f"{manifest}: not a readable pack manifest: {error}") from None
            if recorded != pack:
                raise UsageError(f"{path} holds pack {recorded!r}; refusing to mix in pack {pack!r}")
            folder.manifest_written = True
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
        check_output_folder(path)
        return folder

    def save(self, reading: Reading, frame: Frame, keep_image: bool) -> str:
        """Write the next NNN.json (NNN.png when asked; pack.json with the first); returns its name."""
        from flowbot.capture.overlay import encode_png

        name = f"{self.next_number:03d}"
        height, width = frame.pixels.shape[:2]
        details = {
            "pack": self.pack,
            "level": self.next_number,
            "width": width,
            "height": height,
            "origin": [frame.left, frame.top],
        }
        if isinstance(reading.geometry, CentreMap):  # a sister game's board: where each cell was read
            centres = reading.geometry.centres
            details["cells"] = {
                "size": round(reading.geometry.cell_size, 1),
                "centres": [
                    [row, col, round(x, 1), round(y, 1)] for (row, col), (x, y) in sorted(centres.items())
                ],
            }
        else:
            details["grid"] = {
                "xs": [round(x, 1) for x in reading.geometry.xs],
                "ys": [round(y, 1) for y in reading.geometry.ys],
            }
        if not self.manifest_written:
            record = {
                "schema_version": PACK_SCHEMA_VERSION,
                "pack": self.pack,
                "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
            }
            self.outputs.write_text(self.path / MANIFEST, json.dumps(record, indent=2) + "\n")
            self.manifest_written = self.wrote_manifest = True
        if keep_image:
            self.outputs.write_bytes(self.path / f"{name}.png", encode_png(frame.pixels))
            details["image"] = f"{name}.png"
        puzzle = reading.puzzle.with_source(Source(kind="screen", details=details))
        self.outputs.write_text(self.path / f"{name}.json", puzzle_json_text(puzzle))
        self.known[tuple(puzzle.to_rows())] = f"{name}.json"
        self.next_number += 1
        return f"{name}.json"

    def tidy(self) -> None:
        """After a run that saved no level: take back the pack.json it wrote and the folders it made,
        when they hold nothing else, so that nothing is left behind (a disk full before the first level)."""
        if self.wrote_manifest and not any(self.path.glob("[0-9][0-9][0-9].json")):
            (self.path / MANIFEST).unlink(missing_ok=True)
            self.manifest_written = self.wrote_manifest = False
        for folder in self.made:  # deepest first
            try:
                folder.rmdir()  # only an empty folder goes
            except OSError:
                break


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
    from flowbot.act.pointer import stop_signals
    from flowbot.modes.live import game_on_screen
    from flowbot.modes.variant_clear import live_loop

    if pack is None and out_dir is None:
        raise UsageError("name the pack (--pack NAME) or the folder to fill (--out DIR)")
    if pack is not None:
        check_name(pack, "pack")  # a pack name is a folder name under captured_puzzles/, never a path
    pack = pack or Path(out_dir).resolve().name
    folder = PackFolder.open(Path(out_dir) if out_dir else Path("captured_puzzles") / pack, pack, resume)
    region = region or (profile.region if profile else None)
    with game_on_screen(region) as game:
        loop = live_loop(
            # Failure pictures go to the cache folder: an image in the pack would be read as a level.
            game.screen,
            game.pointer,
            settings,
            region,
            artifacts=default_folder(),
            windows=game.windows,
        )
        if profile is not None:
            loop.advance, loop.next_button, loop.arrow_button = (
                profile.advance,
                profile.next_button,
                profile.arrow_button,
            )
        with stop_signals(lambda signum: setattr(loop, "stop_requested", True)) as signals:
            summary = scrape(loop, folder, count, keep_images, Progress(count or 0, "scrape", err))
    if signals.received is not None:
        summary.stopped = str(signals.error())
    out.write(summary.text() + "\n")
    if signals.received is not None:
        raise signals.error()  # after the summary: the CLI adds its one line and exits 128 + the signal
    if summary.halt is not None:
        raise summary.halt  # after the summary: the CLI adds its one line and the stop's own status
    short = count is not None and len(summary.saved) < count
    return 0 if summary.failed == 0 and summary.saved and not short else AutoClearError.exit_code


def scrape(
    loop: LiveLoop, folder: PackFolder, count: int | None, keep_images: bool, progress: Progress
) -> ScrapeSummary:
    """Save level after level until `count`, the end of the pack, a level that comes back, or a failure."""
    summary = ScrapeSummary(folder.path)
    report = Report()
    first = True
    try:
        sighting = loop.first_board()
        while count is None or len(summary.saved) < count:
            if loop.stop_requested:
                summary.stopped = "interrupted (Ctrl-C)"
                break
            if sighting is None:
                summary.stopped = (
                    f"no board on screen ({loop.last_reason})"
                    if first
                    else f"the level did not change after moving on: end of the pack ({loop.last_reason})"
                )
                break
            rows = tuple(sighting.rows)
            if rows in folder.known:
                if first:  # resuming where a level already saved is showing: move past it
                    summary.skipped += 1
                else:
                    summary.stopped = f"a level already saved came back ({folder.known[rows]})"
                    break
            else:
                summary.saved.append(folder.save(sighting.reading, sighting.frame, keep_images))
                progress.advance(summary.saved[-1])
            first = False
            if count is not None and len(summary.saved) >= count:
                break
            if loop.advance != "arrow":
                loop.play(folder.next_number, sighting, report)
            sighting = loop.next_level(sighting)
    except AutoClearError as error:
        summary.failed += 1
        summary.stopped = str(error)
    except FlowbotError as error:
        summary.failed += 1
        summary.stopped = str(error)
        if isinstance(error, DisplayLost):
            summary.halt = error
    finally:
        if not summary.saved:
            folder.tidy()
    progress.close()
    summary.stopped = summary.stopped or f"{len(summary.saved)} level(s) saved"
    return summary
