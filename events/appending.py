"""SQLite's append, as a function of an open write transaction; and, on both backends, the
placing of an imported match's envelopes. (PostgreSQL appends with one statement instead,
:mod:`events.pg_append`, with the same lock order and the same sealing.)

Lock order is always the match row (the conditional UPDATE of ``last_seq``, which also closes
the match when the batch closes it), then the single ``positions`` row; holding the counter lock
until commit makes global positions gap-free and assigned in commit order, so a reader tailing
``position > n`` never skips a late commit. The counter is the one lock every append in every
match waits for, so everything that does not need it (sealing, hashing, building the rows)
happens before it is taken: while it is held, only the counter UPDATE, the INSERT and the
COMMIT run.

:func:`append_batch` sends its three statements to the ``sqlite3`` connection as plain SQL
texts (which ``sqlite3`` prepares once and keeps): building, caching and binding them through
SQLAlchemy's Core cost three times what SQLite takes to run them
(``infra/bench/sqlite_sync_bench.py``). Its values are written as the Core columns write them
(instants as ``iso`` text, JSON as ``json.dumps`` text), and a driver error reaches the caller
as SQLAlchemy's (``IntegrityError``, ``OperationalError``), as from any other statement.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import DBAPIError

from adjudicator.kernel.canonical import commitment, iso
from events.envelope import GENESIS_HASH, NewEvent, StoredEvent, hash_of
from events.errors import MatchClosed, UnknownMatch, VersionConflict
from events.rows import rows_of
from events.sqltypes import stored_instant
from events.tables import events, matches, positions

_CLAIM = "UPDATE matches SET last_seq = ? WHERE match_id = ? AND last_seq = ? AND status = 'open'"
_CLOSE = (
    "UPDATE matches SET last_seq = ?, status = 'closed', closed_at = ?"
    " WHERE match_id = ? AND last_seq = ? AND status = 'open'"
)
_TAIL = "SELECT hash, recorded_at FROM events WHERE match_id = ? AND seq = ?"
_POSITIONS = "UPDATE positions SET last = last + ? WHERE id = 1 RETURNING last"
_INSERT = (
    "INSERT INTO events (match_id, seq, position, type, actor, occurred_at, recorded_at,"
    " payload, private_to, salt, commitment, idempotency_key, request_digest, batch_size,"
    " prev_hash, hash, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def append_batch(
    conn: Connection,
    match_id: str,
    expected_seq: int,
    batch: Sequence[NewEvent],
    *,
    now: datetime,
    idempotency_key: str | None,
    request_digest: str | None,
    close: bool,
    head: tuple[str, datetime] | None = None,
) -> list[StoredEvent]:
    """Seal and insert ``batch`` after seq ``expected_seq`` of an open match, in the SQLite
    write transaction ``conn`` holds; with ``close`` the match is closed by the same claim
    (``closed_at``: the batch's record time), so nothing can be recorded after this batch.
    ``head``: the hash and record time of event ``expected_seq`` when the caller knows them
    (they never change), saving a read. Raises VersionConflict, MatchClosed or UnknownMatch
    (nothing written by this call), and SQLAlchemy's errors for the driver's."""
    with _driver(conn) as cursor:
        if head is None or expected_seq == 0:
            prev_hash, prev_recorded_at = _tail(cursor, match_id, expected_seq)
        else:
            prev_hash, prev_recorded_at = head
        recorded_at = record_time(now, prev_recorded_at)
        last_seq = expected_seq + len(batch)
        if close:
            cursor.execute(_CLOSE, (last_seq, iso(recorded_at), match_id, expected_seq))
        else:
            cursor.execute(_CLAIM, (last_seq, match_id, expected_seq))
        if cursor.rowcount != 1:
            raise refusal(conn, match_id, expected_seq)
        # sealed before the counter is locked (hashes do not cover the position)
        sealed = seal_batch(batch, match_id, expected_seq, recorded_at, idempotency_key, prev_hash)
        values = [_values(row) for row in rows_of(sealed, request_digest)]
        (last,) = cursor.execute(_POSITIONS, (len(values),)).fetchone()
        first = last - len(values) + 1
        placed = [(*row[:2], first + i, *row[2:]) for i, row in enumerate(values)]
        cursor.executemany(_INSERT, placed)
    return [replace(e, position=first + i) for i, e in enumerate(sealed)]


@contextmanager
def _driver(conn: Connection) -> Iterator[sqlite3.Cursor]:
    """A cursor of ``conn``'s ``sqlite3`` connection (in its transaction); the driver's errors
    raised as SQLAlchemy raises them."""
    cursor: sqlite3.Cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        yield cursor
    except sqlite3.Error as error:
        raise DBAPIError.instance(None, None, error, sqlite3.Error) from error
    finally:
        cursor.close()


def _tail(cursor: sqlite3.Cursor, match_id: str, seq: int) -> tuple[str, datetime | None]:
    """:func:`stream_tail` on the driver's cursor; a seq with no event names no tail (the claim
    then refuses: a version conflict, or the match is unknown or closed)."""
    if seq == 0:
        return GENESIS_HASH, None
    row = cursor.execute(_TAIL, (match_id, seq)).fetchone()
    return (GENESIS_HASH, None) if row is None else (row[0], stored_instant(row[1]))


def _values(row: dict[str, Any]) -> tuple[Any, ...]:
    """A row of ``rows_of`` as :data:`_INSERT`'s values, but the position (written by the
    caller between the seq and the type)."""
    return (
        row["match_id"], row["seq"], row["type"], row["actor"], iso(row["occurred_at"]),
        iso(row["recorded_at"]), json.dumps(row["payload"]), json_text(row["private_to"]),
        row["salt"], row["commitment"], row["idempotency_key"], row["request_digest"],
        row["batch_size"], row["prev_hash"], row["hash"], json_text(row["source"]),
    )  # fmt: skip


def json_text(value: Any) -> str | None:
    """A nullable JSON column's text (``None`` stays SQL NULL, as the Core column stores it)."""
    return None if value is None else json.dumps(value)


