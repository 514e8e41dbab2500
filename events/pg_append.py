"""PostgreSQL's append: one statement, in autocommit, so the global-position counter is locked
only while the server runs it.

The transaction of :func:`events.appending.append_batch` holds the counter from its ``UPDATE``
through the ``INSERT`` to the ``COMMIT``: three round trips of a GIL-bound client, during which
every other append of every match waits. Here the claim of the match's seqs (and its close), the
claim of the positions, the ``NOTIFY`` and the ``INSERT`` are one data-modifying CTE, sent with
the rows as one JSON document (one SQL text whatever the batch size, so psycopg prepares it once
per connection), and committed by the server as it finishes: the counter is held for
microseconds.

The lock order stays that of the transaction: the match row first (``claimed``), then the
counter (``counter`` reads ``claimed``, so it runs only when the claim did), and a refused claim
never touches the counter. Positions stay gap-free and in commit order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import NoResultFound

from adjudicator.kernel.canonical import iso
from events.appending import json_text, record_time, refusal, seal_batch, stream_tail
from events.envelope import NewEvent, StoredEvent
from events.notify import CHANNEL
from events.rows import rows_of

APPEND = """
WITH claimed AS (
    UPDATE matches
    SET last_seq = %(last_seq)s,
        status = CASE WHEN %(close)s THEN 'closed' ELSE status END,
        closed_at = CASE WHEN %(close)s THEN %(recorded_at)s ELSE closed_at END
    WHERE match_id = %(match_id)s AND last_seq = %(expected_seq)s AND status = 'open'
    RETURNING match_id
), counter AS (
    UPDATE positions SET last = positions.last + %(count)s
    FROM claimed
    WHERE positions.id = 1
    RETURNING positions.last
), woken AS (
    SELECT pg_notify(%(channel)s, claimed.match_id || ':' || %(last_seq)s || ':' || %(origin)s)
        AS sent FROM claimed
)
INSERT INTO events (
    match_id, seq, position, type, actor, occurred_at, recorded_at, payload, private_to,
    salt, commitment, idempotency_key, request_digest, batch_size, prev_hash, hash, source
)
SELECT
    %(match_id)s, e.seq, counter.last - %(last_seq)s + e.seq, e.type, e.actor, e.occurred_at,
    %(recorded_at)s, e.payload::json, e.private_to::json, e.salt, e.commitment,
    e.idempotency_key, e.request_digest, e.batch_size, e.prev_hash, e.hash, e.source::json
FROM counter
CROSS JOIN woken
CROSS JOIN json_to_recordset(%(rows)s::json) AS e(
    seq integer, type text, actor text, occurred_at timestamptz, payload text, private_to text,
    salt text, commitment text, idempotency_key text, request_digest text, batch_size integer,
    prev_hash text, hash text, source text
)
ORDER BY e.seq
RETURNING seq, position
"""


def append_statement(
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
    origin: str = "",
) -> list[StoredEvent]:
    """What :func:`events.appending.append_batch` does, as one statement on an autocommit
    connection: nothing is written unless all of it is. Refusals raise as there. ``origin``
    names the appending store in the NOTIFY (see :mod:`events.notify`)."""
    tail = head if head is not None and expected_seq > 0 else _tail(conn, match_id, expected_seq)
    sealed, params = prepared(
        match_id, expected_seq, batch, tail, now, idempotency_key, request_digest, close, origin
    )
    stored = placed(sealed, conn.exec_driver_sql(APPEND, params))
    if stored is None:
        raise refusal(conn, match_id, expected_seq)
    return stored


def prepared(
    match_id: str,
    expected_seq: int,
    batch: Sequence[NewEvent],
    tail: tuple[str, datetime | None],
    now: datetime,
    idempotency_key: str | None,
    request_digest: str | None,
    close: bool,
    origin: str,
) -> tuple[list[StoredEvent], dict[str, Any]]:
    """The batch sealed after ``tail`` (the hash and record time of event ``expected_seq``),
    and the parameters of :data:`APPEND` that record it."""
    prev_hash, prev_recorded_at = tail
    recorded_at = record_time(now, prev_recorded_at)
    sealed = seal_batch(batch, match_id, expected_seq, recorded_at, idempotency_key, prev_hash)
    rows = rows_of(sealed, request_digest)
    params = {**_params(rows, match_id, expected_seq, recorded_at, close), "origin": origin}
    return sealed, params


def placed(sealed: list[StoredEvent], returned: Iterable[Any]) -> list[StoredEvent] | None:
    """The sealed events with the positions :data:`APPEND` returned; None when it refused the
    claim (it then wrote nothing)."""
    positions = {seq: position for seq, position in returned}
    if len(positions) != len(sealed):
        return None
    return [replace(e, position=positions[e.seq]) for e in sealed]


def _tail(conn: Connection, match_id: str, seq: int) -> tuple[str, datetime | None]:
    """The chain's head at ``seq``; a seq the match has not reached is refused as the claim
    would refuse it (no event there: a version conflict, or the match is unknown)."""
    try:
        return stream_tail(conn, match_id, seq)
    except NoResultFound as missing:
        raise refusal(conn, match_id, seq) from missing


def _params(
    rows: list[dict[str, Any]],
    match_id: str,
    expected_seq: int,
    recorded_at: datetime,
    close: bool,
) -> dict[str, Any]:
    """The statement's parameters: the match's claim, and ``rows`` (from ``rows_of``, the one
    mapping of an envelope to columns) as one JSON document, which the server unpacks: one text
    parameter costs the client less than an array per column. Positions follow seqs. The JSON
    columns travel as JSON texts inside it, cast back to ``json`` by the server: a ``json``
    column holds a ``\\u0000`` escape, which unpacking it as JSON would turn into text and refuse.
    """
    document = [
        {
            **{name: row[name] for name in _DOCUMENT},
            **{name: json_text(row[name]) for name in _JSON},
            "occurred_at": iso(row["occurred_at"]),
        }
        for row in rows
    ]
    return {
        "match_id": match_id,
        "expected_seq": expected_seq,
        "last_seq": expected_seq + len(rows),
        "count": len(rows),
        "close": close,
        "recorded_at": recorded_at,
        "channel": CHANNEL,
        "rows": json.dumps(document),
    }


_DOCUMENT = (
    "seq", "type", "actor", "salt", "commitment", "idempotency_key", "request_digest",
    "batch_size", "prev_hash", "hash",
)  # fmt: skip
_JSON = ("payload", "private_to", "source")
