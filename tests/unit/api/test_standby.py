"""The standby reader gives up on a standby that does not answer, for a while: a lost standby
must not add its connect timeout to every past read, and it is asked again afterwards."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from api.service import standby as module
from api.service.standby import RETRY_AFTER, Standby
from events.standby import Cut


def test_a_silent_standby_is_left_alone_for_a_while_then_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reader = Standby("postgresql+psycopg://nobody@127.0.0.1:9/none", {}, lambda: datetime.now(UTC))
    asked: list[str] = []
    now = [1000.0]

    def lost(_engine: Any, match_id: str, _cut: Cut) -> bool:
        asked.append(match_id)
        raise OperationalError("connect", {}, Exception("connection refused"))

    monkeypatch.setattr(module, "standby_covers", lost)
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    try:
        assert reader.covers("m1", Cut(seq=1)) is False
        assert reader.covers("m2", Cut(seq=1)) is False  # not asked: asleep
        now[0] += RETRY_AFTER + 0.1
        assert reader.covers("m3", Cut(seq=1)) is False
        assert asked == ["m1", "m3"]
        assert reader.covers("bad\x00id", Cut(seq=1)) is False  # never sent
    finally:
        reader.dispose()


def test_a_standby_url_that_is_no_postgresql_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="ADJUDICATOR_STANDBY_URL"):
        Standby("sqlite:///standby.sqlite3", {}, lambda: datetime.now(UTC))
