"""X images of any colour depth (8, 15, 16, 24, 30 bits) as 8-bit BGR pixels: pure conversions.

The capture library (mss) takes only 24- and 32-bit screens; for the others the screen adapter asks
the X server for the raw image (GetImage, ZPixmap) and this module decodes it, from the facts the
server gives at connection: bits per pixel, row padding, byte order, and the visual's channel masks
(or, for an indexed visual, its colour table).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flowbot.display import DisplayError

DECODED_BITS = (8, 16, 24, 32)  # bits per pixel this module can unpack


@dataclass(frozen=True, slots=True)
class PixelFormat:
    """How an X screen stores a pixel: its bits, each row padded to `scanline_pad` bits, multi-byte
    values most significant byte first or not, and either the red, green and blue masks (TrueColor,
    DirectColor) or a colour table of (entries, 3) BGR bytes (PseudoColor, grey scales)."""

    bits_per_pixel: int
    scanline_pad: int = 32
    big_endian: bool = False
    masks: tuple[int, int, int] = (0xFF0000, 0x00FF00, 0x0000FF)  # red, green, blue
    table: np.ndarray | None = None

    @property
    def depth_bits(self) -> int:
        """The bits of colour the masks hold (16 for 5-6-5, 30 for 10-10-10)."""
        return sum(bin(mask).count("1") for mask in self.masks)


def check_format(form: PixelFormat, depth: int) -> None:
    """Refuse, naming it, a screen format that cannot be decoded (a DisplayError, exit 6)."""
    if form.bits_per_pixel not in DECODED_BITS:
        raise DisplayError(
            f"the display's screen stores {form.bits_per_pixel} bits per pixel (colour depth {depth}): "
            f"flowbot captures screens of {', '.join(map(str, DECODED_BITS))} bits per pixel; "
            "run the game on a display of 16 or 24-bit colour"
        )
    if form.table is None and not all(form.masks):
        raise DisplayError(
            f"the display's screen (colour depth {depth}) has no red, green and blue to read: "
            "run the game on a display of 16 or 24-bit colour"
        )


def to_bgr(data: bytes, width: int, height: int, form: PixelFormat) -> np.ndarray:
    """An X image's bytes (ZPixmap, `width` x `height`) as an (H, W, 3) uint8 BGR array."""
    values = pixel_values(data, width, height, form)
    if form.table is not None:
        # Values past the table (a colormap smaller than the depth allows) show as its last entry.
        return form.table[np.minimum(values, len(form.table) - 1)]
    red, green, blue = form.masks
    return np.dstack([channel(values, mask) for mask in (blue, green, red)])


def pixel_values(data: bytes, width: int, height: int, form: PixelFormat) -> np.ndarray:
    """Each pixel's stored value, an (H, W) uint32 array, from the image's padded rows."""
    bits, pad = form.bits_per_pixel, form.scanline_pad
    stride = -(-width * bits // pad) * pad // 8  # bytes per row, padding included
    if len(data) < stride * height:
        raise DisplayError(
            f"the display sent {len(data)} bytes for a {width}x{height} image of {bits} bits per pixel "
            f"(expected {stride * height}): cannot read the screen"
        )
    rows = np.frombuffer(data, np.uint8, count=stride * height).reshape(height, stride)
    size = bits // 8
    used = np.ascontiguousarray(rows[:, : width * size])
    if bits == 24:
        # Three bytes a pixel have no numpy type: weigh each byte by its place.
        parts = used.reshape(height, width, 3).astype(np.uint32)
        weights = (16, 8, 0) if form.big_endian else (0, 8, 16)
        return sum(parts[:, :, index] << shift for index, shift in enumerate(weights))
    kind = np.dtype(f"{'>' if form.big_endian else '<'}u{size}")
    return used.view(kind).reshape(height, width).astype(np.uint32)


def channel(values: np.ndarray, mask: int) -> np.ndarray:
    """One colour channel of the pixels, scaled from its mask's bits to 0..255 (rounded: a 5-bit 31
    and a 10-bit 1023 are both 255)."""
    shift = (mask & -mask).bit_length() - 1
    top = mask >> shift  # the channel's largest value: 31, 63, 255, 1023
    level = (values & mask) >> shift
    if top == 255:
        return level.astype(np.uint8)
    return ((level * 255 + top // 2) // top).astype(np.uint8)


def colour_table(colours: list[tuple[int, int, int]]) -> np.ndarray:
    """An indexed visual's colour table, from the server's 16-bit (red, green, blue) per entry, as
    (entries, 3) BGR bytes."""
    table = np.array(colours, dtype=np.uint32).reshape(-1, 3) >> 8
    return np.ascontiguousarray(table[:, ::-1]).astype(np.uint8)
