"""`flowbot serve` as a real server on a free port, talked to over HTTP: the page, the API, bad uploads."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from flowbot.serve import server as server_module
from flowbot.serve.app import MULTIPART_SLACK, PAGE_FILES, load_assets
from flowbot.serve.server import address_text
from flowbot.serve.service import MAX_UPLOAD_BYTES
from tests.images import draw_board, png_bytes
from tests.serve_helpers import ROOT, multipart, png_bomb, post_image, request, start_server
from tests.test_capture import SCREENSHOTS
from tests.test_serve_service import BOARD


@pytest.fixture(scope="module")
def server():
    """One server for the module; it must still be up at the end, and stop cleanly on SIGTERM."""
    running = start_server()
    yield running
    assert running.process.poll() is None, "the server died during the tests"
    status, out, _ = running.stop(signal.SIGTERM)
    assert status == 143
    assert "stopped (SIGTERM)" in out


def _alive(server) -> bool:
    """True when the server answers its health check and still solves a board."""
    status, body, _ = request(server, "GET", "/api/health")
    if status != 200 or json.loads(body) != {"status": "ok"}:
        return False
    status, answer = post_image(server, png_bytes(draw_board(BOARD)))
    return status == 200 and answer["puzzle"] == BOARD.to_rows()


def test_the_page_has_a_file_input_and_only_bundled_files(server):
    status, body, headers = request(server, "GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    page = body.decode()
    assert re.search(r'<input[^>]*type="file"', page)
    for name in PAGE_FILES:
        # Relative to the page, so that it works under a reverse proxy's path (tests/test_serve_proxy.py).
        assert f'"page/{name}"' in page
        status, asset, headers = request(server, "GET", f"/page/{name}")
        assert status == 200 and asset == load_assets()[name][0]
    # Works offline: no file of the page loads anything from another host.
    for name, (data, _) in load_assets().items():
        assert not re.search(rb"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", data), name
    assert "default-src 'self'" in headers["Content-Security-Policy"]


@pytest.mark.parametrize(
    "path", ["/page/index.html", "/page/../service.py", "/page/%2e%2e%2fapp.py", "/etc/passwd"]
)
def test_nothing_but_the_bundled_files_is_served(server, path):
    status, _, _ = request(server, "GET", path)
    assert status == 404


@pytest.mark.skipif(not SCREENSHOTS, reason="../shared/screenshots is not present")
@pytest.mark.parametrize(("image", "truth"), SCREENSHOTS, ids=[image.name for image, _ in SCREENSHOTS])
def test_every_real_screenshot_gives_its_truth_board(server, image, truth):
    status, answer = post_image(server, image.read_bytes(), image.name)
    assert status == 200, answer
    assert answer["puzzle"] == truth.read_text().split()
    assert answer["status"] == "solved"
    assert answer["overlay"].startswith("data:image/png;base64,")
    assert {hint["label"] for hint in answer["hints"]} == set(answer["paths"])
    assert answer["file"]["source"]["details"]["image"] == image.name


def _truncated_screenshot() -> bytes:
    """A real PNG cut in half, as an interrupted transfer leaves it."""
    data = png_bytes(draw_board(BOARD))
    return data[: len(data) // 2]


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [
        (b"A.B\n...\nB.A\n", 415, "not an image"),
        (b"", 400, "empty"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 100, 422, "cannot be decoded"),
        (png_bomb(), 413, "megapixel"),
        (b"\xff\xd8\xff" + bytes(64) + b"\xff\xd9", 422, "jpeg"),
    ],
    ids=["text", "empty", "bad-header", "bomb", "bad-jpeg"],
)
def test_bad_uploads_get_a_4xx_and_the_server_keeps_answering(server, data, status, words):
    got, answer = post_image(server, data)
    assert got == status
    assert set(answer) == {"error"} and words in answer["error"].lower()
    assert _alive(server)


def test_a_truncated_screenshot_is_refused(server):
    got, answer = post_image(server, _truncated_screenshot())
    assert got == 422 and "truncated" in answer["error"]
    assert _alive(server)


def test_a_picture_with_no_board_is_refused(server):
    got, answer = post_image(server, png_bytes(draw_board(BOARD)[:100, :100]))
    assert got == 422 and answer["error"]
    assert _alive(server)


def test_no_image_field_and_no_form_are_refused(server):
    body, kind = multipart({"picture": ("shot.png", png_bytes(draw_board(BOARD)))})
    status, answer, _ = request(server, "POST", "/api/solve", body, {"Content-Type": kind})
    assert status == 400 and 'no field "image"' in json.loads(answer)["error"]
    status, answer, _ = request(server, "POST", "/api/solve", b"image=abc", {"Content-Type": "text/plain"})
    assert status == 400 and "multipart" in json.loads(answer)["error"]
    garbage = {"Content-Type": "multipart/form-data"}
    status, answer, _ = request(server, "POST", "/api/solve", b"--x\r\ngarbage", garbage)
    assert 400 <= status < 500 and "error" in json.loads(answer)
    status, answer, _ = request(server, "GET", "/api/solve")
    assert status == 405 and "error" in json.loads(answer)
    assert _alive(server)


def test_an_upload_over_the_limit_is_refused_from_its_length(server):
    data = b"\x89PNG\r\n\x1a\n" + bytes(MAX_UPLOAD_BYTES + MULTIPART_SLACK)
    body, kind = multipart({"image": ("big.png", data)})
    connection = http.client.HTTPConnection(*server.host_port, timeout=60)
    try:
        # The answer comes from the headers alone: the body is never sent.
        connection.putrequest("POST", "/api/solve")
        connection.putheader("Content-Type", kind)
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 413 and "limit" in json.loads(response.read())["error"]
    finally:
        connection.close()
    assert _alive(server)


def test_a_chunked_upload_over_the_limit_is_cut_off(server):
    data = b"\x89PNG\r\n\x1a\n" + bytes(MAX_UPLOAD_BYTES)
    body, kind = multipart({"image": ("big.png", data)})
    connection = http.client.HTTPConnection(*server.host_port, timeout=60)
    try:
        pieces = (body[at : at + (1 << 20)] for at in range(0, len(body), 1 << 20))
        # The server may answer and close before the last chunk went out.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            connection.request("POST", "/api/solve", pieces, {"Content-Type": kind}, encode_chunked=True)
        response = connection.getresponse()
        assert response.status == 413 and "limit" in json.loads(response.read())["error"]
    finally:
        connection.close()
    assert _alive(server)


def test_a_client_that_hangs_up_mid_upload_does_not_hurt(server):
    body, kind = multipart({"image": ("shot.png", png_bytes(draw_board(BOARD)))})
    with socket.create_connection(server.host_port, timeout=10) as raw:
        head = f"POST /api/solve HTTP/1.1\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n\r\n"
        raw.sendall(head.encode() + body[: len(body) // 3])
    assert _alive(server)


def test_sigint_stops_the_server_cleanly():
    running = start_server()
    assert _alive(running)
    status, out, err = running.stop(signal.SIGINT)
    assert status == 130 and "stopped (SIGINT)" in out
    assert "Traceback" not in err


def test_a_port_in_use_is_one_line_and_status_64(server):
    _, port = server.host_port
    done = subprocess.run(
        [sys.executable, "-m", "flowbot", "serve", "--port", str(port)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 64
    assert done.stderr.startswith("flowbot: cannot listen on 127.0.0.1 port")
    assert "Traceback" not in done.stderr


def _qr_modules(text: str) -> np.ndarray:
    """The QR code a terminal shows as half blocks, as an image: a character holds two modules, one above
    the other; a lit half is a light module."""
    halves = {"█": (255, 255), "▀": (255, 0), "▄": (0, 255), " ": (0, 0)}
    lines = [line for line in text.splitlines() if line and set(line) <= set(halves)]
    width = max(len(line) for line in lines)
    picture = np.zeros((2 * len(lines), width), np.uint8)
    for row, line in enumerate(lines):
        for col, char in enumerate(line):
            picture[2 * row, col], picture[2 * row + 1, col] = halves[char]
    return cv2.resize(picture, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)


def test_a_phone_gets_the_address_and_a_qr_code_of_it(monkeypatch):
    monkeypatch.setattr(server_module, "lan_address", lambda: "192.168.1.20")
    text = address_text("0.0.0.0", 8123)
    assert text.startswith("flowbot serve: http://127.0.0.1:8123/\n")
    assert "open http://192.168.1.20:8123/" in text
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(_qr_modules(text))
    assert decoded == "http://192.168.1.20:8123/"


def _ascii_qr_modules(text: str) -> np.ndarray:
    """The QR code drawn in ASCII as an image: two characters a module, "##" a light one."""
    lines = [line for line in text.splitlines() if line and set(line) <= {"#", " "}]
    width = max(len(line) for line in lines) // 2
    picture = np.zeros((len(lines), width), np.uint8)
    for row, line in enumerate(lines):
        for col in range(width):
            picture[row, col] = 255 if line[2 * col : 2 * col + 2] == "##" else 0
    return cv2.resize(picture, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "cp1252"])
def test_a_terminal_without_block_characters_gets_the_qr_code_in_ascii(monkeypatch, encoding):
    monkeypatch.setattr(server_module, "lan_address", lambda: "192.168.1.20")
    text = address_text("0.0.0.0", 8123, encoding)
    text.encode(encoding)  # writable there
    assert "open http://192.168.1.20:8123/" in text and "█" not in text
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(_ascii_qr_modules(text))
    assert decoded == "http://192.168.1.20:8123/"


@pytest.mark.parametrize(
    "env",
    [
        {"PYTHONIOENCODING": "latin-1"},
        # The C locale as Python leaves it when told not to coerce it to UTF-8: an ASCII stdout.
        {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0", "PYTHONIOENCODING": None},
        {"LC_ALL": "en_US.ISO-8859-1", "LANG": "en_US.ISO-8859-1", "PYTHONIOENCODING": "iso-8859-1"},
    ],
    ids=["latin-1-stdout", "c-locale", "iso-8859-1-locale"],
)
def test_serve_for_a_phone_listens_in_a_locale_that_is_not_utf8(monkeypatch, env):
    running = start_server("--host", "0.0.0.0", "--workers", "1", env=env)
    try:
        status, body, _ = request(running, "GET", "/api/health")
        assert status == 200 and json.loads(body) == {"status": "ok"}
    finally:
        status, out, err = running.stop(signal.SIGTERM)
    assert status == 143 and "Traceback" not in err, err
    assert "█" not in out
    if "or scan:" in out:  # a machine with a network address: its QR code, drawn in ASCII
        assert "  ####" in out


def test_the_default_host_is_this_computer_only():
    text = address_text("127.0.0.1", 8000)
    assert "only this computer" in text and "█" not in text
    assert address_text("::1", 8000).startswith("flowbot serve: http://[::1]:8000/")


def _children(pid: int) -> list[int]:
    """The process's children, from /proc."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_the_workers_end_with_a_server_killed_outright():
    running = start_server("--workers", "2")
    workers = _children(running.process.pid)
    assert len(workers) >= 2
    running.stop(signal.SIGKILL)
    deadline = time.monotonic() + 20
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "worker processes outlived their server"
