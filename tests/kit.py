"""The test kit for every game: drive its pure functions the way the service does, without a store
or HTTP, and state a rule as given / when / then (after emmett's ``deciderSpecification``)::

    given(game, setup, StartRound(), act(Buzz(...), seat="alpha", t=5))
        .when(Buzz(...), seat="beta", t=6)
        .then(events=[("zoom.buzzed", {...})])          # or .then_refused("locked_out")

``Table`` keeps a log of facts (seq 1, 2, …) and the game time as seconds after ``t0``:
``table.act(cmd, seat=..., t=...)`` runs :func:`adjudicator.kernel.runner.run` (``advance`` +
``decide`` + ``evolve``) on the fold at ``t`` and records what it returns, exactly as the service
would; ``table.state(t)`` folds the log at ``t``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pydantic import BaseModel

from adjudicator.kernel import runner
from adjudicator.kernel.decider import (
    HOST,
    Context,
    Draft,
    Fact,
    Game,
    Role,
    Setup,
    Viewer,
    seat_actor,
)
from adjudicator.kernel.errors import DomainError
from adjudicator.kernel.fold import Folded, fold
from adjudicator.kernel.payloads import plain
from adjudicator.registry import decode

T0 = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
HOST_VIEW = Viewer(Role.HOST)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


class Table:
    """One match's log, folded by its game; times are seconds after ``t0``."""

    def __init__(self, game: Game[Any, Any], setup: Setup, t0: datetime = T0) -> None:
        self.game = game
        self.setup = setup
        self.t0 = t0
        self.facts: list[Fact] = []

    def at(self, seconds: float) -> datetime:
        return self.t0 + timedelta(seconds=seconds)

    def folded(self, t: float, known_seq: int | None = None) -> Folded[Any]:
        facts = self.facts if known_seq is None else [f for f in self.facts if f.seq <= known_seq]
        return fold(self.game, self.setup, facts, self.at(t))

    def state(self, t: float, known_seq: int | None = None) -> Any:
        return self.folded(t, known_seq).state

    def context(self, t: float, seat: str | None) -> Context:
        actor = HOST if seat is None else seat_actor(seat)
        return Context(actor=actor, now=self.at(t), seat=seat)

    def decide(
        self, command: BaseModel, *, t: float, seat: str | None = None, state: Any = None
    ) -> runner.Decision[Any]:
        """The runner's decision on ``command`` (from ``seat``, or the host when None) against
        the fold at ``t`` (or ``state``, already folded); nothing is recorded."""
        current = self.state(t) if state is None else state
        return runner.run(self.game, current, command, self.context(t, seat), self.last_seq + 1)

    def act(
        self, command: BaseModel, *, t: float, seat: str | None = None, state: Any = None
    ) -> list[Fact]:
        """Decide ``command`` (from ``seat``, or the host when None) and record the result."""
        return self.enter(self.decide(command, t=t, seat=seat, state=state), t=t, seat=seat)

    def enter(self, decision: runner.Decision[Any], *, t: float, seat: str | None) -> list[Fact]:
        """Record what ``decision`` decided, as acted by ``seat`` (the host when None) at ``t``."""
        new = runner.facts_of(decision.drafts, self.context(t, seat), decision.first_seq)
        self.facts.extend(new)
        return new

    def record(
        self,
        type_: str,
        payload: Mapping[str, Any],
        *,
        t: float,
        actor: str = HOST,
        when: datetime | None = None,
    ) -> Fact:
        """Record an event directly (rulings, or history as it was recorded); ``when``
        overrides the game time ``t``."""
        fact = Fact(
            self.last_seq + 1, type_, actor, when or self.at(t), decode(type_, dict(payload))
        )
        self.facts.append(fact)
        return fact

    @property
    def last_seq(self) -> int:
        return len(self.facts)


@dataclass(frozen=True, slots=True)
class Turn:
    """One accepted command of a played match: the runner's decision and its instant."""

    decision: runner.Decision[Any]
    t: float


