"""Property: the fold's checkpoints stored in the database (``projections.stored_checkpoints``)
give the full fold after a restart, on SQLite and PostgreSQL.

* Each game's codec round-trips its states exactly (same type, equal, the same host view),
  stored as a row and pages of its history (``projections.stored_pages``) of any size.
* For random histories of Zoom, No, Not That! and Zombego with rulings (void, undo, amend,
  adjust_score, end_round at past game times), fed in batches to one ``MatchFolds`` backed by the
  store and queried in between (checkpoints taken before a ruling are stored too): a fresh
  ``MatchFolds`` on the same store (a restart: nothing in memory) folds every random (``at``,
  ``known``) as the full fold does, and its ``running`` equals ``Running.start``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import uuid4

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.kernel.decider import Fact, Game, Setup
from adjudicator.kernel.fold import Running, fold
from events import EventStore
from projections.checkpoints import MatchFolds
from projections.stored_checkpoints import CODECS, FoldStore, StoredFolds
from projections.stored_pages import Pager
from projections.views import Known
from tests.kit import T0
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


class Counting(StoredFolds):
    """Stored checkpoints that count the states they found."""

    loads = 0

    def load(self, candidates: Any) -> Any:
        found = super().load(candidates)
        if found is not None:
            type(self).loads += 1
        return found


def check_codec(data: st.DataObject, game: Game[Any, Any], setup: Setup, facts: list[Fact]) -> None:
    """Each state, stored as a row and pages of any size (``stored_pages``) by one writer and
    read back by a fresh one, is the state."""
    size = data.draw(st.integers(1, 6), label="page")
    writer, pages = Pager(CODECS[game.name], size), dict[str, bytes]()
    initial = game.initial(setup)
    times = [f.at for f in facts] or [T0]
    for at in data.draw(st.lists(st.sampled_from(times), min_size=1, max_size=4), label="ats"):
        state = fold(game, setup, facts, at).state
        row, fresh = writer.encode(state)
        pages.update(fresh)
        writer.mark(dict(fresh))
        back = Pager(CODECS[game.name], size).decode(row, lambda _: pages, initial)
        assert type(back) is type(state)
        assert back == state
        assert game.view(back, HOST_VIEW) == game.view(state, HOST_VIEW)


def backed(
    store: EventStore, match_id: str, game: Game[Any, Any], setup: Setup, every: int
) -> tuple[MatchFolds, FoldStore]:
    page = 1 + every % 3  # pages of 1 to 3 entries: a few pages even in a short history
    folds = FoldStore(store, stride=every * 2 if every > 2 else every, page=page)
    backing = folds.backing(match_id, game, game.initial(setup))
    assert backing is not None
    backing.__class__ = Counting
    return MatchFolds(game, setup, every=every, per_match=6, backing=backing), folds


def check_restart(
    data: st.DataObject, store: EventStore, game: Game[Any, Any], setup: Setup, facts: list[Fact]
) -> None:
    """Feed ``facts`` in batches, querying in between; after each batch, a restart (a fresh
    ``MatchFolds`` on the same store) folds random (``at``, ``known``) as the full fold does."""
    match_id, every = str(uuid4()), data.draw(st.integers(1, 5), label="every")
    t0 = facts[0].at if facts else T0
    recorded = [t0 + timedelta(seconds=i // 2) for i in range(len(facts))]
    first, writer = backed(store, match_id, game, setup, every)
    fed = 0
    while fed < len(facts):
        batch = data.draw(st.integers(1, max(len(facts) - fed, 1)), label="batch")
        first.add_facts(facts[fed : fed + batch], recorded[fed : fed + batch])
        fed += batch
        for _ in range(data.draw(st.integers(0, 3), label="warm queries")):
            query(data, first, facts[:fed], recorded[:fed])
        writer.flush()
        after, fresh = backed(store, match_id, game, setup, every)
        after.add_facts(facts[:fed], recorded[:fed])
        for _ in range(data.draw(st.integers(1, 3), label="queries")):
            query(data, after, facts[:fed], recorded[:fed])
        n = after.cutoff(Known())
        want = Running.start(game, setup, facts[:fed])
        got = after.running(n)
        assert (got.seq, got.horizon, got.last_play) == (want.seq, want.horizon, want.last_play)
        assert got.effects.voided == want.effects.voided
        assert game.view(got.state, HOST_VIEW) == game.view(want.state, HOST_VIEW)
        fresh.flush()
    writer.close()


def query(data: st.DataObject, folds: MatchFolds, facts: list[Fact], recorded: list[Any]) -> None:
    seq = data.draw(st.none() | st.integers(0, len(facts) + 2), label="known_seq")
    moment = data.draw(st.none() | st.sampled_from(recorded), label="known_at")
    cut = [
        f
        for f, r in zip(facts, recorded, strict=True)
        if (seq is None or f.seq <= seq) and (moment is None or r <= moment)
    ]
    n = folds.cutoff(Known(moment, seq))
    assert n == len(cut)
    times = [f.at for f in facts] or [recorded[0]]
    at = data.draw(st.sampled_from(times), label="at") + timedelta(
        seconds=data.draw(st.sampled_from([-1.0, 0.0, 0.5, 30.0]), label="shift")
    )
    got, want = folds.fold(n, at), fold(folds.game, folds.setup, cut, at)
    assert got.effects.voided == want.effects.voided
    assert type(got.state) is type(want.state)
    assert folds.game.view(got.state, HOST_VIEW) == folds.game.view(want.state, HOST_VIEW)


@SETTINGS
@given(st.data(), st.integers(0, 2**32), steps)
def test_zoom_states_round_trip(data: st.DataObject, seed: int, script: Any) -> None:
    check_codec(data, *zoom_history(data, seed, script))


@SETTINGS
@given(st.data())
def test_no_not_that_states_round_trip(data: st.DataObject) -> None:
    check_codec(data, *nnt_history(data))


@SETTINGS
@given(st.data(), st.integers(0, 2**32), steps)
def test_zoom_stored_checkpoints_after_a_restart(
    store: EventStore, data: st.DataObject, seed: int, script: Any
) -> None:
    check_restart(data, store, *zoom_history(data, seed, script))


@SETTINGS
@given(st.data())
def test_no_not_that_stored_checkpoints_after_a_restart(
    store: EventStore, data: st.DataObject
) -> None:
    check_restart(data, store, *nnt_history(data))


@SETTINGS
@given(st.data())
def test_zombego_states_round_trip(data: st.DataObject) -> None:
    check_codec(data, *zombego_history(data))


@SETTINGS
@given(st.data())
def test_zombego_stored_checkpoints_after_a_restart(store: EventStore, data: st.DataObject) -> None:
    check_restart(data, store, *zombego_history(data))


def test_a_restart_resumes_from_a_stored_checkpoint(store: EventStore) -> None:
    """Not vacuous: a fresh ``MatchFolds`` finds the deepest stored state and folds only the
    facts after it (here: none)."""
    from adjudicator.games.zoom.commands import Buzz, Pair, StartRound

    script: Any = [(StartRound(), 1.0, None)] + [
        (Buzz(seat=seat, pairs=[Pair(target=target, at="f6")]), 1.0, None)
        for seat in ("alpha", "beta")
        for target in "ABCDE"
    ]
    table = play(7, script)
    facts = list(table.facts)
    recorded = [T0] * len(facts)
    first, writer = backed(store, "m-restart", table.game, table.setup, every=3)
    first.add_facts(facts, recorded)
    first.fold(len(facts), facts[-1].at)
    writer.flush()
    Counting.loads = 0
    after, fresh = backed(store, "m-restart", table.game, table.setup, every=3)
    after.add_facts(facts, recorded)
    line = after.line(len(facts))
    deepest = len(line.facts) - len(line.facts) % 6  # the stride: 2 * every
    assert deepest >= 6
    assert after._resume(line, len(line.facts))[0] == deepest
    assert Counting.loads == 1
    got = after.fold(len(facts), facts[-1].at).state
    assert got == fold(table.game, table.setup, facts, facts[-1].at).state
    writer.close()
    fresh.close()
