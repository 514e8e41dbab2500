"""Writers racing: each thread has its own store (its own engine) on the same database."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from events import EventStore, IdempotentReplay, StoredEvent, VersionConflict, verify_chain
from tests.store.support import ManualClock, event, new_match

T = TypeVar("T")


def race(
    database_url: str, clock: ManualClock, workers: list[Callable[[EventStore], T]]
) -> list[T]:
    """Run each worker on its own store, all released at once; their results in order."""
    start = threading.Barrier(len(workers))
    stores = [EventStore.from_url(database_url, clock=clock) for _ in workers]

    def run(index: int) -> T:
        start.wait()
        return workers[index](stores[index])

    try:
        with ThreadPoolExecutor(len(workers)) as pool:
            return list(pool.map(run, range(len(workers))))
    finally:
        for store in stores:
            store.dispose()


def append_with_retries(store: EventStore, match_id: str, writer: int, count: int) -> int:
    """Append ``count`` events one by one, re-reading after each conflict; returns conflicts."""
    conflicts, done = 0, 0
    while done < count:
        try:
            store.append(match_id, store.last_seq(match_id), [event(done, writer=writer)])
            done += 1
        except VersionConflict:
            conflicts += 1
    return conflicts


def test_two_writers_racing_on_one_match_lose_nothing_and_duplicate_nothing(
    store: EventStore, database_url: str, clock: ManualClock
) -> None:
    match_id, per_writer = new_match(store), 30

    def writer(number: int) -> Callable[[EventStore], int]:
        return lambda own: append_with_retries(own, match_id, number, per_writer)

    race(database_url, clock, [writer(1), writer(2)])
    stored = store.read(match_id)

    assert [e.seq for e in stored] == list(range(1, 2 * per_writer + 1))
    written = {(e.payload["writer"], e.payload["n"]) for e in stored}
    assert written == {(w, n) for w in (1, 2) for n in range(per_writer)}
    assert verify_chain(stored).ok
    assert store.last_seq(match_id) == 2 * per_writer


def tail(store: EventStore, done: threading.Event) -> list[StoredEvent]:
    """Follow the global log by position until the writers are done and nothing is left."""
    seen: list[StoredEvent] = []
    while True:
        finished = done.is_set()
        batch = store.read_after(seen[-1].position if seen else 0, limit=7)
        for stored in batch:
            assert stored.position == len(seen) + 1, "a tailing reader skipped a position"
            seen.append(stored)
        if finished and not batch:
            return seen


def test_writers_on_different_matches_fill_global_positions_without_gaps(
    store: EventStore, database_url: str, clock: ManualClock
) -> None:
    matches, batches = [new_match(store) for _ in range(3)], 15
    sizes = [(b % 3) + 1 for b in range(batches)]
    total, done = sum(sizes) * len(matches), threading.Event()

    def writer(match_id: str) -> Callable[[EventStore], list[StoredEvent]]:
        def write(own: EventStore) -> list[StoredEvent]:
            seq = 0
            for size in sizes:
                seq = own.append(match_id, seq, [event(n) for n in range(size)])[-1].seq
            return []

        return write

    def all_writers(_: EventStore) -> list[StoredEvent]:
        try:
            race(database_url, clock, [writer(m) for m in matches])
            return []
        finally:
            done.set()

    def reader(own: EventStore) -> list[StoredEvent]:
        return tail(own, done)

    results = race(database_url, clock, [all_writers, reader, reader])

    everything = list(range(1, total + 1))
    assert [[e.position for e in seen] for seen in results[1:]] == [everything, everything]
    assert [e.position for e in store.read_after(0, limit=total + 10)] == everything
    for match_id in matches:
        assert verify_chain(store.read(match_id)).ok


def test_concurrent_appends_with_one_idempotency_key_record_one_batch(
    store: EventStore, database_url: str, clock: ManualClock
) -> None:
    match_id = new_match(store)

    def attempt(own: EventStore) -> list[StoredEvent]:
        try:
            return own.append(
                match_id, 0, [event(1), event(2)], idempotency_key="buzz-1", request_digest="d"
            )
        except IdempotentReplay as replay:
            return replay.events

    answers = race(database_url, clock, [attempt] * 4)

    assert store.last_seq(match_id) == 2
    assert all(answer == store.read(match_id) for answer in answers)


def test_replicas_registering_one_operator_token_at_once_all_succeed(
    store: EventStore, database_url: str, clock: ManualClock
) -> None:
    """Replicas started together with the same configured token each make it the one operator
    token; none fails on the token being stored twice (one replica of three did, in CI)."""
    store.replace_operator_tokens("0" * 64)  # an older token, revoked by the first to run
    for round_ in range(5):
        hashed = f"{round_ + 1:064d}"

        def register(own: EventStore, hashed: str = hashed) -> int:
            return own.replace_operator_tokens(hashed)

        revoked = race(database_url, clock, [register] * 6)
        assert sum(revoked) == 1
        assert store.operator_token_count() == 1 and store.has_operator_token(hashed)
