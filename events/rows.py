"""Reading events: row mapping and the read queries, as functions of an open connection."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Select, String, Text, cast, select, type_coerce
from sqlalchemy.dialects.postgresql import TIMESTAMP

from adjudicator.kernel.canonical import iso_all
from events.engine import json_read
from events.envelope import StoredEvent, assembled
from events.sqltypes import stored_instant
from events.tables import SEQ_MAX, events

_AS_TEXT = ("payload", "source")
"""The JSON columns an event's hash covers, read as their text and decoded by ``json_read``,
which also tells whether they are plain JSON (so a chain check need not walk them)."""
_TIMES = {"occurred_at": "occurred_iso", "recorded_at": "recorded_iso"}
"""The times, each with the field of its ``iso`` text. Read as the driver gives them (no
``UTCDateTime`` processing per value, which cost as much as the fetch): made aware UTC
datetimes by ``stored_instant`` in the row loop, their texts by ``iso_all`` after it."""


def _column(name: str, dialect: str) -> Any:
    column = events.columns[name]
    if name in _AS_TEXT:
        return cast(column, Text).label(name)
    if name in _TIMES:
        raw = TIMESTAMP(timezone=True) if dialect == "postgresql" else String()
        return type_coerce(column, raw).label(name)
    return column


def _all(conn: Connection, query: Select[Any]) -> list[StoredEvent]:
    """Every row of ``query`` (``_selected``: the fields of an event, in ``_FIELDS``' order) as
    an event, built by :func:`~events.envelope.assembled` from a dict written out field by
    field: a row's attributes by name and the dataclass's frozen ``__init__`` cost three times
    the fetch of a long read. ``plain_json`` is set where the payload and source read as plain
    JSON and the event is public (a private one's seats are left for the property to see)."""
    events_read: list[dict[str, Any]] = []
    append = events_read.append
    for (
        match_id, seq, position, type_, actor, occurred_at, recorded_at, payload_text,
        private_to, salt, commitment, idempotency_key, prev_hash, hash_, source_text,
    ) in conn.execute(query).all():  # fmt: skip
        payload, plain = json_read(payload_text)
        source, plain_source = json_read(source_text)
        fields = {
            "match_id": match_id, "seq": seq, "position": position, "type": type_,
            "actor": actor, "occurred_at": stored_instant(occurred_at),
            "recorded_at": stored_instant(recorded_at), "payload": payload,
            "private_to": private_to, "salt": salt, "commitment": commitment,
            "idempotency_key": idempotency_key, "prev_hash": prev_hash, "hash": hash_,
            "source": source,
        }  # fmt: skip
        if private_to is not None:
            fields["private_to"] = tuple(private_to)
        elif plain and plain_source:
            fields["plain_json"] = True
        append(fields)
    _add_iso(events_read)
    return [assembled(fields) for fields in events_read]


def _add_iso(read: list[dict[str, Any]]) -> None:
    """Each event's two times as ``iso`` writes them (``occurred_iso``, ``recorded_iso``: what
    the hash covers and every view shows), written for the whole read at once (``iso_all``)."""
    for name, text_name in _TIMES.items():
        texts = iso_all([fields[name] for fields in read])
        for fields, text in zip(read, texts, strict=True):
            fields[text_name] = text


def read_stream(
    conn: Connection,
    match_id: str,
    to_seq: int | None,
    recorded_by: datetime | None,
    after_seq: int = 0,
) -> list[StoredEvent]:
    if after_seq >= SEQ_MAX:
        return []  # no seq lies past the largest the store holds
    query = _selected(conn).where(events.c.match_id == match_id)
    if after_seq:
        query = query.where(events.c.seq > after_seq)
    if to_seq is not None:  # bounds past SEQ_MAX are cut to it: PostgreSQL compares no larger
        query = query.where(events.c.seq <= min(to_seq, SEQ_MAX))
    if recorded_by is not None:
        query = query.where(events.c.recorded_at <= recorded_by)
    return _all(conn, query.order_by(events.c.seq))


def read_streams(
    conn: Connection, match_ids: Sequence[str], recorded_by: datetime | None
) -> list[StoredEvent]:
    """The events of every match of ``match_ids`` recorded by ``recorded_by`` (None: all), in
    one query, ordered by match and seq (a tournament's standings fold them all)."""
    query = _selected(conn).where(events.c.match_id.in_(match_ids))
    if recorded_by is not None:
        query = query.where(events.c.recorded_at <= recorded_by)
    return _all(conn, query.order_by(events.c.match_id, events.c.seq))


def read_after(conn: Connection, position: int, limit: int) -> list[StoredEvent]:
    query = _selected(conn).where(events.c.position > position)
    return _all(conn, query.order_by(events.c.position).limit(limit))


def find_keyed_batch(
    conn: Connection, match_id: str, key: str
) -> tuple[list[StoredEvent], str | None]:
    """The batch first stored under ``key`` and the digest of its request ([] if none)."""
    keyed = (events.c.match_id == match_id) & (events.c.idempotency_key == key)
    head = conn.execute(
        select(events.c.seq, events.c.batch_size, events.c.request_digest).where(keyed)
    ).first()
    if head is None:
        return [], None
    last = head.seq + (head.batch_size or 1) - 1
    in_batch = events.c.seq.between(head.seq, last)
    query = _selected(conn).where(events.c.match_id == match_id, in_batch)
    return _all(conn, query.order_by(events.c.seq)), head.request_digest


_FIELDS = (
    "match_id", "seq", "position", "type", "actor", "occurred_at", "recorded_at", "payload",
    "private_to", "salt", "commitment", "idempotency_key", "prev_hash", "hash", "source",
)  # fmt: skip
"""The fields of :class:`StoredEvent`, each a column of ``events`` of the same name."""
_SELECTED = {
    dialect: select(*(_column(name, dialect) for name in _FIELDS))
    for dialect in ("postgresql", "sqlite")
}
"""Per dialect, an event's columns in ``_FIELDS``' order, by their names: the ``_AS_TEXT``
ones as text, the ``_TIMES`` as the driver reads them."""


def _selected(conn: Connection) -> Select[Any]:
    return _SELECTED[conn.dialect.name]


def rows_of(stored: Sequence[StoredEvent], request_digest: str | None) -> list[dict[str, Any]]:
    """Insertable rows; the first event of the batch carries the digest and the batch size."""
    return [
        {
            **{field: getattr(event, field) for field in _COLUMNS},
            "private_to": None if event.private_to is None else list(event.private_to),
            "request_digest": request_digest if index == 0 else None,
            "batch_size": len(stored) if index == 0 else None,
        }
        for index, event in enumerate(stored)
    ]


_COLUMNS = tuple(name for name in _FIELDS if name != "private_to")  # kept a tuple, stored a list
