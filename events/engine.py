"""Engines for the store: SQLite (embedded default) and PostgreSQL through psycopg 3.

PostgreSQL: every session's time zone is UTC. A connection that lay unused in the pool for
``PING_AFTER`` seconds or more is pinged before it is handed out (a dead one is replaced
there); one in steady use is not, which saves a round trip per request. A connection that
died in the meantime (the server restarted) fails its request with a disconnect, which makes
the pool replace every connection older than that failure at their next checkout.

SQLite: WAL, a 30 s busy timeout, foreign keys on, and ``BEGIN IMMEDIATE`` for connections
marked as writers (``conn.execution_options(store_write=True)``) so writers queue up instead of
failing on a lock upgrade; readers use a plain deferred ``BEGIN``. ``synchronous=FULL`` by
default: every commit is flushed to the disk (fsync) before it is acknowledged, so nothing
acknowledged is lost to a crash of the process, of the machine or of its power. ``normal``
(``ADJUDICATOR_SQLITE_SYNCHRONOUS``) flushes only at WAL checkpoints: the database is never
corrupted and a killed process loses nothing, but a machine that loses its power may lose the
last commits acknowledged before it (SQLite's own documentation of ``synchronous`` in WAL
mode); about 0.45 ms less per append on the development machine.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from functools import partial
from typing import Any
from urllib.parse import quote

import msgspec
import psycopg
from sqlalchemy import Connection, Engine, RootTransaction, Select, create_engine, event
from sqlalchemy.engine import URL, Dialect, make_url
from sqlalchemy.exc import DisconnectionError, OperationalError

WRITE = "store_write"
# Connections a PostgreSQL engine keeps open by default (``ADJUDICATOR_DB_POOL_SIZE``): enough
# for the requests a process serves at once (a command holds one for its append), so a burst of
# clients never makes the pool open and close connections per request, which costs the server a
# process fork each; as many again are opened under a bigger burst and closed after it.
POOL_SIZE = 20
BUSY_TIMEOUT_MS = 30_000
PING_AFTER = 1.0
"""Seconds unused in the pool after which a connection is pinged before it is handed out."""


def normalise_url(url: str | URL) -> URL:
    """``postgresql://`` means psycopg 3 here, never psycopg2. A libpq multi-host URL
    (``postgresql://user@host1:5432,host2:5433/db?target_session_attrs=read-write``, as a
    cluster of a primary and its standbys is named) becomes SQLAlchemy's spelling of it, one
    ``host=host:port`` query parameter per server: libpq tries them in order at each connect
    and keeps the first that matches ``target_session_attrs``."""
    if isinstance(url, str):
        url = _multi_host(url)
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg")
    return parsed


_NETLOC = re.compile(
    r"^(?P<scheme>[^:/]+://)(?P<user>[^@/]*@)?(?P<hosts>[^/?]*,[^/?]*)(?P<rest>.*)$"
)


def _multi_host(url: str) -> str:
    """``url`` with a comma-separated host list moved into ``host=`` query parameters."""
    found = _NETLOC.match(url)
    if found is None:
        return url
    rest = found["rest"]
    path, _, query = rest.partition("?")
    hosts = [f"host={quote(host.strip(), safe='')}" for host in found["hosts"].split(",")]
    query = "&".join([*hosts, query] if query else hosts)
    return f"{found['scheme']}{found['user'] or ''}{path or '/'}?{query}"


def hosts_of(url: URL) -> list[str]:
    """The ``host[:port]`` entries of a multi-host URL (empty for a single host)."""
    host = url.query.get("host", ())
    return list(host) if isinstance(host, tuple) else []


def libpq_url(url: URL) -> str:
    """``url`` as psycopg connects to it directly (no SQLAlchemy driver name), password kept;
    a multi-host URL in libpq's own spelling (``host1:port1,host2:port2``)."""
    hosts = hosts_of(url)
    plain = url.set(drivername="postgresql")
    if not hosts:
        return plain.render_as_string(hide_password=False)
    plain = plain.set(host=None, port=None).difference_update_query(["host"])
    rendered = plain.render_as_string(hide_password=False)
    scheme, _, rest = rendered.partition("://")
    auth, at, after = rest.rpartition("@") if "@" in rest.split("/", 1)[0] else ("", "", rest)
    return f"{scheme}://{auth}{at}{','.join(hosts)}{after}"


def json_loads(text: str | bytes) -> Any:
    """A JSON column's value, as ``json.loads`` reads it: by msgspec (several times faster per
    row; it reads an int of any size as an int, as ``json.loads`` does), unless msgspec refuses
    the text (NaN, Infinity, a number beyond a float's range, a lone surrogate: ``json.loads``
    reads them). No scan of the text first: the search for runs of 19 digits that orjson
    needed (it reads a longer int as a float) cost more than the decoding of a round's
    pairing (``tests/store/test_json_columns.py`` holds the two readings equal)."""
    try:
        return _decode_any(text)
    except (ValueError, RecursionError):  # msgspec's errors are ValueErrors
        return json.loads(text)


_decode_any = msgspec.json.Decoder().decode
_LONG_DIGITS = re.compile(r"[0-9]{19}")


