"""Run the web app until Ctrl-C or SIGTERM, telling where to open it (and a QR code for a phone)."""

from __future__ import annotations

import asyncio
import ipaddress
import os
import signal
import socket
import sys
from typing import TextIO

from flowbot.errors import UsageError
from flowbot.serve.clients import Network

# Seconds a stopping server gives answers in progress before closing their connections.
SHUTDOWN_GRACE = 5.0


def serve(
    host: str,
    port: int,
    *,
    workers: int | None = None,
    trusted: tuple[Network, ...] = (),
    out: TextIO | None = None,
) -> int:
    """Serve until Ctrl-C (status 130) or SIGTERM (143); UsageError when the address cannot be listened on.
    From the `trusted` proxies' networks, the client is the one their forwarding headers name."""
    workers = workers or min(4, os.cpu_count() or 1)
    return asyncio.run(_serve(host, port, workers, trusted, out or sys.stdout))


async def _serve(host: str, port: int, workers: int, trusted: tuple[Network, ...], out: TextIO) -> int:
    """Start the site, print the addresses, wait for a stop signal, and close everything cleanly."""
    from aiohttp import web

    from flowbot.serve.app import make_app, runner_options

    app = make_app(workers=workers, trusted=trusted)
    runner = web.AppRunner(app, handle_signals=False, **runner_options())
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port, shutdown_timeout=SHUTDOWN_GRACE)
        try:
            await site.start()
        except OSError as error:
            raise UsageError(
                f"cannot listen on {host} port {port}: {error.strerror or error} (choose another --port "
                "or --host)"
            ) from None
        bound_port = runner.addresses[0][1]
        out.write(address_text(host, bound_port, getattr(out, "encoding", None) or "utf-8"))
        out.flush()
        received = await _wait_for_stop()
    finally:
        await runner.cleanup()
    out.write(f"flowbot serve: stopped ({signal.Signals(received).name})\n")
    out.flush()
    return 128 + received


async def _wait_for_stop() -> int:
    """Wait for SIGINT or SIGTERM and return its number; the handlers are removed again."""
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[int] = loop.create_future()
    watched = []
    for number in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(number, lambda number=number: stop.done() or stop.set_result(number))
        except NotImplementedError:  # Windows' event loop has none: Ctrl-C still cancels asyncio.run's task
            continue
        watched.append(number)
    try:
        return await stop
    finally:
        for number in watched:
            loop.remove_signal_handler(number)


def address_text(host: str, port: int, encoding: str = "utf-8") -> str:
    """What the terminal shows on start: the address to open, and for a phone its address and QR code
    (drawn in ASCII when the terminal's `encoding` has no block characters)."""
    lines = [f"flowbot serve: http://{_url_host(host)}:{port}/"]
    if _is_any(host):
        phone = lan_address()
        if phone is None:
            lines.append("  no network address found: a phone can open it at this computer's address")
        else:
            url = f"http://{_url_host(phone)}:{port}/"
            lines.append(f"  on a phone on the same network, open {url} or scan:")
            lines.append(qr_text(url) if _encodable(QR_BLOCKS, encoding) else qr_ascii(url))
    elif _is_loopback(host):
        lines.append("  only this computer can open it; --host 0.0.0.0 lets a phone on the network in")
    lines.append("  Ctrl-C stops it")
    return "\n".join(lines) + "\n"


def lan_address() -> str | None:
    """This computer's IPv4 address on its network (the one a phone on the same Wi-Fi reaches), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            # Connecting a UDP socket sends nothing: it only asks the kernel which address would be used.
            probe.connect(("192.0.2.1", 9))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith(("0.", "127.")) else address


# The characters a QR code is drawn with in a terminal that can show them.
QR_BLOCKS = "█▀▄ "


def _encodable(text: str, encoding: str) -> bool:
    """True when the text can be written in the encoding (a Latin-1 or ASCII terminal has no blocks)."""
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def qr_ascii(text: str) -> str:
    """A QR code of the text in plain ASCII, for any terminal: two characters per module, a light one
    drawn as "##" (as the block version lights them, for a dark terminal), a dark one as two spaces."""
    import segno

    rows = segno.make(text, error="m").matrix_iter(scale=1, border=2)
    return "\n".join("".join("  " if dark else "##" for dark in row) for row in rows)


def qr_text(text: str) -> str:
    """A QR code of the text drawn with block characters for a terminal (two modules per character)."""
    import io

    import segno

    buffer = io.StringIO()
    segno.make(text, error="m").terminal(out=buffer, compact=True, border=2)
    return buffer.getvalue().rstrip("\n")


def _is_any(host: str) -> bool:
    """True for an address that listens on every interface (0.0.0.0, ::)."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def _is_loopback(host: str) -> bool:
    """True for 127.0.0.1, ::1 and localhost."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _url_host(host: str) -> str:
    """The host as it goes in a URL: IPv6 in brackets; an any-address shown as the loopback one."""
    if _is_any(host):
        host = "127.0.0.1" if ":" not in host else "::1"
    return f"[{host}]" if ":" in host else host
