"""Soak `flowbot serve` under idle, slow and costly clients while real screenshots keep coming.

    .venv/bin/python scripts/soak_serve.py [--seconds 300] [--idle 200] [--costly 32]
        [--header-slow 500] [--workers N] [--proxy] [--clients N] [--json]

Starts the server from this checkout on 127.0.0.1 (a free port) and, for `--seconds`, keeps up:
`--idle` uploads that send their head and the start of the image, then one byte every 5 s;
`--costly` senders of a 24-megapixel black PNG of a few kilobytes, each sending it again once
answered; `--header-slow` sockets that send one header line every 5 s and never end their head;
and one steady client that uploads the shared screenshots with a truth board, one after another,
checking each answer. Attackers come from other loopback addresses (127.0.1.x to 127.0.3.x, a few
per address), as clients on a network would. Everything is bounded: the counts above, the time,
and a 60 s timeout per answer. It prints correct/total of the real uploads, their latency
(median, p95, max), the median of the server's own work on them (`elapsed`), the attackers'
answers by status, the server's peak memory (server and workers together), and whether it still
answers normally after, and whether the targets below were met. Status 1 when a real upload was
answered wrongly or not at all, or a target was missed.

With `--proxy`, every client goes through Debian's nginx (run from a temporary folder with the
`location` block of docs/serve.md, the page under /flowbot/) to a server started with
`--trusted-proxy 127.0.0.1`: each client connects from 127.0.0.1 and is told apart only by the
`X-Forwarded-For` it sends (198.18.x.y), which nginx passes on with its own hop added. `--clients N`
spreads the idle uploads over N clients (default: 4 each, under the server's cap of 6; more each
and the extra ones are refused, 429, and sent again after 5 s).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
from bench_serve import ROOT, MemorySampler, family, percentile, truth_screenshots

from flowbot.serve.app import parse_server_timing

sys.path.insert(0, str(ROOT))  # the nginx harness lives in tests/, shared with tests/test_serve_proxy.py
from tests.nginx_proxy import PREFIX, RunningProxy, nginx_binary, start_nginx

# Seconds between the bytes of a slow upload and the lines of a slow head.
TRICKLE = 5.0
# Attackers per loopback address: under the server's cap per address, as distinct clients would be.
PER_ADDRESS = 4
# What the server must keep to under all that (issue 24): seconds a real upload waits beyond its own
# work (p95; its work as the answer's `elapsed` says, the stricter measure), and peak memory in MB.
TARGET_BEYOND_WORK = 3.0
TARGET_PEAK_MB = 1000.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The soak's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300, help="how long (default 300)")
    parser.add_argument("--idle", type=int, default=200, help="idle or slow uploads kept open (default 200)")
    parser.add_argument("--costly", type=int, default=32, help="senders of costly pictures (default 32)")
    parser.add_argument("--header-slow", type=int, default=500, help="sockets with a slow head (default 500)")
    parser.add_argument("--workers", type=int, help="the server's --workers (default: its own)")
    parser.add_argument(
        "--proxy", action="store_true", help="every client through nginx, told apart by X-Forwarded-For"
    )
    parser.add_argument(
        "--clients", type=int, help=f"clients the idle uploads come from (default: {PER_ADDRESS} each)"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    return parser.parse_args(argv)


def start_server(workers: int | None, log, trusted: str | None = None) -> tuple[subprocess.Popen, str]:
    """`flowbot serve --port 0` on 127.0.0.1 from this checkout, its log to the file `log`, trusting the
    proxy `trusted` when given: the process and its base URL."""
    options = ["--workers", str(workers)] if workers else []
    options += ["--trusted-proxy", trusted] if trusted else []
    process = subprocess.Popen(
        [sys.executable, "-m", "flowbot", "serve", "--host", "127.0.0.1", "--port", "0", *options],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )
    found = re.search(r"(http://\S+?)/", process.stdout.readline())
    if found is None:
        process.kill()
        raise SystemExit("soak_serve: the server did not start")
    return process, found.group(1)


def costly_picture() -> bytes:
    """A PNG of 4898x4898 black pixels: a few kilobytes to send, 24 megapixels to decode."""
    ok, encoded = cv2.imencode(".png", np.zeros((4898, 4898), np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    assert ok
    return encoded.tobytes()


def multipart(name: str, data: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body with the file field `image`, and its content type."""
    boundary = "soak" + os.urandom(8).hex()
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def request_head(
    length: int, kind: str, close: bool = True, path: str = "/api/solve", fields: str = ""
) -> bytes:
    """The head of a POST to the API at `path`, with extra header lines `fields` ("Name: value\\r\\n")."""
    extra = "Connection: close\r\n" if close else ""
    return (
        f"POST {path} HTTP/1.1\r\nHost: soak\r\nContent-Type: {kind}\r\n"
        f"Content-Length: {length}\r\n{extra}{fields}\r\n"
    ).encode()


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, dict]:
    """The status and JSON body of one answer on a raw connection."""
    status, body, _ = await read_answer_and_head(reader)
    return status, body


