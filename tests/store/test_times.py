"""Instants at the edges of what the store keeps (years 1 and 9999), on both backends."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import text
from sqlalchemy.engine import make_url

from adjudicator.kernel.times import FIRST as EARLIEST
from adjudicator.kernel.times import LAST as LATEST
from events import EventStore, NewEvent, verify_chain
from tests.store.support import ManualClock, new_match

YEAR_999 = datetime(999, 6, 1, 12, 0, 0, 7, tzinfo=UTC)
NOW = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)


def at(moment: datetime) -> NewEvent:
    return NewEvent("zoom.buzzed", "seat:north", moment, {"at": moment.year})


def test_years_1_and_9999_round_trip_and_sort_with_recorded_by(
    store: EventStore, clock: ManualClock
) -> None:
    match_id = new_match(store)
    moments = [EARLIEST, YEAR_999, NOW, LATEST]
    for seq, moment in enumerate(moments):
        clock.now = moment
        store.append(match_id, seq, [at(moment)])

    stored = store.read(match_id)
    assert [(e.occurred_at, e.recorded_at) for e in stored] == [(m, m) for m in moments]
    assert verify_chain(stored).ok
    for count, moment in enumerate(moments, start=1):
        assert [e.seq for e in store.read(match_id, recorded_by=moment)] == list(
            range(1, count + 1)
        )
    assert store.read(match_id, recorded_by=datetime(1000, 1, 1, tzinfo=UTC))[-1].seq == 2


def test_a_year_999_record_time_sorts_before_today_in_sql(
    store: EventStore, clock: ManualClock
) -> None:
    match_id = new_match(store)
    clock.now = YEAR_999
    store.append(match_id, 0, [at(YEAR_999)])
    clock.now = NOW
    store.append(match_id, 1, [at(NOW)])

    with store.engine.connect() as conn:
        query = "SELECT seq FROM events WHERE match_id = :m ORDER BY recorded_at"
        assert conn.execute(text(query), {"m": match_id}).scalars().all() == [1, 2]
    assert [e.seq for e in store.read(match_id, recorded_by=YEAR_999)] == [1]


def test_edge_instants_read_back_whatever_time_zone_the_session_asked_for(
    store: EventStore, database_url: str, clock: ManualClock
) -> None:
    match_id = new_match(store)
    clock.now = LATEST
    store.append(match_id, 0, [at(EARLIEST), at(LATEST)])
    url = make_url(database_url)
    if url.get_backend_name() == "postgresql":  # +14:00 would push 9999-12-31 into year 10000
        url = url.update_query_dict({"options": "-c timezone=Pacific/Kiritimati"})
    far_east = EventStore.from_url(url.render_as_string(hide_password=False), clock=clock)
    try:
        stored = far_east.read(match_id)
    finally:
        far_east.dispose()
    assert [e.occurred_at for e in stored] == [EARLIEST, LATEST]
    assert all(e.recorded_at == LATEST and e.recorded_at.tzinfo is UTC for e in stored)
