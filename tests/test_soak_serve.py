"""scripts/soak_serve.py, briefly: a few attackers of each kind, the real uploads all answered and
checked, where their time went by the server's clock, and a status that says whether targets were met."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.nginx_proxy import nginx_binary

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not (SHARED / "screenshots").is_dir(), reason="needs ../shared/screenshots")
def test_a_short_soak_answers_every_real_upload_and_says_where_the_time_went():
    soaked = subprocess.run(
        [sys.executable, "scripts/soak_serve.py", "--seconds", "8", "--idle", "4", "--costly", "4",
         "--header-slow", "4", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=240, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    summary = json.loads(soaked.stdout)
    assert summary["real_total"] > 0 and summary["real_correct"] == summary["real_total"], summary
    assert summary["answers_normally_after"] and summary["server_tracebacks"] == 0
    assert summary["attackers"]["costly"].get("422"), summary["attackers"]  # read shrunk, no board
    # Each part of a real upload's time, by the server's clock, within the latency the client saw.
    parts = ("turn_wait_p95", "receiving_p95", "outside_server_p95", "beyond_worker_p95", "worker_median")
    assert all(summary[part] is not None for part in parts), summary
    assert summary["server_cpu_s"] > 0 and summary["server_cpu_wait_s"] >= 0
    assert soaked.returncode == (1 if summary["targets_missed"] else 0), soaked.stderr
    assert all(line.startswith("target missed: ") for line in soaked.stderr.splitlines()), soaked.stderr


@pytest.mark.skipif(not (SHARED / "screenshots").is_dir(), reason="needs ../shared/screenshots")
@pytest.mark.skipif(nginx_binary() is None, reason="Debian's nginx is not installed")
def test_a_short_soak_through_nginx_keeps_each_forwarded_client_to_its_own_cap():
    # Two clients behind the proxy, each with more idle uploads than its cap: their extra ones are
    # refused (429), and the real client behind the same proxy is answered every time.
    soaked = subprocess.run(
        [sys.executable, "scripts/soak_serve.py", "--seconds", "8", "--idle", "16", "--clients", "2",
         "--costly", "0", "--header-slow", "2", "--proxy", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=240, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    summary = json.loads(soaked.stdout)
    assert summary["proxy"] == "nginx" and summary["idle_clients"] == 2
    assert summary["real_total"] > 0 and summary["real_correct"] == summary["real_total"], summary
    assert summary["attackers"]["idle"].get("429"), summary["attackers"]
    assert summary["answers_normally_after"] and summary["server_tracebacks"] == 0
