"""Whose upload a free worker takes next: addresses in turn, not first come first served."""

from __future__ import annotations

import asyncio

from flowbot.serve.turns import Turns


def _order(arrivals: list[str], slots: int = 1) -> list[str]:
    """The order in which jobs from the given addresses (arriving in that order) get their turn."""

    async def scenario():
        turns, started = Turns(slots), []
        gate = asyncio.Event()

        async def job(index: int, client: str) -> None:
            async with turns.turn(client):
                started.append(f"{client}{index}")
                await gate.wait()
                gate.clear()

        tasks = [asyncio.ensure_future(job(index, client)) for index, client in enumerate(arrivals)]
        await asyncio.sleep(0)
        while not all(task.done() for task in tasks):
            gate.set()
            await asyncio.sleep(0.001)
        return started

    return asyncio.run(scenario())


def test_one_address_with_many_jobs_does_not_go_before_a_newcomer():
    # Eight uploads from one address, then one from another: the newcomer waits for one turn of the
    # address that was waiting before it, not for all seven.
    order = _order(["a"] * 8 + ["b"])
    assert order[:3] == ["a0", "a1", "b8"]
    assert sorted(order) == [*sorted(f"a{index}" for index in range(8)), "b8"]


def test_addresses_take_turns():
    assert _order(["a", "a", "a", "b", "b", "c"]) == ["a0", "a1", "b3", "c5", "a2", "b4"]


def test_a_waiter_that_gives_up_leaves_no_hole():
    async def scenario():
        turns = Turns(1)
        hold = asyncio.Event()

        async def job(client: str) -> str:
            async with turns.turn(client):
                await hold.wait()
            return client

        first = asyncio.ensure_future(job("a"))
        quitter = asyncio.ensure_future(job("b"))
        last = asyncio.ensure_future(job("c"))
        await asyncio.sleep(0.01)
        quitter.cancel()
        await asyncio.sleep(0.01)
        hold.set()
        assert await first == "a" and await last == "c"
        assert turns.free == 1

    asyncio.run(scenario())
