"""Decode screenshot files into frames, refusing what cannot hold a whole board."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.errors import CaptureError
from flowbot.formats import image_format

# Smaller than this on either side, no board of 5x5 cells with visible lines and dots fits.
MIN_SIDE = 64

# Larger than this, an image is refused before its pixels are decoded: an 8K screen is 33 megapixels,
# while a 1 MB PNG can claim 20000x20000 (400 megapixels, 1.2 GB decoded, 30 s to read).
MAX_PIXELS = 50_000_000


def decode_image(data: bytes) -> np.ndarray:
    """The pixels of an image file as an (H, W, 3) uint8 BGR frame; CaptureError if damaged or tiny."""
    kind = image_format(data)
    if kind is None:
        raise CaptureError("not an image")
    if _truncated(kind, data):
        raise CaptureError(f"the {kind.upper()} file is truncated (it stops before its end marker)")
    width, height = image_size(data, kind)
    if width * height > MAX_PIXELS:
        raise CaptureError(
            f"the image is {width}x{height} px, over the {MAX_PIXELS // 1_000_000} megapixel limit "
            "(larger than any screen); refused before decoding"
        )
    frame = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise CaptureError(f"the {kind.upper()} data cannot be decoded")
    height, width = frame.shape[:2]
    if min(height, width) < MIN_SIDE:
        raise CaptureError(f"the image is {width}x{height} px, too small to hold a board")
    return frame


def image_size(data: bytes, kind: str | None = None) -> tuple[int, int]:
    """(width, height) from an image file's header, without decoding its pixels; CaptureError if bad."""
    kind = kind or image_format(data)
    if kind == "png":
        # The IHDR chunk always comes first: 8 signature bytes, length, b"IHDR", width, height.
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise CaptureError("the PNG data cannot be decoded (no IHDR header where it must be)")
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if kind == "jpeg":
        return _jpeg_size(data)
    import io
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow warns about large images; we judge size ourselves
            with Image.open(io.BytesIO(data)) as image:  # lazy: reads the header only
                return image.size
    except Image.DecompressionBombError:
        # Pillow's own limit (far above ours) speaks first; the answer is the same: too large.
        raise CaptureError(
            f"the image is over the {MAX_PIXELS // 1_000_000} megapixel limit; refused before decoding"
        ) from None
    except Exception as error:  # Pillow raises many kinds for a damaged header
        raise CaptureError(f"the {(kind or 'image').upper()} data cannot be decoded ({error})") from None


# JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic): they hold the size.
_JPEG_FRAMES = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})
# Markers that stand alone, with no length after them.
_JPEG_BARE = frozenset({0x01, 0xD8, *range(0xD0, 0xD8)})


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a JPEG's frame header, walking the marker segments before it."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            break
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in _JPEG_BARE:
            at += 2
            continue
        if marker in _JPEG_FRAMES and at + 9 <= len(data):
            height = int.from_bytes(data[at + 5 : at + 7], "big")
            width = int.from_bytes(data[at + 7 : at + 9], "big")
            return width, height
        if marker == 0xDA:  # start of scan before any frame header
            break
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    raise CaptureError("the JPEG data cannot be decoded (no frame header giving its size)")


def _truncated(kind: str, data: bytes) -> bool:
    """True when a PNG lacks its IEND chunk or a JPEG its end-of-image marker near the end."""
    if kind == "png":
        return b"IEND" not in data[-64:]
    if kind == "jpeg":
        # Some encoders pad after the marker; a cut file has no marker in its tail at all.
        return b"\xff\xd9" not in data[-4096:]
    return False
