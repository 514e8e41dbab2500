"""Engines for the store: SQLite (embedded default) and PostgreSQL through psycopg 3.

PostgreSQL: every session's time zone is UTC.

SQLite: WAL, a 30 s busy timeout, foreign keys on, and ``BEGIN IMMEDIATE`` for connections
marked as writers (``conn.execution_options(store_write=True)``) so writers queue up instead of
failing on a lock upgrade; readers use a plain deferred ``BEGIN``.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url

WRITE = "store_write"
# Connections a PostgreSQL engine keeps open by default (``ADJUDICATOR_DB_POOL_SIZE``): enough
# for the requests a process serves at once (a command holds one for its append), so a burst of
# clients never makes the pool open and close connections per request, which costs the server a
# process fork each; as many again are opened under a bigger burst and closed after it.
POOL_SIZE = 20
BUSY_TIMEOUT_MS = 30_000


def normalise_url(url: str | URL) -> URL:
    """``postgresql://`` means psycopg 3 here, never psycopg2."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg")
    return parsed


def json_loads(text: str | bytes) -> Any:
    """A JSON column's value, as ``json.loads`` reads it: by orjson (several times faster per
    row) unless the text holds a run of 19 digits, where orjson turns an int beyond 64 bits
    into a float, or orjson refuses it (NaN, an overflowing exponent, a lone surrogate)."""
    long_digits = _LONG_DIGITS_BYTES if isinstance(text, bytes) else _LONG_DIGITS
    if long_digits.search(text) is None:  # type: ignore[arg-type]
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


_LONG_DIGITS = re.compile(r"[0-9]{19}")
_LONG_DIGITS_BYTES = re.compile(rb"[0-9]{19}")


def make_engine(url: str | URL, pool_size: int = POOL_SIZE) -> Engine:
    """An engine for ``url``; on PostgreSQL, ``pool_size`` connections kept open (and as many
    again under a burst)."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(parsed)
    engine = create_engine(
        parsed,
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_pre_ping=True,
        json_deserializer=json_loads,
    )
    event.listen(engine, "connect", _on_postgres_connect)
    return engine


def _on_postgres_connect(dbapi_connection: Any, _record: Any) -> None:
    """Sessions speak UTC, whatever the server or the URL set: ``timestamptz`` values then load
    as UTC datetimes, so years 1 and 9999 never overflow a local offset when read."""
    dbapi_connection.execute("SET TIME ZONE 'UTC'")
    dbapi_connection.commit()


def _sqlite_engine(url: URL) -> Engine:
    connect_args = {"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
    engine = create_engine(url, connect_args=connect_args, json_deserializer=json_loads)
    event.listen(engine, "connect", _on_sqlite_connect)
    event.listen(engine, "begin", _on_sqlite_begin)
    return engine


def _on_sqlite_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # the "begin" hook below issues BEGIN itself
    for pragma in ("journal_mode=WAL", f"busy_timeout={BUSY_TIMEOUT_MS}", "foreign_keys=ON"):
        dbapi_connection.execute(f"PRAGMA {pragma}").close()


def _on_sqlite_begin(connection: Connection) -> None:
    writer = connection.get_execution_options().get(WRITE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN")
