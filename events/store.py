"""EventStore: the one entry point to the store, on SQLite or PostgreSQL (SQLAlchemy Core)."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from typing import Any, NoReturn

from sqlalchemy import Connection, Engine, delete, insert
from sqlalchemy.exc import IntegrityError

from events import matches as match_queries
from events import rows, tlog
from events.appending import append_batch, insert_sealed
from events.chain import verify_chain
from events.engine import POOL_SIZE, WRITE, begin_now, make_engine
from events.envelope import NewEvent, StoredEvent
from events.errors import (
    DuplicateToken,
    IdempotencyKeyReused,
    IdempotentReplay,
    InvalidEvent,
    MatchExists,
    UnknownMatch,
    VersionConflict,
)
from events.pg_append import append_statement
from events.pg_async import AsyncAppends
from events.records import MatchRecord, MatchStatus, NewMatch, TokenGrant, TokenRecord
from events.signing import current_signer
from events.sqlite_async import SqliteAppends
from events.tables import operator_tokens
from events.transparency.note import Signer

Clock = Callable[[], datetime]
Appender = Callable[..., list[StoredEvent]]

LOOP_FIRST = 0.05
"""The longest a thread's SQLite writer lets the event loop's appends take the turn first."""


def utc_now() -> datetime:
    return datetime.now(UTC)


class EventStore:
    def __init__(self, engine: Engine, clock: Clock | None = None) -> None:
        self.engine = engine
        self._clock = clock or utc_now
        self._callbacks: list[Callable[[str, list[StoredEvent]], None]] = []
        self.signer: Signer | None = None
        """The log's configured signing key (``ADJUDICATOR_SIGNING_KEY``); None: the store's own."""
        self.origin = secrets.token_hex(8)
        """Names this instance in its appends' NOTIFY payloads (``events.notify``)."""
        # SQLite lets one writer in at a time; writers of this process queue here, in order,
        # instead of in SQLite's busy handler, which sleeps in growing steps (up to 100 ms a
        # try) and made a command's p99 under 8 clients a quarter of a second. Writers in
        # other processes still wait in the busy handler (``events.engine.BUSY_TIMEOUT_MS``).
        sqlite = engine.dialect.name == "sqlite"
        self._write_turn = threading.RLock() if sqlite else None
        self._threads_go = threading.Event()
        """Cleared while the event loop's appends insist on the write turn (they waited for it
        long, ``_writer_now``): the threads' writers let the loop take it first."""
        self._threads_go.set()
        self._async: AsyncAppends | SqliteAppends
        if engine.dialect.name == "postgresql":
            size = engine.pool.size()  # type: ignore[attr-defined]
            self._async = AsyncAppends(engine.url, size, self.origin, self._appended)
        else:
            self._async = SqliteAppends(self._writer_now, self._appended)

    @classmethod
    def from_url(
        cls,
        url: str,
        clock: Clock | None = None,
        pool_size: int = POOL_SIZE,
        sqlite_synchronous: str = "full",
    ) -> EventStore:
        return cls(make_engine(url, pool_size, sqlite_synchronous), clock)

    def dispose(self) -> None:
        self.engine.dispose()

    async def aopen(self) -> None:
        """Open the appends awaited on the running event loop, the one that serves requests
        (:meth:`append_async` on any other loop returns None): PostgreSQL's async connections,
        SQLite's group commit. At the app's start."""
        await self._async.open()

    async def aclose(self) -> None:
        """Close what :meth:`aopen` opened; at the app's end."""
        await self._async.close()
        self._threads_go.set()  # no loop left to let first

    @contextmanager
    def _reader(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def _writer(self) -> Iterator[Connection]:
        if self._write_turn is not None:  # the loop first, when it insists (at most LOOP_FIRST)
            self._threads_go.wait(LOOP_FIRST)
        with self._write_turn or nullcontext(), self.engine.connect() as conn:
            conn.execution_options(**{WRITE: True})
            with conn.begin():
                yield conn

    @contextmanager
    def _writer_now(self, insist: bool = False) -> Iterator[Connection | None]:
        """SQLite's write transaction if it begins without waiting; None when another thread
        of this process holds the write turn or another process writes (for the event loop,
        which tries again later rather than wait: ``events.sqlite_async``). ``insist``: the
        threads' writers that come next wait (up to ``LOOP_FIRST`` seconds) until the loop has
        had the turn, so back-to-back writers in the thread pool cannot starve it."""
        turn = self._write_turn
        assert turn is not None, "SQLite only"
        if not turn.acquire(blocking=False):
            if insist:
                self._threads_go.clear()
            yield None
            return
        self._threads_go.set()
        try:
            with self.engine.connect() as conn:
                conn.execution_options(**{WRITE: True})
                transaction = begin_now(conn)
                if transaction is None:
                    yield None
                    return
                with transaction:
                    yield conn
        finally:
            turn.release()

    @property
    def _append(self) -> Appender:
        """The backend's one append, as a function of a connection: PostgreSQL's one statement
        (``events.pg_append``, which also sends the live streams' NOTIFY), SQLite's write
        transaction's statements (``events.appending``)."""
        if self.engine.dialect.name == "postgresql":
            return partial(append_statement, origin=self.origin)
        return append_batch

    @contextmanager
    def _appender(self) -> Iterator[Connection]:
        """A connection to append on. PostgreSQL: autocommit, so the position counter is held
        only while the server runs the one statement. SQLite: a write transaction."""
        if self.engine.dialect.name == "postgresql":
            with self.engine.connect() as conn:
                conn.execution_options(isolation_level="AUTOCOMMIT")
                yield conn
            return
        with self._writer() as conn:
            yield conn

    def _log_close(self, conn: Connection, match_id: str) -> None:
        """In the closing transaction (a write transaction on either backend): the match's leaf
        and signed checkpoint in the transparency log (``events.tlog``)."""
        match = match_queries.get_match(conn, match_id)
        assert match is not None
        every = rows.read_stream(conn, match_id, None, None, 0)
        tlog.append_match(conn, match, every, current_signer(conn, self.signer))

    def _now(self) -> datetime:
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the store's clock must return aware datetimes")
        return now.astimezone(UTC)

    # matches and tokens

    def create_match(
        self,
        match_id: str,
        game: str,
        rules_version: str,
        setup: dict[str, Any],
        tokens: Sequence[TokenRecord],
        created_at: datetime,
        first_events: Sequence[NewEvent] = (),
    ) -> MatchRecord:
        """Create the match, its tokens and its ``first_events`` in one transaction."""
        record = MatchRecord(match_id, game, rules_version, "open", created_at, setup, 0, None)
        return self.create(NewMatch(record, tokens, first_events))

    def create(self, new: NewMatch) -> MatchRecord:
        """Store ``new`` in one transaction; raises MatchExists or DuplicateToken."""
        try:
            with self._writer() as conn:
                return self.insert_match(conn, new)
        except IntegrityError as error:
            if self.get_match(new.record.match_id) is not None:
                raise MatchExists(new.record.match_id) from error
            raise DuplicateToken() from error

    def insert_match(self, conn: Connection, new: NewMatch) -> MatchRecord:
        """In the write transaction ``conn``: the match's row, its tokens, its first events."""
        match_queries.check_tokens(new.tokens)
        if new.first_events:
            check_batch(new.first_events)
        match_queries.insert_match(conn, new.record, new.tokens)
        if new.first_events:
            self._append(
                conn,
                new.record.match_id,
                0,
                new.first_events,
                now=self._now(),
                idempotency_key=None,
                request_digest=None,
                close=False,
            )
        return replace(new.record, last_seq=len(new.first_events))

    def import_match(
        self, record: MatchRecord, tokens: Sequence[TokenRecord], stream: Sequence[StoredEvent]
    ) -> list[StoredEvent]:
        """Store a match recorded elsewhere in one transaction: its row, its tokens and its
        already-sealed envelopes exactly as they are (only ``position`` is new here).

        Raises InvalidEvent when the envelopes do not form this match's intact chain of
        ``record.last_seq`` events, MatchExists when the match id is taken.
        """
        check_sealed(record, stream)
        match_queries.check_tokens(tokens)
        try:
            with self._writer() as conn:
                match_queries.insert_match(conn, record, tokens)
                placed = insert_sealed(conn, stream)
                if record.status == "closed":
                    if not placed:  # no positions claimed: take the log's lock itself
                        tlog.lock(conn)
                    signer = current_signer(conn, self.signer)
                    tlog.append_match(conn, record, placed, signer)
                return placed
        except IntegrityError as error:
            if self.get_match(record.match_id) is not None:
                raise MatchExists(record.match_id) from error
            raise DuplicateToken() from error

    def get_match(self, match_id: str) -> MatchRecord | None:
        if not storable(match_id):
            return None
        with self._reader() as conn:
            return match_queries.get_match(conn, match_id)

    def list_matches(
        self,
        game: str | None = None,
        status: MatchStatus | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[MatchRecord]:
        if game is not None and not storable(game):
            return []
        with self._reader() as conn:
            return match_queries.list_matches(conn, game, status, limit, offset)

    def match_for_token(self, token_hash: str) -> TokenGrant | None:
        if not storable(token_hash):
            return None
        with self._reader() as conn:
            return match_queries.match_for_token(conn, token_hash)

    def add_operator_token(self, token_hash: str) -> None:
        """Store an operator token's hash; adding one that exists already is a no-op."""
        if self.has_operator_token(token_hash):
            return
        try:
            with self._writer() as conn:
                row = {"token_hash": token_hash, "created_at": self._now()}
                conn.execute(insert(operator_tokens).values(row))
        except IntegrityError:
            if not self.has_operator_token(token_hash):
                raise

    def replace_operator_tokens(self, token_hash: str | None) -> int:
        """Make ``token_hash`` the one operator token (None: none at all), in one transaction:
        every other operator token stops working at once. Returns how many were revoked.
        Replicas starting together with the same configured token all succeed: a token already
        stored is kept, never inserted twice."""
        try:
            return self._replace_operator_tokens(token_hash)
        except IntegrityError:  # a racing replica stored the same token first
            return self._replace_operator_tokens(token_hash)

    def _replace_operator_tokens(self, token_hash: str | None) -> int:
        with self._writer() as conn:
            others = delete(operator_tokens)
            if token_hash is not None:
                others = others.where(operator_tokens.c.token_hash != token_hash)
            revoked = int(conn.execute(others).rowcount)
            if token_hash is not None and not match_queries.has_operator_token(conn, token_hash):
                row = {"token_hash": token_hash, "created_at": self._now()}
                conn.execute(insert(operator_tokens).values(row))
        return revoked

    def has_operator_token(self, token_hash: str) -> bool:
        with self._reader() as conn:
            return match_queries.has_operator_token(conn, token_hash)

    def operator_token_count(self) -> int:
        with self._reader() as conn:
            return match_queries.operator_token_count(conn)

    # events

    def append(
        self,
        match_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        *,
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        close: bool = False,
        head: tuple[str, datetime] | None = None,
    ) -> list[StoredEvent]:
        """Append ``events`` atomically after seq ``expected_seq`` of an open match. With
        ``close`` the same conditional update closes the match (``closed_at`` = the batch's
        record time): the batch is the last ever recorded, and of two racing closes one wins.
        ``head``: the hash and record time of event ``expected_seq``, when the caller already
        knows them.

        Raises VersionConflict, UnknownMatch, MatchClosed, IdempotentReplay (same key, same
        digest: carries the batch stored the first time) or IdempotencyKeyReused (same key,
        different digest).
        """
        _check_append(match_id, events, idempotency_key)
        try:
            with self._writer() if close else self._appender() as conn:
                if idempotency_key is not None:
                    self._refuse_replay(conn, match_id, idempotency_key, request_digest)
                stored = self._append(
                    conn,
                    match_id,
                    expected_seq,
                    events,
                    now=self._now(),
                    idempotency_key=idempotency_key,
                    request_digest=request_digest,
                    close=close,
                    head=head,
                )
                if close:
                    self._log_close(conn, match_id)
        except (VersionConflict, IntegrityError) as error:
            self._explain_failure(error, match_id, expected_seq, idempotency_key, request_digest)
        self._appended(match_id, stored)
        return stored

    def appends_on_loop(self) -> bool:
        """Whether :meth:`append_async` can record anything on the running event loop (the
        loop :meth:`aopen` opened for): elsewhere it always says None."""
        return self._async.serves()

    async def append_async(
        self,
        match_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        *,
        head: tuple[str, datetime] | None,
        idempotency_key: str | None = None,
        request_digest: str | None = None,
    ) -> list[StoredEvent] | None:
        """:meth:`append` (no close) awaited on the event loop :meth:`aopen` opened for, when
        ``head`` is known: PostgreSQL's statement over an async connection
        (``events.pg_async``), SQLite's group commit on the loop (``events.sqlite_async``).
        None, with nothing written, when this path cannot record the batch: on another loop,
        without a head, when the claim is refused or the idempotency key is recorded already
        (call :meth:`append`, which explains the refusal or finds the replay). A lost
        connection or a failed transaction raises ``OperationalError`` as :meth:`append`
        does. The append callbacks run as after :meth:`append`."""
        if not self.appends_on_loop() or head is None or expected_seq < 1:
            return None
        _check_append(match_id, events, idempotency_key)
        return await self._async.append(
            match_id, expected_seq, events, now=self._now(), head=head,
            idempotency_key=idempotency_key, request_digest=request_digest,
        )  # fmt: skip

    def on_append(self, callback: Callable[[str, list[StoredEvent]], None]) -> None:
        """Call ``callback(match_id, stored)`` after every append this store instance commits,
        with the events as stored."""
        self._callbacks.append(callback)

    def _appended(self, match_id: str, stored: list[StoredEvent]) -> None:
        for callback in self._callbacks:
            callback(match_id, stored)

    def _explain_failure(
        self,
        error: Exception,
        match_id: str,
        expected_seq: int,
        key: str | None,
        digest: str | None,
    ) -> NoReturn:
        """A lost race: maybe the same request won it (replay); otherwise a version conflict."""
        if key is not None:
            with self._reader() as conn:
                self._refuse_replay(conn, match_id, key, digest)
        if isinstance(error, VersionConflict):
            raise error
        actual = self.last_seq(match_id)
        if actual != expected_seq:
            raise VersionConflict(expected_seq, actual) from error
        raise error

    @staticmethod
    def _refuse_replay(conn: Connection, match_id: str, key: str, digest: str | None) -> None:
        batch, stored_digest = rows.find_keyed_batch(conn, match_id, key)
        if not batch:
            return
        if stored_digest != digest:
            raise IdempotencyKeyReused(key)
        raise IdempotentReplay(batch)

    def read(
        self,
        match_id: str,
        *,
        to_seq: int | None = None,
        recorded_by: datetime | None = None,
        after_seq: int = 0,
    ) -> list[StoredEvent]:
        """The match's events in seq order, after ``after_seq``, up to ``to_seq`` and recorded
        at or before ``recorded_by``. An unknown match reads as empty."""
        if not storable(match_id):
            return []
        with self._reader() as conn:
            return rows.read_stream(conn, match_id, to_seq, recorded_by, after_seq)

    def read_after(self, position: int, limit: int = 1000) -> list[StoredEvent]:
        """Events of every match with a global position above ``position``, in order."""
        with self._reader() as conn:
            return rows.read_after(conn, position, limit)

    def check_idempotent(self, match_id: str, key: str, digest: str | None) -> None:
        """Before deciding a keyed request: raise ``IdempotentReplay`` (same request seen before)
        or ``IdempotencyKeyReused`` (another request used the key); return when the key is new."""
        if not (storable(match_id) and storable(key)):
            return
        with self._reader() as conn:
            self._refuse_replay(conn, match_id, key, digest)

    def find_idempotent(self, match_id: str, key: str) -> list[StoredEvent]:
        if not (storable(match_id) and storable(key)):
            return []
        with self._reader() as conn:
            return rows.find_keyed_batch(conn, match_id, key)[0]

    def last_seq(self, match_id: str) -> int:
        match = self.get_match(match_id)
        if match is None:
            raise UnknownMatch(match_id)
        return match.last_seq


def storable(text: str) -> bool:
    """Whether ``text`` can be a key in the store: PostgreSQL's text refuses the NUL character,
    so a match id, token hash, game or idempotency key holding one names nothing stored (and is
    never sent, which would fail the query) on either backend."""
    return "\x00" not in text


def check_batch(batch: Sequence[NewEvent]) -> None:
    if not batch:
        raise InvalidEvent("an append needs at least one event")
    for event in batch:
        if event.occurred_at.tzinfo is None:
            raise InvalidEvent("occurred_at must carry a time zone")
        if not isinstance(event.payload, dict):
            raise InvalidEvent("a payload is a JSON object")


def check_sealed(record: MatchRecord, stream: Sequence[StoredEvent]) -> None:
    if any(event.match_id != record.match_id for event in stream):
        raise InvalidEvent("every imported event must belong to the imported match")
    if record.last_seq != len(stream):
        raise InvalidEvent(f"last_seq {record.last_seq} but {len(stream)} events")
    report = verify_chain(stream)
    if not report.ok:
        raise InvalidEvent(f"seq {report.first_bad_seq}: {report.problem}")


def _check_append(match_id: str, events: Sequence[NewEvent], idempotency_key: str | None) -> None:
    """What every append refuses before it reaches the database."""
    check_batch(events)
    if not storable(match_id):
        raise UnknownMatch(match_id)
    if idempotency_key is not None and not storable(idempotency_key):
        raise InvalidEvent("an idempotency key holds no NUL character")
