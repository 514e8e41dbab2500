"""The streams' wake-ups: every stream woken, a few at a time, after the loop's other requests
(for at most ``MAX_DEFER``), and once more for an append that came during a sweep."""

from __future__ import annotations

import asyncio

import pytest

from api.http.inflight import InFlight
from api.service import fanout
from api.service.fanout import Quiet, Sweep
from tests.support import loops


def streams(count: int) -> list[asyncio.Event]:
    return [asyncio.Event() for _ in range(count)]


async def settle(turns: int = 50) -> None:
    for _ in range(turns):
        await asyncio.sleep(0)


def test_a_sweep_wakes_every_stream_a_few_at_a_time() -> None:
    async def run() -> list[int]:
        woken = streams(3 * fanout.CHUNK + 1)
        sweep = Sweep(lambda: woken, Quiet())
        sweep.kick()
        counts = []
        for _ in range(5):
            await asyncio.sleep(0)
            counts.append(sum(event.is_set() for event in woken))
        await settle()
        assert all(event.is_set() for event in woken)
        return counts

    counts = loops.run(run())
    assert counts[0] <= fanout.CHUNK  # not all at once
    assert counts == sorted(counts) and counts[-1] == 3 * fanout.CHUNK + 1


def test_a_sweep_waits_for_the_requests_in_flight() -> None:
    async def run() -> None:
        quiet = Quiet()
        woken = streams(2)
        quiet.enter()
        Sweep(lambda: woken, quiet).kick()
        await settle()
        assert not any(event.is_set() for event in woken)  # a command is in flight
        quiet.leave()
        await settle()
        assert all(event.is_set() for event in woken)

    loops.run(run())


def test_a_sweep_waits_no_longer_than_max_defer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fanout, "MAX_DEFER", 0.02)

    async def run() -> None:
        quiet = Quiet()
        woken = streams(2)
        quiet.enter()  # and never leaves: a steady load of commands
        Sweep(lambda: woken, quiet).kick()
        await asyncio.sleep(0.005)
        assert not any(event.is_set() for event in woken)
        await asyncio.sleep(0.05)
        assert all(event.is_set() for event in woken)

    loops.run(run())


def test_a_kick_during_a_sweep_asks_for_another() -> None:
    async def run() -> int:
        woken = streams(2 * fanout.CHUNK)
        looked = 0

        def subscribers() -> list[asyncio.Event]:
            nonlocal looked
            looked += 1
            return woken

        sweep = Sweep(subscribers, Quiet())
        sweep.kick()
        await asyncio.sleep(0)
        for event in woken:  # the streams took what they had and wait again
            event.clear()
        sweep.kick()
        sweep.kick()  # two kicks in one sweep: one more sweep
        await settle()
        assert all(event.is_set() for event in woken)
        return looked

    assert loops.run(run()) == 2


def test_quiet_counts_the_requests_of_each_loop() -> None:
    quiet = Quiet()

    async def run() -> tuple[int, int]:
        quiet.enter()
        quiet.enter()
        quiet.leave()
        busy = quiet.busy()
        quiet.leave()
        return busy, quiet.busy()

    assert loops.run(run()) == (1, 0)
    assert loops.run(run()) == (1, 0)  # another loop: its own count and event


def test_every_request_but_a_stream_counts_while_it_runs() -> None:
    quiet = Quiet()
    seen: list[int] = []

    async def app(scope: object, receive: object, send: object) -> None:
        seen.append(quiet.busy())

    async def run(path: str) -> None:
        await InFlight(app, quiet)({"type": "http", "path": path}, None, None)  # type: ignore[arg-type]
        seen.append(quiet.busy())

    loops.run(run("/matches/m/commands"))
    loops.run(run("/matches/m/stream"))
    assert seen == [1, 0, 0, 0]
