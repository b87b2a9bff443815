"""The web application of `flowbot serve`: the page, its two bundled files, and `POST /api/solve`.

Everything served is in memory from the package (no CDN, no file path taken from a request); uploads
are read into memory with a byte limit and analysed in worker processes, so the event loop keeps
answering while boards are read and solved.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources

from aiohttp import web

from flowbot.errors import FlowbotError
from flowbot.serve.clients import Network, client_address
from flowbot.serve.service import MAX_UPLOAD_BYTES, RefusedUpload, analysed_json
from flowbot.serve.turns import Turns
from flowbot.serve.workers import WorkerCrashed, Workers

log = logging.getLogger(__name__)

# The page's files, served from memory by name; nothing else under /page/ exists.
PAGE_FILES = {
    "page.js": "text/javascript",
    "page.css": "text/css",
}

# Room for the multipart envelope around the image (boundaries, headers, a few small fields).
MULTIPART_SLACK = 64 * 1024

# A form has one file; a client that sends many parts is not the page.
MAX_PARTS = 8

# Uploads being received, waiting or being analysed at once; past this the server answers 503 instead
# of queueing without bound. Slow senders count here until their read deadline ends them.
MAX_PENDING = 256

# Of those, at most this many from one client address (a page sends one at a time): one client cannot
# hold every slot with idle uploads (429).
MAX_PENDING_PER_CLIENT = 6

# Bytes of uploads held in memory at once, received or waiting for a worker; past it, 503.
MAX_BUFFERED_BYTES = 256 * 2**20

# The page loads its script and style from this server only and sends nowhere else.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; style-src 'self'; "
        "connect-src 'self' blob:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """How long a client may take to send an upload: a request's head within `head` seconds of
    connecting (or of its last answer), its body within `grace` seconds plus one second per `rate`
    bytes received, and never more than `whole` seconds in all."""

    head: float = 10.0
    grace: float = 10.0
    rate: float = 32 * 1024
    whole: float = 30.0

    def body_deadline(self, started: float, received: int) -> float:
        """The loop time by which the body must be in, `received` bytes of it having come since `started`."""
        return started + min(self.whole, self.grace + received / self.rate)


@dataclass
class Pending:
    """The uploads being received or analysed now, by client address, and how many may be."""

    limit: int
    per_client: int = MAX_PENDING_PER_CLIENT
    max_bytes: int = MAX_BUFFERED_BYTES
    count: int = 0
    buffered: int = 0
    by_client: dict[str, int] = field(default_factory=dict)

    def refusal(self, client: str) -> tuple[str, int] | None:
        """Why one more upload from `client` is refused now (message, HTTP status), or None."""
        if self.count >= self.limit:
            return "the server is busy with other screenshots: try again in a moment", 503
        if self.by_client.get(client, 0) >= self.per_client:
            busy = f"{self.per_client} uploads from your address are already in progress"
            return f"{busy}: wait for their answers", 429
        return None

    def enter(self, client: str) -> None:
        """Count one more upload from `client`."""
        self.count += 1
        self.by_client[client] = self.by_client.get(client, 0) + 1

    def leave(self, client: str, held: int) -> None:
        """Count one upload from `client` as done, and its `held` bytes as freed."""
        self.count -= 1
        self.buffered -= held
        left = self.by_client[client] - 1
        if left:
            self.by_client[client] = left
        else:
            del self.by_client[client]

    def hold(self, size: int) -> None:
        """Count `size` more bytes held in memory; RefusedUpload (503) past the budget."""
        if self.buffered + size > self.max_bytes:
            raise RefusedUpload("the server is busy with other screenshots: try again in a moment", 503)
        self.buffered += size


WORKERS = web.AppKey("workers", Workers)
PENDING = web.AppKey("pending", Pending)
LIMITS = web.AppKey("limits", ReadLimits)
TURNS = web.AppKey("turns", Turns)
ASSETS = web.AppKey("assets", dict)
TRUSTED = web.AppKey("trusted", tuple)


def make_app(
    *,
    workers: int = 2,
    max_pending: int = MAX_PENDING,
    per_client: int = MAX_PENDING_PER_CLIENT,
    limits: ReadLimits = ReadLimits(),
    trusted: tuple[Network, ...] = (),
) -> web.Application:
    """The application: `/`, `/page/NAME`, `POST /api/solve`, `GET /api/health`; `workers` analyse at
    once; from the `trusted` proxies' networks, the client is the one their forwarding headers name.
    The head deadline (`limits.head`) is the runner's: see `runner_options`."""
    app = web.Application(middlewares=[_headers_and_json_errors], client_max_size=MULTIPART_SLACK)
    app[WORKERS] = Workers(workers)
    app[TURNS] = Turns(workers)  # the pool never queues: each upload waits here for its address's turn
    app[PENDING] = Pending(max_pending, per_client)
    app[LIMITS] = limits
    app[ASSETS] = load_assets()
    app[TRUSTED] = tuple(trusted)
    app.router.add_get("/", _page)
    app.router.add_get("/page/{name}", _asset)
    app.router.add_post("/api/solve", _solve)
    app.router.add_get("/api/health", _health)
    app.on_startup.append(_start_workers)
    app.on_cleanup.append(_stop_workers)
    return app


