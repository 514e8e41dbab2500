"""A tournament's own stream: gap-free seqs, an intact hash chain, optimistic concurrency,
guards against rewriting, and nothing of it in the matches' feed or listings."""

from __future__ import annotations

import threading
from datetime import timedelta
from uuid import uuid4

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from events import EventStore, NewEvent, VersionConflict, verify_chain
from events.tournaments import TournamentRecord, TournamentStore, UnknownTournament
from tests.store.support import GAME_TIME, ManualClock, event, new_match


def _event(n: int) -> NewEvent:
    return NewEvent("tournament.note", "organizer", GAME_TIME + timedelta(seconds=n), {"n": n})


def _new(tournaments: TournamentStore) -> str:
    tournament_id = str(uuid4())
    record = TournamentRecord(tournament_id, "Open", "zoom", GAME_TIME, uuid4().hex, 0)
    tournaments.create(record, [_event(1)])
    return tournament_id


def test_a_tournament_stream_has_gap_free_seqs_and_an_intact_chain(
    store: EventStore, clock: ManualClock
) -> None:
    tournaments = TournamentStore(store)
    tid = _new(tournaments)
    clock.advance(1)
    tournaments.append(tid, 1, [_event(2), _event(3)])

    stream = tournaments.read(tid)

    assert [e.seq for e in stream] == [1, 2, 3]
    assert verify_chain(stream).ok
    assert tournaments.get(tid).last_seq == 3
    assert tournaments.read(tid, recorded_by=stream[0].recorded_at) == stream[:1]


def test_a_stale_expected_seq_is_a_version_conflict_that_records_nothing(
    store: EventStore,
) -> None:
    tournaments = TournamentStore(store)
    tid = _new(tournaments)
    tournaments.append(tid, 1, [_event(2)])

    with pytest.raises(VersionConflict):
        tournaments.append(tid, 1, [_event(9)])

    assert [e.payload["n"] for e in tournaments.read(tid)] == [1, 2]


def test_an_unknown_tournament_is_refused(store: EventStore) -> None:
    tournaments = TournamentStore(store)
    with pytest.raises(UnknownTournament):
        tournaments.get("nope")
    with pytest.raises(UnknownTournament):
        tournaments.append("nope", 0, [_event(1)])
    assert tournaments.read("nope\x00") == []


def test_tournament_events_stay_out_of_the_matches_feed_and_listing(store: EventStore) -> None:
    _new(TournamentStore(store))
    assert store.read_after(0) == []
    assert store.list_matches() == []


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE tournament_events SET type = 'x'",
        "DELETE FROM tournament_events",
        "DELETE FROM tournaments",
        "UPDATE tournaments SET name = 'x'",
        "UPDATE tournaments SET last_seq = 0",
    ],
)
def test_the_record_cannot_be_rewritten(store: EventStore, statement: str) -> None:
    tournaments = TournamentStore(store)
    tid = _new(tournaments)
    before = tournaments.read(tid)
    with pytest.raises(DBAPIError), store.engine.begin() as conn:
        conn.execute(text(statement))
    assert tournaments.read(tid) == before


def test_two_writers_racing_on_one_seq_record_one_batch(store: EventStore) -> None:
    tournaments = TournamentStore(store)
    tid = _new(tournaments)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def write(n: int) -> None:
        barrier.wait()
        try:
            tournaments.append(tid, 1, [_event(n)])
            outcomes.append("recorded")
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(n,)) for n in (2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict", "recorded"]
    stream = tournaments.read(tid)
    assert [e.seq for e in stream] == [1, 2] and verify_chain(stream).ok


def test_known_heads_name_each_match_s_last_seq_now_and_as_of_a_record_time(
    store: EventStore, clock: ManualClock
) -> None:
    """The heads a tournament's standings read: now, each match's last seq (its row's, kept
    with every append); as of a record time, the last seq recorded by then; a match with
    nothing recorded by then, an unknown one and an unstorable id are left out."""
    tournaments = TournamentStore(store)
    short, long, empty = new_match(store), new_match(store), new_match(store)
    store.append(short, 0, [event(1)])
    store.append(long, 0, [event(1), event(2)])
    middle = clock.now
    clock.advance(1)
    store.append(long, 2, [event(3)])
    ids = [short, long, empty, "unknown", "nul\x00"]

    assert tournaments.known_heads(ids) == {short: 1, long: 3}
    assert tournaments.known_heads(ids, middle) == {short: 1, long: 2}
    assert tournaments.known_heads(ids, clock.now) == {short: 1, long: 3}
    assert tournaments.known_heads(ids, GAME_TIME - timedelta(days=1)) == {}
    assert tournaments.known_heads([]) == {}
    for match_id in (short, long):
        assert tournaments.known_heads([match_id])[match_id] == store.read(match_id)[-1].seq
