"""The PostgreSQL listener hears other replicas' appends only while it is wanted (the process
has streams open), and when it begins it says so, for what came before to be read."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from sqlalchemy import text

from events import EventStore
from events.notify import CHANNEL, Listener


def _notify(store: EventStore, payload: str) -> None:
    with store.engine.connect() as conn:
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload}
        )
        conn.commit()


def _wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


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
    listener.start()
    try:
        _notify(pg_store, "m:1:elsewhere")
        time.sleep(0.2)
        assert (heard, began) == ([], [])  # not listening: nothing to wake
        wanted.set()
        listener.poke()
        _wait_for(lambda: began == [0])  # it listens now, and says so before any notice
        _notify(pg_store, "m:2:elsewhere")
        _wait_for(lambda: heard == ["m:2:elsewhere"])
        wanted.clear()
        time.sleep(1.0)  # it stops within its timeout (0.05 s), here with room to spare
        _notify(pg_store, "m:3:elsewhere")
        time.sleep(0.2)
        assert heard == ["m:2:elsewhere"]
        wanted.set()
        listener.poke()
        _wait_for(lambda: began == [0, 1])  # it begins again, and says so again
    finally:
        listener.stop()
