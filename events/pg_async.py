"""PostgreSQL's append awaited on the event loop: no thread per command.

A command whose decision needs nothing from the store (the match's setup and live fold are in
memory) can be decided on the event loop; what it still needs is its append. Handing that to a
thread costs more CPU than the rest of the command (each hand-over takes the GIL back and forth
between the loop and the thread), so :class:`AsyncAppends` sends the very statement of
:mod:`events.pg_append` (``APPEND``, the same parameters) over a psycopg ``AsyncConnection``
from a pool of its own, opened on the serving event loop at the app's start.

Its connections are set up as the engine's (autocommit, time zone UTC). One that lay unused in
the pool for ``events.engine.PING_AFTER`` seconds is pinged before use (a dead one is replaced);
a disconnect in use makes the pool check all its idle connections, as the engine's pool replaces
every connection older than such a failure.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout
from sqlalchemy.engine import URL
from sqlalchemy.exc import OperationalError

from events import engine
from events.envelope import NewEvent, StoredEvent
from events.pg_append import APPEND, placed, prepared

_RETURNED = "adjudicator_returned_at"
ACQUIRE_SECONDS = 0.5
"""How long an append waits for a pooled connection before it leaves the append to the usual
path: the pool, when the server is down, would wait for it to come back."""


class AsyncAppends:
    """Appends over async connections to the database at ``url``: at most ``size`` of them,
    in a pool that serves the one event loop it was opened on (:meth:`open`, at the app's
    start, and :meth:`close`, at its end). ``origin`` names the store in the NOTIFY
    (``events.notify``); ``appended(match_id, stored)`` runs after each append."""

    def __init__(
        self,
        url: URL,
        size: int,
        origin: str,
        appended: Callable[[str, list[StoredEvent]], None],
    ) -> None:
        self.conninfo = engine.libpq_url(url)
        self.size = size
        self.origin = origin
        self._appended = appended
        self._pool: AsyncConnectionPool | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def open(self) -> None:
        """Open the pool for the running event loop (once)."""
        if self._pool is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._pool = AsyncConnectionPool(
            self.conninfo,
            min_size=1,
            max_size=self.size,
            kwargs={"autocommit": True},
            configure=_configure,
            check=_check_if_idle,
            reset=_returned,
            open=False,
        )
        await self._pool.open()

    async def close(self) -> None:
        """Close the pool, when called on its loop (an app served by two loops at once, as
        by two test clients, has the pool on the first; the second's end leaves it be)."""
        if not self.serves():
            return
        pool, self._pool, self._loop = self._pool, None, None
        if pool is not None:
            await pool.close()

    def serves(self) -> bool:
        """Whether the running event loop is the one the pool was opened on."""
        return self._pool is not None and self._loop is asyncio.get_running_loop()

    async def append(
        self,
        match_id: str,
        expected_seq: int,
        batch: Sequence[NewEvent],
        *,
        now: datetime,
        head: tuple[str, datetime],
        idempotency_key: str | None,
        request_digest: str | None,
    ) -> list[StoredEvent] | None:
        """``batch`` appended after ``expected_seq`` (whose hash and record time are ``head``),
        as stored; None when the claim was refused (another append came first, or the match
        is closed or unknown), when an idempotency key already recorded for the match made the
        statement fail whole (the events' unique key), or when no connection came within
        ``ACQUIRE_SECONDS``: nothing was written, and the caller's usual path explains it.
        Call only where :meth:`serves`. A lost connection raises SQLAlchemy's
        ``OperationalError``."""
        pool = self._pool
        assert pool is not None and self.serves(), "open() on this event loop first"
        sealed, params = prepared(
            match_id, expected_seq, batch, head, now, idempotency_key, request_digest, False,
            self.origin,
        )  # fmt: skip
        try:
            conn = await pool.getconn(timeout=ACQUIRE_SECONDS)
        except PoolTimeout:
            return None  # nothing sent; the usual path connects itself (or fails at once)
        try:
            cursor = await conn.execute(APPEND, params)
            stored = placed(sealed, await cursor.fetchall())
        except psycopg.OperationalError as error:
            asyncio.get_running_loop().create_task(pool.check())  # drop the other dead ones
            raise OperationalError("append", None, error) from error
        except psycopg.Error:
            return None  # refused whole (a recorded key): nothing written
        finally:
            await pool.putconn(conn)
        if stored is not None:
            self._appended(match_id, stored)
        return stored


async def _configure(conn: psycopg.AsyncConnection[Any]) -> None:
    await conn.execute("SET TIME ZONE 'UTC'")  # as the engine's sessions (events.engine)


async def _returned(conn: psycopg.AsyncConnection[Any]) -> None:
    """Nothing to reset (autocommit): note when it came back."""
    setattr(conn, _RETURNED, time.monotonic())


async def _check_if_idle(conn: psycopg.AsyncConnection[Any]) -> None:
    """Ping a connection that lay unused for ``PING_AFTER`` seconds or more (raising, the pool
    discards it and hands out another)."""
    returned = getattr(conn, _RETURNED, None)
    if returned is not None and time.monotonic() - returned >= engine.PING_AFTER:
        await conn.execute("SELECT 1")
