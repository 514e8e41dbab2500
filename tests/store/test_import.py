"""Importing sealed envelopes: kept exactly, one transaction, refused whole when broken."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from uuid import uuid4

import pytest

from events import (
    EventStore,
    InvalidEvent,
    MatchExists,
    MatchRecord,
    StoredEvent,
    TokenRecord,
)
from events.appending import seal
from events.envelope import GENESIS_HASH
from events.records import MatchStatus
from tests.store.support import GAME_TIME, event, new_match


def sealed_stream(match_id: str, count: int = 4) -> list[StoredEvent]:
    """Envelopes as another instance would have sealed them (one private)."""
    stream: list[StoredEvent] = []
    prev = GENESIS_HASH
    for n in range(1, count + 1):
        private = ("north",) if n == 2 else None
        at = GAME_TIME + timedelta(minutes=n)
        sealed = seal(event(n, private_to=private), match_id, n, 900 + n, at, None, prev)
        stream.append(sealed)
        prev = sealed.hash
    return stream


def record_for(match_id: str, count: int, status: MatchStatus = "closed") -> MatchRecord:
    setup = {"seats": ["north", "south"]}
    closed_at = GAME_TIME if status == "closed" else None
    return MatchRecord(match_id, "zoom", "1.0", status, GAME_TIME, setup, count, closed_at)


def tokens() -> list[TokenRecord]:
    return [TokenRecord("host", uuid4().hex), TokenRecord("auditor", uuid4().hex)]


def test_imported_envelopes_are_kept_exactly_with_new_positions(store: EventStore) -> None:
    local = new_match(store)
    store.append(local, 0, [event(1), event(2)])
    match_id = str(uuid4())
    stream = sealed_stream(match_id)

    store.import_match(record_for(match_id, 4), tokens(), stream)

    read = store.read(match_id)
    assert [replace(e, position=0) for e in read] == [replace(e, position=0) for e in stream]
    assert [e.position for e in read] == [3, 4, 5, 6]
    match = store.get_match(match_id)
    assert match is not None and (match.status, match.last_seq) == ("closed", 4)


def test_an_import_with_a_broken_chain_records_nothing(store: EventStore) -> None:
    match_id = str(uuid4())
    stream = sealed_stream(match_id)
    stream[2] = replace(stream[2], payload={"n": 99})

    with pytest.raises(InvalidEvent, match="seq 3"):
        store.import_match(record_for(match_id, 4), tokens(), stream)

    assert store.get_match(match_id) is None
    assert store.read(match_id) == []


def test_an_import_over_an_existing_match_is_refused(store: EventStore) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)])

    with pytest.raises(MatchExists):
        store.import_match(record_for(match_id, 4), tokens(), sealed_stream(match_id))

    assert len(store.read(match_id)) == 1
    assert store.read_after(0) == store.read(match_id)


def test_an_imported_open_match_takes_new_events_after_its_chain(store: EventStore) -> None:
    match_id = str(uuid4())
    stream = sealed_stream(match_id, 2)
    store.import_match(record_for(match_id, 2, status="open"), tokens(), stream)

    appended = store.append(match_id, 2, [event(3)])

    assert appended[0].prev_hash == stream[-1].hash
    assert appended[0].recorded_at >= stream[-1].recorded_at
