"""The one runner: how every caller (the service, an atomic batch, the test kit, the golden
generator) turns a command into the events to record and the state after them.

``run(game, state, command, ctx, next_seq)``: advance the state to ``ctx.now``, ``decide``, then
fold the drafts into that state exactly as the fold will once they are recorded. The caller
appends the drafts (with the expected seq) and reads each command's outcome from ``after``,
so the answer to a command is always the outcome the fold then shows.

Pure: no store, no clock (``ctx.now`` comes in), no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from adjudicator.kernel.decider import Context, Draft, Fact, Game
from adjudicator.kernel.fold import apply

S = TypeVar("S")
C = TypeVar("C")


@dataclass(frozen=True, slots=True)
class Decision(Generic[S]):
    """What one command decided: the drafts, the seq of the first, the state after them."""

    drafts: list[Draft]
    first_seq: int
    after: S

    @property
    def last_seq(self) -> int:
        return self.first_seq + len(self.drafts) - 1


def facts_of(drafts: list[Draft], ctx: Context, first_seq: int) -> list[Fact]:
    """The facts ``drafts`` become once recorded from ``first_seq`` on, acted by ``ctx``."""
    return [
        Fact(first_seq + i, d.type, ctx.actor, ctx.now, d.payload) for i, d in enumerate(drafts)
    ]


def run(game: Game[S, C], state: S, command: C, ctx: Context, next_seq: int) -> Decision[S]:
    """Decide ``command`` against ``state`` at ``ctx.now``; ``next_seq``: the seq its first
    event will get. Raises the game's DomainError when the command is refused."""
    state = game.advance(state, ctx.now)
    drafts = game.decide(state, command, ctx)
    return Decision(drafts, next_seq, apply(game, state, facts_of(drafts, ctx, next_seq)))


def outcome(game: Game[S, Any], decision: Decision[S]) -> dict[str, Any] | None:
    """The derived outcome of the command's own (first) event."""
    return game.outcome(decision.after, decision.first_seq)
