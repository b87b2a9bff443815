"""`flowbot solve IMAGE --overlay FILE.png`: the screenshot with what was read and solved drawn over it."""

from __future__ import annotations

from pathlib import Path

from flowbot.errors import InputFileError, UsageError
from flowbot.formats import atomic_write_bytes, image_format
from flowbot.model import Solution


def write_overlay(image_path: str, solution: Solution | None, out_path: str) -> None:
    """Read the image again, draw the grid and the solution's pipes over it, and save a PNG atomically."""
    from flowbot.capture.image import decode_image
    from flowbot.capture.overlay import draw_overlay, encode_png
    from flowbot.capture.read import read_puzzle

    if Path(out_path).suffix.lower() != ".png":
        raise UsageError(f"--overlay {out_path}: the overlay is a PNG file; name it *.png")
    try:
        data = Path(image_path).read_bytes()
    except OSError as error:
        raise InputFileError(f"{image_path}: cannot read: {error.strerror or error}") from error
    frame = decode_image(data)
    reading = read_puzzle(frame)
    picture = draw_overlay(frame, reading.geometry, reading.seen_rgb, solution)
    atomic_write_bytes(out_path, encode_png(picture))


def is_image_file(path: str) -> bool:
    """True when the file starts like an image (PNG, JPEG, ...), whatever its name."""
    try:
        with open(path, "rb") as handle:
            return image_format(handle.read(16)) is not None
    except OSError:
        return False
