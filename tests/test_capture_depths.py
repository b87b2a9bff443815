"""Screens of every colour depth: 16-bit, 30-bit and indexed X screens come out as 8-bit BGR, decoded
from the server's own description of its pixels (synthetic images) and captured from real Xvfb."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from flowbot.capture.depth import PixelFormat, check_format, colour_table, to_bgr
from flowbot.display import DisplayError

ROOT = Path(__file__).resolve().parents[1]
RGB565 = (0xF800, 0x07E0, 0x001F)
RGB555 = (0x7C00, 0x03E0, 0x001F)
RGB101010 = (0x3FF00000, 0x000FFC00, 0x000003FF)


def _rows(values: list[list[int]], size: int, pad_bits: int = 32, big: bool = False) -> bytes:
    """An X image's bytes: each value in `size` bytes, each row padded to `pad_bits`."""
    order = "big" if big else "little"
    out = b""
    for row in values:
        line = b"".join(value.to_bytes(size, order) for value in row)
        out += line + bytes(-len(line) % (pad_bits // 8))
    return out


def test_16_bit_565_with_padded_rows():
    # Three pixels a row: 6 bytes, padded to 8. White, pure red, mid green (32 of 63).
    form = PixelFormat(16, 32, masks=RGB565)
    data = _rows([[0xFFFF, 0xF800, 32 << 5], [0, 0x001F, 0]], 2)
    pixels = to_bgr(data, 3, 2, form)
    assert pixels.shape == (2, 3, 3) and pixels.dtype == np.uint8
    assert pixels[0].tolist() == [[255, 255, 255], [0, 0, 255], [0, 130, 0]]
    assert pixels[1].tolist() == [[0, 0, 0], [255, 0, 0], [0, 0, 0]]


def test_15_bit_555_and_big_endian_16():
    form = PixelFormat(16, 32, big_endian=True, masks=RGB555)
    pixels = to_bgr(_rows([[0x7C00, 0x03E0]], 2, big=True), 2, 1, form)
    assert pixels[0].tolist() == [[0, 0, 255], [0, 255, 0]]


def test_30_bit_colour_keeps_its_top_eight_bits():
    form = PixelFormat(32, 32, masks=RGB101010)
    value = (1023 << 20) | (512 << 10) | 4  # red full, green half, blue almost nothing
    pixels = to_bgr(_rows([[value]], 4), 1, 1, form)
    assert pixels[0, 0].tolist() == [1, 128, 255]


def test_24_bits_per_pixel_packed():
    form = PixelFormat(24, 32)
    pixels = to_bgr(_rows([[0x123456, 0xABCDEF]], 3), 2, 1, form)
    assert pixels[0].tolist() == [[0x56, 0x34, 0x12], [0xEF, 0xCD, 0xAB]]


def test_indexed_colour_through_its_table():
    table = colour_table([(0, 0, 0), (0xFFFF, 0, 0), (0, 0x8000, 0xFFFF)])
    form = PixelFormat(8, 32, masks=(0, 0, 0), table=table)
    pixels = to_bgr(_rows([[1, 2, 0, 7]], 1), 4, 1, form)
    # Index 7 is past the table: its last entry.
    assert pixels[0].tolist() == [[0, 0, 255], [255, 128, 0], [0, 0, 0], [255, 128, 0]]


def test_a_format_that_cannot_be_decoded_is_named():
    with pytest.raises(DisplayError, match=r"4 bits per pixel \(colour depth 4\)"):
        check_format(PixelFormat(4, 32, masks=RGB565), 4)
    with pytest.raises(DisplayError, match="no red, green and blue"):
        check_format(PixelFormat(16, 32, masks=(0, 0, 0)), 16)


def test_a_short_image_is_a_display_error_not_a_crash():
    with pytest.raises(DisplayError, match="sent 4 bytes for a 3x2 image"):
        to_bgr(bytes(4), 3, 2, PixelFormat(16, 32, masks=RGB565))


# --- real X screens of each depth --------------------------------------------------------------------

live = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
COLOURS = {"#ff0000": (0, 0, 255), "#00ff00": (0, 255, 0), "#0000ff": (255, 0, 0), "#ffffff": (255, 255, 255)}


def _paint(colour: str) -> None:
    """Fill the root window with one colour (X's own tool)."""
    subprocess.run(["xsetroot", "-solid", colour], check=True, capture_output=True)


@live
@pytest.mark.skipif(shutil.which("xsetroot") is None, reason="needs xsetroot")
@pytest.mark.parametrize("depth", [16, 30, 8, 24])
def test_a_real_screen_of_each_depth_is_captured_in_8_bit_bgr(depth):
    from flowbot.capture.screen import MssScreen, Region
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(320, 200, depth=depth):
        screen = MssScreen()
        try:
            assert screen.bounds.width == 320 and screen.bounds.height == 200
            for colour, bgr in COLOURS.items():
                _paint(colour)
                pixels = screen.grab().pixels
                assert pixels.shape == (200, 320, 3) and pixels.dtype == np.uint8
                assert np.abs(pixels[100, 160].astype(int) - bgr).max() <= 1, (depth, colour)
                part = screen.grab(Region(13, 7, 31, 9)).pixels
                assert part.shape == (9, 31, 3)
        finally:
            screen.close()


def _start_game(size: tuple[int, int]) -> subprocess.Popen:
    """The bundled game's demo pack at the top-left of the display; returns once drawn."""
    env = {key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"}
    env["SDL_VIDEO_WINDOW_POS"] = "0,0"
    game = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "game", "--pack", "demo", "--size", f"{size[0]}x{size[1]}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert game.stdout.readline().strip() == "game ready", game.stderr.read()
    time.sleep(0.3)
    return game


@live
@pytest.mark.parametrize("depth", [16, 30])
def test_the_game_on_a_16_and_30_bit_screen_is_read(depth):
    """`flowbot screens` (a live command) finds the board on a 16 and a 30-bit display; it exited 6,
    'Only screens of color depth 24 or 32 are supported', before."""
    from flowbot.display import VirtualDisplay, end_process

    with VirtualDisplay(640, 1000, depth=depth):
        game = _start_game((540, 960))
        try:
            done = subprocess.run(
                [sys.executable, "-m", "flowbot", "screens", "--no-probe", "--json"],
                capture_output=True, text=True, timeout=120, cwd=ROOT,
            )  # fmt: skip
        finally:
            end_process(game)
    assert done.returncode == 0, done.stderr
    assert '"board"' in done.stdout, done.stdout


@live
def test_demo_plays_on_a_16_bit_display():
    """`demo` on a 16-bit display plays there (it exited 6 before)."""
    from flowbot.display import VirtualDisplay

    with VirtualDisplay(700, 1100, depth=16):
        done = subprocess.run(
            [sys.executable, "-m", "flowbot", "demo", "--levels", "1", "--json"],
            capture_output=True, text=True, timeout=180, cwd=ROOT,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"solved_by_game": 1' in done.stdout


def _refusing_mss(monkeypatch) -> None:
    """mss refusing the screen as it refuses a 16-bit one."""
    import mss

    def refuse(*args, **kwargs):
        raise mss.ScreenShotError("Only screens of color depth 24 or 32 are supported, not 16")

    monkeypatch.setattr(mss, "MSS", refuse)


def test_no_x_to_ask_either_keeps_mss_reason(monkeypatch):
    from flowbot.capture.screen import MssScreen, XCapture

    _refusing_mss(monkeypatch)

    def unreachable(self):
        raise OSError("no libxcb")

    monkeypatch.setattr(XCapture, "__init__", unreachable)
    with pytest.raises(DisplayError, match=r"^cannot open the screen for capture: Only screens of colo"):
        MssScreen()


def test_a_screen_x_describes_but_flowbot_cannot_decode_is_named(monkeypatch):
    from flowbot.capture.screen import MssScreen, XCapture

    _refusing_mss(monkeypatch)

    def undecodable(self):
        check_format(PixelFormat(4, 32, masks=RGB565), 4)

    monkeypatch.setattr(XCapture, "__init__", undecodable)
    with pytest.raises(DisplayError, match="stores 4 bits per pixel") as refused:
        MssScreen()
    assert refused.value.exit_code == 6 and "\n" not in str(refused.value)


def test_windows_and_macos_have_no_x_to_fall_back_on(monkeypatch):
    from flowbot.capture.screen import MssScreen, XCapture

    _refusing_mss(monkeypatch)
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(XCapture, "__init__", lambda self: pytest.fail("X asked on macOS"))
    with pytest.raises(DisplayError, match="Only screens of color depth"):
        MssScreen()