def runner_options(limits: ReadLimits = ReadLimits()) -> dict:
    """The AppRunner's options that bound a connection: aiohttp closes one that has not sent a whole
    request head within its keep-alive time, counted from the connection or from its last answer."""
    return {"keepalive_timeout": limits.head, "access_log": None}


def load_assets() -> dict[str, tuple[bytes, str]]:
    """The bundled page files: name to (bytes, content type); `index.html` is the page itself."""
    folder = resources.files("flowbot.serve") / "page"
    types = {"index.html": "text/html", **PAGE_FILES}
    return {name: ((folder / name).read_bytes(), kind) for name, kind in types.items()}


async def _page(request: web.Request) -> web.Response:
    """The page."""
    body, kind = request.app[ASSETS]["index.html"]
    return web.Response(body=body, content_type=kind, charset="utf-8")


async def _asset(request: web.Request) -> web.Response:
    """One of the page's bundled files, by name from a fixed list."""
    found = request.app[ASSETS].get(request.match_info["name"])
    if found is None or request.match_info["name"] == "index.html":
        raise web.HTTPNotFound()
    body, kind = found
    return web.Response(body=body, content_type=kind, charset="utf-8")


async def _health(request: web.Request) -> web.Response:
    """A cheap answer that shows the server is up."""
    return web.json_response({"status": "ok"})


async def _solve(request: web.Request) -> web.Response:
    """Analyse the multipart field `image` off the event loop; JSON always, 4xx with `error` if bad."""
    pending = request.app[PENDING]
    # Behind a reverse proxy every peer is the proxy: the caps, the turns and the logs key on the
    # client it forwarded for, or one client's uploads would lock every other out (429).
    client = client_address(request.remote, request.headers, request.app[TRUSTED])
    refused = pending.refusal(client)
    if refused is not None:
        return _error(*refused)
    pending.enter(client)
    held = 0
    clock = asyncio.get_running_loop().time
    started = clock()
    try:
        try:
            data, name = await read_within_deadline(request)
        except RefusedUpload as error:
            return _error(str(error), error.http_status)
        except ClientGone as gone:
            log.warning("%s hung up mid-upload (%s)", client, gone)
            return _error("the upload stopped before its end", 400)
        held = len(data)
        try:
            pending.hold(held)
        except RefusedUpload as error:
            held = 0
            return _error(str(error), error.http_status)
        read = clock()
        try:
            async with request.app[TURNS].turn(client) as turn:
                granted = clock()
                body = await request.app[WORKERS].run(analysed_json, data, name)
                done = clock()
                turn.answered = True
        except RefusedUpload as error:
            return _error(str(error), error.http_status)
        except WorkerCrashed as error:
            log.error("%s (%d bytes from %s)", error, len(data), client)
            return _error(f"{error}: flowbot cannot read it", 500)
        except FlowbotError as error:
            return _error(str(error), 422)
        except Exception:  # a reader bug must cost one answer, never the server
            log.exception("analysing an upload failed")
            return _error("flowbot failed on this screenshot (an internal error; see the server's log)", 500)
        timing = server_timing(read=read - started, queue=granted - read, work=done - granted)
        return web.Response(
            body=body,
            content_type="application/json",
            charset="utf-8",
            headers={"Cache-Control": "no-store", "Server-Timing": timing},
        )
    finally:
        pending.leave(client, held)


def server_timing(**seconds: float) -> str:
    """A Server-Timing header (milliseconds): where an answer's time went, so a client (the soak
    benchmark, a browser's network panel) can tell waiting for a worker from the work itself."""
    return ", ".join(f"{name};dur={value * 1000:.1f}" for name, value in seconds.items())


