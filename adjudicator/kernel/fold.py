"""Fold a match's log into its state at a game time, honouring the rulings in the log.

The caller chooses the log: the events recorded up to ``known_at`` (record time). This module
chooses the game time: everything whose effective game time is at or before ``at`` is applied in
order, each preceded by ``advance`` to its instant, and finally ``advance(state, at)``.
A ruling that takes effect at instant T is applied before the players' events at T.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Generic, TypeVar

from adjudicator import rulings
from adjudicator.kernel.decider import Fact, Game, Setup

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Folded(Generic[S]):
    state: S
    effects: rulings.RulingEffects


def timeline(facts: Sequence[Fact], effects: rulings.RulingEffects) -> list[Fact]:
    """The facts that act on the game, in the order they act: by game time, then seq."""
    items: list[tuple[datetime, int, int, Fact]] = []
    for fact in facts:
        if rulings.is_ruling(fact.type) or fact.seq in effects.voided:
            continue
        amendment = effects.amended.get(fact.seq)
        acting = fact if amendment is None else replace(fact, amendment=amendment)
        items.append((fact.at, 1, fact.seq, acting))
    items.extend((ruling.at, 0, ruling.seq, ruling) for ruling in effects.timed)
    items.sort(key=lambda item: item[:3])
    return [item[3] for item in items]


def replay(game: Game[S], state: S, ordered: Iterable[Fact], at: datetime) -> S:
    for fact in ordered:
        if fact.at > at:
            break
        state = game.evolve(game.advance(state, fact.at), fact)
    return game.advance(state, at)


def fold(game: Game[S], setup: Setup, facts: Sequence[Fact], at: datetime) -> Folded[S]:
    effects = rulings.resolve(facts)
    state = replay(game, game.initial(setup), timeline(facts, effects), at)
    return Folded(state, effects)
