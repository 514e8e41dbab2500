"""Property: a stored head of the live fold (``projections.stored_heads``) plus the events after
it is the whole log's fold, after a restart, on SQLite and PostgreSQL, or it is not used.

For random histories of Zoom, No, Not That! and Zombego with rulings (void, undo, amend,
adjust_score, end_round at past game times), appended to a match in the store in random batches: a
head saved at a random earlier seq (``Running.start`` of the log up to it) and resumed on a fresh
``Heads`` (nothing in memory) gives exactly ``Running.start`` of the whole log (state, effects, seq,
horizon, last play) whenever the events after the head extend it (no ruling, none before the
horizon), and nothing otherwise; a later head is never overwritten by an earlier one, and a head
naming another hash for its seq (another log) is never used.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.games.zoom.commands import Buzz, Pair, StartRound
from adjudicator.kernel.decider import Fact, Game, Setup
from adjudicator.kernel.fold import Running
from adjudicator.kernel.payloads import plain
from events import EventStore, NewEvent, TokenRecord
from projections.stored_checkpoints import FoldStore, codec_id
from projections.stored_heads import Heads
from tests.property.test_checkpoints import (
    HOST_VIEW,
    nnt_history,
    zombego_history,
    zoom_history,
)
from tests.support.zoom_play import play, steps

SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
CREATED = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)
USED: list[bool] = []


def new_match(store: EventStore, game: Game[Any, Any], setup: Setup) -> str:
    tokens = [TokenRecord("host", setup.match_id + "-host")]
    store.create_match(
        setup.match_id, game.name, "1.0", {"seats": list(setup.seats)}, tokens, CREATED
    )
    return setup.match_id


def same(game: Game[Any, Any], got: Running[Any], want: Running[Any]) -> None:
    assert (got.seq, got.horizon, got.last_play) == (want.seq, want.horizon, want.last_play)
    assert got.effects.voided == want.effects.voided
    assert got.effects.amended == want.effects.amended
    assert [(r.seq, r.at) for r in got.effects.timed] == [(r.seq, r.at) for r in want.effects.timed]
    assert type(got.state) is type(want.state)
    assert got.state == want.state
    assert game.view(got.state, HOST_VIEW) == game.view(want.state, HOST_VIEW)


def check(
    data: st.DataObject, store: EventStore, game: Game[Any, Any], setup: Setup, facts: list[Fact]
) -> None:
    setup = replace(setup, match_id=str(uuid4()), created_at=CREATED)
    match_id = new_match(store, game, setup)
    initial = game.initial(setup)
    fed = 0
    while fed < len(facts):
        size = data.draw(st.integers(1, max(len(facts) - fed, 1)), label="batch")
        batch = facts[fed : fed + size]
        store.append(
            match_id,
            fed,
            [NewEvent(f.type, f.actor, f.at, plain(f.payload), None, None) for f in batch],
        )
        fed += len(batch)
        at = data.draw(st.integers(1, fed), label="head seq")
        heads = Heads(FoldStore(store, page=2))
        head = Running.start(game, setup, facts[:at])
        event = store.read(match_id, after_seq=at - 1, to_seq=at)[0]
        heads.save(match_id, game, head, event.hash)
        fresh = Heads(FoldStore(store, page=2))  # a restart: nothing in memory
        got = fresh.resume(game, match_id, initial)
        want = Running.start(game, setup, facts[:fed])
        stored_seq = fresh._read(match_id, _codec(game))
        assert stored_seq is not None and stored_seq[0] >= at  # never moved back
        if stored_seq[0] == at:
            extends = head.accepts(facts[at:fed])
            assert (got is not None) == extends
        if got is not None:
            running, events = got
            same(game, running, want)
            assert [e.seq for e in events] == list(range(stored_seq[0], fed + 1))
            USED.append(True)


def _codec(game: Game[Any, Any]) -> str:
    found = codec_id(game)
    assert found is not None
    return found


@SETTINGS
@given(st.data(), st.integers(0, 2**32), steps)
def test_a_zoom_head_and_its_tail_are_the_whole_fold(
    store: EventStore, data: st.DataObject, seed: int, script: Any
) -> None:
    check(data, store, *zoom_history(data, seed, script))


@SETTINGS
@given(st.data())
def test_a_no_not_that_head_and_its_tail_are_the_whole_fold(
    store: EventStore, data: st.DataObject
) -> None:
    check(data, store, *nnt_history(data))


@SETTINGS
@given(st.data())
def test_a_zombego_head_and_its_tail_are_the_whole_fold(
    store: EventStore, data: st.DataObject
) -> None:
    check(data, store, *zombego_history(data))


def test_the_properties_used_heads() -> None:
    """Not vacuous: the properties above resumed from a stored head (run after them)."""
    assert USED


def test_a_head_of_another_log_is_never_used(store: EventStore) -> None:
    """A head whose hash is not the stored event's (a restored or rewound store) is ignored."""
    script: Any = [(StartRound(), 1.0, None)] + [
        (Buzz(seat="alpha", pairs=[Pair(target=t, at="f6")]), 1.0, None) for t in "ABC"
    ]
    table = play(7, script)
    game, facts = table.game, list(table.facts)
    setup = replace(table.setup, match_id=str(uuid4()), created_at=CREATED)
    match_id = new_match(store, game, setup)
    store.append(match_id, 0, [NewEvent(f.type, f.actor, f.at, plain(f.payload)) for f in facts])
    heads, initial = Heads(FoldStore(store, page=2)), game.initial(setup)
    second = store.read(match_id, after_seq=1, to_seq=2)[0].hash
    heads.save(match_id, game, Running.start(game, setup, facts[:2]), "0" * 64)
    assert heads.resume(game, match_id, initial) is None
    heads.save(match_id, game, Running.start(game, setup, facts[:3]), second)  # not seq 3's
    assert heads.resume(game, match_id, initial) is None
    heads.save(match_id, game, Running.start(game, setup, facts[:2]), second)  # never back
    assert heads.resume(game, match_id, initial) is None
    third = store.read(match_id, after_seq=2, to_seq=3)[0].hash
    heads.save(match_id, game, Running.start(game, setup, facts[:4]), third)  # a later seq
    assert heads.resume(game, match_id, initial) is None  # seq 4 is not named by third
