"""The web application of `flowbot serve`: the page, its two bundled files, and `POST /api/solve`.

Everything served is in memory from the package (no CDN, no file path taken from a request); uploads
are read into memory with a byte limit and analysed in worker processes, so the event loop keeps
answering while boards are read and solved.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from importlib import resources

from aiohttp import web

from flowbot.errors import FlowbotError
from flowbot.serve.service import MAX_UPLOAD_BYTES, RefusedUpload, analysed_json
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

# Uploads waiting or being analysed at once; past this the server answers 503 instead of queueing
# without bound (each waiting upload holds up to MAX_UPLOAD_BYTES of memory).
MAX_PENDING = 64

# The page loads its script and style from this server only and sends nowhere else.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; style-src 'self'; "
        "connect-src 'self' blob:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass
class Pending:
    """How many uploads are being read or analysed now, and how many may be."""

    count: int
    limit: int


WORKERS = web.AppKey("workers", Workers)
PENDING = web.AppKey("pending", Pending)
ASSETS = web.AppKey("assets", dict)


def make_app(*, workers: int = 2, max_pending: int = MAX_PENDING) -> web.Application:
    """The application: `/`, `/page/NAME`, `POST /api/solve`, `GET /api/health`; `workers` analyse at once."""
    app = web.Application(middlewares=[_headers_and_json_errors], client_max_size=MULTIPART_SLACK)
    app[WORKERS] = Workers(workers)
    app[PENDING] = Pending(0, max_pending)
    app[ASSETS] = load_assets()
    app.router.add_get("/", _page)
    app.router.add_get("/page/{name}", _asset)
    app.router.add_post("/api/solve", _solve)
    app.router.add_get("/api/health", _health)
    app.on_startup.append(_start_workers)
    app.on_cleanup.append(_stop_workers)
    return app


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
    if pending.count >= pending.limit:
        return _error("the server is busy with other screenshots: try again in a moment", 503)
    pending.count += 1
    try:
        try:
            data, name = await read_image_field(request)
        except RefusedUpload as error:
            return _error(str(error), error.http_status)
        try:
            body = await request.app[WORKERS].run(analysed_json, data, name)
        except RefusedUpload as error:
            return _error(str(error), error.http_status)
        except WorkerCrashed as error:
            log.error("%s (%d bytes)", error, len(data))
            return _error(f"{error}: flowbot cannot read it", 500)
        except FlowbotError as error:
            return _error(str(error), 422)
        except Exception:  # a reader bug must cost one answer, never the server
            log.exception("analysing an upload failed")
            return _error("flowbot failed on this screenshot (an internal error; see the server's log)", 500)
        return web.Response(
            body=body, content_type="application/json", charset="utf-8", headers={"Cache-Control": "no-store"}
        )
    finally:
        pending.count -= 1


async def read_image_field(request: web.Request) -> tuple[bytes, str | None]:
    """The bytes and file name of the multipart field `image`, read within the limit; else RefusedUpload."""
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
            return await _read_limited(part), getattr(part, "filename", None)
    except RefusedUpload:
        raise
    except (ValueError, AssertionError, RuntimeError, asyncio.IncompleteReadError) as error:
        raise RefusedUpload(f"the upload is not a well-formed multipart form ({error})", 400) from None
    raise RefusedUpload('the upload has no field "image": send the screenshot in a field named image', 400)


async def _read_limited(part) -> bytes:
    """A part's bytes, refused (413) as soon as they pass the upload limit."""
    data = bytearray()
    while chunk := await part.read_chunk(256 * 1024):
        data += chunk
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
