"""Draw what the Shapes reader reads over each Shapes screenshot in ../shared/screenshots/variants (or
the images given), into a folder, for a person to check: cell outlines, links through the borders
shared, cell numbers and endpoint letters; with --truth, the truth file's cells and links instead
(tests/data/shapes/NAME.shapes.txt), to check a truth by eye. A refused image gets its reason.

    .venv/bin/python scripts/overlay_shapes.py OUT_DIR [--truth] [IMAGE ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2

from flowbot.capture.image import decode_image
from flowbot.capture.shapes import read_shapes
from flowbot.capture.shapes.overlay import draw_shapes
from flowbot.capture.shapes.truth import draw_truth, read_truth, truth_path
from flowbot.errors import CaptureError

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "screenshots" / "variants"
TRUTHS = REPO / "tests" / "data" / "shapes"


def main(argv: list[str]) -> int:
    """Write one overlay PNG per image into the folder given first."""
    args = [arg for arg in argv if arg != "--truth"]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    truth = "--truth" in argv
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    images = [Path(path) for path in args[1:]] or [
        path for path in sorted(SHARED.glob("*")) if truth_path(TRUTHS, path).exists() or _shapes(path)
    ]
    for image in images:
        frame = decode_image(image.read_bytes())
        if truth:
            picture = draw_truth(frame, read_truth(truth_path(TRUTHS, image).read_text()))
            summary = "truth drawn"
        else:
            try:
                reading = read_shapes(frame)
                picture = draw_shapes(frame, reading)
                summary = f"{len(reading.cells)} cells, {len(reading.neighbours)} links, {reading.letters}"
            except CaptureError as error:
                picture, summary = frame // 2, f"refused: {error}"
                cv2.putText(picture, summary[:60], (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 255), 2)
        cv2.imwrite(str(out / (image.stem + (".truth" if truth else ".shapes") + ".png")), picture)
        print(f"{image.name}: {summary}")
    return 0


def _shapes(path: Path) -> bool:
    """Whether a file of the shared folder is a Shapes screenshot (an image without a truth file)."""
    image = path.suffix.lower() in (".png", ".jpg", ".jpeg")
    return image and not path.with_name(path.stem + ".truth.txt").exists()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
