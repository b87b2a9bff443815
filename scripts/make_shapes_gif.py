"""Record a GIF of `flowbot auto-clear` clearing a level of the bundled game's Shapes boards, with its
defaults, on a virtual display (Xvfb) unless one is set.

    .venv/bin/python scripts/make_shapes_gif.py                       # docs/images/shapes-eight.gif
    .venv/bin/python scripts/make_shapes_gif.py --shape ring --levels 2 --out /tmp/ring.gif

The game's window is grabbed a few times a second while the bot plays; the GIF plays `--speed` times
faster than the run (its frames are spaced evenly in the run's time). Prints the game's verdict (its
results file) beside the bot's, and the GIF's size.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_shapes_clear import SHAPES, WINDOW, start_game


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The recording's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", choices=SHAPES, default="eight", help="the kind of board (default eight)")
    parser.add_argument("--seed", type=int, default=2, help="the levels' seed (default 2)")
    parser.add_argument("--levels", type=int, default=1, help="levels to clear (default 1)")
    parser.add_argument("--width", type=int, default=220, help="the GIF's width in pixels (default 220)")
    parser.add_argument("--every", type=float, default=0.3, help="seconds between grabs (default 0.3)")
    parser.add_argument("--speed", type=float, default=2.0, help="playback speed-up (default 2)")
    parser.add_argument("--out", default="docs/images/shapes-eight.gif")
    return parser.parse_args(argv)


def record(width: int, every: float, stop: threading.Event, frames: list[np.ndarray]) -> None:
    """Grab the game's window until told to stop, each frame scaled to `width` (RGB)."""
    from flowbot.capture.screen import MssScreen, Region

    screen = MssScreen()
    try:
        while not stop.is_set() and len(frames) < 600:
            pixels = screen.grab(Region(0, 0, *WINDOW)).pixels
            scale = width / pixels.shape[1]
            small = cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            frames.append(cv2.cvtColor(small, cv2.COLOR_BGR2RGB))
            stop.wait(every)
    finally:
        screen.close()


def gif_bytes(frames: list[np.ndarray], milliseconds: int) -> bytes:
    """The frames as a looping GIF on one shared palette (the game's flat colours need few)."""
    from PIL import Image

    sheet = Image.fromarray(np.concatenate(frames[:: max(1, len(frames) // 8)], axis=0))
    palette = sheet.quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    images = [Image.fromarray(frame).quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    buffer = io.BytesIO()
    images[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=milliseconds,
        loop=0,
        optimize=True,
    )
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> int:
    """Start the game, record the bot clearing it, and write the GIF."""
    args = parse_args(argv)
    with contextlib.ExitStack() as stack:
        if not os.environ.get("DISPLAY"):
            from flowbot.display import VirtualDisplay

            stack.enter_context(VirtualDisplay(600, 1000))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="flowbot-gif-")))
        results = folder / "results.jsonl"
        game = start_game(args.shape, args.seed, args.levels + 1, results)
        frames: list[np.ndarray] = []
        stop = threading.Event()
        recorder = threading.Thread(target=record, args=(args.width, args.every, stop, frames), daemon=True)
        recorder.start()
        try:
            bot = subprocess.run(
                [sys.executable, "-m", "flowbot", "auto-clear", "--count", str(args.levels), "--json"],
                capture_output=True, text=True, cwd=folder, timeout=120 * args.levels, check=False,
            )  # fmt: skip
            time.sleep(1.0)  # the next level shown: the game's word, in the picture too
        finally:
            stop.set()
            recorder.join(timeout=5)
            game.terminate()
            game.wait(timeout=10)
        solved = (
            [json.loads(line)["solved"] for line in results.read_text().splitlines()]
            if results.exists()
            else []
        )
    data = gif_bytes(frames, round(1000 * args.every / args.speed))
    Path(args.out).write_bytes(data)
    claimed = json.loads(bot.stdout.strip().splitlines()[-1]).get("cleared") if bot.stdout.strip() else None
    print(
        f"{args.out}: {len(frames)} frames, {len(data) // 1024} KB; "
        f"game solved {sum(solved)}, bot claimed {claimed}"
    )
    return 0 if sum(solved) >= args.levels else 1


if __name__ == "__main__":
    sys.exit(main())
