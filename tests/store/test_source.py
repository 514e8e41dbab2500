"""An event's source (the chat post it was entered from): hashed only when set, stored, read
back, exported and imported."""

from __future__ import annotations

from dataclasses import replace

from events import EventStore, NewEvent, hash_of, verify_chain
from events.record import dumps, envelope_line, loads, make_header
from tests.store.support import GAME_TIME, event, new_match
from tests.store.test_envelope import PUBLIC

SOURCE = {
    "kind": "discord",
    "channel_id": "1100",
    "message_id": "1234567890",
    "author_id": "77",
    "author": "alice",
    "posted_at": "2024-05-01T11:00:00.000Z",
    "edited_at": None,
}


def test_a_source_changes_the_hash_and_none_leaves_the_old_hash() -> None:
    assert hash_of(replace(PUBLIC, source=None)) == hash_of(PUBLIC)
    assert hash_of(replace(PUBLIC, source=SOURCE)) != hash_of(PUBLIC)
    other = {**SOURCE, "message_id": "1234567891"}
    assert hash_of(replace(PUBLIC, source=SOURCE)) != hash_of(replace(PUBLIC, source=other))


def test_a_source_is_stored_and_read_back(store: EventStore) -> None:
    match_id = new_match(store)
    plain = event(1)
    sourced = NewEvent(plain.type, plain.actor, GAME_TIME, {"n": 2}, source=SOURCE)

    stored = store.append(match_id, 0, [plain, sourced])

    read = store.read(match_id)
    assert [e.source for e in read] == [None, SOURCE]
    assert read == stored
    assert verify_chain(read).ok


def test_a_source_survives_export_and_import(store: EventStore) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [NewEvent("zoom.buzzed", "host", GAME_TIME, {}, source=SOURCE)])
    events = store.read(match_id)
    header = make_header(
        match_id=match_id,
        game="zoom",
        rules_version="1.0",
        status="open",
        created_at=GAME_TIME,
        exported_at=GAME_TIME,
        events=events,
    )

    text = dumps(header, events)

    assert "source" not in envelope_line(replace(events[0], source=None), reveal=True)
    record = loads(text)
    assert record.events[0].source == SOURCE
    assert verify_chain(record.events).ok