def json_read(text: str | None) -> tuple[Any, bool]:
    """A JSON column's text (None: SQL NULL) read as :func:`json_loads` reads it, and whether
    the value is known to be plain (``adjudicator.kernel.canonical.plain``), which then need not
    be walked to be hashed. msgspec reads it in one step when the text has no run of 19 digits
    (so every int lies within 64 bits) and no float (its float hook refuses one), and the value
    is plain; otherwise :func:`json_loads` reads it (a float, a big int, NaN, a lone surrogate,
    deep nesting) and plainness is left unknown (False)."""
    if text is None:
        return None, True
    if _LONG_DIGITS.search(text) is None:
        try:
            return _decode_plain(text), True
        except (ValueError, RecursionError):  # msgspec's errors, the float hook's among them
            pass
    return json_loads(text), False


def _no_float(text: str) -> float:
    raise ValueError(f"a float: {text}")


_decode_plain = msgspec.json.Decoder(float_hook=_no_float).decode


SQLITE_SYNCHRONOUS = ("full", "normal")


def make_engine(
    url: str | URL, pool_size: int = POOL_SIZE, sqlite_synchronous: str = "full"
) -> Engine:
    """An engine for ``url``; on PostgreSQL, ``pool_size`` connections kept open (and as many
    again under a burst); on SQLite, ``sqlite_synchronous`` (see the module's docstring)."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "sqlite":
        if sqlite_synchronous not in SQLITE_SYNCHRONOUS:
            raise ValueError(f"sqlite_synchronous: one of {', '.join(SQLITE_SYNCHRONOUS)}")
        return _sqlite_engine(parsed, sqlite_synchronous)
    engine = create_engine(
        parsed,
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_use_lifo=True,  # the same few connections stay in use; the idle rest get pinged
        json_deserializer=json_loads,
    )
    event.listen(engine, "connect", _on_postgres_connect)
    event.listen(engine.pool, "checkin", _on_checkin)
    event.listen(engine.pool, "checkout", partial(_on_checkout, engine.dialect))
    return engine


def binary_rows(conn: Connection, query: Select[Any]) -> list[tuple[Any, ...]]:
    """Every row of ``query``; on PostgreSQL asked for in the binary format, so that ``bytea``
    columns come as their bytes and not as hex text twice their size, which libpq and psycopg
    then decode: the stored fold states and pages of a long match (a few MB) load in about a
    third of the time. The query runs through SQLAlchemy as any other (its disconnect handling
    included); only the cursor it opens on the driver's connection, which ``conn`` holds alone
    meanwhile, asks for binary results."""
    if conn.dialect.name != "postgresql":
        return [tuple(row) for row in conn.execute(query)]
    driver: Any = conn.connection.driver_connection  # a psycopg.Connection
    factory, driver.cursor_factory = driver.cursor_factory, _BinaryCursor
    try:
        return [tuple(row) for row in conn.execute(query)]
    finally:
        driver.cursor_factory = factory


class _BinaryCursor(psycopg.Cursor[Any]):
    """A psycopg cursor whose results come in the binary format (``cursor(binary=True)``)."""

    def __init__(self, connection: psycopg.Connection[Any], **kwargs: Any) -> None:
        super().__init__(connection, **kwargs)
        self.format = psycopg.pq.Format.BINARY


def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
    record.info["checked_in"] = time.monotonic()


def _on_checkout(dialect: Dialect, dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """Ping a connection that lay unused for ``PING_AFTER`` seconds or more (as
    ``pool_pre_ping`` pings every one); a dead one is refused (``DisconnectionError``), and
    the pool connects anew in its place."""
    checked_in = record.info.get("checked_in")
    if checked_in is None or time.monotonic() - checked_in < PING_AFTER:
        return
    try:
        dialect.do_ping(dbapi_connection)
    except Exception as error:  # whatever the failure, connect anew
        raise DisconnectionError(str(error)) from error


def _on_postgres_connect(dbapi_connection: Any, _record: Any) -> None:
    """Sessions speak UTC, whatever the server or the URL set: ``timestamptz`` values then load
    as UTC datetimes, so years 1 and 9999 never overflow a local offset when read."""
    dbapi_connection.execute("SET TIME ZONE 'UTC'")
    dbapi_connection.commit()


def _sqlite_engine(url: URL, synchronous: str) -> Engine:
    connect_args = {"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
    engine = create_engine(url, connect_args=connect_args, json_deserializer=json_loads)
    event.listen(engine, "connect", partial(_on_sqlite_connect, synchronous=synchronous))
    event.listen(engine, "begin", _on_sqlite_begin)
    return engine


def _on_sqlite_connect(
    dbapi_connection: sqlite3.Connection, _record: Any, synchronous: str = "full"
) -> None:
    dbapi_connection.isolation_level = None  # the "begin" hook below issues BEGIN itself
    pragmas = ("journal_mode=WAL", f"busy_timeout={BUSY_TIMEOUT_MS}", "foreign_keys=ON")
    for pragma in (*pragmas, f"synchronous={synchronous.upper()}"):
        dbapi_connection.execute(f"PRAGMA {pragma}").close()


def _on_sqlite_begin(connection: Connection) -> None:
    writer = connection.get_execution_options().get(WRITE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN")


def begin_now(conn: Connection) -> RootTransaction | None:
    """SQLite's write transaction on ``conn`` (a writer), begun only if no other process
    writes: None at once where ``BEGIN IMMEDIATE`` would wait in the busy handler. For the
    event loop, which must never wait for a lock (``events.sqlite_async``)."""
    driver = conn.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    driver.execute("PRAGMA busy_timeout=0").close()
    try:
        return conn.begin()
    except OperationalError as error:
        if _busy(error):
            return None
        raise
    finally:
        driver.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}").close()


def _busy(error: OperationalError) -> bool:
    code = getattr(error.orig, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
