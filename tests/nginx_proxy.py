"""Debian's nginx as a real reverse proxy in front of `flowbot serve`, run unprivileged from a temporary
folder on a free port, with the very `location` block docs/serve.md tells users to write (the tests
and scripts/soak_serve.py use it; installed by scripts/bootstrap).
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "serve.md"

# The path the docs' block puts the page under, and the upstream address it names.
PREFIX = "/flowbot/"
DOCS_UPSTREAM = "127.0.0.1:8000"


def nginx_binary() -> str | None:
    """Debian's nginx, or None when it is not installed."""
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None


def docs_location_block() -> str:
    """The nginx `location` block of docs/serve.md (the first ```nginx fence)."""
    found = re.search(r"```nginx\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)
    if found is None:
        raise AssertionError("docs/serve.md shows no ```nginx block")
    return found.group(1)


def free_port() -> int:
    """A port nobody listens on now (the system's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def nginx_config(folder: Path, port: int, upstream: str, connections: int = 4096) -> str:
    """A whole nginx.conf: one process of the invoking user (no master, no privileges, no daemon), every
    file in `folder`, listening on 127.0.0.1:`port` with the docs' block pointed at `upstream`."""
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temps = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in kinds)
    location = docs_location_block().replace(DOCS_UPSTREAM, upstream)
    return f"""daemon off;
master_process off;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections {connections}; }}
http {{
    access_log off;
{temps}
    server {{
        listen 127.0.0.1:{port};
{location}
    }}
}}
"""


@dataclass
class RunningProxy:
    """An nginx process and the base URL of the page through it (ending in the prefix)."""

    process: subprocess.Popen
    port: int
    folder: Path

    @property
    def url(self) -> str:
        """The page's address through the proxy."""
        return f"http://127.0.0.1:{self.port}{PREFIX}"

    def log(self) -> str:
        """nginx's error log so far."""
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Stop nginx (SIGTERM: a fast shutdown) and wait for it."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_nginx(folder: Path, upstream: str, timeout: float = 15, connections: int = 4096) -> RunningProxy:
    """nginx in front of `upstream` (host:port), its files in `folder`, once it accepts connections;
    RuntimeError with its log when it does not start."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx is not installed (scripts/bootstrap installs Debian's)")
    folder.mkdir(parents=True, exist_ok=True)
    for attempt in range(3):  # a free port can be taken between asking and listening
        port = free_port()
        config = folder / "nginx.conf"
        config.write_text(nginx_config(folder, port, upstream, connections))
        process = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(config), "-e", str(folder / "error.log")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        proxy = RunningProxy(process, port, folder)
        deadline = time.monotonic() + timeout
        while process.poll() is None and time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return proxy
            except OSError:
                time.sleep(0.05)
        proxy.stop()
        if attempt == 2 or "Address already in use" not in proxy.log():
            break
    raise RuntimeError(f"nginx did not start: {proxy.log()}")
