"""Make the README's picture, docs/images/solve-a-screenshot.png: a level of the bundled demo pack as
the bundled game shows it (what a screenshot holds) beside what `flowbot solve --overlay` makes of it.

    .venv/bin/python scripts/make_readme_picture.py            # write the picture
    .venv/bin/python scripts/make_readme_picture.py --check    # exit 1 when the committed one differs

Everything comes from the package itself (the shipped pack, the game's renderer, the reader, the
solver, the overlay), so the picture is the same on any machine with the pinned dependencies.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # drawn off screen: no display needed
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
PICTURE = ROOT / "docs" / "images" / "solve-a-screenshot.png"
PACK, LEVEL = "demo", 5  # a 9x9 of seven flows: big enough to look like the game, small enough to read
WINDOW = (540, 960)  # the bundled game's window, a phone's shape
SCALE = 0.5  # each half of the picture at half the window's size
GAP = 16  # pixels between the two halves


def game_frame():
    """The bundled game's window showing the level, as a BGR array (what a screenshot of it holds)."""
    import pygame

    from flowbot.game.packs import levels_from
    from flowbot.game.render import surface_to_bgr
    from flowbot.game.session import Session
    from flowbot.game.view import GameView

    pygame.font.init()
    surface = pygame.Surface(WINDOW)
    GameView(Session([levels_from(PACK)[LEVEL - 1]])).draw(surface)
    return surface_to_bgr(surface)


def picture_bytes() -> bytes:
    """The README's picture as PNG bytes: the screenshot, an arrow, the solved overlay."""
    import cv2
    import numpy as np

    from flowbot.capture.overlay import draw_overlay, encode_png
    from flowbot.capture.screenshot import read_screenshot
    from flowbot.solve.sat import solve

    frame = game_frame()
    reading = read_screenshot(frame)
    result = solve(reading.puzzle)
    if result.status != "solved":
        raise SystemExit(f"the demo pack's level {LEVEL} did not solve: {result.status}")
    solved = draw_overlay(frame, reading.geometry, reading.seen_rgb, result.solution)
    # Only the board and a little around it: the rest of the window is empty page.
    left, top, right, bottom = (round(value) for value in reading.geometry.bounds)
    margin = 8  # less than the gap to the game's header line, which is left out
    box = (slice(max(0, top - margin), bottom + margin), slice(max(0, left - margin), right + margin))
    halves = [cv2.resize(image[box], None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA) for image in
              (frame, solved)]  # fmt: skip
    height = halves[0].shape[0]
    gap = np.zeros((height, GAP * 2, 3), dtype=np.uint8)
    middle = height // 2
    cv2.arrowedLine(gap, (6, middle), (GAP * 2 - 6, middle), (230, 230, 230), 2, cv2.LINE_AA, tipLength=0.4)
    return encode_png(np.hstack([halves[0], gap, halves[1]]))


def main(argv: list[str] | None = None) -> int:
    """Write the picture, or with --check say whether the committed one is what this makes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed picture, write nothing"
    )
    args = parser.parse_args(argv)
    data = picture_bytes()
    if args.check:
        same = PICTURE.exists() and PICTURE.read_bytes() == data
        print(f"{PICTURE.relative_to(ROOT)}: {'current' if same else 'differs: run this script'}")
        return 0 if same else 1
    PICTURE.parent.mkdir(parents=True, exist_ok=True)
    PICTURE.write_bytes(data)
    print(f"wrote {PICTURE.relative_to(ROOT)} ({len(data) // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