def parse_server_timing(header: str) -> dict[str, float]:
    """The seconds of each part named in a Server-Timing header (entries without a duration left out)."""
    found = re.findall(r"([\w-]+)\s*;\s*dur=([0-9.]+)", header)
    return {name: float(value) / 1000 for name, value in found}


class ClientGone(Exception):
    """The client closed its connection before its upload was all sent."""


async def read_within_deadline(request: web.Request) -> tuple[bytes, str | None]:
    """`read_image_field` within the app's ReadLimits: RefusedUpload (408) for a client too slow,
    ClientGone for one that hung up."""
    limits = request.app[LIMITS]
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        async with asyncio.timeout_at(limits.body_deadline(started, 0)) as deadline:

            def received(count: int) -> None:
                deadline.reschedule(limits.body_deadline(started, count))

            return await read_image_field(request, received)
    except TimeoutError:
        raise RefusedUpload(
            f"the upload came too slowly (more than {limits.grace:g} s plus one second per "
            f"{limits.rate / 1024:g} KB, or {limits.whole:g} s in all): send it again",
            408,
        ) from None
    except (ConnectionError, web.RequestPayloadError) as error:
        raise ClientGone(str(error) or type(error).__name__) from None


async def read_image_field(
    request: web.Request, received: Callable[[int], None] = lambda count: None
) -> tuple[bytes, str | None]:
    """The bytes and file name of the multipart field `image`, read within the limit; else RefusedUpload.
    `received` is told the byte count of the image as it grows."""
    length = request.content_length
    if length is not None and length > MAX_UPLOAD_BYTES + MULTIPART_SLACK:
        raise RefusedUpload(
            f"the upload is {length / 1e6:.1f} MB, over the {MAX_UPLOAD_BYTES // 2**20} MB limit", 413
        )
    if request.content_type != "multipart/form-data":
        raise RefusedUpload('send the screenshot as a multipart/form-data upload with a field "image"', 400)
    try:
        reader = await request.multipart()
        for _ in range(MAX_PARTS):
            part = await reader.next()
            if part is None:
                break
            if getattr(part, "name", None) != "image":
                await _skip(part)
                continue
            return await _read_limited(part, received), getattr(part, "filename", None)
    except RefusedUpload:
        raise
    except (ValueError, AssertionError, RuntimeError, asyncio.IncompleteReadError) as error:
        raise RefusedUpload(f"the upload is not a well-formed multipart form ({error})", 400) from None
    raise RefusedUpload('the upload has no field "image": send the screenshot in a field named image', 400)


async def _read_limited(part, received: Callable[[int], None] = lambda count: None) -> bytes:
    """A part's bytes, refused (413) as soon as they pass the upload limit; `received` told the count."""
    data = bytearray()
    while chunk := await part.read_chunk(256 * 1024):
        data += chunk
        received(len(data))
        if len(data) > MAX_UPLOAD_BYTES:
            raise RefusedUpload(f"the file is over the {MAX_UPLOAD_BYTES // 2**20} MB limit", 413)
    return bytes(data)


async def _skip(part) -> None:
    """Read past a part that is not the image, keeping none of it beyond the limit."""
    if hasattr(part, "read_chunk"):
        await _read_limited(part)
    else:  # a nested multipart: not something the page sends
        raise RefusedUpload("nested multipart forms are not accepted", 400)


def _error(message: str, status: int) -> web.Response:
    """A JSON error answer: {"error": message}."""
    return web.json_response({"error": message}, status=status, headers={"Cache-Control": "no-store"})


@web.middleware
async def _headers_and_json_errors(request: web.Request, handler) -> web.StreamResponse:
    """Security headers on every answer; errors under /api/ as JSON, like the API's own."""
    try:
        response = await handler(request)
    except web.HTTPException as error:
        if not request.path.startswith("/api/") or error.status < 400:
            raise
        response = _error(error.reason.lower() if error.reason else f"HTTP {error.status}", error.status)
    response.headers.update(SECURITY_HEADERS)
    return response


async def _start_workers(app: web.Application) -> None:
    """Start the worker processes before the first upload comes."""
    await app[WORKERS].warm()


async def _stop_workers(app: web.Application) -> None:
    """Let the workers go: queued uploads are dropped, running ones end within the solve limit."""
    app[WORKERS].close()