async def read_answer_and_head(reader: asyncio.StreamReader) -> tuple[int, dict, dict[str, str]]:
    """The status, JSON body and header fields (lower-case names) of one answer on a raw connection."""
    head = await reader.readuntil(b"\r\n\r\n")
    pairs = (line.split(b":", 1) for line in head.split(b"\r\n")[1:] if b":" in line)
    fields = {name.strip().lower().decode(): value.strip().decode("latin-1") for name, value in pairs}
    body = await reader.readexactly(int(fields.get("content-length", "0")))
    return int(head.split()[1]), json.loads(body or b"{}"), fields


# The forwarded address of the real client behind the proxy (the attackers' are 198.18.BLOCK.N).
REAL_FORWARDED = "198.18.9.1"


class Soak:
    """The clients and what they saw. Through a proxy (`proxied`), the API is under its prefix and the
    clients are told apart by their X-Forwarded-For; else by the loopback address they send from."""

    def __init__(
        self, host: str, port: int, until: float, proxied: bool = False, clients: int | None = None
    ) -> None:
        self.host, self.port, self.until = host, port, until
        self.proxied, self.clients = proxied, clients
        self.path = PREFIX + "api/solve" if proxied else "/api/solve"
        self.statuses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.real: list[dict] = []
        self.lag: list[float] = []

    def number(self, block: int, index: int) -> int:
        """Which client attacker `index` of a kind (`block`) is: --clients of them for the idle uploads,
        else PER_ADDRESS attackers a client."""
        if block == 1 and self.clients:
            return index % self.clients
        return index // PER_ADDRESS

    def address(self, block: int, index: int) -> str | None:
        """The loopback address attacker `index` of a kind (`block`) sends from (through the proxy every
        client connects from 127.0.0.1)."""
        return None if self.proxied else f"127.0.{block}.{2 + self.number(block, index) % 250}"

    def forwarded(self, block: int, index: int) -> str:
        """The X-Forwarded-For line attacker `index` of a kind sends through the proxy (none direct)."""
        if not self.proxied:
            return ""
        number = self.number(block, index)
        return f"X-Forwarded-For: 198.18.{block * 10 + number // 250}.{1 + number % 250}\r\n"

    async def connect(self, source: str | None = None):
        """A raw connection to the server (or the proxy), from `source` when given."""
        local = (source, 0) if source else None
        return await asyncio.open_connection(self.host, self.port, local_addr=local)

    async def idle_upload(self, index: int) -> None:
        """Keep one slow upload open, byte by byte, starting a new one when the server ends it."""
        body, kind = multipart("slow.png", b"\x89PNG\r\n\x1a\n" + bytes(1_000_000))
        while time.monotonic() < self.until:
            try:
                reader, writer = await self.connect(self.address(1, index))
            except OSError:
                self.statuses["idle"]["connect failed"] += 1
                await asyncio.sleep(1)
                continue
            try:
                head = request_head(len(body), kind, path=self.path, fields=self.forwarded(1, index))
                writer.write(head + body[:200])
                answered = asyncio.ensure_future(read_answer(reader))
                sent = 200
                while not answered.done() and time.monotonic() < self.until:
                    await asyncio.wait([answered], timeout=TRICKLE)
                    if not answered.done():
                        writer.write(body[sent : sent + 1])
                        sent += 1
                if answered.done():
                    status, _ = answered.result()
                    self.statuses["idle"][status] += 1
                    if status == 429:  # over its client's cap: it tries again a little later
                        await asyncio.sleep(TRICKLE)
                else:
                    answered.cancel()
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.statuses["idle"]["closed"] += 1
            finally:
                writer.close()

    async def header_slow(self, index: int) -> None:
        """Keep one socket sending a header line every few seconds, never ending its head."""
        while time.monotonic() < self.until:
            try:
                reader, writer = await self.connect(self.address(2, index))
            except OSError:
                self.statuses["header-slow"]["connect failed"] += 1
                await asyncio.sleep(1)
                continue
            try:
                writer.write(
                    f"POST {self.path} HTTP/1.1\r\nHost: soak\r\n{self.forwarded(2, index)}".encode()
                )
                while time.monotonic() < self.until and not reader.at_eof():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(reader.read(1024), TRICKLE)
                    if reader.at_eof():
                        break
                    writer.write(b"X-Slow: 1\r\n")
                    await writer.drain()
                if reader.at_eof():
                    self.statuses["header-slow"]["closed by the server"] += 1
            except OSError:
                self.statuses["header-slow"]["closed by the server"] += 1
            finally:
                writer.close()

    async def costly(self, index: int, picture: bytes) -> None:
        """Send the costly picture again and again, each time once answered."""
        body, kind = multipart("black.png", picture)
        while time.monotonic() < self.until:
            try:
                reader, writer = await self.connect(self.address(3, index))
                head = request_head(len(body), kind, path=self.path, fields=self.forwarded(3, index))
                writer.write(head + body)
                status, _ = await asyncio.wait_for(read_answer(reader), 60)
                self.statuses["costly"][status] += 1
                writer.close()
            except (OSError, asyncio.IncompleteReadError, TimeoutError):
                self.statuses["costly"]["failed"] += 1
                await asyncio.sleep(1)

    async def steady(self, shots) -> None:
        """Upload the real screenshots one after another from 127.0.0.1 (through the proxy, as
        REAL_FORWARDED), checking each answer."""
        index = 0
        while time.monotonic() < self.until:
            self.real.append(await self.one_real(shots[index % len(shots)]))
            index += 1

    async def one_real(self, shot) -> dict:
        """One real upload: latency, the server's own work on it, and whether the board is the truth."""
        name, data, truth = shot
        body, kind = multipart(name, data)
        started = time.perf_counter()
        try:
            reader, writer = await self.connect()
            forwarded = f"X-Forwarded-For: {REAL_FORWARDED}\r\n" if self.proxied else ""
            writer.write(request_head(len(body), kind, path=self.path, fields=forwarded) + body)
            status, answer, fields = await asyncio.wait_for(read_answer_and_head(reader), 60)
            writer.close()
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as error:
            return {
                "name": name,
                "correct": False,
                "seconds": time.perf_counter() - started,
                "error": repr(error),
            }
        seconds = time.perf_counter() - started
        solved = {"flow": "solved", "numbermatch": "won"}.get(answer.get("game", "flow"))
        correct = status == 200 and answer.get("puzzle") == truth and answer.get("status") == solved
        # The server's own account (Server-Timing): receiving it, waiting for a worker, the worker's part.
        timing = parse_server_timing(fields.get("server-timing", ""))
        return {
            "name": name,
            "status": status,
            "correct": correct,
            "seconds": seconds,
            "work": answer.get("elapsed"),
            **{f"server_{part}": timing.get(part) for part in ("read", "queue", "work")},
        }

    async def watch_lag(self, every: float = 0.1) -> None:
        """How late this client's own event loop wakes (its share of a loaded machine): each oversleep."""
        loop = asyncio.get_running_loop()
        while time.monotonic() < self.until:
            asked = loop.time()
            await asyncio.sleep(every)
            self.lag.append(loop.time() - asked - every)


