"""Idempotency keys: a retried request gets back the first answer, never a second event."""

from __future__ import annotations

import pytest

from events import EventStore, IdempotencyKeyReused, IdempotentReplay
from tests.store.support import ManualClock, event, new_match


def test_a_retry_with_the_same_key_and_digest_replays_the_stored_batch(
    store: EventStore, clock: ManualClock
) -> None:
    match_id = new_match(store)
    first = store.append(match_id, 0, [event(1), event(2)], idempotency_key="k", request_digest="d")
    store.append(match_id, 2, [event(3)])
    clock.advance(60)

    with pytest.raises(IdempotentReplay) as replay:
        store.append(match_id, 0, [event(1), event(2)], idempotency_key="k", request_digest="d")

    assert replay.value.events == first
    assert store.find_idempotent(match_id, "k") == first
    assert store.last_seq(match_id) == 3


def test_the_key_is_stamped_on_the_first_event_of_the_batch(store: EventStore) -> None:
    match_id = new_match(store)

    stored = store.append(match_id, 0, [event(1), event(2)], idempotency_key="k")

    assert [e.idempotency_key for e in stored] == ["k", None]


def test_a_key_reused_for_a_different_request_is_refused(store: EventStore) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)], idempotency_key="k", request_digest="d1")

    with pytest.raises(IdempotencyKeyReused) as error:
        store.append(match_id, 1, [event(2)], idempotency_key="k", request_digest="d2")

    assert error.value.code == "idempotency_key_reused"
    assert store.last_seq(match_id) == 1


def test_keys_are_scoped_to_their_match(store: EventStore) -> None:
    one, other = new_match(store), new_match(store)
    store.append(one, 0, [event(1)], idempotency_key="k")

    stored = store.append(other, 0, [event(1)], idempotency_key="k")

    assert [e.match_id for e in stored] == [other]
    assert store.find_idempotent(one, "unknown") == []
