"""PostgreSQL roles: the schema's owner migrates, the service connects as a role that may only
read, append and move the columns the append path moves."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from uuid import uuid4

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from api.service.settings import Settings
from events import EventStore, TokenRecord, verify_chain
from events.grants import quoted_role, service_grants
from events.migrate import upgrade
from projections.stored_checkpoints import FoldStore
from tests.conftest import PostgresDatabase
from tests.store.support import GAME_TIME, event


@dataclass(frozen=True)
class Roles:
    owner_url: str
    service_url: str
    role: str


def _admin(url: str) -> Engine:
    return create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)


@pytest.fixture
def roles(postgres_database: PostgresDatabase) -> Iterator[Roles]:
    """A fresh, empty database on the test server and a new login role, both dropped after."""
    server = make_url(postgres_database.url)
    name, role = f"adj_roles_{uuid4().hex[:12]}", f"adj_service_{uuid4().hex[:12]}"
    admin = _admin(postgres_database.url)
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        conn.exec_driver_sql(f"CREATE ROLE {quoted_role(role)} LOGIN")
    owner = server.set(database=name)
    service = owner.set(username=role, password=None)
    try:
        owner_url, service_url = (u.render_as_string(hide_password=False) for u in (owner, service))
        yield Roles(owner_url, service_url, role)
    finally:
        with admin.connect() as conn:
            conn.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"),
                {"n": name},
            )
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')
            conn.exec_driver_sql(f"DROP ROLE IF EXISTS {quoted_role(role)}")
        admin.dispose()


REFUSED = [
    ("UPDATE events SET type = 'x'", "permission denied"),
    ("DELETE FROM events", "permission denied"),
    ("TRUNCATE events", "permission denied"),
    ("ALTER TABLE events DISABLE TRIGGER events_no_update_delete", "must be owner"),
    ("ALTER TABLE events DISABLE TRIGGER ALL", "must be owner"),
    ("DROP TRIGGER events_no_update_delete ON events", "must be owner"),
    ("ALTER TABLE matches DISABLE TRIGGER matches_guarded", "must be owner"),
    ("UPDATE matches SET setup = '{}'", "permission denied"),
    ("UPDATE matches SET game = 'x'", "permission denied"),
    ("DELETE FROM matches", "permission denied"),
    ("UPDATE match_tokens SET role = 'host'", "permission denied"),
    ("DELETE FROM match_tokens", "permission denied"),
    ("DROP TABLE events", "must be owner"),
    ("UPDATE positions SET last = last - 1", "only grows"),  # it could, before revision 0004
    ("ALTER TABLE positions DISABLE TRIGGER positions_guarded", "must be owner"),
    ("DELETE FROM positions", "permission denied"),
]


@pytest.mark.postgres
def test_the_service_role_appends_but_cannot_rewrite_or_unguard_the_log(roles: Roles) -> None:
    upgrade(roles.owner_url, service_role=roles.role)
    upgrade(roles.owner_url, service_role=roles.role)  # grants are idempotent
    store = EventStore.from_url(roles.service_url)
    try:
        tokens = [TokenRecord("seat", "s" * 64, seat="north")]
        store.create_match("m-1", "zoom", "1", {"seats": ["north"]}, tokens, GAME_TIME)
        store.append("m-1", 0, [event(1)])
        store.append("m-1", 1, [event(2)], close=True)
        store.add_operator_token("o" * 64)
        stored = store.read("m-1")
        assert [e.seq for e in stored] == [1, 2] and verify_chain(stored).ok
        assert store.match_for_token("s" * 64) == ("m-1", "seat", "north")
        for statement, refusal in REFUSED:
            with pytest.raises(DBAPIError, match=refusal), store.engine.begin() as conn:
                conn.exec_driver_sql(statement)
        assert store.read("m-1") == stored
        match = store.get_match("m-1")
        assert match is not None and (match.status, match.last_seq) == ("closed", 2)
    finally:
        store.dispose()
    upgrade(roles.service_url)  # the schema is current: a no-op the service role may run


@pytest.mark.postgres
def test_the_app_migrates_as_owner_and_serves_as_the_service_role(roles: Roles) -> None:
    from api.http.app import create_app

    settings = Settings(
        database_url=roles.service_url,
        migration_database_url=roles.owner_url,
        service_role=roles.role,
        operator_token="op",
        log_level="warning",
    )
    app = create_app(settings)
    store: EventStore = app.state.service.store
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT current_user").scalar_one() == roles.role
        assert store.operator_token_count() == 1
    finally:
        store.dispose()


def test_the_migration_url_defaults_to_the_service_url() -> None:
    assert Settings(database_url="sqlite:///a").migration_url == "sqlite:///a"
    both = Settings(database_url="sqlite:///a", migration_database_url="sqlite:///b")
    assert (both.database_url, both.migration_url) == ("sqlite:///a", "sqlite:///b")


def test_the_grants_name_the_role_quoted_and_only_the_columns_the_store_moves() -> None:
    statements = service_grants('odd"name')
    assert statements[0].startswith("REVOKE ALL ON events, matches")
    assert all('"odd""name"' in statement for statement in statements)
    assert any("UPDATE (last_seq, status, closed_at) ON matches" in s for s in statements)
    assert not any("TRUNCATE" in s for s in statements)
    deletes = [s for s in statements if "DELETE" in s]  # token rotation; the fold's caches
    assert deletes == [
        'GRANT DELETE ON operator_tokens TO "odd""name"',
        'GRANT SELECT, INSERT, DELETE ON fold_checkpoints TO "odd""name"',
        'GRANT SELECT, INSERT, UPDATE, DELETE ON fold_heads TO "odd""name"',
        'GRANT SELECT, INSERT, DELETE ON fold_pages TO "odd""name"',
    ]


@pytest.mark.postgres
def test_the_service_role_prunes_the_stored_states_of_stale_codecs(roles: Roles) -> None:
    upgrade(roles.owner_url, service_role=roles.role)
    store = EventStore.from_url(roles.service_url)
    try:
        folds = FoldStore(store)
        for codec in ("old", "new"):
            folds.execute(folds.checkpoint_insert("m-1", codec, 1000, b"\x01" * 16, b"state"))
        assert folds.prune({"new"}) == 1
        assert folds.read("m-1", "new", [(1000, b"\x01" * 16)]) is not None
    finally:
        store.dispose()
