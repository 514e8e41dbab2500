"""Reads: by seq, by record time, by global position; exact round trips of times and JSON."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from events import EventStore, NewEvent, StoredEvent
from events.tables import SEQ_MAX
from tests.store.support import ManualClock, event, new_match


def test_read_stops_at_to_seq(store: EventStore) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1), event(2), event(3)])

    assert [e.seq for e in store.read(match_id, to_seq=2)] == [1, 2]
    assert store.read(match_id, to_seq=0) == []
    assert store.read("no-such-match") == []


def test_read_after_seq_gives_only_the_tail(store: EventStore) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1), event(2), event(3)])

    assert [e.seq for e in store.read(match_id, after_seq=1)] == [2, 3]
    assert [e.seq for e in store.read(match_id, after_seq=1, to_seq=2)] == [2]
    assert store.read(match_id, after_seq=3) == []


def test_seq_bounds_past_the_largest_stored_seq_read_as_far_as_the_match_goes(
    store: EventStore,
) -> None:
    """A seq is a 32-bit integer in the store; a bound past it is no error (PostgreSQL refuses
    to compare a 32-bit column with a larger number)."""
    match_id = new_match(store)
    store.append(match_id, 0, [event(1), event(2)])

    assert [e.seq for e in store.read(match_id, to_seq=2**40)] == [1, 2]
    assert [e.seq for e in store.read(match_id, after_seq=1, to_seq=2**63)] == [2]
    assert store.read(match_id, after_seq=SEQ_MAX) == []
    assert store.read(match_id, after_seq=2**63) == []


def test_read_recorded_by_shows_what_was_known_then(store: EventStore, clock: ManualClock) -> None:
    match_id = new_match(store)
    first = clock()
    store.append(match_id, 0, [event(1), event(2)])
    second = clock.advance(10)
    store.append(match_id, 2, [event(3)])
    clock.advance(10)
    store.append(match_id, 3, [event(4)])

    assert [e.seq for e in store.read(match_id, recorded_by=first)] == [1, 2]
    assert [e.seq for e in store.read(match_id, recorded_by=second)] == [1, 2, 3]
    just_before = second - timedelta(microseconds=1)
    assert [e.seq for e in store.read(match_id, recorded_by=just_before)] == [1, 2]
    assert store.read(match_id, recorded_by=first - timedelta(days=1)) == []
    assert [e.seq for e in store.read(match_id, to_seq=3, recorded_by=clock())] == [1, 2, 3]


def test_read_after_pages_through_every_match_in_global_order(store: EventStore) -> None:
    one, other = new_match(store), new_match(store)
    store.append(one, 0, [event(1)])
    store.append(other, 0, [event(1), event(2)])
    store.append(one, 1, [event(2)])

    page = store.read_after(1, limit=2)

    assert [(e.position, e.match_id, e.seq) for e in page] == [(2, other, 1), (3, other, 2)]
    assert [e.position for e in store.read_after(3)] == [4]
    assert store.read_after(4) == []


def test_instants_round_trip_exactly_to_the_microsecond(
    store: EventStore, clock: ManualClock
) -> None:
    match_id = new_match(store)
    india = timezone(timedelta(hours=5, minutes=30))
    occurred = datetime(2023, 12, 31, 23, 59, 59, 999999, tzinfo=india)
    clock.now = datetime(2024, 2, 29, 0, 0, 0, 1, tzinfo=UTC)
    stored = store.append(match_id, 0, [NewEvent("zoom.buzzed", "host", occurred, {})])

    [read] = store.read(match_id)

    assert read == stored[0]
    assert read.occurred_at == occurred and read.occurred_at.utcoffset() == timedelta(0)
    assert read.recorded_at == clock.now and read.recorded_at.microsecond == 1


def test_payloads_round_trip_exactly(store: EventStore) -> None:
    match_id = new_match(store)
    payload: dict[str, Any] = {
        "text": "Zoë says “no” 🎲",
        "int": 2**53 + 1,
        "negative": -7,
        "float": 0.1,
        "nested": {"list": [1, "two", None, True, False, [], {}]},
        "empty": "",
    }
    store.append(match_id, 0, [event(1, **payload), event(2, private_to=())])

    [public, private] = store.read(match_id)

    assert public.payload == {"n": 1, **payload}
    assert (private.private_to, private.visibility) == ((), "private")
    assert public.private_to is None and public.visibility == "public"


def test_the_read_fields_are_exactly_the_event_s() -> None:
    """Reads build events by these names, one per column: none may be missing or extra."""
    from dataclasses import fields

    from events.rows import _FIELDS
    from events.tables import events

    assert tuple(f.name for f in fields(StoredEvent)) == _FIELDS
    assert set(_FIELDS) <= set(events.c.keys())
