"""Who an upload to `flowbot serve` is from: the peer, or behind a trusted proxy the client it forwarded for
(`--trusted-proxy`). The real proxy's cases are in tests/test_serve_proxy.py."""

from __future__ import annotations

import subprocess
import sys

import pytest
from multidict import CIMultiDict

from flowbot.serve.clients import client_address, normal_address, parse_trusted
from tests.serve_helpers import ROOT

PROXY = parse_trusted("10.0.0.1,192.168.0.0/16,::1")


def _client(peer: str, *headers: tuple[str, str], trusted=PROXY) -> str:
    """The client of a request from `peer` with these header lines."""
    return client_address(peer, CIMultiDict(headers), trusted)


def test_an_untrusted_peer_is_the_client_whatever_it_writes():
    assert _client("203.0.113.9", ("X-Forwarded-For", "198.51.100.1")) == "203.0.113.9"
    assert _client("203.0.113.9", ("Forwarded", "for=198.51.100.1")) == "203.0.113.9"
    # Without --trusted-proxy nobody's headers count, a proxy's neither.
    assert _client("10.0.0.1", ("X-Forwarded-For", "198.51.100.1"), trusted=()) == "10.0.0.1"


def test_a_trusted_proxy_names_the_right_most_address_it_does_not_trust():
    assert _client("10.0.0.1", ("X-Forwarded-For", "198.51.100.1")) == "198.51.100.1"
    # A client that writes its own header cannot move what the proxy added after it.
    spoofed = ("X-Forwarded-For", "1.2.3.4, 5.6.7.8, 198.51.100.1")
    assert _client("10.0.0.1", spoofed) == "198.51.100.1"
    # Proxies in a chain (all trusted) are skipped, from the right.
    assert _client("10.0.0.1", ("X-Forwarded-For", "1.2.3.4, 198.51.100.1, 192.168.4.4")) == "198.51.100.1"
    # The header may come as several lines: one chain, in order.
    lines = (("X-Forwarded-For", "1.2.3.4"), ("X-Forwarded-For", "198.51.100.1, 192.168.4.4"))
    assert _client("10.0.0.1", *lines) == "198.51.100.1"
    # Every hop trusted: the first one is the client.
    assert _client("10.0.0.1", ("X-Forwarded-For", "192.168.1.1, 192.168.4.4")) == "192.168.1.1"
    # No header: the proxy itself.
    assert _client("10.0.0.1") == "10.0.0.1"


def test_forwarded_is_read_when_there_is_no_x_forwarded_for():
    header = ("Forwarded", 'for=1.2.3.4, for="[2001:db8::7]:4711";proto=https, for=192.168.0.9')
    assert _client("10.0.0.1", header) == "2001:db8::7"
    assert _client("10.0.0.1", ("Forwarded", "proto=https;for=198.51.100.1:8080")) == "198.51.100.1"
    # Both: X-Forwarded-For, which every common proxy writes, wins.
    both = (("Forwarded", "for=1.2.3.4"), ("X-Forwarded-For", "198.51.100.1"))
    assert _client("10.0.0.1", *both) == "198.51.100.1"


def test_an_address_is_one_spelling_and_a_name_is_kept_short_and_printable():
    assert _client("::ffff:10.0.0.1", ("X-Forwarded-For", "::ffff:198.51.100.1")) == "198.51.100.1"
    assert _client("::1", ("X-Forwarded-For", "2001:DB8:0::1")) == "2001:db8::1"
    assert _client("10.0.0.1", ("Forwarded", "for=unknown")) == "unknown"
    long = "x" * 500 + "\x1b[31m"
    assert _client("10.0.0.1", ("X-Forwarded-For", long)) == "x" * 64
    assert normal_address("[::1]:80") == "::1" and normal_address("not an address") is None


def test_trusted_proxies_are_addresses_or_networks():
    assert [str(network) for network in parse_trusted("127.0.0.1, 10.0.0.0/8,::1")] == [
        "127.0.0.1/32",
        "10.0.0.0/8",
        "::1/128",
    ]
    with pytest.raises(ValueError, match=r"'proxy\.example' is not an IP address"):
        parse_trusted("127.0.0.1,proxy.example")


def test_a_bad_trusted_proxy_is_one_line_and_a_usage_status():
    done = subprocess.run(
        [sys.executable, "-m", "flowbot", "serve", "--trusted-proxy", "127.0.0.1,nginx"],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 64, done.stderr
    assert "--trusted-proxy: 'nginx' is not an IP address or network" in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_the_fair_turns_count_worker_time_against_the_forwarded_client():
    import asyncio

    from aiohttp import web

    from flowbot.serve.app import TURNS, make_app, runner_options
    from tests.images import draw_board, png_bytes
    from tests.serve_helpers import multipart
    from tests.test_serve_service import BOARD

    async def scenario() -> tuple[float, float]:
        app = make_app(workers=1, trusted=parse_trusted("127.0.0.1"))
        runner = web.AppRunner(app, handle_signals=False, **runner_options())
        await runner.setup()
        try:
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            host, port = runner.addresses[0][:2]
            body, kind = multipart({"image": ("shot.png", png_bytes(draw_board(BOARD)))})
            reader, writer = await asyncio.open_connection(host, port)
            head = (
                f"POST /api/solve HTTP/1.1\r\nHost: t\r\nContent-Type: {kind}\r\n"
                f"Content-Length: {len(body)}\r\nX-Forwarded-For: 198.51.100.7\r\nConnection: close\r\n\r\n"
            )
            writer.write(head.encode() + body)
            answer = await asyncio.wait_for(reader.read(), 60)
            writer.close()
            assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
            return app[TURNS].used("198.51.100.7"), app[TURNS].used("127.0.0.1")
        finally:
            await runner.cleanup()

    forwarded, proxy = asyncio.run(scenario())
    assert forwarded > 0 and proxy == 0
