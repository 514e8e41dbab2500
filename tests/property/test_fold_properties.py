"""Fold properties of every game, on random legal play (the generators of ``tests/support/``):

* the fold of the whole log equals ``Running.start`` on a prefix extended event by event;
* ``evolve`` and ``advance`` never change the state they are given;
* the runner's ``Decision.after`` (what the service answers a command with) is what the fold of
  the log with the decided events appended shows, outcomes included.

States are compared through what they show: the host's view and the result.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.games.no_not_that import Phase
from adjudicator.kernel.decider import Game
from adjudicator.kernel.fold import Running, fold
from tests.kit import HOST_VIEW, Table, Turn
from tests.support import zombego_play, zoom_play
from tests.support.nnt_harness import Match, command, seat_of
from tests.support.nnt_moves import config, legal_moves

Played = tuple[Table, list[Turn]]


def zoom_match(data: st.DataObject) -> Played:
    seed = data.draw(st.integers(0, 2**32), label="seed")
    return zoom_play.play_turns(seed, data.draw(zoom_play.steps, label="script"))


def nnt_match(data: st.DataObject) -> Played:
    table, turns, now = Match(config()).table, [], 0.0
    state = table.state(now)
    for turn in range(40):
        now += data.draw(st.sampled_from([0.0, 1.0, 5.0, 29.0, 61.0]), label="wait")
        state = table.game.advance(state, table.at(now))  # the live fold, as the service keeps
        moves = legal_moves(state, f"U{turn}")
        if state.phase is Phase.FINISHED or not moves:
            continue
        who, kind, fields = data.draw(st.sampled_from(moves), label="move")
        cmd, seat = command(who, kind, **fields), seat_of(who)
        decision = table.decide(cmd, t=now, seat=seat, state=state)
        table.enter(decision, t=now, seat=seat)
        turns.append(Turn(decision, now))
        state = decision.after
    return table, turns


def zombego_match(data: st.DataObject) -> Played:
    options = data.draw(zombego_play.options, label="options")
    seed = data.draw(st.none() | st.integers(0, 2**32), label="seed")
    return zombego_play.play_turns(data, options, seed)


PLAYERS: dict[str, Callable[[st.DataObject], Played]] = {
    "zoom": zoom_match,
    "no_not_that": nnt_match,
    "zombego": zombego_match,
}
bounded = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _no(state: Any) -> list[object]:
    return []


def _zombego_tables(state: Any) -> list[object]:
    return [state.opening.rules.tables, state.position.rules.tables]


def _nnt_fixed(state: Any) -> list[object]:
    return [state.fixed]


# Parts of a state that are frozen and shared between states by design: not copied (the
# Zombego tables are never compared either; No, Not That!'s fixed part holds the word list).
SHARED: dict[str, Callable[[Any], list[object]]] = {
    "zombego": _zombego_tables,
    "no_not_that": _nnt_fixed,
}


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, shared: dict[int, object]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared = shared

    def persistent_id(self, obj: object) -> int | None:
        return id(obj) if id(obj) in self.shared else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: bytes, shared: dict[int, object]) -> None:
        super().__init__(io.BytesIO(data))
        self.shared = shared

    def persistent_load(self, pid: Any) -> object:
        return self.shared[pid]


def deep_copy(state: Any, shared: list[object]) -> Any:
    """A deep copy of ``state`` sharing the ``shared`` parts (a pickle round trip: as deep as
    ``copy.deepcopy`` and many times faster on Zombego's tuples of moves)."""
    keep, buffer = {id(part): part for part in shared}, io.BytesIO()
    _Pickler(buffer, keep).dump(state)
    return _Unpickler(buffer.getvalue(), keep).load()


def shown(game: Game[Any, Any], state: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    return game.view(state, HOST_VIEW), game.result(state)


@pytest.mark.parametrize("name", PLAYERS)
@bounded
@given(data=st.data())
def test_the_whole_log_folds_to_a_prefix_extended_event_by_event(
    name: str, data: st.DataObject
) -> None:
    table, _ = PLAYERS[name](data)
    game, facts = table.game, table.facts
    prefix = data.draw(st.integers(0, len(facts)), label="prefix")
    running = Running.start(game, table.setup, facts[:prefix])
    for fact in facts[prefix:]:
        running = running.extend(game, [fact])
    end = (facts[-1].at if facts else table.t0) + timedelta(seconds=1)
    incremental = running.at(game, end)
    assert incremental is not None and running.seq == table.last_seq
    assert shown(game, incremental) == shown(game, fold(game, table.setup, facts, end).state)


ACCEPTED: list[bool] = []


@pytest.mark.parametrize("name", PLAYERS)
@bounded
@given(data=st.data())
def test_a_tail_the_fold_accepts_extends_it_as_the_whole_log_folds(
    name: str, data: st.DataObject
) -> None:
    """``Running.accepts`` guards the live folds and the stored heads: whenever it accepts the
    facts recorded after a fold, applying them in seq order is the fold of the whole log, even
    when their game times were recorded out of order (the tail's times shuffled here)."""
    table, _ = PLAYERS[name](data)
    game, facts = table.game, list(table.facts)
    prefix = data.draw(st.integers(0, len(facts)), label="prefix")
    tail = facts[prefix:]
    times = data.draw(st.permutations([f.at for f in tail]), label="tail times")
    facts[prefix:] = [replace(f, at=at) for f, at in zip(tail, times, strict=True)]
    running = Running.start(game, table.setup, facts[:prefix])
    if not running.accepts(facts[prefix:]):
        return
    ACCEPTED.append(bool(facts[prefix:]))
    whole = Running.start(game, table.setup, facts)
    extended = running.extend(game, facts[prefix:], whole.seq)
    assert (extended.seq, extended.horizon, extended.last_play) == (
        whole.seq,
        whole.horizon,
        whole.last_play,
    )
    assert shown(game, extended.state) == shown(game, whole.state)


def test_out_of_order_tails_were_accepted_and_checked() -> None:
    """Not vacuous (runs after the property above): some non-empty tails were accepted."""
    assert any(ACCEPTED)


@pytest.mark.parametrize("name", PLAYERS)
@bounded
@given(data=st.data())
def test_evolve_and_advance_never_change_their_input(name: str, data: st.DataObject) -> None:
    table, _ = PLAYERS[name](data)
    game = table.game
    state, now = game.initial(table.setup), table.t0
    for fact in table.facts:
        state = unchanged(game, game.advance, state, fact.at)
        state, now = unchanged(game, game.evolve, state, fact), fact.at
    for seconds in (0, 1, 61, 3600):
        unchanged(game, game.advance, state, now + timedelta(seconds=seconds))


def unchanged(game: Game[Any, Any], call: Callable[[Any, Any], Any], state: Any, arg: Any) -> Any:
    """``call(state, arg)``, checking that ``state`` still equals a deep copy taken before."""
    before = deep_copy(state, SHARED.get(game.name, _no)(state))
    after = call(state, arg)
    assert state == before, game.name
    return after


@pytest.mark.parametrize("name", PLAYERS)
@bounded
@given(data=st.data())
def test_the_answer_to_a_command_is_what_the_fold_then_shows(
    name: str, data: st.DataObject
) -> None:
    table, turns = PLAYERS[name](data)
    game = table.game
    for turn in turns:
        decision, now = turn.decision, table.at(turn.t)
        log = table.facts[: decision.last_seq]
        running = Running.start(game, table.setup, log).state
        assert shown(game, decision.after) == shown(game, running)
        folded = fold(game, table.setup, log, now).state
        assert shown(game, game.advance(decision.after, now)) == shown(game, folded)
        for seq in range(decision.first_seq, decision.last_seq + 1):
            assert game.outcome(decision.after, seq) == game.outcome(folded, seq)
