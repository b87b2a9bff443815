"""The bot's own work per level (capture, read, solve, plan) on a 1600x1000 and a 3840x2160 screen.

In-process, with the ratio 4K / 1600x1000 of each part. What it measures: `AutoClear` clears
--levels generated levels (5x5 to 9x9 in turn) of the bundled game, drawn by the in-process
simulated game (tests/simulated_game.py), whose 540x960 window sits in the middle of a desktop of
each size. The desktop is one BGRA numpy picture, and a capture is the copy of the grabbed region
out of it into three contiguous BGR channels, as `MssScreen` makes of what mss gives: a real capture
also pays mss's transfer from the display, which grows with the area too, so real captures cost more
than these (`bench_live.py --screen 3840x2160` measures them on Xvfb). The game draws its window
while the bot waits and when the pointer acts, never inside a capture. Every wait is on the game's
manual clock (no real seconds). Per level, report.split_median_ms()'s parts of the level's timing:
capture and read (the look that found the board), solve, plan; the overhead is their sum. Medians
over every level of every round; rounds run the screen sizes in turn.

Each size runs twice: with the display's windows known (X11: the loop is told the game's window)
and unknown (Windows, macOS: no window list). Run it on another tree to compare (its flowbot and
tests are imported from PYTHONPATH first):

    PYTHONPATH=. .venv/bin/python scripts/bench_screen_sizes.py [--levels 10] [--rounds 3] [--json]
    PYTHONPATH=/tmp/old-tree .venv/bin/python scripts/bench_screen_sizes.py   # the same, older code
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))  # tests/ (after PYTHONPATH: another tree's first)

from flowbot.act.plan import PointerSettings
from flowbot.capture.screen import Frame, Region
from flowbot.generate.levels import make_level
from flowbot.live.clock import ManualClock
from flowbot.modes.auto_clear import AutoClear
from tests.simulated_game import SimulatedGame

SCREENS = {"1600x1000": (1600, 1000), "3840x2160": (3840, 2160)}
WINDOW = (540, 960)  # the bundled game's window, as bench_live.py starts it
FAST = PointerSettings(moves_per_cell=1, move_delay=0, release_pause=0, flow_pause=0)
PARTS = ("capture", "read", "solve", "plan")


class Desktop(SimulatedGame):
    """The simulated game's window in the middle of a desktop of `screen` size: the Screen, the
    Pointer (desktop pixels) and the display's windows (the game's alone) the loop is given."""

    def __init__(self, levels, screen: tuple[int, int]) -> None:
        super().__init__(levels, WINDOW, clock=ManualClock())
        width, height = screen
        self.at = ((width - WINDOW[0]) // 2, (height - WINDOW[1]) // 2)
        self.window = Region(*self.at, *WINDOW)
        self.everything = Region(0, 0, width, height)  # the desktop (the pointer's `bounds` is its fence)
        self.bounds = self.everything
        self.picture = np.zeros((height, width, 4), dtype=np.uint8)  # BGRA, as mss gives it
        self.picture[:, :] = (60, 40, 30, 255)
        self.stale = True  # the pointer acted since the window was last drawn
        self.show()

    def show(self) -> None:
        """Draw the game's window as it is now onto the desktop (the game's work, not the bot's)."""
        left, top = self.at
        self.picture[top : top + WINDOW[1], left : left + WINDOW[0], :3] = super().grab().pixels
        self.stale = False

    def grab(self, region: Region | None = None) -> Frame:
        """A capture: the region's pixels copied out of the desktop as BGR."""
        if self.stale:  # a look right after the pointer acted, before any wait: the game drew since
            self.show()
        area = region or self.everything
        part = self.picture[area.top : area.top + area.height, area.left : area.left + area.width, :3]
        return Frame(np.ascontiguousarray(part), area.left, area.top)

    def move(self, x: float, y: float) -> None:
        """Pointer motion at a desktop pixel."""
        super().move(x - self.at[0], y - self.at[1])
        self.stale = True

    def down(self) -> None:
        """A press where the pointer is."""
        super().down()
        self.stale = True

    def up(self) -> None:
        """A release."""
        super().up()
        self.stale = True

    def stack(self) -> list[int]:
        """The desktop's one window: the game's."""
        return [1]

    def box(self, window_id: int) -> Region | None:
        """Where the game's window is."""
        return self.window if window_id == 1 else None


class GameTime:
    """The loop's clock: the game's time, during whose waits the game draws its window."""

    def __init__(self, desktop: Desktop) -> None:
        self.desktop = desktop

    def now(self) -> float:
        """The game's time."""
        return self.desktop.clock.now()

    def sleep(self, seconds: float) -> None:
        """Let the game's time pass, and the game draw."""
        self.desktop.clock.sleep(seconds)
        self.desktop.show()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=10, help="levels a run (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each screen and mode (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated levels")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args(argv)


def make_levels(count: int, seed: int) -> list:
    """`count` generated puzzles of 5x5 to 9x9 in turn."""
    rng = random.Random(seed)
    return [make_level(5 + n % 5, 5 + n % 5, 4 + n % 5, rng).puzzle for n in range(count)]


def run(levels: list, screen: tuple[int, int], windows: bool) -> list[dict[str, float]]:
    """One run on a desktop of `screen` size: each level's capture, read, solve and plan in ms."""
    desktop = Desktop(levels, screen)
    with tempfile.TemporaryDirectory() as folder:
        loop = AutoClear(desktop, desktop, FAST, None, len(levels), artifacts=Path(folder),
                         clock=GameTime(desktop), settle_timeout=1.0, verify_timeout=0.3,
                         windows=desktop if windows else None)  # fmt: skip
        report = loop.run()
    if report.cleared != len(levels):
        raise SystemExit(f"{screen}: {report.summary()}")
    return [{part: level.timing.split_ms()[part] for part in PARTS} for level in report.levels]


def medians(levels: list[dict[str, float]]) -> dict[str, float]:
    """Median of each part over the levels, and of their sum (the overhead)."""
    figures = {part: statistics.median(level[part] for level in levels) for part in PARTS}
    figures["overhead"] = statistics.median(sum(level[part] for part in PARTS) for level in levels)
    return {part: round(value, 2) for part, value in figures.items()}


def main(argv: list[str] | None = None) -> int:
    """Run every round, print the medians and the ratios."""
    args = parse_args(argv)
    levels = make_levels(args.levels, args.seed)
    modes = {"windows known": True, "windows unknown": False}
    timings: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(args.rounds):
        for mode, windows in modes.items():
            for name, screen in SCREENS.items():
                timings.setdefault((mode, name), []).extend(run(levels, screen, windows))
    figures = {f"{mode}, {name}": medians(found) for (mode, name), found in timings.items()}
    for mode in modes:
        small, big = figures[f"{mode}, 1600x1000"], figures[f"{mode}, 3840x2160"]
        figures[f"{mode}, ratio"] = {part: round(big[part] / max(small[part], 1e-9), 2) for part in big}
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"ms per level, medians of {args.levels} levels x {args.rounds} rounds")
    print(f"{'':<28}" + "".join(f"{part:>9}" for part in (*PARTS, "overhead")))
    for name, values in figures.items():
        print(f"{name:<28}" + "".join(f"{values[part]:>9.2f}" for part in (*PARTS, "overhead")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
