"""What a live command costs the store: one statement on PostgreSQL (the append's CTE, committed
by the server, sent over the async connections of the serving loop: none through the engine's
threads), one transaction on SQLite (begun on the loop only when it need not wait for the lock:
the busy timeout is 0 around its ``BEGIN``; the append in a savepoint: see
``events.sqlite_async``), whatever the length of the match.

Counts statements (not time), so it cannot flake on a busy machine."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from sqlalchemy import event

from events import NewEvent
from tests.api.conftest import Api
from tests.api.test_zoom_over_http import supplied_match


def _kind(statement: str) -> str:
    return statement.split(maxsplit=1)[0]


def _statements(app: Any) -> list[str]:
    """What the engine's connections send from now on: through SQLAlchemy, and on SQLite also
    the SQL texts sent to the driver itself (``events.appending``), as SQLite traces them (it
    traces a statement again for each trigger it fires: counted once)."""
    seen: list[str] = []
    engine = app.state.service.store.engine
    if engine.dialect.name == "sqlite":
        last: list[str] = [""]

        def trace(statement: str) -> None:
            if statement != last[0]:
                seen.append(_kind(statement))
            last[0] = statement

        event.listen(engine, "checkout", lambda conn, *_: conn.set_trace_callback(trace))
        return seen
    event.listen(engine, "before_cursor_execute", lambda *a: seen.append(_kind(a[2])))
    event.listen(engine, "commit", lambda *_: seen.append("COMMIT"))
    return seen


def _async_statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    execute = psycopg.AsyncConnection.execute

    async def counted(self: psycopg.AsyncConnection[Any], query: Any, *args: Any, **kw: Any) -> Any:
        seen.append(_kind(str(query)))
        return await execute(self, query, *args, **kw)

    monkeypatch.setattr(psycopg.AsyncConnection, "execute", counted)
    return seen


def test_a_live_command_is_one_statement_or_one_transaction(
    api: Api, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    postgres = app.state.service.store.engine.dialect.name == "postgresql"
    begin = ["PRAGMA", "BEGIN", "PRAGMA"]  # busy_timeout=0, BEGIN IMMEDIATE, busy_timeout back
    one_transaction = [*begin, "SAVEPOINT", "UPDATE", "UPDATE", "INSERT", "RELEASE", "COMMIT"]
    expected = [] if postgres else one_transaction
    supplied_match(api)
    api.ok("alpha", {"type": "buzz", "pairs": [{"target": "A", "at": "a1"}]})
    seen, on_loop = _statements(app), _async_statements(monkeypatch)
    for _ in range(20):
        seen.clear()
        on_loop.clear()
        api.clock.advance(1)
        api.ok("alpha", {"type": "buzz", "pairs": [{"target": "B", "at": "a1"}]})
        assert seen == expected
        assert on_loop == (["WITH"] if postgres else [])


def test_a_command_on_a_stale_live_fold_is_decided_again_on_what_was_recorded(
    api: Api, app: Any
) -> None:
    """Another replica appended behind this one's live fold: the append from the event loop is
    refused (nothing written) and the command goes the thread pool's way, which reads the tail,
    decides again and records after it."""
    supplied_match(api)
    api.ok("alpha", {"type": "buzz", "pairs": [{"target": "A", "at": "a1"}]})
    store = app.state.service.store
    last = store.read(api.match_id)[-1]
    behind = NewEvent("zoom.buzzed", "seat:beta", api.clock.now, {"seat": "beta", "pairs": []})
    store.append(api.match_id, last.seq, [behind])  # not through this service: its fold is stale
    api.clock.advance(1)
    answer = api.ok("alpha", {"type": "buzz", "pairs": [{"target": "B", "at": "a1"}]})
    assert answer["events"][0]["seq"] == last.seq + 2
    assert [e.seq for e in store.read(api.match_id)] == list(range(1, last.seq + 3))


def test_a_keyed_command_takes_one_statement_and_its_retry_replays_the_first_answer(
    api: Api, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The console sends an Idempotency-Key with every command: the key rides on the one
    statement (unique per match in the store), and a retry, refused by it with nothing
    written, is answered from the thread pool's way as the first answer."""
    postgres = app.state.service.store.engine.dialect.name == "postgresql"
    supplied_match(api)
    api.ok("alpha", {"type": "buzz", "pairs": [{"target": "A", "at": "a1"}]})
    on_loop = _async_statements(monkeypatch)
    api.clock.advance(1)
    body = {"type": "buzz", "pairs": [{"target": "B", "at": "a1"}]}
    first = api.ok("alpha", body, key="k-1")
    assert on_loop == (["WITH"] if postgres else [])
    retried = api.command("alpha", body, key="k-1")
    assert retried.status_code == 201, retried.text
    assert retried.json()["replayed"] is True
    assert retried.json()["events"] == first["events"]
    keyed = [e for e in app.state.service.store.read(api.match_id) if e.idempotency_key]
    assert len(keyed) == 1
