"""Appending: order, optimistic concurrency, atomic batches, closed matches, record time."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from events import (
    DuplicateToken,
    EventStore,
    InvalidEvent,
    MatchClosed,
    NewEvent,
    StoredEvent,
    TokenRecord,
    UnknownMatch,
    VersionConflict,
)
from events.engine import json_loads
from events.rows import rows_of
from tests.store.support import GAME_TIME, ManualClock, event, new_match


def test_events_get_gap_free_seqs_in_append_order(store: EventStore) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1), event(2)])
    store.append(match_id, 2, [event(3)])

    stored = store.read(match_id)

    assert [e.seq for e in stored] == [1, 2, 3]
    assert [e.payload["n"] for e in stored] == [1, 2, 3]
    assert store.last_seq(match_id) == 3


def test_a_stale_expected_seq_is_a_version_conflict_that_changes_nothing(
    store: EventStore,
) -> None:
    match_id = new_match(store)
    first = store.append(match_id, 0, [event(1)])

    with pytest.raises(VersionConflict) as conflict:
        store.append(match_id, 0, [event(2)])

    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    assert conflict.value.code == "version_conflict"
    assert store.read(match_id) == first
    assert store.read_after(0) == first


def test_an_expected_seq_ahead_of_the_stream_is_refused_too(store: EventStore) -> None:
    match_id = new_match(store)

    with pytest.raises(VersionConflict):
        store.append(match_id, 5, [event(1)])

    assert store.read(match_id) == []


def test_a_batch_failing_in_the_database_leaves_nothing(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = new_match(store)

    def broken_last_row(*args: Any) -> list[dict[str, Any]]:
        rows = rows_of(*args)
        rows[-1]["hash"] = None  # NOT NULL: the database refuses the third insert
        return rows

    monkeypatch.setattr("events.appending.rows_of", broken_last_row)  # SQLite's append
    monkeypatch.setattr("events.pg_append.rows_of", broken_last_row)  # PostgreSQL's
    with pytest.raises(IntegrityError):
        store.append(match_id, 0, [event(1), event(2), event(3)])
    monkeypatch.undo()

    assert store.read(match_id) == []
    assert store.last_seq(match_id) == 0
    assert [e.position for e in store.append(match_id, 0, [event(4)])] == [1]


def test_a_batch_failing_before_insert_leaves_nothing(store: EventStore) -> None:
    match_id = new_match(store)
    unhashable = NewEvent("zoom.buzzed", "host", GAME_TIME, {"x": object()})

    with pytest.raises(TypeError):
        store.append(match_id, 0, [event(1), unhashable])

    assert store.read(match_id) == []
    assert store.last_seq(match_id) == 0


def test_unknown_match_is_refused(store: EventStore) -> None:
    with pytest.raises(UnknownMatch) as error:
        store.append("no-such-match", 0, [event(1)])
    assert error.value.code == "unknown_match"
    with pytest.raises(UnknownMatch):
        store.last_seq("no-such-match")


def test_invalid_batches_are_refused_before_touching_the_database(store: EventStore) -> None:
    match_id = new_match(store)
    naive = replace(event(1), occurred_at=GAME_TIME.replace(tzinfo=None))

    for batch in ([], [naive]):
        with pytest.raises(InvalidEvent) as error:
            store.append(match_id, 0, batch)
        assert error.value.code == "invalid_event"
    assert store.last_seq(match_id) == 0


def test_a_closing_append_closes_the_match_and_is_the_last_one(
    store: EventStore, clock: ManualClock
) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)])
    clock.advance(5)
    closing = store.append(match_id, 1, [event(2, closes=True)], close=True)

    closed = store.get_match(match_id)
    assert closed is not None
    assert (closed.status, closed.last_seq) == ("closed", 2)
    assert closed.closed_at == closing[0].recorded_at == clock()
    for seq, close in ((2, False), (2, True), (1, False)):
        with pytest.raises(MatchClosed) as error:
            store.append(match_id, seq, [event(3)], close=close)
        assert error.value.code == "match_closed"
    assert store.read(match_id) == store.read(match_id, to_seq=2)
    assert store.last_seq(match_id) == 2


def test_a_refused_close_leaves_the_match_open(store: EventStore) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)])

    with pytest.raises(VersionConflict):
        store.append(match_id, 0, [event(2)], close=True)

    match = store.get_match(match_id)
    assert match is not None
    assert (match.status, match.last_seq, match.closed_at) == ("open", 1, None)


def test_record_time_comes_from_the_clock_and_never_goes_backwards(
    store: EventStore, clock: ManualClock
) -> None:
    match_id = new_match(store)
    start = clock()
    first = store.append(match_id, 0, [event(1), event(2)])
    clock.advance(-3600)
    second = store.append(match_id, 2, [event(3)])
    later = clock.advance(7200)
    third = store.append(match_id, 3, [event(4)])

    assert {e.recorded_at for e in first} == {start}
    assert second[0].recorded_at == start
    assert third[0].recorded_at == later


def test_a_match_is_created_with_its_first_events_in_one_transaction(store: EventStore) -> None:
    tokens = [TokenRecord("host", "h1")]
    made = store.create_match(
        "m-1",
        "zoom",
        "1",
        {"seats": ["a", "b"]},
        tokens,
        GAME_TIME,
        first_events=[event(1), event(2)],
    )
    assert made.last_seq == 2
    assert [e.seq for e in store.read("m-1")] == [1, 2]
    with pytest.raises(DuplicateToken):
        store.create_match(
            "m-2", "zoom", "1", {"seats": ["a", "b"]}, tokens, GAME_TIME, first_events=[event(1)]
        )
    assert store.get_match("m-2") is None
    assert store.read("m-2") == []


def test_append_callbacks_run_after_a_commit_and_never_for_a_refused_append(
    store: EventStore,
) -> None:
    match_id = new_match(store)
    woken: list[tuple[str, list[StoredEvent]]] = []
    store.on_append(lambda match, stored: woken.append((match, stored)))
    stored = store.append(match_id, 0, [event(1)])
    with pytest.raises(VersionConflict):
        store.append(match_id, 0, [event(2)])
    assert woken == [(match_id, stored)]


def test_a_nul_character_in_a_payload_is_stored_and_read_back(store: EventStore) -> None:
    """PostgreSQL's ``json`` column keeps a ``\\u0000`` escape (``jsonb`` and ``text`` refuse
    it), so the append must hand the payload over as JSON text, never unpack it."""
    match_id = new_match(store)
    payload = {"reason": "a\u0000b", "nested": ["\u0000"]}
    private = NewEvent("zoom.buzzed", "seat:north", GAME_TIME, {"n": "\u0000"}, ("north",))
    store.append(match_id, 0, [NewEvent("ruling.note", "host", GAME_TIME, payload), private])
    first, second = store.read(match_id)
    assert first.payload == payload
    assert second.payload == {"n": "\u0000"}


def test_payload_values_read_back_as_json_reads_them() -> None:
    """The JSON columns load through orjson, and through ``json`` where orjson would read
    otherwise (an int beyond 64 bits, which it makes a float) or refuses."""
    for text in (
        '{"a": [1, 2.5, "x", null, true]}',
        '{"big": 123456789012345678901234567890}',
        "18446744073709551616",
        "-9223372036854775809",
        "18446744073709551615",
        "12345678901234567890.5",
        "-0.0",
        "1E2",
        '{"n": NaN}',
        '{"s": "\\ud800"}',
        '{"k": 1, "k": 2}',
        "1e400",
        '"\\u2028"',
    ):
        expected = json.loads(text)
        assert repr(json_loads(text)) == repr(expected), text  # NaN != NaN: compare spelled
        assert repr(json_loads(text.encode())) == repr(expected), text


def test_a_payload_with_an_int_beyond_64_bits_reads_back_exactly(store: EventStore) -> None:
    match_id = new_match(store)
    payload = {"big": 2**70, "small": -(2**64), "digits": "1234567890123456789012"}
    store.append(match_id, 0, [NewEvent("ruling.note", "host", GAME_TIME, payload)])
    assert store.read(match_id)[0].payload == payload
