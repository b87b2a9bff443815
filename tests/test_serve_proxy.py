"""`flowbot serve --trusted-proxy` behind a real reverse proxy: Debian's nginx, started by the test from the
`location` block docs/serve.md gives, under the path /flowbot/. Clients reach nginx from different
loopback addresses (127.0.0.2, 127.0.0.3), as people on a network would; every one of them reaches
flowbot from nginx's address. Skipped when nginx is not installed (scripts/bootstrap installs it).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import selectors
import signal
import socket
import time
from urllib.parse import urljoin, urlsplit

import pytest

from flowbot.serve.app import MAX_PENDING_PER_CLIENT, ReadLimits, load_assets
from tests.images import draw_board, png_bytes
from tests.nginx_proxy import PREFIX, nginx_binary, start_nginx
from tests.serve_helpers import multipart, start_server
from tests.test_serve_service import BOARD

pytestmark = pytest.mark.skipif(nginx_binary() is None, reason="Debian's nginx is not installed")

ALICE, BOB, CAROL = "127.0.0.2", "127.0.0.3", "127.0.0.4"
API = "/api/solve"


@pytest.fixture(scope="module")
def behind(tmp_path_factory):
    """(server, proxy): `flowbot serve --trusted-proxy 127.0.0.1` with one worker, and nginx before it."""
    server = start_server("--trusted-proxy", "127.0.0.1", "--workers", "1")
    host, port = server.host_port
    proxy = start_nginx(tmp_path_factory.mktemp("nginx"), f"{host}:{port}")
    yield server, proxy
    proxy.stop()
    status, _, err = server.stop(signal.SIGTERM)
    assert status == 143 and "Traceback" not in err


def _request(port: int, method: str, path: str, source: str, body=None, headers=None, timeout: float = 60):
    """One HTTP request to 127.0.0.1:`port` from the loopback address `source`: (status, body, headers)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        connection.close()


def _upload(port: int, path: str, source: str, headers: dict | None = None) -> tuple[int, dict]:
    """A whole upload of the test board from `source`: (status, JSON answer)."""
    body, kind = multipart({"image": ("shot.png", png_bytes(draw_board(BOARD)))})
    status, answer, _ = _request(port, "POST", path, source, body, {"Content-Type": kind, **(headers or {})})
    return status, json.loads(answer)


def _idle_upload(port: int, path: str, source: str, headers: dict | None = None) -> socket.socket:
    """An upload that sends its head and the start of its body, then nothing: it stays in progress."""
    body, kind = multipart({"image": ("slow.png", b"\x89PNG\r\n\x1a\n" + bytes(100_000))})
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    head = (
        f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
        f"{extra}\r\n"
    )
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    sock.sendall(head.encode() + body[:300])
    return sock


def _once_all_are_in(upload, since: float) -> tuple[int, dict]:
    """The answer to `upload()` once the idle uploads sent at `since` (monotonic) are all in the
    server's count: on a loaded machine the last may still be on its way through nginx, and an upload
    let in meanwhile is answered (200), so it is sent again until refused. The server drops an idle
    upload `grace` seconds after its body began, so retrying is only worth it well within that."""
    deadline = since + ReadLimits().grace - 3.0
    while True:
        status, answer = upload()
        if status != 200 or time.monotonic() > deadline:
            return status, answer
        time.sleep(0.2)


def test_one_client_behind_the_proxy_cannot_lock_out_another(behind):
    _, proxy = behind
    since = time.monotonic()
    idle = [_idle_upload(proxy.port, PREFIX + "api/solve", ALICE) for _ in range(MAX_PENDING_PER_CLIENT)]
    try:
        # The one holding its six is capped, however it dresses its headers...
        forged = {"X-Forwarded-For": "198.51.100.7"}
        upload = lambda: _upload(proxy.port, PREFIX + "api/solve", ALICE, forged)  # noqa: E731
        status, answer = _once_all_are_in(upload, since)
        assert status == 429 and "from your address" in answer["error"]
        # ...while another client through the same proxy is answered in full.
        status, answer = _upload(proxy.port, PREFIX + "api/solve", BOB)
        assert status == 200 and answer["puzzle"] == BOARD.to_rows(), answer
    finally:
        for sock in idle:
            sock.close()


def test_forwarding_headers_from_a_peer_that_is_not_the_proxy_are_ignored(behind):
    server, _ = behind
    _, port = server.host_port
    # Straight to flowbot, each upload claiming another client: all are one client, the peer. It is a
    # client of its own: the uploads other tests sent through nginx may still be in the server's count
    # for a moment after they hung up, and these would then be refused, not idle.
    since = time.monotonic()
    idle = [
        _idle_upload(port, "/api/solve", CAROL, {"X-Forwarded-For": f"198.51.100.{index}"})
        for index in range(MAX_PENDING_PER_CLIENT)
    ]
    try:
        for forged in ({"X-Forwarded-For": "203.0.113.1"}, {"Forwarded": "for=203.0.113.2"}):
            status, answer = _once_all_are_in(lambda forged=forged: _upload(port, API, CAROL, forged), since)
            assert status == 429 and "from your address" in answer["error"], (forged, status, answer)
    finally:
        for sock in idle:
            sock.close()


def _log_until(server, pattern: str, timeout: float = 20) -> str:
    """The server's log (stderr) read as it comes until a line matches `pattern`, or the timeout ends."""
    fd = server.process.stderr.fileno()
    os.set_blocking(fd, False)
    said = b""
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while not re.search(pattern, said.decode(errors="replace")) and time.monotonic() < deadline:
            if selector.select(max(0.0, deadline - time.monotonic())):
                said += os.read(fd, 65536) or b""
    return said.decode(errors="replace")


def test_the_log_names_the_client_behind_the_proxy(behind):
    server, proxy = behind
    sock = _idle_upload(proxy.port, PREFIX + "api/solve", BOB)
    time.sleep(0.5)
    sock.close()  # hangs up mid-upload: nginx drops its upstream connection, the server logs it
    said = _log_until(server, re.escape(f"{BOB} hung up mid-upload"))
    assert f"{BOB} hung up mid-upload" in said, said
    assert "127.0.0.1 hung up" not in said, said  # the proxy's own address is nobody's


def test_the_page_and_every_url_it_uses_work_under_the_proxy_prefix(behind):
    _, proxy = behind
    status, page, _ = _request(proxy.port, "GET", PREFIX, BOB)
    assert status == 200 and b"<input" in page
    assets = load_assets()
    used = re.findall(r'(?:href|src)="([^"#][^"]*)"', page.decode())
    assert {url.rsplit("/", 1)[-1] for url in used} >= {"page.css", "page.js"}, used
    for url in used:
        if url.startswith("data:"):
            continue
        # Resolved against the page's address, as the browser does: each stays under the prefix.
        path = urlsplit(urljoin(proxy.url, url)).path
        assert path.startswith(PREFIX), url
        status, body, _ = _request(proxy.port, "GET", path, BOB)
        assert status == 200 and body == assets[url.rsplit("/", 1)[-1]][0], url
    # The script posts the screenshot where its fetch() points, from the page's address too.
    (api,) = re.findall(r'fetch\("([^"]+)"', assets["page.js"][0].decode())
    path = urlsplit(urljoin(proxy.url, api)).path
    assert path == PREFIX + "api/solve", api
    status, answer = _upload(proxy.port, path, BOB)
    assert status == 200 and answer["puzzle"] == BOARD.to_rows()
