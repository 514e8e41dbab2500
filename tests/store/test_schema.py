"""Schema: migrations, immutability of the log, matches and tokens."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from events import DuplicateToken, EventStore, MatchExists, TokenGrant, TokenRecord, UnknownMatch
from events.migrate import alembic_config, upgrade
from tests.store.support import GAME_TIME, event, new_match


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def test_migrations_run_twice_without_change(store: EventStore, database_url: str) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)])

    upgrade(database_url)

    with store.engine.connect() as conn:
        versions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars()
        assert versions.all() == [head_revision()]
    assert [e.seq for e in store.read(match_id)] == [1]


@pytest.mark.parametrize("statement", ["UPDATE events SET type = 'x'", "DELETE FROM events"])
def test_recorded_events_cannot_be_updated_or_deleted(store: EventStore, statement: str) -> None:
    match_id = new_match(store)
    stored = store.append(match_id, 0, [event(1)])

    with pytest.raises(DBAPIError, match="immutable"), store.engine.begin() as conn:
        conn.execute(text(statement))

    assert store.read(match_id) == stored


def test_the_events_table_cannot_be_truncated_on_postgres(store: EventStore) -> None:
    if store.engine.dialect.name != "postgresql":
        pytest.skip("TRUNCATE exists on PostgreSQL only")
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)])

    with pytest.raises(DBAPIError, match="immutable"), store.engine.begin() as conn:
        conn.execute(text("TRUNCATE events CASCADE"))

    assert store.last_seq(match_id) == 1


def test_a_match_is_created_with_its_tokens(store: EventStore) -> None:
    tokens = [TokenRecord("host", "h" * 64), TokenRecord("seat", "s" * 64, seat="south")]
    created = store.create_match("m-1", "zombego", "2.1", {"variant": "hidden"}, tokens, GAME_TIME)

    assert store.get_match("m-1") == created
    assert (created.status, created.last_seq, created.closed_at) == ("open", 0, None)
    assert store.match_for_token("s" * 64) == TokenGrant("m-1", "seat", "south")
    assert store.match_for_token("h" * 64) == ("m-1", "host", None)
    assert store.match_for_token("nope") is None
    assert store.get_match("nope") is None


def test_duplicate_matches_and_tokens_are_refused(store: EventStore) -> None:
    store.create_match("m-1", "zoom", "1", {}, [TokenRecord("host", "h" * 64)], GAME_TIME)

    with pytest.raises(MatchExists):
        store.create_match("m-1", "zoom", "1", {}, [], GAME_TIME)
    with pytest.raises(DuplicateToken):
        store.create_match("m-2", "zoom", "1", {}, [TokenRecord("auditor", "h" * 64)], GAME_TIME)
    assert store.get_match("m-2") is None


def test_matches_are_listed_newest_first_and_filtered(store: EventStore) -> None:
    for number, game in enumerate(["zoom", "nnt", "zoom"]):
        created_at = GAME_TIME + timedelta(minutes=number)
        store.create_match(f"m-{number}", game, "1", {}, [], created_at)
    store.append("m-2", 0, [event(1)], close=True)

    assert [m.match_id for m in store.list_matches()] == ["m-2", "m-1", "m-0"]
    assert [m.match_id for m in store.list_matches(game="zoom", status="open")] == ["m-0"]
    assert [m.match_id for m in store.list_matches(limit=1, offset=1)] == ["m-1"]
    with pytest.raises(UnknownMatch):
        store.append("nope", 0, [event(1)], close=True)


def test_operator_tokens_are_stored_once(store: EventStore) -> None:
    assert store.operator_token_count() == 0
    store.add_operator_token("o" * 64)
    store.add_operator_token("o" * 64)

    assert store.has_operator_token("o" * 64)
    assert not store.has_operator_token("x" * 64)
    assert store.operator_token_count() == 1
