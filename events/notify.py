"""Wake-ups across replicas. On PostgreSQL every append sends ``NOTIFY`` on one channel with
``<match id>:<last seq>:<origin>`` as payload, from its own statement (``events.pg_append``),
so it is delivered at commit; ``origin`` is the appending store instance's
:attr:`events.EventStore.origin`, so a process can tell its own appends (which it hands to its
streams with their data, see ``EventStore.on_append``) from other replicas'. A
:class:`Listener` per process (a task on its event loop) turns those into callbacks, while the
process has streams open. A wake-up carries no events: readers catch up by seq, so a lost one
only delays an update until the next poll.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import psycopg
from sqlalchemy.engine import URL

from events.engine import libpq_url

CHANNEL = "adjudicator_events"
PROBE_SECONDS = 5.0
"""A listening connection silent this long is probed (and replaced if it does not answer)."""


class Listener:
    """LISTENs on the channel from a task on the serving event loop and calls
    ``on_wake(payload)`` for each notification; reconnects after a lost connection.

    It listens only while ``wanted()`` says so (the process has streams to wake): the server
    spends a delivery on every notification, one per append of every replica, and this
    process's own appends (most of them) are of no use to it. When it begins to listen it calls
    ``on_listening()``: whatever was appended before its ``LISTEN`` took effect is read then, so
    nothing is missed in between. :meth:`poke` (thread-safe) says that ``wanted()`` may have
    turned true (a first stream opened); otherwise it looks every ``timeout`` seconds. On the
    loop, not in a thread: a thread woken per append took the GIL from the loop each time."""

    def __init__(
        self,
        url: URL,
        on_wake: Callable[[str], None],
        timeout: float = 0.25,
        *,
        wanted: Callable[[], bool] = lambda: True,
        on_listening: Callable[[], None] = lambda: None,
    ) -> None:
        self.conninfo = libpq_url(url)
        self.on_wake = on_wake
        self.timeout = timeout
        self.wanted = wanted
        self.on_listening = on_listening
        self._loop: asyncio.AbstractEventLoop | None = None
        self._poked: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start listening on this loop; return once it listens, or is idle for want of
        streams (or after 10 s: it keeps trying)."""
        self._loop, self._poked = asyncio.get_running_loop(), asyncio.Event()
        ready = asyncio.Event()
        self._task = self._loop.create_task(self._run(ready, self._poked))
        with suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 10)

    def poke(self) -> None:
        """``wanted()`` may now be true: look at once (from any thread)."""
        loop, poked = self._loop, self._poked
        if loop is not None and poked is not None:
            with suppress(RuntimeError):  # the loop has closed: nothing listens any more
                loop.call_soon_threadsafe(poked.set)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task

    async def _run(self, ready: asyncio.Event, poked: asyncio.Event) -> None:
        while True:
            if not self.wanted():
                ready.set()
                poked.clear()
                with suppress(TimeoutError):
                    await asyncio.wait_for(poked.wait(), self.timeout)
                continue
            try:
                await self._listen(ready)
            except psycopg.Error:
                await asyncio.sleep(1.0)  # the server went away: try again shortly

    async def _listen(self, ready: asyncio.Event) -> None:
        """LISTEN until a lost connection (raising ``psycopg.Error``) or no stream wants it.
        With a cluster's multi-host URL the connection goes to the primary (``target_session_
        attrs=read-write``), where the appends NOTIFY; after a failover the new one is found on
        the next connect, and ``on_listening`` has every stream re-read its tail. A connection
        that carried nothing for ``PROBE_SECONDS`` is probed: a server that vanished without
        closing it (a machine lost) would otherwise keep this listening to nothing."""
        async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            ready.set()
            self.on_listening()
            heard = time.monotonic()
            while self.wanted():
                async for note in conn.notifies(timeout=self.timeout):
                    heard = time.monotonic()
                    self.on_wake(note.payload)
                if time.monotonic() - heard >= PROBE_SECONDS:
                    await _probe(conn)
                    heard = time.monotonic()


async def _probe(conn: psycopg.AsyncConnection[Any]) -> None:
    """``SELECT 1`` answered within ``PROBE_SECONDS``, else the connection is closed and
    ``psycopg.OperationalError`` raised. Not by cancelling the query: psycopg would then wait
    for the server to confirm, which a vanished server never does."""
    probe = asyncio.ensure_future(conn.execute("SELECT 1"))
    await asyncio.wait({probe}, timeout=PROBE_SECONDS)
    if probe.done():
        probe.result()  # a lost connection's error, if any
        return
    await conn.close()  # takes no lock (the probe holds the connection's)
    probe.cancel()
    with suppress(asyncio.CancelledError, psycopg.Error):
        await probe
    raise psycopg.OperationalError("the server did not answer a probe in time")
