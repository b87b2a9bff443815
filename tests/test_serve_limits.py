"""`flowbot serve` under clients that are slow, idle, greedy or gone: deadlines, a cap per address, and a
pixel budget known before decoding. In-process servers with short limits, so each case takes seconds."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time

import cv2
import pytest

from flowbot.capture.image import image_size
from flowbot.serve import service
from flowbot.serve.app import ReadLimits, make_app, runner_options
from flowbot.serve.service import analyse, decode_reduced, reduction
from tests.images import draw_board, png_bytes
from tests.serve_helpers import multipart, png_bomb
from tests.test_capture import SCREENSHOTS
from tests.test_serve_service import BOARD

SHORT = ReadLimits(head=1.0, grace=1.0, rate=1024, whole=3.0)


@contextlib.asynccontextmanager
async def _server(**options):
    """An in-process server, set up as `flowbot serve` sets up its own, with one worker and the given
    make_app options; yields (host, port)."""
    from aiohttp import web

    limits = options.setdefault("limits", SHORT)
    runner = web.AppRunner(make_app(workers=1, **options), handle_signals=False, **runner_options(limits))
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        yield runner.addresses[0][:2]
    finally:
        await runner.cleanup()


async def _open(address, source: str = "127.0.0.1"):
    """A raw connection to the server from the loopback address `source`."""
    return await asyncio.open_connection(*address, local_addr=(source, 0))


def _head(length: int, kind: str) -> bytes:
    """The head of a POST /api/solve upload that says it will send `length` bytes."""
    return (
        f"POST /api/solve HTTP/1.1\r\nHost: test\r\nContent-Type: {kind}\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


async def _answer(reader, timeout: float = 10) -> tuple[int, dict]:
    """The status and JSON body of the server's answer on a raw connection."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    fields = dict(line.split(b":", 1) for line in head.split(b"\r\n")[1:] if b":" in line)
    length = int({name.lower(): value for name, value in fields.items()}[b"content-length"])
    body = await asyncio.wait_for(reader.readexactly(length), timeout)
    return int(head.split()[1]), json.loads(body)


async def _post(address, data: bytes, source: str = "127.0.0.1") -> tuple[int, dict]:
    """A whole upload from `source`, answered."""
    body, kind = multipart({"image": ("shot.png", data)})
    reader, writer = await _open(address, source)
    writer.write(_head(len(body), kind).replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n") + body)
    await writer.drain()
    try:
        return await _answer(reader, timeout=60)
    finally:
        writer.close()


def test_an_upload_whose_body_stops_coming_gets_408_within_its_deadline():
    async def scenario():
        async with _server() as address:
            body, kind = multipart({"image": ("shot.png", png_bytes(draw_board(BOARD)))})
            reader, writer = await _open(address)
            writer.write(_head(len(body), kind) + body[:200])
            started = time.monotonic()
            status, answer = await _answer(reader)
            writer.close()
            assert status == 408 and "too slowly" in answer["error"]
            assert time.monotonic() - started < SHORT.whole + 1

    asyncio.run(scenario())


def test_a_trickle_of_one_byte_at_a_time_is_cut_off_by_the_minimum_rate():
    async def scenario():
        async with _server() as address:
            body, kind = multipart({"image": ("shot.png", png_bytes(draw_board(BOARD)))})
            reader, writer = await _open(address)
            writer.write(_head(len(body), kind) + body[:300])  # past the part's head: into the image
            started = time.monotonic()
            answered = asyncio.ensure_future(_answer(reader))
            for byte in body[300:340]:
                if answered.done():
                    break
                writer.write(bytes([byte]))
                await asyncio.sleep(0.25)
            status, _ = await answered
            writer.close()
            assert status == 408
            # The grace plus the bytes received at the minimum rate: far short of the whole deadline.
            assert time.monotonic() - started < SHORT.grace + 1.5

    asyncio.run(scenario())


def test_a_request_head_never_finished_is_closed_at_the_head_deadline():
    async def scenario():
        async with _server() as address:
            reader, writer = await _open(address)
            writer.write(b"POST /api/solve HTTP/1.1\r\nHost: test\r\n")
            started = time.monotonic()
            for _ in range(20):  # a header line now and then, never the blank line that ends them
                if reader.at_eof():
                    break
                with contextlib.suppress(ConnectionError):
                    writer.write(b"X-Slow: 1\r\n")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader.read(), 0.3)
            assert reader.at_eof(), "the server kept a connection that never finished its request head"
            assert time.monotonic() - started < SHORT.head + 2
            writer.close()

    asyncio.run(scenario())


def test_one_address_cannot_hold_every_slot_with_idle_uploads():
    async def scenario():
        async with _server(per_client=2) as address:
            body, kind = multipart({"image": ("shot.png", png_bytes(draw_board(BOARD)))})
            idle = []
            for _ in range(2):
                reader, writer = await _open(address, "127.0.0.2")
                writer.write(_head(len(body), kind) + body[:100])
                idle.append((reader, writer))
            await asyncio.sleep(0.3)  # the server has taken both in
            status, answer = await _post(address, png_bytes(draw_board(BOARD)), "127.0.0.2")
            assert status == 429 and "from your address" in answer["error"]
            # Another address is answered in full meanwhile.
            status, answer = await _post(address, png_bytes(draw_board(BOARD)), "127.0.0.3")
            assert status == 200 and answer["puzzle"] == BOARD.to_rows()
            for reader, writer in idle:
                status, _ = await _answer(reader)
                assert status == 408
                writer.close()
            # Once they are refused, the address has its slots back.
            status, _ = await _post(address, png_bytes(draw_board(BOARD)), "127.0.0.2")
            assert status == 200

    asyncio.run(scenario())


