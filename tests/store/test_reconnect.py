"""A PostgreSQL restart as the pool sees it: every connection it holds is gone. A connection
that lay unused long enough is pinged and replaced before use; one in steady use is not pinged,
so at most the first request after the restart fails (as a disconnect, which the API answers
503 ``store_unavailable``) and every connection older than that failure is replaced."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from events import EventStore, engine
from projections.stored_checkpoints import FoldStore
from tests.conftest import PostgresDatabase
from tests.store.support import event, new_match, restart_database


def _fill_pool(store: EventStore, connections: int) -> None:
    """Check out ``connections`` at once, so the pool holds that many."""
    barrier = threading.Barrier(connections)

    def hold() -> None:
        with store.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
            barrier.wait(timeout=10)

    threads = [threading.Thread(target=hold) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _appends(store: EventStore, match_id: str, seq: int, count: int) -> list[str]:
    """``count`` appends one after another from ``seq``: "ok", or the failure's class name
    (a connection found dead sent nothing, so nothing was recorded)."""
    results = []
    for _ in range(count):
        try:
            store.append(match_id, seq, [event(seq)])
            results.append("ok")
            seq += 1
        except DBAPIError as error:
            results.append(type(error).__name__)
    assert store.last_seq(match_id) == seq
    return results


def test_connections_unused_for_a_while_are_pinged_and_replaced(
    pg_store: EventStore, postgres_database: PostgresDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine, "PING_AFTER", 0.05)
    match_id = new_match(pg_store)
    seq = pg_store.last_seq(match_id)
    _fill_pool(pg_store, 5)
    assert restart_database(postgres_database.url) >= 5
    time.sleep(0.1)
    assert _appends(pg_store, match_id, seq, 10) == ["ok"] * 10


def test_after_a_restart_in_steady_use_at_most_the_first_request_fails(
    pg_store: EventStore, postgres_database: PostgresDatabase
) -> None:
    match_id = new_match(pg_store)
    seq = pg_store.last_seq(match_id)
    _fill_pool(pg_store, 5)
    assert restart_database(postgres_database.url) >= 5
    results = _appends(pg_store, match_id, seq, 10)
    assert results[1:] == ["ok"] * 9, results
    assert results[0] in ("ok", "OperationalError")


def test_a_stored_fold_read_after_a_restart_fails_once_and_the_pool_recovers(
    pg_store: EventStore, postgres_database: PostgresDatabase
) -> None:
    """The stored fold states are read in the binary format (``engine.binary_rows``); a read on
    a connection the restart killed fails as a disconnect, like any other query, so the pool
    replaces every connection older than the failure and the next reads and appends answer."""
    folds = FoldStore(pg_store)
    folds.execute(folds.checkpoint_insert("m-1", "zoom:c", 1000, bytes(16), b"state"))
    match_id = new_match(pg_store)
    seq = pg_store.last_seq(match_id)
    _fill_pool(pg_store, 5)
    assert restart_database(postgres_database.url) >= 5
    outcomes: list[object] = []
    for _ in range(4):
        try:
            outcomes.append(folds.read("m-1", "zoom:c", [(1000, bytes(16))]))
        except DBAPIError as error:
            outcomes.append(type(error).__name__)
    assert outcomes[1:] == [(1000, bytes(16), b"state")] * 3, outcomes
    assert _appends(pg_store, match_id, seq, 5) == ["ok"] * 5
