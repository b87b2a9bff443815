"""Whose upload a free worker takes next: addresses in turn, not first come first served."""

from __future__ import annotations

import asyncio

from flowbot.serve.turns import Turns


def _order(arrivals: list[str], slots: int = 1) -> list[str]:
    """The order in which jobs from the given addresses (arriving in that order) get their turn."""

    async def scenario():
        now = [0.0]
        turns, started = Turns(slots, clock=lambda: now[0]), []
        gate = asyncio.Event()

        async def job(index: int, client: str) -> None:
            async with turns.turn(client):
                started.append(f"{client}{index}")
                await gate.wait()
                gate.clear()
                now[0] += 1.0  # each job takes a second of worker time

        tasks = [asyncio.ensure_future(job(index, client)) for index, client in enumerate(arrivals)]
        await asyncio.sleep(0)
        while not all(task.done() for task in tasks):
            gate.set()
            await asyncio.sleep(0.001)
        return started

    return asyncio.run(scenario())


def test_one_address_with_many_jobs_does_not_go_before_a_newcomer():
    # Eight uploads from one address, then one from another: the newcomer, who has used no worker
    # time, goes next, not ninth.
    order = _order(["a"] * 8 + ["b"])
    assert order[:3] == ["a0", "b8", "a1"]
    assert sorted(order) == [*sorted(f"a{index}" for index in range(8)), "b8"]


def test_addresses_take_turns_by_the_worker_time_they_used():
    assert _order(["a", "a", "a", "b", "b", "c"]) == ["a0", "b3", "c5", "a1", "b4", "a2"]


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


def test_an_address_that_used_the_workers_lately_waits_behind_one_that_did_not():
    async def scenario():
        now = [0.0]
        turns, started = Turns(1, clock=lambda: now[0]), []
        hold = asyncio.Event()

        async def job(client: str, seconds: float, wait: bool = False) -> None:
            async with turns.turn(client):
                started.append(client)
                if wait:
                    await hold.wait()
                now[0] += seconds  # the worker time this job takes

        # A greedy address has used 30 s of worker time; then, while its next job runs, it and a
        # person both wait, the greedy one first.
        await job("greedy", 30.0)
        holder = asyncio.ensure_future(job("greedy", 1.0, wait=True))
        await asyncio.sleep(0)
        greedy = asyncio.ensure_future(job("greedy", 1.0))
        await asyncio.sleep(0)
        person = asyncio.ensure_future(job("person", 1.0))
        await asyncio.sleep(0)
        hold.set()
        await asyncio.gather(holder, greedy, person)
        assert started == ["greedy", "greedy", "person", "greedy"]
        assert turns.used("person") < turns.used("greedy")

    asyncio.run(scenario())


def test_worker_time_that_gave_no_answer_counts_more_than_time_that_did():
    # A script's pictures that read as nothing and a person's screenshots, each having used the
    # workers as long: the person goes first (the soak's costly senders, spread over many addresses,
    # each used the workers as much as the one real client and kept it waiting behind most of them).
    async def scenario():
        now = [0.0]
        turns, started = Turns(1, clock=lambda: now[0]), []
        hold = asyncio.Event()

        async def job(client: str, answered: bool, wait: bool = False) -> None:
            async with turns.turn(client) as turn:
                started.append(client)
                if wait:
                    await hold.wait()
                now[0] += 2.0
                turn.answered = answered

        await job("script", answered=False)
        await job("person", answered=True)
        holder = asyncio.ensure_future(job("other", answered=True, wait=True))
        await asyncio.sleep(0)
        script = asyncio.ensure_future(job("script", answered=False))
        await asyncio.sleep(0)
        person = asyncio.ensure_future(job("person", answered=True))
        await asyncio.sleep(0)
        hold.set()
        await asyncio.gather(holder, script, person)
        assert started[2:] == ["other", "person", "script"]

    asyncio.run(scenario())
