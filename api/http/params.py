"""Query parameters shared by the read routes: times checked once (zone, range), seqs and
positions bounded to what the store holds, record time by instant or by seq."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import Depends, Query

from adjudicator.kernel.times import checked
from events.tables import SEQ_MAX
from projections.views import Known

MAX_SEQ = SEQ_MAX  # a seq is a 32-bit integer in the store
MAX_POSITION = 2**63 - 1

RawTime = Annotated[
    datetime | None,
    Query(description="an instant with a zone (RFC 3339), e.g. 2026-01-01T12:00:00Z"),
]
Seq = Annotated[int, Query(ge=0, le=MAX_SEQ)]
KnownSeq = Annotated[
    int | None,
    Query(ge=1, le=MAX_SEQ, description="record time: as known when this seq was recorded"),
]


def instant(moment: datetime | None, what: str) -> datetime | None:
    """A query's time in UTC (422 ``naive_time`` / ``time_out_of_range``), None when absent."""
    return None if moment is None else checked(moment, what)


def game_time(at: RawTime = None) -> datetime | None:
    """``at``: the game time to fold the match at (default now)."""
    return instant(at, "at")


def known(known_at: RawTime = None, known_seq: KnownSeq = None) -> Known:
    """Record time: ``known_at`` (an instant), ``known_seq`` (when that seq was recorded,
    unambiguous even for two events in one microsecond), both (the earlier), or now."""
    return Known(instant(known_at, "known_at"), known_seq)


At = Annotated[datetime | None, Depends(game_time)]
KnownParam = Annotated[Known, Depends(known)]
