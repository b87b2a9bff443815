"""Decode screenshot files into frames, refusing what cannot hold a whole board."""

from __future__ import annotations

import cv2
import numpy as np

from flowbot.errors import CaptureError
from flowbot.formats import image_format

# Smaller than this on either side, no board of 5x5 cells with visible lines and dots fits.
MIN_SIDE = 64


def decode_image(data: bytes) -> np.ndarray:
    """The pixels of an image file as an (H, W, 3) uint8 BGR frame; CaptureError if damaged or tiny."""
    kind = image_format(data)
    if kind is None:
        raise CaptureError("not an image")
    if _truncated(kind, data):
        raise CaptureError(f"the {kind.upper()} file is truncated (it stops before its end marker)")
    frame = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise CaptureError(f"the {kind.upper()} data cannot be decoded")
    height, width = frame.shape[:2]
    if min(height, width) < MIN_SIDE:
        raise CaptureError(f"the image is {width}x{height} px, too small to hold a board")
    return frame


def _truncated(kind: str, data: bytes) -> bool:
    """True when a PNG lacks its IEND chunk or a JPEG its end-of-image marker near the end."""
    if kind == "png":
        return b"IEND" not in data[-64:]
    if kind == "jpeg":
        # Some encoders pad after the marker; a cut file has no marker in its tail at all.
        return b"\xff\xd9" not in data[-4096:]
    return False
