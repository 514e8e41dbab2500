"""Test kit: drive a game's pure functions the way the service does, without store or HTTP.

``Table`` keeps a log of facts (seq 1, 2, …) and the game time as seconds after ``T0``:
``table.act(cmd, seat=..., t=...)`` runs ``advance`` + ``decide`` on the fold at ``t`` and records
what it returns, exactly as the service would; ``table.state(t)`` folds the log at ``t``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel

from adjudicator.kernel import runner
from adjudicator.kernel.decider import HOST, Context, Fact, Game, Setup, seat_actor
from adjudicator.kernel.fold import Folded, fold

T0 = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


class Table:
    def __init__(self, game: Game[Any], setup: Setup) -> None:
        self.game = game
        self.setup = setup
        self.facts: list[Fact] = []

    def folded(self, t: float, known_seq: int | None = None) -> Folded[Any]:
        facts = self.facts if known_seq is None else [f for f in self.facts if f.seq <= known_seq]
        return fold(self.game, self.setup, facts, at(t))

    def state(self, t: float, known_seq: int | None = None) -> Any:
        return self.folded(t, known_seq).state

    def context(self, t: float, seat: str | None) -> Context:
        actor = HOST if seat is None else seat_actor(seat)
        return Context(actor=actor, now=at(t), seat=seat)

    def act(self, command: BaseModel, *, t: float, seat: str | None = None) -> list[Fact]:
        """Decide ``command`` (from ``seat``, or the host when None) and record the result."""
        ctx = self.context(t, seat)
        decision = runner.run(self.game, self.state(t), command, ctx, self.last_seq + 1)
        new = runner.facts_of(decision.drafts, ctx, decision.first_seq)
        self.facts.extend(new)
        return new

    def record(self, type_: str, payload: Mapping[str, Any], *, t: float) -> Fact:
        """Record an event directly (rulings, or history as it was recorded)."""
        fact = Fact(len(self.facts) + 1, type_, HOST, at(t), dict(payload))
        self.facts.append(fact)
        return fact

    @property
    def last_seq(self) -> int:
        return len(self.facts)
