"""The append awaited on the event loop (PostgreSQL's async connections, SQLite's writer
thread): it records what ``append`` records, and where it cannot (refused, closed, not opened
for this loop) it writes nothing and says None, so the caller's usual path decides; a lost
connection raises as ``append`` does. SQLite's group commit: ``test_sqlite_group_commit.py``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from sqlalchemy.exc import OperationalError

from events import EventStore, StoredEvent, verify_chain
from events.pg_async import AsyncAppends
from tests.conftest import PostgresDatabase
from tests.store.support import event, new_match, restart_database
from tests.support import loops

T = TypeVar("T")


def on_loop(store: EventStore, work: Callable[[], Awaitable[T]]) -> T:
    """``work()`` on a fresh event loop the store's async connections are opened for."""

    async def run() -> T:
        await store.aopen()
        try:
            return await work()
        finally:
            await store.aclose()

    return loops.run(run())


def head(events: list[StoredEvent]) -> tuple[str, Any]:
    return events[-1].hash, events[-1].recorded_at


def started(store: EventStore) -> tuple[str, list[StoredEvent]]:
    """A match with one event (the loop's path appends after a known head only)."""
    match_id = new_match(store)
    return match_id, store.append(match_id, 0, [event(0)])


def test_it_records_what_append_records(store: EventStore) -> None:
    match_id, before = started(store)
    handed: list[list[StoredEvent]] = []
    store.on_append(lambda _, stored: handed.append(stored))
    seq = before[-1].seq

    stored = on_loop(
        store,
        lambda: store.append_async(match_id, seq, [event(1), event(2)], head=head(before)),
    )

    assert stored is not None and [e.seq for e in stored] == [seq + 1, seq + 2]
    after = store.read(match_id)
    assert after[-2:] == stored and handed == [stored]
    assert verify_chain(after).ok
    assert [e.position for e in after] == list(range(after[0].position, after[-1].position + 1))


def test_a_refused_claim_writes_nothing_and_says_none(store: EventStore) -> None:
    match_id, before = started(store)
    seq = before[-1].seq
    store.append(match_id, seq, [event(1)])  # another writer came first

    stale = on_loop(store, lambda: store.append_async(match_id, seq, [event(2)], head=head(before)))

    assert stale is None
    assert [e.payload.get("n") for e in store.read(match_id)[-1:]] == [1]


def test_a_closed_match_takes_nothing_by_this_path(store: EventStore) -> None:
    match_id, before = started(store)
    closing = store.append(match_id, before[-1].seq, [event(1)], close=True)

    late = on_loop(
        store,
        lambda: store.append_async(match_id, closing[-1].seq, [event(2)], head=head(closing)),
    )

    assert late is None and store.last_seq(match_id) == closing[-1].seq


def test_without_aopen_on_this_loop_or_a_head_it_leaves_the_append_to_the_caller(
    store: EventStore,
) -> None:
    match_id, before = started(store)
    seq = before[-1].seq

    unopened = loops.run(store.append_async(match_id, seq, [event(1)], head=head(before)))
    headless = on_loop(store, lambda: store.append_async(match_id, seq, [event(1)], head=None))

    assert unopened is None and headless is None
    assert store.last_seq(match_id) == seq


def test_a_lost_connection_raises_as_append_does_and_the_next_append_connects_anew(
    pg_store: EventStore, postgres_database: PostgresDatabase
) -> None:
    match_id, before = started(pg_store)
    seq = before[-1].seq

    async def work() -> list[StoredEvent] | None:
        warm = await pg_store.append_async(match_id, seq, [event(1)], head=head(before))
        assert warm is not None
        restart_database(postgres_database.url)
        await asyncio.sleep(0.2)
        current = warm
        outcomes = []
        for _ in range(3):
            try:
                stored = await pg_store.append_async(
                    match_id, current[-1].seq, [event(2)], head=head(current)
                )
                outcomes.append("ok" if stored else "refused")
                current = stored or current
            except OperationalError:
                outcomes.append("lost")
        assert outcomes[-1] == "ok" and "refused" not in outcomes, outcomes
        return None

    on_loop(pg_store, work)


def test_a_server_that_does_not_answer_leaves_the_append_to_the_caller_at_once(
    pg_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool would wait for the server to come back; the append waits half a second for a
    connection, then says None (nothing sent), and the usual path answers 503 at once."""
    match_id, before = started(pg_store)
    url = pg_store.engine.url.set(port=1)  # nothing listens there
    gone = AsyncAppends(url, 2, pg_store.origin, lambda *_: None)
    monkeypatch.setattr(pg_store, "_async", gone)
    seq = before[-1].seq

    async def work() -> tuple[list[StoredEvent] | None, float]:
        began = time.monotonic()
        stored = await pg_store.append_async(match_id, seq, [event(1)], head=head(before))
        return stored, time.monotonic() - began

    stored, took = on_loop(pg_store, work)
    assert stored is None and took < 5
    assert pg_store.last_seq(match_id) == seq


def test_a_recorded_idempotency_key_writes_nothing_and_says_none(store: EventStore) -> None:
    match_id, before = started(store)
    seq = before[-1].seq
    first = store.append(match_id, seq, [event(1)], idempotency_key="k", request_digest="d")

    again = on_loop(
        store,
        lambda: store.append_async(
            match_id, first[-1].seq, [event(2)], head=head(first), idempotency_key="k",
            request_digest="d",
        ),
    )  # fmt: skip

    assert again is None and store.last_seq(match_id) == first[-1].seq
