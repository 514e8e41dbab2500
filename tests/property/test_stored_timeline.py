"""Property: the state at a past game time as known now, read after a restart from the stored
head's timeline index and checkpoints without the log (``projections.stored_heads.Heads.past``),
is the whole log's fold at that game time, on SQLite and PostgreSQL, or it is not used.

For random histories of Zoom, No, Not That! and Zombego with rulings (void, undo, amend,
adjust_score, end_round at past game times), appended to a match in the store in random batches:
after a batch, the match's checkpoints and its head with the index of its timeline are stored as
``Checkpoints.store_all`` stores them; more events are appended (rulings among them, or not);
then on a fresh store reader (a restart: nothing in memory), ``past`` at random game times
(every fact's, a moment either side, before the first), resumed from the deepest stored
checkpoint before it or (none stored) from the start, answers exactly ``fold(game, setup,
facts, at)`` (state, host view, the rulings' effects) and the log's last seq, whenever the events
after the head only extend its timeline (no ruling, none before its horizon); else nothing. A
game time at or after the head's last fact is answered from the head's own state and the facts
after it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any
from uuid import uuid4

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.games.zoom.commands import Buzz, Pair, StartRound
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Fact, Game, Setup
from adjudicator.kernel.fold import Running, fold
from adjudicator.kernel.payloads import plain
from adjudicator.registry import decode
from events import EventStore, NewEvent
from projections.checkpoints import MatchFolds
from projections.stored_checkpoints import FoldStore
from projections.stored_heads import Heads, TimelineIndex
from tests.property.test_checkpoints import (
    HOST_VIEW,
    nnt_history,
    zombego_history,
    zoom_history,
)
from tests.property.test_stored_heads import CREATED, SETTINGS, new_match
from tests.support.zoom_play import play, steps

ANSWERED: list[bool] = []
DECLINED: list[bool] = []
AFTER_THE_HEAD: list[bool] = []


def append(store: EventStore, match_id: str, after: int, facts: list[Fact]) -> None:
    if not facts:
        return
    news = [NewEvent(f.type, f.actor, f.at, plain(f.payload), None, None) for f in facts]
    store.append(match_id, after, news)


def store_head(
    store: EventStore, match_id: str, game: Game[Any, Any], setup: Setup, every: int
) -> Running[Any]:
    """What ``Checkpoints.store_all`` stores: every checkpoint of the timeline (each
    ``2 * every``-th in the store) and the head with the index of its timeline."""
    writer = FoldStore(store, stride=2 * every, page=2)
    backing = writer.backing(match_id, game, game.initial(setup))
    folds = MatchFolds(game, setup, every=every, backing=backing)
    folds.add(store.read(match_id))
    n = len(folds.facts)
    folds.warm(n)
    line, head = folds.line(n), folds.running(n)
    assert folds.last_hash is not None
    index = TimelineIndex.of(line.facts, every, line.digests)
    Heads(writer).save(match_id, game, head, folds.last_hash, index=index)
    writer.close()
    return head


def moments(data: st.DataObject, facts: list[Fact]) -> list[Any]:
    times = sorted({f.at for f in facts})
    near = [t + timedelta(microseconds=d) for t in times for d in (-1, 0, 1)]
    near.append(times[0] - timedelta(seconds=5))
    return data.draw(st.lists(st.sampled_from(near), min_size=1, max_size=6), label="ats")


def check(
    data: st.DataObject, store: EventStore, game: Game[Any, Any], setup: Setup, facts: list[Fact]
) -> None:
    if not facts:
        return
    setup = replace(setup, match_id=str(uuid4()), created_at=CREATED)
    match_id = new_match(store, game, setup)
    every = data.draw(st.integers(1, 4), label="every")
    headed = data.draw(st.integers(1, len(facts)), label="head after")
    append(store, match_id, 0, facts[:headed])
    head = store_head(store, match_id, game, setup, every)
    more = data.draw(st.integers(0, len(facts) - headed), label="appended after the head")
    append(store, match_id, headed, facts[headed : headed + more])
    known = facts[: headed + more]
    extends = head.accepts(facts[headed : headed + more])
    horizon = head.horizon
    reader = FoldStore(store, stride=2 * every, page=2)  # a restart: nothing in memory
    initial = game.initial(setup)
    backing = reader.backing(match_id, game, initial)
    assert backing is not None
    stored = data.draw(st.booleans(), label="checkpoints stored")  # else folded from the start
    load = backing.load if stored else lambda candidates: None
    for at in moments(data, known):
        got = Heads(reader).past(game, match_id, initial, at, every, load)
        if not extends:
            assert got is None
            DECLINED.append(True)
            continue
        if horizon is None or at >= horizon:
            AFTER_THE_HEAD.append(True)
        assert got is not None
        folded, last = got
        want = fold(game, setup, known, at)
        assert last == len(known)
        assert type(folded.state) is type(want.state)
        assert folded.state == want.state
        assert game.view(folded.state, HOST_VIEW) == game.view(want.state, HOST_VIEW)
        assert folded.effects.voided == want.effects.voided
        assert folded.effects.amended == want.effects.amended
        ANSWERED.append(True)
    reader.close()


@SETTINGS
@given(st.data(), st.integers(0, 2**32), steps)
def test_a_zoom_past_state_from_the_stored_timeline_is_the_fold(
    store: EventStore, data: st.DataObject, seed: int, script: Any
) -> None:
    check(data, store, *zoom_history(data, seed, script))


@SETTINGS
@given(st.data())
def test_a_no_not_that_past_state_from_the_stored_timeline_is_the_fold(
    store: EventStore, data: st.DataObject
) -> None:
    check(data, store, *nnt_history(data))


@SETTINGS
@given(st.data())
def test_a_zombego_past_state_from_the_stored_timeline_is_the_fold(
    store: EventStore, data: st.DataObject
) -> None:
    check(data, store, *zombego_history(data))


def test_the_properties_answered_and_declined() -> None:
    """Not vacuous: the properties above answered from the stored timeline (also at game times
    after the head's last fact), and declined."""
    assert ANSWERED and DECLINED and AFTER_THE_HEAD


def test_amended_and_timed_facts_between_the_checkpoint_and_the_game_time_are_as_ruled(
    store: EventStore,
) -> None:
    """The facts folded after the checkpoint carry their amendments, and a ruling acting at a
    past game time acts there, as in the full fold (no checkpoint stored: every fact is one)."""
    script: Any = [(StartRound(), 1.0, None)] + [
        (Buzz(seat=seat, pairs=[Pair(target=t, at="f6")]), 1.0, None)
        for seat, t in zip(("alpha", "beta", "alpha"), "ABC", strict=True)
    ]
    table = play(7, script)
    game, facts = table.game, list(table.facts)
    buzzes = [f for f in facts if f.type == "zoom.buzzed"]
    assert len(buzzes) == 3
    end = facts[-1].at
    rulings = [
        ("ruling.amend", end, {"target_seq": buzzes[0].seq, "outcome": {"A": "correct"}}),
        # recorded at the end, acting at the second buzz (named in the payload, as older
        # records do): its fact on the timeline is the ruling's effect, not the event
        ("ruling.adjust_score", end, {"seat": "beta", "delta": 2, "at": iso(buzzes[1].at)}),
    ]
    for kind, at, payload in rulings:
        body = decode(kind, {"reason": "the host saw it", **payload})
        facts.append(Fact(len(facts) + 1, kind, "host", at, body))
    setup = replace(table.setup, match_id=str(uuid4()), created_at=CREATED)
    match_id = new_match(store, game, setup)
    append(store, match_id, 0, facts)
    store_head(store, match_id, game, setup, every=100)  # no checkpoint: every fact folded
    reader = FoldStore(store, page=2)
    initial = game.initial(setup)
    for at in (buzzes[0].at, buzzes[1].at, buzzes[2].at - timedelta(microseconds=1)):
        got = Heads(reader).past(game, match_id, initial, at, 100, lambda candidates: None)
        assert got is not None
        want = fold(game, setup, facts, at).state
        assert got[0].state == want
        assert game.view(got[0].state, HOST_VIEW) == game.view(want, HOST_VIEW)
    assert game.summary(want)["scores"] == {"alpha": 1, "beta": 2}  # as ruled, not as played
    reader.close()
