"""``adjudicator db backup`` / ``db restore`` on both backends: a backup taken while a writer
appends restores into a fresh database where every match verifies (chain, commitments, re-fold,
the transparency log's proofs), the global feed is gap-free up to the backup's point and holds
exactly the source's events there, and the restored store takes new appends after it."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import pytest
from sqlalchemy import create_engine, make_url

from api.cli.main import main
from api.service import audit
from events import EventStore, verify_chain
from events.backup import BackupError, backup, restore
from tests.api.conftest import Api
from tests.api.test_audit import closed_zoom_match
from tests.store.support import event, new_match


@pytest.fixture
def empty_url(database_url: str, tmp_path: Path) -> Iterator[str]:
    """A database of the same backend with nothing in it (SQLite: a file yet to be made)."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored' / 'store.sqlite3'}"
        return
    server = make_url(database_url)
    admin = create_engine(server.set(database="postgres"), isolation_level="AUTOCOMMIT")
    name = f"adj_restore_{uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


class Writer(threading.Thread):
    """Appends one event at a time to a match of its own until stopped: the load a backup is
    taken under."""

    def __init__(self, store: EventStore) -> None:
        super().__init__(daemon=True)
        self.store, self.match_id, self.seq = store, new_match(store), 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            self.store.append(self.match_id, self.seq, [event(self.seq + 1)])
            self.seq += 1


def test_a_backup_under_load_restores_with_every_match_verified_and_a_gap_free_feed(
    api: Api, database_url: str, empty_url: str, tmp_path: Path
) -> None:
    closed_zoom_match(api)
    closed = api.match_id
    api.create()  # an open match too
    api.ok("host", {"type": "start_round"})
    service = api.client.app.state.service  # type: ignore[attr-defined]
    source: EventStore = service.store
    writer = Writer(source)
    writer.start()
    try:
        while writer.seq < 20:  # the load is on
            threading.Event().wait(0.01)
        file = tmp_path / "backup.dump"
        assert main(["db", "backup", str(file), "--database-url", database_url]) == 0
    finally:
        writer.halt.set()
        writer.join()
    assert main(["db", "restore", str(file), "--database-url", empty_url]) == 0

    restored = EventStore.from_url(empty_url)
    try:
        feed = restored.read_after(0, limit=100_000)
        point = feed[-1].position
        assert [e.position for e in feed] == list(range(1, point + 1))  # gap-free
        original = source.read_after(0, limit=point)
        assert [e.hash for e in original] == [e.hash for e in feed]  # the source's, to there
        assert 20 <= sum(e.match_id == writer.match_id for e in feed) <= writer.seq
        for match in restored.list_matches(limit=100):
            events = restored.read(match.match_id)
            assert verify_chain(events).ok, match.match_id
            assert [e.seq for e in events] == list(range(1, match.last_seq + 1))
        report = audit.verify_stored(restored, service.games, closed)
        assert report.ok, report.as_json()
        assert {c.name for c in report.checks} >= {"log_inclusion", "log_signature"}
        assert audit.verify_stored(restored, service.games, api.match_id).ok
        last = restored.last_seq(writer.match_id)
        appended = restored.append(writer.match_id, last, [event(last + 1)])
        assert appended[0].position == point + 1  # the position counter came back with it
    finally:
        restored.dispose()


def test_a_backup_never_overwrites_and_a_restore_wants_an_empty_database(
    database_url: str, empty_url: str, tmp_path: Path
) -> None:
    file = tmp_path / "backup.dump"
    file.write_bytes(b"something else")
    with pytest.raises(BackupError, match="exists"):
        backup(database_url, file)
    with pytest.raises(BackupError, match="no such backup"):
        restore(tmp_path / "missing.dump", empty_url)
    file.unlink()
    backup(database_url, file)
    with pytest.raises(BackupError, match=r"not empty|exists"):
        restore(file, database_url)  # the source itself is no empty database
    assert main(["db", "restore", str(tmp_path / "missing.dump"), "--database-url", empty_url]) == 2


def test_an_in_memory_sqlite_database_is_said_to_have_nothing_to_back_up(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="in-memory"):
        backup("sqlite://", tmp_path / "x.dump")


def test_a_database_without_the_store_is_said_to_need_an_upgrade(
    empty_url: str, tmp_path: Path
) -> None:
    empty = empty_url
    if empty.startswith("sqlite"):  # a database file, with no store in it
        bare = tmp_path / "bare.sqlite3"
        sqlite3.connect(bare).close()
        empty = f"sqlite:///{bare}"
    with pytest.raises(BackupError, match="db upgrade"):
        backup(empty, tmp_path / "x.dump")
    assert not (tmp_path / "x.dump").exists()
