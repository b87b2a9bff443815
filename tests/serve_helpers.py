"""A real `flowbot serve` on a free port, and plain HTTP to talk to it, for the server and browser tests."""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import selectors
import signal
import struct
import subprocess
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The server's first line says where it listens; port 0 lets the system pick a free one.
_ADDRESS = re.compile(r"flowbot serve: (http://[^/\s]+)/")


@dataclass
class RunningServer:
    """A server process and its base URL (no trailing slash)."""

    process: subprocess.Popen
    url: str

    @property
    def host_port(self) -> tuple[str, int]:
        """(host, port) for http.client."""
        host, port = self.url.removeprefix("http://").rsplit(":", 1)
        return host, int(port)

    def stop(self, number: int = signal.SIGTERM, timeout: float = 30) -> tuple[int, str, str]:
        """Send a signal and wait: (exit status, rest of stdout, stderr)."""
        if self.process.poll() is None:
            self.process.send_signal(number)
        try:
            out, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, err = self.process.communicate()
        return self.process.returncode, out, err


def start_server(*options: str, timeout: float = 60, env: dict[str, str] | None = None) -> RunningServer:
    """Start `python -m flowbot serve --port 0` from this checkout and wait for its address line; `env`
    adds to (or, with None values, removes from) the environment it runs in."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **(env or {})}
    env = {name: value for name, value in env.items() if value is not None}
    process = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "serve", "--port", "0", *options],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(timeout):
            process.kill()
            raise RuntimeError(f"flowbot serve printed nothing in {timeout} s: {process.communicate()}")
    line = process.stdout.readline()
    found = _ADDRESS.search(line)
    if found is None:
        process.kill()
        out, err = process.communicate()
        raise RuntimeError(f"flowbot serve did not start: {line}{out}{err}")
    return RunningServer(process, found.group(1))


def multipart(fields: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    """A multipart/form-data body of file fields {name: (file name, bytes)} and its content type."""
    boundary = "flowbot-" + secrets.token_hex(12)
    chunks = []
    for name, (filename, data) in fields.items():
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        )
        chunks += [head.encode(), data, b"\r\n"]
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def request(
    server: RunningServer,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict | None = None,
    timeout: float = 60,
) -> tuple[int, bytes, dict]:
    """One HTTP request on a new connection: (status, body, headers)."""
    connection = http.client.HTTPConnection(*server.host_port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        connection.close()


def post_image(server: RunningServer, data: bytes, filename: str = "shot.png", field: str = "image"):
    """POST one file to /api/solve: (status, decoded JSON answer)."""
    body, kind = multipart({field: (filename, data)})
    status, answer, _ = request(server, "POST", "/api/solve", body, {"Content-Type": kind})
    return status, json.loads(answer)


def png_bomb(side: int = 20_000) -> bytes:
    """A valid PNG of side x side black pixels (1-bit grey) that compresses to a few dozen kilobytes."""
    raw = zlib.compress((b"\x00" + bytes((side + 7) // 8)) * side, 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")
