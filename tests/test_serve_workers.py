"""The worker processes of `flowbot serve`: answers and errors come back, a crash costs one request."""

from __future__ import annotations

import asyncio
import os
import pickle

import pytest

from flowbot.errors import CaptureError
from flowbot.serve.service import RefusedUpload
from flowbot.serve.workers import WorkerCrashed, Workers


def _die() -> None:
    """A worker dying as a crash in native code would kill it."""
    os._exit(11)


def _refuse() -> None:
    raise RefusedUpload("too big", 413)


def _unreadable() -> None:
    raise CaptureError("no board found")


def test_a_refusal_keeps_its_status_across_processes():
    again = pickle.loads(pickle.dumps(RefusedUpload("too big", 413)))
    assert (str(again), again.http_status) == ("too big", 413)


def test_answers_errors_and_a_crash_in_a_worker():
    async def scenario():
        workers = Workers(1)
        try:
            await workers.warm()
            assert await workers.run(pow, 2, 10) == 1024
            with pytest.raises(RefusedUpload) as refused:
                await workers.run(_refuse)
            assert refused.value.http_status == 413
            with pytest.raises(CaptureError, match="no board"):
                await workers.run(_unreadable)
            with pytest.raises(WorkerCrashed):
                await workers.run(_die)
            # The pool is made anew: the next request is answered.
            assert await workers.run(pow, 3, 3) == 27
        finally:
            workers.close()

    asyncio.run(scenario())


def test_uploads_past_the_pending_limit_get_503_and_json():
    from aiohttp import ClientSession, FormData
    from aiohttp.test_utils import TestServer

    from flowbot.serve.app import make_app

    async def scenario():
        async with TestServer(make_app(workers=1, max_pending=0)) as server, ClientSession() as session:
            form = FormData()
            form.add_field("image", b"\x89PNG\r\n\x1a\n", filename="shot.png")
            async with session.post(server.make_url("/api/solve"), data=form) as response:
                assert response.status == 503
                assert "busy" in (await response.json())["error"]
            async with session.get(server.make_url("/api/health")) as response:
                assert response.status == 200

    asyncio.run(scenario())