def insert_sealed(conn: Connection, stream: Sequence[StoredEvent]) -> list[StoredEvent]:
    """Insert envelopes sealed elsewhere exactly as they are; only ``position`` is assigned."""
    first_position = claim_positions(conn, len(stream)) if stream else 1
    placed = [replace(e, position=first_position + i) for i, e in enumerate(stream)]
    rows = [{**row, "batch_size": None} for row in rows_of(placed, None)]
    if rows:
        conn.execute(insert(events), rows)
    return placed


def refusal(conn: Connection, match_id: str, expected: int) -> Exception:
    query = select(matches.c.status, matches.c.last_seq).where(matches.c.match_id == match_id)
    row = conn.execute(query).first()
    if row is None:
        return UnknownMatch(match_id)
    if row.status == "closed":
        return MatchClosed(match_id)
    return VersionConflict(expected, row.last_seq)


def record_time(now: datetime, previous: datetime | None) -> datetime:
    """The record time of a batch after an event recorded at ``previous`` (None: the first):
    the store's clock, but never before ``previous``, so record time never goes backwards
    within a match."""
    return max(now, previous) if previous else now


def stream_tail(conn: Connection, match_id: str, seq: int) -> tuple[str, datetime | None]:
    """Hash and record time of event ``seq`` (the genesis hash before the first event)."""
    if seq == 0:
        return GENESIS_HASH, None
    query = select(events.c.hash, events.c.recorded_at).where(
        events.c.match_id == match_id, events.c.seq == seq
    )
    row = conn.execute(query).one()
    return row.hash, row.recorded_at


def claim_positions(conn: Connection, count: int) -> int:
    """Reserve ``count`` global positions; returns the first. Locks the counter until commit."""
    query = (
        update(positions)
        .where(positions.c.id == 1)
        .values(last=positions.c.last + count)
        .returning(positions.c.last)
    )
    last: int = conn.execute(query).scalar_one()
    return last - count + 1


def seal_batch(
    batch: Sequence[NewEvent],
    match_id: str,
    expected_seq: int,
    recorded_at: datetime,
    idempotency_key: str | None,
    prev_hash: str,
) -> list[StoredEvent]:
    """``batch`` sealed as the events after ``expected_seq`` (position 0: not yet placed),
    chained from ``prev_hash``; the first carries the idempotency key."""
    sealed: list[StoredEvent] = []
    for index, new in enumerate(batch):
        key = idempotency_key if index == 0 else None
        event = seal(new, match_id, expected_seq + 1 + index, 0, recorded_at, key, prev_hash)
        sealed.append(event)
        prev_hash = event.hash
    return sealed


def seal(
    new: NewEvent,
    match_id: str,
    seq: int,
    position: int,
    recorded_at: datetime,
    idempotency_key: str | None,
    prev_hash: str,
) -> StoredEvent:
    """The stored form of ``new``: salted commitment when private, then the chained hash."""
    salt = None if new.private_to is None else secrets.token_hex(16)
    draft = StoredEvent(
        match_id=match_id,
        seq=seq,
        position=position,
        type=new.type,
        actor=new.actor,
        occurred_at=new.occurred_at,
        recorded_at=recorded_at,
        payload=new.payload,
        private_to=new.private_to,
        salt=salt,
        commitment=None if salt is None else commitment(salt, new.payload),
        idempotency_key=idempotency_key,
        prev_hash=prev_hash,
        hash="",
        source=new.source,
    )
    return replace(draft, hash=hash_of(draft))
