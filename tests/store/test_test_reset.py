"""The suite's own reset of the session's PostgreSQL database between tests
(``tests.conftest.RESET``): every table the schema has is emptied, and the guards the reset
steps around are on again for the test that follows."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from events.store import EventStore
from tests.conftest import RESET_TABLES, PostgresDatabase
from tests.store.support import GAME_TIME, event, new_match


def append_some(url: str) -> None:
    """A match with two events: rows in matches, tokens, events and positions."""
    store = EventStore.from_url(url, clock=lambda: GAME_TIME)
    try:
        store.append(new_match(store), 0, [event(1), event(2)])
    finally:
        store.dispose()


def test_every_table_of_the_schema_is_reset(database_url: str) -> None:
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        tables = set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()
    assert tables == {*RESET_TABLES, "positions"}


@pytest.mark.postgres
def test_after_a_reset_every_table_is_empty_and_the_guards_hold(
    postgres_database: PostgresDatabase,
) -> None:
    postgres_database.reset()
    append_some(postgres_database.url)
    postgres_database.reset()
    engine = create_engine(postgres_database.url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            for table in RESET_TABLES:
                assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0
            assert conn.execute(text("SELECT last FROM positions")).scalar() == 0
        append_some(postgres_database.url)
        with pytest.raises(DBAPIError, match="immutable"), engine.begin() as conn:
            conn.execute(text("DELETE FROM events"))
    finally:
        engine.dispose()
