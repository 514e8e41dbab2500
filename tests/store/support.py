"""Helpers for the store contract suite."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from events import EventStore, NewEvent, TokenRecord

GAME_TIME = datetime(2024, 5, 1, 11, 0, 0, tzinfo=UTC)


class ManualClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def new_match(store: EventStore, game: str = "zoom") -> str:
    match_id = str(uuid4())
    tokens = [TokenRecord("host", uuid4().hex), TokenRecord("seat", uuid4().hex, seat="north")]
    store.create_match(match_id, game, "1.0", {"seats": ["north", "south"]}, tokens, GAME_TIME)
    return match_id


def event(n: int = 0, private_to: tuple[str, ...] | None = None, **payload: Any) -> NewEvent:
    """A public event numbered ``n`` (private to ``private_to`` when given)."""
    body = {"n": n, **payload}
    return NewEvent("zoom.buzzed", "seat:north", GAME_TIME + timedelta(seconds=n), body, private_to)


def restart_database(url: str) -> int:
    """Terminate every other session of the database (what a restart does to a pool); the
    number terminated."""
    admin = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as conn:
        killed = conn.execute(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ).scalar_one()
    admin.dispose()
    return int(killed)
