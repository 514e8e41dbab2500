"""The PostgreSQL listener hears other replicas' appends only while it is wanted (the process
has streams open), and when it begins it says so, for what came before to be read."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from sqlalchemy import text

from events import EventStore
from events.notify import CHANNEL, Listener
from tests.support.loops import run


def _notify(store: EventStore, payload: str) -> None:
    with store.engine.connect() as conn:
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload}
        )
        conn.commit()


async def _wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_the_listener_hears_only_while_wanted_and_says_when_it_begins(
    pg_store: EventStore,
) -> None:
    wanted = threading.Event()
    heard: list[str] = []
    began: list[int] = []
    listener = Listener(
        pg_store.engine.url,
        heard.append,
        timeout=0.05,
        wanted=wanted.is_set,
        on_listening=lambda: began.append(len(heard)),
    )

    async def notify(payload: str) -> None:
        await asyncio.to_thread(_notify, pg_store, payload)

    async def scenario() -> None:
        await listener.start()
        try:
            await notify("m:1:elsewhere")
            await asyncio.sleep(0.2)
            assert (heard, began) == ([], [])  # not listening: nothing to wake
            wanted.set()
            listener.poke()
            await _wait_for(lambda: began == [0])  # it listens now, and says so before any notice
            await notify("m:2:elsewhere")
            await _wait_for(lambda: heard == ["m:2:elsewhere"])
            wanted.clear()
            await asyncio.sleep(1.0)  # it stops within its timeout (0.05 s), with room to spare
            await notify("m:3:elsewhere")
            await asyncio.sleep(0.2)
            assert heard == ["m:2:elsewhere"]
            wanted.set()
            await asyncio.to_thread(listener.poke)  # from another thread too
            await _wait_for(lambda: began == [0, 1])  # it begins again, and says so again
        finally:
            await listener.stop()

    run(scenario())
