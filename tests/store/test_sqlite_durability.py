"""The embedded store's durability settings, as SQLite reports them on every connection: WAL,
and ``synchronous=FULL`` unless ``normal`` is asked for (``ADJUDICATOR_SQLITE_SYNCHRONOUS``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.service.settings import Settings
from events import EventStore
from events.migrate import upgrade

FULL, NORMAL = 2, 1  # PRAGMA synchronous's answers


def pragmas(store: EventStore) -> tuple[str, int]:
    with store.engine.connect() as conn:
        journal = conn.exec_driver_sql("PRAGMA journal_mode").scalar_one()
        synchronous = conn.exec_driver_sql("PRAGMA synchronous").scalar_one()
    return journal, synchronous


@pytest.mark.parametrize(("asked", "expected"), [(None, FULL), ("full", FULL), ("normal", NORMAL)])
def test_every_connection_is_wal_with_the_synchronous_level_asked_for(
    tmp_path: Path, asked: str | None, expected: int
) -> None:
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    upgrade(url)
    store = (
        EventStore.from_url(url)
        if asked is None
        else EventStore.from_url(url, sqlite_synchronous=asked)
    )
    try:
        assert pragmas(store) == ("wal", expected)
    finally:
        store.dispose()


def test_an_unknown_level_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="sqlite_synchronous"):
        EventStore.from_url(f"sqlite:///{tmp_path / 'x.sqlite3'}", sqlite_synchronous="off")
    monkeypatch.setenv("ADJUDICATOR_SQLITE_SYNCHRONOUS", "off")
    with pytest.raises(ValueError, match="sqlite_synchronous"):
        Settings()
    monkeypatch.setenv("ADJUDICATOR_SQLITE_SYNCHRONOUS", "normal")
    assert Settings().sqlite_synchronous == "normal"