async def soak(host: str, port: int, args: argparse.Namespace, shots) -> Soak:
    """Run every client until the time is up."""
    state = Soak(host, port, time.monotonic() + args.seconds, args.proxy, args.clients)
    picture = costly_picture()
    tasks = [state.idle_upload(index) for index in range(args.idle)]
    tasks += [state.header_slow(index) for index in range(args.header_slow)]
    tasks += [state.costly(index, picture) for index in range(args.costly)]
    tasks.append(state.steady(shots))
    tasks.append(state.watch_lag())
    await asyncio.gather(*tasks)
    return state


async def answers_normally(host: str, port: int, shots, proxied: bool = False) -> bool:
    """After the soak: every real screenshot answered correctly, one at a time."""
    state = Soak(host, port, time.monotonic(), proxied)
    results = [await state.one_real(shot) for shot in shots[:5]]
    return all(result["correct"] for result in results)


def cpu_times(pids: list[int]) -> tuple[float, float]:
    """Seconds the processes' main threads (where the server's event loop and each worker's reading
    run) spent on a CPU and waiting for one while runnable, from /proc/PID/schedstat; gone ones count 0.
    Waiting about as long as running means each job took twice its CPU time: the machine's other work."""
    ran = waited = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/schedstat").read_text().split()
        except OSError:
            continue
        ran, waited = ran + int(fields[0]), waited + int(fields[1])
    return ran / 1e9, waited / 1e9


