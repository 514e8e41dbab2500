"""SQLite's append awaited on the event loop: one writer thread, and group commit.

A command whose decision needs nothing from the store is decided on the event loop (as on
PostgreSQL, :mod:`events.pg_async`); what it still needs is its append. SQLite lets one writer
in at a time, and with ``synchronous=FULL`` every commit waits for the disk. So instead of a
thread per command, each taking the write lock and flushing alone, :class:`SqliteAppends` hands
the appends to one writer thread, which takes every append waiting for it (up to
``GROUP_MAX``) into one write transaction: each in a savepoint of its own (a refused one rolls
back alone and leaves the others be), one ``COMMIT``, one flush. Each append is answered only
after that commit returned: nothing acknowledged is lost to a crash, whatever the level of
``synchronous`` promises for a commit (``events.engine``).

The writer takes the store's write turn (``EventStore._writer``), so it queues in order with
the store's other writers of this process; writers of other processes wait in SQLite's busy
handler as theirs do. The store's append callbacks run on the writer thread, right after the
commit, as :meth:`~events.store.EventStore.append` runs them after its own: a request cancelled
while its append was in flight still wakes the live streams and the checkpoints.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from events.appending import append_batch
from events.envelope import NewEvent, StoredEvent
from events.errors import MatchClosed, UnknownMatch, VersionConflict

GROUP_MAX = 64
"""The most appends one transaction commits together."""

_REFUSED = (VersionConflict, MatchClosed, UnknownMatch, IntegrityError)
"""What refuses one append of a group (nothing of it written): the claim, or a recorded key."""


@dataclass
class _Append:
    """One append handed to the writer, and the future that answers it on the loop."""

    match_id: str
    expected_seq: int
    batch: Sequence[NewEvent]
    now: datetime
    head: tuple[str, datetime]
    idempotency_key: str | None
    request_digest: str | None
    future: asyncio.Future[list[StoredEvent] | None] = field(repr=False)


class SqliteAppends:
    """Appends through one writer thread with group commit, for the one event loop they were
    opened on (:meth:`open`, at the app's start, and :meth:`close`, at its end). ``writer``
    opens the store's write transaction; ``appended(match_id, stored)`` runs after a commit."""

    def __init__(
        self,
        writer: Callable[[], AbstractContextManager[Connection]],
        appended: Callable[[str, list[StoredEvent]], None],
    ) -> None:
        self._writer = writer
        self._appended = appended
        self._jobs: queue.SimpleQueue[_Append | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def open(self) -> None:
        """Start the writer for the running event loop (once)."""
        if self._thread is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._run, name="sqlite-appends", daemon=True)
        self._thread.start()

    async def close(self) -> None:
        """Answer every append handed over, then stop the writer (on its loop only, as
        :meth:`events.pg_async.AsyncAppends.close`)."""
        if not self.serves():
            return
        thread, self._thread = self._thread, None
        assert thread is not None
        self._jobs.put(None)
        await asyncio.to_thread(thread.join)
        self._loop = None

    def serves(self) -> bool:
        """Whether the running event loop is the one the writer answers."""
        return self._thread is not None and self._loop is asyncio.get_running_loop()

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
        as stored, once committed; None when it was refused (another append came first, the
        match is closed or unknown, or the idempotency key is recorded): nothing was written,
        and the caller's usual path explains it. A failure of the transaction (the disk, a
        lock held past the busy timeout) raises SQLAlchemy's error, nothing of the group
        written. Call only where :meth:`serves`."""
        assert self.serves(), "open() on this event loop first"
        future: asyncio.Future[list[StoredEvent] | None] = (
            asyncio.get_running_loop().create_future()
        )
        job = _Append(
            match_id, expected_seq, batch, now, head, idempotency_key, request_digest, future
        )
        self._jobs.put(job)
        return await future

    def _run(self) -> None:
        """The writer: a group of the appends waiting, one transaction, until :meth:`close`."""
        stopping = False
        while not stopping:
            first = self._jobs.get()
            if first is None:
                return
            group = [first]
            while len(group) < GROUP_MAX:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stopping = True
                    break
                group.append(job)
            self._commit(group)

    def _commit(self, group: list[_Append]) -> None:
        try:
            with self._writer() as conn:
                results = [_appended_in_savepoint(conn, job) for job in group]
        except Exception as error:  # the whole transaction failed: every append hears it
            for job in group:
                self._settle(job, None, error)
            return
        for job, stored in zip(group, results, strict=True):
            if stored is not None:
                self._appended(job.match_id, stored)
            self._settle(job, stored, None)

    def _settle(
        self, job: _Append, stored: list[StoredEvent] | None, error: BaseException | None
    ) -> None:
        loop = self._loop
        if loop is None:
            return
        with suppress(RuntimeError):  # the loop closed: nobody waits for the answer
            loop.call_soon_threadsafe(_answer, job.future, stored, error)


def _appended_in_savepoint(conn: Connection, job: _Append) -> list[StoredEvent] | None:
    """``job`` appended in a savepoint of the group's transaction; None when refused (its
    savepoint rolled back, the rest of the group kept)."""
    driver = conn.connection.driver_connection
    assert driver is not None
    driver.execute("SAVEPOINT adjudicator_append")
    try:
        stored = append_batch(
            conn, job.match_id, job.expected_seq, job.batch, now=job.now,
            idempotency_key=job.idempotency_key, request_digest=job.request_digest,
            close=False, head=job.head,
        )  # fmt: skip
    except _REFUSED:
        driver.execute("ROLLBACK TO adjudicator_append")
        stored = None
    driver.execute("RELEASE adjudicator_append")
    return stored


def _answer(
    future: asyncio.Future[list[StoredEvent] | None],
    stored: list[StoredEvent] | None,
    error: BaseException | None,
) -> None:
    if future.done():  # the request was cancelled
        return
    if error is None:
        future.set_result(stored)
    else:
        future.set_exception(error)