# given / when / then ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """A command in the history: decided and recorded as ``Table.act`` does."""

    command: BaseModel
    seat: str | None = None
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Recorded:
    """An event in the history, recorded as it stands (a ruling, or history entered by hand)."""

    type: str
    payload: Mapping[str, Any]
    t: float | None = None
    actor: str = HOST


def act(command: BaseModel, *, seat: str | None = None, t: float | None = None) -> Act:
    return Act(command, seat, t)


def recorded(
    type_: str, payload: Mapping[str, Any], *, t: float | None = None, actor: str = HOST
) -> Recorded:
    return Recorded(type_, payload, t, actor)


History = BaseModel | Act | Recorded
Expected = Draft | tuple[str, Mapping[str, Any]]


def given(
    game: Game[Any, Any], setup: Setup, *history: History, t0: datetime = T0
) -> Specification:
    """A table whose log holds ``history``, in order. A bare command is the host's; an item
    without a time happens at the time of the item before it (0 for the first)."""
    table, t = Table(game, setup, t0), 0.0
    for item in history:
        t = _replay(table, item, t)
    return Specification(table, t)


def _replay(table: Table, item: History, t: float) -> float:
    match item:
        case Recorded(type_, payload, when, actor):
            t = t if when is None else when
            table.record(type_, payload, t=t, actor=actor)
        case Act(command, seat, when):
            t = t if when is None else when
            table.act(command, t=t, seat=seat)
        case BaseModel():
            table.act(item, t=t)
    return t


@dataclass(frozen=True, slots=True)
class Specification:
    table: Table
    t: float

    def when(self, command: BaseModel, *, seat: str | None = None, t: float | None = None) -> When:
        """``command`` from ``seat`` (the host when None) at ``t`` (default: the last time)."""
        return When(self.table, command, seat, self.t if t is None else t)


@dataclass(frozen=True, slots=True)
class When:
    table: Table
    command: BaseModel
    seat: str | None
    t: float

    def then(self, events: Sequence[Expected]) -> Table:
        """The command decides exactly ``events`` (``(type, payload)`` pairs, or whole drafts
        when the visibility matters); they are recorded, and the table is returned. The state
        the runner answers with is what the fold of the log then shows."""
        table = self.table
        decision = table.decide(self.command, t=self.t, seat=self.seat)
        assert _shown(decision.drafts, events) == _shown(events, events)
        table.enter(decision, t=self.t, seat=self.seat)
        _assert_answer_is_the_fold(table, decision.after, self.t)
        return table

    def then_refused(self, code: str) -> DomainError:
        """The command is refused with ``code`` and records nothing."""
        before = list(self.table.facts)
        with pytest.raises(DomainError) as caught:
            self.table.act(self.command, t=self.t, seat=self.seat)
        assert caught.value.code == code, caught.value
        assert self.table.facts == before
        return caught.value


def _shown(items: Sequence[Expected], expected: Sequence[Expected]) -> list[Expected]:
    """``items`` in the shape of ``expected``: whole drafts when every expected item is one,
    else ``(type, payload)`` pairs, so the two compare and a failure shows both."""
    if expected and all(isinstance(e, Draft) for e in expected):  # payloads as recorded
        return [replace(i, payload=plain(i.payload)) for i in items if isinstance(i, Draft)]
    return [_pair(i) for i in items]


def _pair(item: Expected) -> tuple[str, dict[str, Any]]:
    if isinstance(item, Draft):
        return (item.type, plain(item.payload))
    return (item[0], dict(item[1]))


def _assert_answer_is_the_fold(table: Table, after: Any, t: float) -> None:
    game, folded = table.game, table.state(t)
    answered = game.advance(after, table.at(t))
    assert game.view(answered, HOST_VIEW) == game.view(folded, HOST_VIEW)
    assert game.result(answered) == game.result(folded)
