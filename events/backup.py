"""Backups that restore: a consistent copy of the whole store taken while the service runs, and
its restore into an empty database.

* **SQLite** (the embedded store): SQLite's online backup API (``sqlite3.Connection.backup``),
  all pages in one step under one read transaction, so the copy is the database as of one
  instant even while writers go on (in WAL mode they are not blocked).
* **PostgreSQL**: ``pg_dump --format=custom`` run against a snapshot this module exports from a
  ``REPEATABLE READ`` transaction (``pg_export_snapshot()``); the same transaction reads how far
  the global position had come, so a backup says exactly which events it holds (every position
  up to it: appends commit in position order, they take it from one locked row). The restore is
  ``pg_restore`` into an empty database in one transaction; the triggers that keep the record
  append-only are created after the data is loaded, as the dump orders them. Owners and grants
  are not restored: the ``db upgrade`` that follows a restore grants the service role again.

For point-in-time recovery of a cluster, ``pg_basebackup`` with WAL archiving is PostgreSQL's
own way (``docs/scaling.md``); this module is the portable, logical one.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from events.engine import libpq_url, normalise_url


class BackupError(Exception):
    """A backup or a restore that could not be made; the message says why."""


@dataclass(frozen=True)
class BackupPoint:
    """What a backup holds: every event up to global position ``position``, of ``matches``
    matches."""

    position: int
    matches: int


def backup(url: str, target: Path) -> BackupPoint:
    """Copy the store at ``url`` into the file ``target`` (refused if it exists)."""
    if target.exists():
        raise BackupError(f"{target} exists: give a new file")
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_backup(_sqlite_path(parsed.database), target)
    return _pg_backup(libpq_url(parsed), target)


def restore(source: Path, url: str) -> BackupPoint:
    """Restore the backup ``source`` into the empty database at ``url``."""
    if not source.is_file():
        raise BackupError(f"{source}: no such backup file")
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_restore(source, _sqlite_path(parsed.database, existing=False))
    return _pg_restore(source, libpq_url(parsed))


# SQLite


def _sqlite_path(database: str | None, existing: bool = True) -> Path:
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up or restore into")
    path = Path(database)
    if existing and not path.is_file():
        raise BackupError(f"{path}: no such SQLite database")
    return path


def _sqlite_backup(source: Path, target: Path) -> BackupPoint:
    with _sqlite(source) as src:
        try:
            src.execute(POINT).fetchone()
        except sqlite3.OperationalError as error:  # no such table: not a store
            raise BackupError(NO_STORE) from error
        with _sqlite(target) as dst:
            src.backup(dst)  # every page in one step: one read transaction, one instant
    with _sqlite(target) as copy:
        return _point(copy.execute(POINT).fetchone())


def _sqlite_restore(source: Path, target: Path) -> BackupPoint:
    if target.exists() and target.stat().st_size > 0:
        raise BackupError(f"{target} exists: restore into a new file")
    target.parent.mkdir(parents=True, exist_ok=True)
    with _sqlite(source) as src:
        point = _point(src.execute(POINT).fetchone())
        with _sqlite(target) as dst:
            src.backup(dst)
    return point


@contextmanager
def _sqlite(path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(path)
    try:
        yield conn
    finally:
        conn.close()


POINT = "SELECT (SELECT last FROM positions), (SELECT count(*) FROM matches)"


NO_STORE = "the database holds no adjudicator store (db upgrade makes one)"


def _point(row: tuple[int, int] | None) -> BackupPoint:
    if row is None or row[0] is None:
        raise BackupError(NO_STORE)
    return BackupPoint(position=int(row[0]), matches=int(row[1]))


# PostgreSQL


def _pg_backup(url: str, target: Path) -> BackupPoint:
    pg_dump = _tool("pg_dump")
    try:
        with psycopg.connect(url) as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            snapshot = conn.execute("SELECT pg_export_snapshot()").fetchone()
            point = _point(conn.execute(POINT).fetchone())
            assert snapshot is not None
            command = [pg_dump, "--format=custom", f"--snapshot={snapshot[0]}"]
            _run([*command, f"--file={target}", f"--dbname={url}"], "pg_dump")
    except psycopg.errors.UndefinedTable as error:
        raise BackupError(NO_STORE) from error
    except psycopg.Error as error:
        target.unlink(missing_ok=True)
        raise BackupError(f"the database: {error}".partition("\n")[0]) from error
    return point


def _pg_restore(source: Path, url: str) -> BackupPoint:
    pg_restore = _tool("pg_restore")
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            tables = conn.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
            ).fetchone()
            if tables is None or tables[0]:
                raise BackupError("the database is not empty: restore into a new database")
            options = ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"]
            _run([pg_restore, *options, f"--dbname={url}", str(source)], "pg_restore")
            return _point(conn.execute(POINT).fetchone())
    except psycopg.Error as error:
        raise BackupError(f"the database: {error}".partition("\n")[0]) from error


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is missing: install PostgreSQL's client tools")
    return found


def _run(command: list[str], name: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise BackupError(f"{name} failed: {lines[-1]}")