def main(argv: list[str] | None = None) -> int:
    """Run the soak and print the figures; status 1 when a real upload went wrong."""
    args = parse_args(argv)
    shots = truth_screenshots("classic")
    if not shots:
        print("soak_serve: no screenshots with a truth board in ../shared/screenshots", file=sys.stderr)
        return 2
    if args.proxy and nginx_binary() is None:
        print("soak_serve: --proxy needs Debian's nginx (scripts/bootstrap installs it)", file=sys.stderr)
        return 2
    with tempfile.TemporaryFile("w+") as log, tempfile.TemporaryDirectory(prefix="soak-nginx-") as folder:
        return soak_and_report(args, shots, log, Path(folder))


def soak_and_report(args: argparse.Namespace, shots, log, folder: Path) -> int:
    """Start the server with its log to `log` (and with --proxy nginx, its files in `folder`), soak it,
    stop it, and print what happened."""
    process, url = start_server(args.workers, log, "127.0.0.1" if args.proxy else None)
    host, port = url.removeprefix("http://").rsplit(":", 1)
    proxy: RunningProxy | None = None
    if args.proxy:
        try:
            proxy = start_nginx(folder, f"{host}:{port}")
        except RuntimeError:
            process.kill()
            raise
        port = str(proxy.port)
    sampler = MemorySampler(process.pid, every=0.1)
    sampler.start()
    server_pids, client_pids = family(process.pid), [os.getpid()]
    cpu_before = {name: cpu_times(pids) for name, pids in (("server", server_pids), ("client", client_pids))}
    try:
        state = asyncio.run(soak(host, int(port), args, shots))
        cpu = {
            name: [after - before for after, before in zip(cpu_times(pids), cpu_before[name], strict=True)]
            for name, pids in (("server", server_pids), ("client", client_pids))
        }
        after = asyncio.run(answers_normally(host, int(port), shots, args.proxy))
        sampler.stopping.set()
        sampler.join()
    finally:
        if proxy is not None:
            proxy.stop()
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    log.seek(0)
    said = log.read().splitlines()
    real = state.real
    seconds = [result["seconds"] for result in real]
    queued = [result["seconds"] - result["work"] for result in real if result.get("work") is not None]
    work = [result["work"] for result in real if result.get("work") is not None]
    wrong = [result for result in real if not result["correct"]]
    served = [result for result in real if result.get("server_work") is not None]

    def p95(values: list[float]) -> float | None:
        return round(percentile(values, 0.95), 3) if values else None

    summary = {
        "seconds": args.seconds,
        "proxy": "nginx" if args.proxy else None,
        "idle_clients": args.clients or -(-args.idle // PER_ADDRESS),
        "cores": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "real_correct": len(real) - len(wrong),
        "real_total": len(real),
        "latency_median": round(percentile(seconds, 0.5), 3) if seconds else None,
        "latency_p95": round(percentile(seconds, 0.95), 3) if seconds else None,
        "latency_max": round(max(seconds), 3) if seconds else None,
        "work_median": round(percentile(work, 0.5), 3) if work else None,
        "beyond_work_p95": round(percentile(queued, 0.95), 3) if queued else None,
        # By the server's own clock: its worker's whole part (decode, read, solve, draw, JSON, the trip
        # back), the time beyond it, and of that the wait for a worker's turn; the rest is outside the
        # handler (this client's loop, the connection, sending).
        "worker_median": round(percentile([r["server_work"] for r in served], 0.5), 3) if served else None,
        "beyond_worker_p95": p95([r["seconds"] - r["server_work"] for r in served]),
        "turn_wait_p95": p95([r["server_queue"] for r in served]),
        "receiving_p95": p95([r["server_read"] for r in served]),
        "outside_server_p95": p95(
            [r["seconds"] - r["server_read"] - r["server_queue"] - r["server_work"] for r in served]
        ),
        "client_loop_lag_p95": p95(state.lag),
        # Seconds the main threads spent on a CPU and waiting for one over the soak, from the kernel.
        "server_cpu_s": round(cpu["server"][0], 1),
        "server_cpu_wait_s": round(cpu["server"][1], 1),
        "client_cpu_s": round(cpu["client"][0], 1),
        "client_cpu_wait_s": round(cpu["client"][1], 1),
        "attackers": {kind: dict(counts) for kind, counts in state.statuses.items()},
        "server_peak_rss_mb": round(sampler.peak, 1),
        "answers_normally_after": after,
        "server_exit": process.returncode,
        "server_log_lines": len(said),
        "server_tracebacks": sum("Traceback" in line for line in said),
    }
    summary["targets_missed"] = missed_targets(summary)
    if args.json:
        print(json.dumps(summary, default=str))
    else:
        print(
            f"{args.seconds:g} s on {summary['cores']} cores (load {summary['load_average']:.2f})"
            f"{' through nginx' if args.proxy else ''}, {args.idle} idle uploads from "
            f"{summary['idle_clients']} clients: real uploads "
            f"{summary['real_correct']}/{summary['real_total']} correct; latency median "
            f"{summary['latency_median']} s, p95 {summary['latency_p95']} s, max {summary['latency_max']} s; "
            f"the server's own work median {summary['work_median']} s, "
            f"p95 beyond it {summary['beyond_work_p95']} s"
        )
        shown = summary
        print(
            f"  by the server's clock: worker's part median {shown['worker_median']} s, p95 beyond it "
            f"{shown['beyond_worker_p95']} s, of which waiting for a worker p95 {shown['turn_wait_p95']} s, "
            f"receiving p95 {shown['receiving_p95']} s, outside the server p95 "
            f"{shown['outside_server_p95']} s (this client's loop late p95 {shown['client_loop_lag_p95']} s)"
        )
        print(
            f"  CPU (main threads): server and workers ran {shown['server_cpu_s']} s and waited "
            f"{shown['server_cpu_wait_s']} s for one; this client ran {shown['client_cpu_s']} s and waited "
            f"{shown['client_cpu_wait_s']} s"
        )
        for kind, counts in summary["attackers"].items():
            print(f"  {kind}: " + ", ".join(f"{status} x{count}" for status, count in counts.items()))
        print(
            f"server peak memory (server and workers together): {summary['server_peak_rss_mb']} MB; "
            f"answers normally after: {after}; stopped with status {process.returncode}; server log "
            f"{len(said)} lines, {summary['server_tracebacks']} tracebacks"
        )
        print(
            f"targets (p95 beyond its own work under {TARGET_BEYOND_WORK:g} s, peak memory under "
            f"{TARGET_PEAK_MB:g} MB): {'missed' if summary['targets_missed'] else 'met'}"
        )
        for result in wrong:
            print(f"wrong or missing answer: {result}", file=sys.stderr)
    for target in summary["targets_missed"]:
        print(f"target missed: {target}", file=sys.stderr)
    return 1 if wrong or not after or summary["targets_missed"] else 0


def missed_targets(summary: dict) -> list[str]:
    """The targets the soak's figures missed, each in a sentence (none: all met)."""
    missed = []
    beyond = summary["beyond_work_p95"]
    if beyond is None or beyond >= TARGET_BEYOND_WORK:
        missed.append(f"p95 beyond its own work {beyond} s, not under {TARGET_BEYOND_WORK:g} s")
    if summary["server_peak_rss_mb"] >= TARGET_PEAK_MB:
        missed.append(f"peak memory {summary['server_peak_rss_mb']} MB, not under {TARGET_PEAK_MB:g} MB")
    return missed


if __name__ == "__main__":
    sys.exit(main())
