"""The schema guards the record against direct SQL: no REPLACE of events on SQLite, and a
match's fixed fields, status, ``last_seq`` and ``closed_at`` only change the store's way."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import delete, text, update
from sqlalchemy.exc import DBAPIError

from events import EventStore
from events.tables import matches
from tests.store.support import GAME_TIME, event, new_match

COLUMNS = (
    "match_id, seq, position, type, actor, occurred_at, recorded_at, payload, private_to, salt,"
    " commitment, idempotency_key, request_digest, batch_size, prev_hash, hash"
)


def sqlite_only(store: EventStore) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("INSERT OR REPLACE is SQLite's")


def replace_event(store: EventStore, changes: str) -> None:
    """``INSERT OR REPLACE`` a copy of event 1 with ``changes`` to its columns."""
    copied = COLUMNS
    for change in changes.split(";"):  # column=value; column=value
        column, value = (part.strip() for part in change.split("=", 1))
        copied = copied.replace(f" {column},", f" {value} AS {column},", 1)
    with store.engine.begin() as conn:
        conn.execute(
            text(f"INSERT OR REPLACE INTO events ({COLUMNS}) SELECT {copied} FROM events LIMIT 1")
        )


@pytest.mark.parametrize(
    "changes",
    [
        "payload='{\"n\": 666}'",  # the same (match_id, seq): a rewritten payload
        "seq=2; idempotency_key=NULL",  # a new seq, event 1's position: would delete it
        "seq=3; position=98",  # a new seq and position, event 1's idempotency key: likewise
    ],
)
def test_insert_or_replace_cannot_rewrite_or_delete_an_event(
    store: EventStore, changes: str
) -> None:
    sqlite_only(store)
    match_id = new_match(store)
    stored = store.append(match_id, 0, [event(1)], idempotency_key="k-1", request_digest="d")

    with pytest.raises(DBAPIError, match="immutable"):
        replace_event(store, changes)

    assert store.read(match_id) == stored


def test_insert_or_replace_cannot_rewrite_a_match(store: EventStore) -> None:
    sqlite_only(store)
    match_id = new_match(store)
    before = store.get_match(match_id)
    statement = (
        "INSERT OR REPLACE INTO matches SELECT match_id, game, rules_version, status,"
        ' created_at, \'{"seats": ["mallory", "south"]}\', last_seq, closed_at FROM matches'
    )

    with pytest.raises(DBAPIError, match="never replaced"), store.engine.begin() as conn:
        conn.execute(text(statement))

    assert store.get_match(match_id) == before


FIXED = "never change"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"setup": {"seats": ["mallory", "south"]}}, FIXED),
        ({"game": "zombego"}, FIXED),
        ({"rules_version": "9.9"}, FIXED),
        ({"created_at": GAME_TIME + timedelta(days=1)}, FIXED),
        ({"match_id": "another"}, FIXED),
        ({"last_seq": 0}, "only grows"),
    ],
)
def test_an_open_match_keeps_its_fixed_fields_and_its_seq_never_shrinks(
    store: EventStore, change: dict[str, Any], message: str
) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)])
    before = store.get_match(match_id)

    with pytest.raises(DBAPIError, match=message), store.engine.begin() as conn:
        conn.execute(update(matches).where(matches.c.match_id == match_id).values(change))

    assert store.get_match(match_id) == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"status": "open"}, "only moves forward"),
        ({"status": "open", "closed_at": None}, "only moves forward|closed_at never changes"),
        ({"last_seq": 2}, "nothing is recorded after"),
        ({"closed_at": GAME_TIME}, "closed_at never changes"),
    ],
)
def test_a_closed_match_stays_closed_and_grows_no_more(
    store: EventStore, change: dict[str, Any], message: str
) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)], close=True)
    before = store.get_match(match_id)

    with pytest.raises(DBAPIError, match=message), store.engine.begin() as conn:
        conn.execute(update(matches).where(matches.c.match_id == match_id).values(change))

    assert store.get_match(match_id) == before


def test_a_match_is_never_deleted(store: EventStore) -> None:
    match_id = new_match(store)

    with pytest.raises(DBAPIError, match="never deleted"), store.engine.begin() as conn:
        conn.execute(delete(matches).where(matches.c.match_id == match_id))

    assert store.get_match(match_id) is not None


def test_the_stores_own_moves_are_allowed(store: EventStore) -> None:
    match_id = new_match(store)
    with store.engine.begin() as conn:
        same = {"setup": {"seats": ["north", "south"]}, "status": "open", "last_seq": 0}
        conn.execute(update(matches).where(matches.c.match_id == match_id).values(same))
    store.append(match_id, 0, [event(1)])
    store.append(match_id, 1, [event(2)], close=True)

    closed = store.get_match(match_id)
    assert closed is not None
    assert (closed.status, closed.last_seq) == ("closed", 2)


def test_the_global_position_counter_never_winds_back_nor_goes(store: EventStore) -> None:
    from events.tables import positions

    match_id = new_match(store)
    store.append(match_id, 0, [event(1), event(2)])

    with pytest.raises(DBAPIError, match="only grows"), store.engine.begin() as conn:
        conn.execute(update(positions).values(last=positions.c.last - 1))
    with pytest.raises(DBAPIError, match="never deleted"), store.engine.begin() as conn:
        conn.execute(delete(positions))

    stored = store.append(match_id, 2, [event(3)])  # the next append still finds its place
    assert stored[0].position == 3
