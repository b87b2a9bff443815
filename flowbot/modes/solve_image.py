"""`flowbot solve IMAGE --overlay FILE.png`: the screenshot with what was read and solved drawn over it."""

from __future__ import annotations

from flowbot.errors import FlowbotError, UsageError
from flowbot.formats import Outputs, image_format, read_input_bytes
from flowbot.model import Solution


def check_overlay_path(out_path: str) -> None:
    """Refuse an overlay name that is not *.png before any work (the file's own checks come from Outputs)."""
    from pathlib import Path  # here: a text puzzle's solve never draws an overlay, nor needs pathlib

    if Path(out_path).suffix.lower() != ".png":
        raise UsageError(f"--overlay {out_path}: the overlay is a PNG file; name it *.png")


def write_overlay(image_path: str, solution: Solution | None, out_path: str, outputs: Outputs) -> None:
    """Read the image again, draw the grid and the solution's pipes over it, and save a PNG atomically."""
    from flowbot.capture.image import decode_image
    from flowbot.capture.overlay import draw_cells_overlay, draw_overlay, draw_shapes_overlay, encode_png
    from flowbot.capture.screenshot import read_screenshot

    check_overlay_path(out_path)
    frame = decode_image(read_input_bytes(image_path))
    reading = read_screenshot(frame)
    if reading.geometry is not None:
        picture = draw_overlay(frame, reading.geometry, reading.seen_rgb, solution)
    elif reading.shapes is not None:
        picture = draw_shapes_overlay(frame, reading.shapes, reading.seen_rgb, solution)
    else:
        picture = draw_cells_overlay(frame, reading.centres, reading.cell_size, reading.seen_rgb, solution)
    outputs.write_bytes(out_path, encode_png(picture))


def is_image_file(path: str) -> bool:
    """True when the file is a regular file that starts like an image (PNG, JPEG, ...), whatever its name."""
    try:
        return image_format(read_input_bytes(path)[:16]) is not None
    except FlowbotError:
        return False
