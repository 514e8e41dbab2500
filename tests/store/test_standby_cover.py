"""A standby's copy of a match is a prefix of the primary's (whole transactions, in commit
order). ``events.standby.covers`` says from that copy alone whether a read as known at a cut
needs nothing the copy lacks: whenever it says so, the copy's answer is the primary's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import EventStore, StoredEvent
from events.standby import Cut, covers
from tests.store.support import ManualClock, event, new_match

US = timedelta(microseconds=1)


def covered(store: EventStore, match_id: str, cut: Cut) -> bool:
    with store.engine.connect() as conn:
        return covers(conn, match_id, cut)


def known(store: EventStore, match_id: str, cut: Cut) -> list[tuple[Any, ...]]:
    """The events a read as known at ``cut`` folds, without what names the match."""
    read: list[StoredEvent] = store.read(match_id, to_seq=cut.seq, recorded_by=cut.at)
    return [(e.seq, e.type, e.recorded_at, e.payload) for e in read]


def play(
    store: EventStore, clock: ManualClock, steps: list[tuple[int, float]], replayed: int
) -> tuple[str, str, list[datetime]]:
    """The same batches (sizes, clock steps before each) appended to a match as the primary
    holds it, and their first ``replayed`` batches to a match standing for a standby's copy."""
    primary, standby = new_match(store), new_match(store)
    seq, times = 0, []
    for index, (size, step) in enumerate(steps):
        times.append(clock.advance(step))
        batch = [event(seq + n + 1) for n in range(size)]
        store.append(primary, seq, batch)
        if index < replayed:
            store.append(standby, seq, batch)
        seq += size
    return primary, standby, times


batches = st.lists(
    st.tuples(st.integers(1, 3), st.sampled_from([0.0, 0.000001, 1.0, 5.0])), min_size=1, max_size=6
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=batches, data=st.data())
def test_what_a_copy_covers_it_answers_as_the_primary_does(
    store: EventStore, clock: ManualClock, steps: list[tuple[int, float]], data: Any
) -> None:
    replayed = data.draw(st.integers(0, len(steps)), label="batches the standby has replayed")
    primary, standby, times = play(store, clock, steps, replayed)
    total = sum(size for size, _ in steps)
    instants = [t + d for t in times for d in (-US, timedelta(0), US)]
    cuts = [Cut(at=t) for t in instants] + [Cut(seq=s) for s in range(total + 2)]
    cuts += [Cut(at=t, seq=s) for t in instants[::3] for s in (1, total)]
    for cut in cuts:
        if covered(store, standby, cut):
            assert known(store, standby, cut) == known(store, primary, cut), cut
    held = sum(size for size, _ in steps[:replayed])
    assert all(covered(store, standby, Cut(seq=s)) for s in range(held + 1) if held)
    if replayed:  # an instant before the copy's last record time is covered
        assert covered(store, standby, Cut(at=times[replayed - 1] - US))


def test_a_read_of_now_is_covered_only_once_the_match_is_closed(
    store: EventStore, clock: ManualClock
) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)])
    assert not covered(store, match_id, Cut())
    assert not covered(store, match_id, Cut(at=clock()))  # the copy cannot tell what follows
    clock.advance(1)
    store.append(match_id, 1, [event(2)], close=True)
    assert covered(store, match_id, Cut())
    assert covered(store, match_id, Cut(at=clock() + timedelta(days=1)))


@pytest.mark.parametrize(
    "cut", [Cut(), Cut(seq=0), Cut(seq=1), Cut(at=datetime(2999, 1, 1, tzinfo=UTC))]
)
def test_an_unknown_match_or_an_empty_one_is_left_to_the_primary(
    store: EventStore, cut: Cut
) -> None:
    assert not covered(store, "no-such-match", cut)
    empty = new_match(store)
    if cut.seq != 0:
        assert not covered(store, empty, cut)
