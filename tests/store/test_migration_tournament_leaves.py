"""Revision 0010 over a log that has leaves already: they are kept, the log's guards still
refuse every rewrite, and a tournament's leaf is admitted (on SQLite the table is made again,
so its guards must be made again too)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import NullPool

from events.migrate import upgrade
from tests.conftest import _url_text, empty_postgres_database

LEAF = (
    "INSERT INTO tlog_leaves (idx, kind, match_id, leaf, leaf_hash, recorded_at)"
    " VALUES (0, 'match', 'm-1', :leaf, :hash, :at)"
)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def unmigrated_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of its own (no revision applied)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
        return
    with empty_postgres_database("adj_migrate") as url:
        yield _url_text(url)


def test_revision_0010_keeps_the_leaves_and_the_guards_and_admits_a_tournament(
    unmigrated_url: str,
) -> None:
    upgrade(unmigrated_url, "0009")
    engine = create_engine(unmigrated_url, poolclass=NullPool)
    try:
        at = "2026-12-01 12:00:00.000000+00:00"
        with engine.begin() as conn:
            conn.execute(text(LEAF), {"leaf": '{"a":1}', "hash": "ab" * 32, "at": at})
        upgrade(unmigrated_url)

        with engine.connect() as conn:
            kept = conn.execute(text("SELECT idx, kind, match_id, leaf FROM tlog_leaves")).all()
        assert [tuple(row) for row in kept] == [(0, "match", "m-1", '{"a":1}')]
        for statement in (
            "UPDATE tlog_leaves SET leaf = 'x'",
            "DELETE FROM tlog_leaves",
            LEAF,  # the same index again (SQLite: INSERT OR REPLACE is refused as well)
            LEAF.replace("INSERT", "INSERT OR REPLACE")
            if engine.dialect.name == "sqlite"
            else LEAF,
        ):
            with pytest.raises(DBAPIError), engine.begin() as conn:
                conn.execute(text(statement), {"leaf": "{}", "hash": "cd" * 32, "at": at})

        tournament = (
            "INSERT INTO tlog_leaves (idx, kind, tournament_id, leaf, leaf_hash, recorded_at)"
            " VALUES (:idx, 'tournament', 't-1', '{}', :hash, :at)"
        )
        with engine.begin() as conn:
            conn.execute(text(tournament), {"idx": 1, "hash": "ef" * 32, "at": at})
        with pytest.raises(IntegrityError), engine.begin() as conn:  # one leaf a tournament
            conn.execute(text(tournament), {"idx": 2, "hash": "ef" * 32, "at": at})
        with pytest.raises(IntegrityError), engine.begin() as conn:  # no other kind
            conn.execute(text(tournament.replace("'tournament'", "'other'")),
                         {"idx": 2, "hash": "ef" * 32, "at": at})  # fmt: skip
    finally:
        engine.dispose()