def test_a_client_that_hangs_up_mid_upload_is_one_log_line(caplog):
    async def scenario():
        async with _server() as address:
            body, kind = multipart({"image": ("shot.png", png_bytes(draw_board(BOARD)))})
            _, writer = await _open(address)
            writer.write(_head(len(body), kind) + body[: len(body) // 3])
            await writer.drain()
            await asyncio.sleep(0.2)
            writer.close()
            await asyncio.sleep(0.5)  # the server notices
            status, _ = await _post(address, png_bytes(draw_board(BOARD)))
            assert status == 200

    with caplog.at_level(logging.INFO):
        asyncio.run(scenario())
    said = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert [record.getMessage() for record in said] == [
        next(record.getMessage() for record in said if "hung up mid-upload" in record.getMessage())
    ]
    assert all(record.exc_info is None for record in caplog.records)


@pytest.mark.parametrize(
    ("width", "height", "factor"),
    [(1080, 1920, 1), (2000, 2000, 1), (2400, 2400, 2), (4000, 3000, 2), (4898, 4898, 4), (7000, 7000, 4)],
)
def test_the_reading_budget_is_chosen_from_the_header(width, height, factor):
    assert reduction(width, height) == factor
    assert width * height / factor**2 <= service.WORK_PIXELS


def test_a_costly_picture_is_decoded_shrunk_and_answered_in_well_under_a_second():
    bomb = png_bomb(4898)  # 24 megapixels of black in a few kilobytes
    analyse(png_bytes(draw_board(BOARD)))  # the readers' imports, paid before timing
    started = time.perf_counter()
    with pytest.raises(service.CaptureError, match="no board"):
        analyse(bomb)
    assert time.perf_counter() - started < 2.5
    assert decode_reduced(bomb, reduction(4898, 4898)).shape == (4898 // 4, 4898 // 4, 3)


@pytest.mark.skipif(not SCREENSHOTS, reason="../shared/screenshots is not present")
def test_a_large_screenshot_is_read_shrunk_and_its_points_are_on_the_shrunk_picture():
    # A real screenshot taken at twice its size (a 4K screen): over the budget, read at half.
    image, truth = next(
        (image, truth)
        for image, truth in SCREENSHOTS
        if image.stat().st_size and _pixels(image) * 4 > service.WORK_PIXELS
    )
    frame = cv2.imread(str(image))
    large = cv2.resize(frame, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    answer = analyse(png_bytes(large))
    assert answer["scale"] == 2 and answer["puzzle"] == truth.read_text().split()
    assert answer["image"] == {"width": large.shape[1] // 2, "height": large.shape[0] // 2}
    for hint in answer["hints"]:
        for x, y in hint["points"]:
            assert 0 <= x < large.shape[1] / 2 and 0 <= y < large.shape[0] / 2
    assert analyse(png_bytes(draw_board(BOARD)))["scale"] == 1


def _pixels(image) -> int:
    """An image file's pixel count, from its header."""
    width, height = image_size(image.read_bytes())
    return width * height


def test_an_answer_says_how_long_it_waited_for_a_worker_and_how_long_the_worker_took():
    # Server-Timing tells waiting for a worker from the work: what the soak benchmark reports.
    from flowbot.serve.app import parse_server_timing

    async def timed(address, source: str) -> dict[str, float]:
        body, kind = multipart({"image": ("shot.png", png_bytes(draw_board(BOARD)))})
        started = time.monotonic()
        reader, writer = await _open(address, source)
        writer.write(_head(len(body), kind).replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n") + body)
        head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)).decode("latin-1")
        writer.close()
        assert head.split()[1] == "200", head
        found = [
            line.split(":", 1)[1] for line in head.split("\r\n") if line.lower().startswith("server-timing:")
        ]
        return {**parse_server_timing(found[0]), "latency": time.monotonic() - started}

    async def scenario():
        async with _server() as address:  # one worker: the second upload waits for the first
            await timed(address, "127.0.0.2")  # the worker's imports, paid before timing
            first, second = await asyncio.gather(timed(address, "127.0.0.2"), timed(address, "127.0.0.3"))
        waited, other = sorted((first, second), key=lambda timing: timing["queue"])[::-1]
        assert set(first) == set(second) == {"read", "queue", "work", "latency"}
        # Sent together, one waited for the worker through most of the other's work (not all of it
        # on a loaded machine: its upload may come in a moment after the other's).
        assert waited["queue"] > 0.25 * other["work"] > 0 and other["queue"] < waited["queue"]
        for timing in (first, second):
            assert timing["read"] + timing["queue"] + timing["work"] <= timing["latency"]

    asyncio.run(scenario())
