"""Shared fixtures: a migrated database per test, on SQLite and on PostgreSQL.

PostgreSQL comes from ``DATABASE_URL`` (a fresh database is created on that server), else from
testcontainers when a Docker engine answers. With neither, the PostgreSQL tests are skipped,
except under CI (env ``CI`` set), where that is a failure: CI never silently skips them.
"""

from __future__ import annotations

import gc
import os
import shutil
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import URL
from sqlalchemy.pool import NullPool

from events.engine import normalise_url
from events.migrate import upgrade
from events.store import EventStore
from tests.store.support import GAME_TIME, ManualClock


def _fastapi_call_caches() -> list[Any]:
    """FastAPI's module-level caches of the callables it has classified (``lru_cache``,
    4,096 entries each; none if a FastAPI version has them no more)."""
    from fastapi.dependencies import models

    found = (getattr(models, name) for name in dir(models) if name.endswith("_cached"))
    return [cache for cache in found if hasattr(cache, "cache_clear")]


_FASTAPI_CALL_CACHES = _fastapi_call_caches()


@pytest.fixture(autouse=True)
def _apps_released() -> Iterator[None]:
    """Each test's apps are freed after it. FastAPI keeps the endpoints and dependencies it has
    classified in module-level caches, and some are defined per app (FastAPI's own docs routes
    close over their app), so every app a test built stayed alive: ~20 MB each, the suite's
    process grew to 12 GB. A process that serves builds one app, whose entries stay put."""
    yield
    for cache in _FASTAPI_CALL_CACHES:
        cache.cache_clear()


NO_POSTGRES = (
    "PostgreSQL tests need DATABASE_URL (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test)"
    " or a Docker engine for testcontainers"
)


def _docker_answers() -> bool:
    if not (os.environ.get("DOCKER_HOST") or Path("/var/run/docker.sock").exists()):
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a failed probe leaves sockets for the collector
        try:
            import docker

            client = docker.from_env(timeout=3)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except Exception:
            return False
        finally:
            gc.collect()


def _server_url(stack: ExitStack) -> URL:
    if os.environ.get("DATABASE_URL"):
        return normalise_url(os.environ["DATABASE_URL"])
    if _docker_answers():
        from testcontainers.postgres import PostgresContainer

        container = stack.enter_context(PostgresContainer("postgres:16-alpine", driver="psycopg"))
        return normalise_url(container.get_connection_url())
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the PostgreSQL tests: {NO_POSTGRES}")
    pytest.skip(NO_POSTGRES)


def _url_text(url: URL) -> str:
    return url.render_as_string(hide_password=False)


def _drop(admin: Engine, name: str) -> None:
    with admin.connect() as conn:
        conn.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = :name AND pid <> pg_backend_pid()"
            ),
            {"name": name},
        )
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')


RESET_TABLES = (
    "events", "match_tokens", "operator_tokens", "matches",
    "fold_checkpoints", "fold_heads", "fold_pages",
    "tlog_leaves", "tlog_nodes", "tlog_checkpoints", "tlog_cosignatures", "signing_keys",
    "tournament_events", "tournaments",
)  # fmt: skip
"""Every table a test may write to (not ``alembic_version``; ``positions`` is set back to 0)."""

RESET = (
    # no trigger fires (the guards refuse DELETE, foreign keys are triggers too): a test's
    # rows go without the cost of TRUNCATE's new files for every table and index (9 ms, not 67)
    "SET LOCAL session_replication_role = replica",
    *(f"DELETE FROM {table}" for table in RESET_TABLES),
    "UPDATE positions SET last = 0",
)


class PostgresDatabase:
    """The session's migrated database; ``reset`` empties it (in one transaction) for a test.
    A table added by a migration must be added to ``RESET_TABLES`` (a test checks)."""

    def __init__(self, url: URL) -> None:
        self.url = _url_text(url)
        self._engine = create_engine(url, poolclass=NullPool)

    def reset(self) -> None:
        with self._engine.begin() as conn:
            for statement in RESET:
                conn.exec_driver_sql(statement)

    def dispose(self) -> None:
        self._engine.dispose()


@contextmanager
def empty_postgres_database(prefix: str) -> Iterator[URL]:
    """A new, uniquely named, empty database on the test server (``DATABASE_URL``, else
    testcontainers), dropped at the end of the block."""
    with ExitStack() as stack:
        server = _server_url(stack)
        admin = create_engine(server, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        name = f"{prefix}_{uuid4().hex[:16]}"
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            yield server.set(database=name)
        finally:
            _drop(admin, name)
            admin.dispose()


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[PostgresDatabase]:
    """A fresh, uniquely named, migrated database on the server, dropped at session end."""
    with empty_postgres_database("adj_test") as url:
        database = PostgresDatabase(url)
        try:
            upgrade(database.url)
            yield database
        finally:
            database.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, copied for each test (a migration takes 55 ms, a copy well
    under one). The engine is disposed after the upgrade, so the file alone holds it all."""
    path = tmp_path_factory.mktemp("template") / "store.sqlite3"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated database, empty at the start of the test."""
    if request.param == "sqlite":
        path = tmp_path / "store.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    database: PostgresDatabase = request.getfixturevalue("postgres_database")
    database.reset()
    yield database.url


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=UTC))


@pytest.fixture
def store(database_url: str, clock: ManualClock) -> Iterator[EventStore]:
    store = EventStore.from_url(database_url, clock=clock)
    yield store
    store.dispose()


@pytest.fixture
def pg_store(postgres_database: PostgresDatabase) -> Iterator[EventStore]:
    """A store on the test PostgreSQL server, empty at the start (skipped without a server)."""
    postgres_database.reset()
    store = EventStore.from_url(postgres_database.url, clock=lambda: GAME_TIME)
    yield store
    store.dispose()


SLOW = ("tests/property/", "tests/browser/", "test_schemathesis.py", "test_replicas.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tests (property runs, the browser, schemathesis, real server processes)
    ``slow``, so ``./dev test -m "not slow"`` is the fast part a developer runs in seconds; CI
    runs everything."""
    for item in items:
        where = item.path.as_posix()
        if any(part in where for part in SLOW):
            item.add_marker(pytest.mark.slow)
