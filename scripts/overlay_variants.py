"""Draw what the variant reader reads over each screenshot in ../shared/screenshots/variants (or the
images given), into a folder, for a person to look at: letters at the cell centres, walls in red,
warps as magenta arrows; a refused image gets its reason written on it.

    .venv/bin/python scripts/overlay_variants.py OUT_DIR [IMAGE ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2

from flowbot.capture.image import decode_image
from flowbot.capture.variants import read_variant
from flowbot.capture.variants.overlay import draw_reading
from flowbot.errors import CaptureError

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "screenshots" / "variants"


def main(argv: list[str]) -> int:
    """Write one overlay PNG per image into the folder given first."""
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    images = [Path(path) for path in argv[1:]] or [
        path for path in sorted(SHARED.glob("*")) if path.suffix.lower() in (".png", ".jpg", ".jpeg")
    ]
    for image in images:
        frame = decode_image(image.read_bytes())
        try:
            reading = read_variant(frame)
            picture = draw_reading(frame, reading)
            summary = f"{reading.kind}, {len(reading.walls)} walls, warps {sorted(reading.warps)}"
        except CaptureError as error:
            picture, summary = frame // 2, f"refused: {error}"
            cv2.putText(picture, summary[:60], (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 255), 2)
        cv2.imwrite(str(out / (image.stem + ".overlay.png")), picture)
        print(f"{image.name}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
