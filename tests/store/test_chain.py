"""The hash chain: it verifies as stored, offline, redacted, and detects every edit."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from adjudicator.kernel.canonical import verify_commitment
from events import GENESIS_HASH, EventStore, StoredEvent, hash_of, verify_chain
from tests.store.support import event, new_match


def recorded(store: EventStore) -> list[StoredEvent]:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1), event(2, private_to=("north",), secret="apple")])
    store.append(match_id, 2, [event(3), event(4)])
    return store.read(match_id)


def test_a_stored_stream_verifies_and_links_from_the_genesis_hash(store: EventStore) -> None:
    stream = recorded(store)

    assert verify_chain(stream).ok
    assert stream[0].prev_hash == GENESIS_HASH
    assert [e.prev_hash for e in stream[1:]] == [e.hash for e in stream[:-1]]


def test_a_tampered_payload_is_detected(store: EventStore) -> None:
    stream = recorded(store)
    stream[2] = replace(stream[2], payload={"n": 99})

    report = verify_chain(stream)

    assert (report.ok, report.first_bad_seq) == (False, 3)
    assert "hash" in report.problem


def test_a_tampered_record_time_is_detected(store: EventStore) -> None:
    stream = recorded(store)
    stream[3] = replace(stream[3], recorded_at=stream[3].recorded_at + timedelta(microseconds=1))

    assert verify_chain(stream).first_bad_seq == 4


def test_a_removed_or_reordered_event_is_detected(store: EventStore) -> None:
    stream = recorded(store)

    assert verify_chain(stream[:1] + stream[2:]).first_bad_seq == 3
    assert verify_chain([stream[1], stream[0]]).first_bad_seq == 2


def test_a_rehashed_edit_still_breaks_the_link_to_the_next_event(store: EventStore) -> None:
    stream = recorded(store)
    edited = replace(stream[0], payload={"n": 42})
    stream[0] = replace(edited, hash=hash_of(edited))

    assert verify_chain(stream).first_bad_seq == 2


def test_a_private_event_carries_a_salted_commitment_to_its_payload(store: EventStore) -> None:
    private = recorded(store)[1]

    assert private.visibility == "private"
    assert private.salt is not None and len(private.salt) == 32
    assert private.commitment is not None
    assert verify_commitment(private.commitment, private.salt, private.payload)
    assert not verify_commitment(private.commitment, private.salt, {"n": 2, "secret": "pear"})


def test_a_redacted_export_still_verifies_but_a_changed_hidden_fact_does_not(
    store: EventStore,
) -> None:
    stream = recorded(store)
    redacted = [replace(e, payload={}, salt=None) if e.private_to else e for e in stream]
    swapped = replace(stream[1], payload={"n": 2, "secret": "pear"})

    assert verify_chain(redacted).ok
    assert verify_chain([stream[0], swapped, *stream[2:]]).first_bad_seq == 2
