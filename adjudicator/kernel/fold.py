"""Fold a match's log into its state at a game time, honouring the rulings in the log.

The caller chooses the log: the events recorded up to ``known_at`` (record time). This module
chooses the game time: everything whose effective game time is at or before ``at`` is applied in
order, each preceded by ``advance`` to its instant, and finally ``advance(state, at)``.
:func:`states` is the one loop that does so (every fold goes through it: :func:`replay`,
:class:`Running`, the checkpoints, ``runner.run``); a game may apply several facts in one step
to the very same effect, faster (:class:`RunFolding`: Zoom grades a run of buzzes between two
deadlines into one new state), and :func:`apply` then takes its runs.
A ruling that takes effect at instant T is applied before the players' events at T.

:class:`Running` is the same fold kept open: the state after the last applied fact, extended by
new facts as they are recorded, so a live match is not re-folded from scratch on every command.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from adjudicator import rulings
from adjudicator.kernel.decider import BOOKKEEPING, Fact, Game, Setup

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Folded(Generic[S]):
    state: S
    effects: rulings.RulingEffects


OFF_TIMELINE = BOOKKEEPING | rulings.RULINGS
"""Event types that never act on the game as themselves: the match's records and the rulings
(whose effects :func:`timeline` places)."""


def acts_on_game(fact: Fact) -> bool:
    """Match bookkeeping (``match.created``, ``match.seeded``, ``match.closed``) never acts on
    the game: it takes no place on the timeline and moves no horizon."""
    return fact.type not in BOOKKEEPING


def timeline(facts: Sequence[Fact], effects: rulings.RulingEffects) -> list[Fact]:
    """The facts that act on the game, in the order they act: by game time, then seq (then
    the order given, should two share a seq)."""
    voided, amended = effects.voided, effects.amended
    items: list[tuple[datetime, int, int, int, Fact]] = []
    for index, fact in enumerate(facts):
        if fact.type in OFF_TIMELINE or fact.seq in voided:
            continue
        amendment = amended.get(fact.seq)
        acting = fact if amendment is None else replace(fact, amendment=amendment)
        items.append((fact.at, 1, fact.seq, index, acting))
    items.extend((r.at, 0, r.seq, i, r) for i, r in enumerate(effects.timed, start=len(facts)))
    items.sort()  # the index, unique, settles every tie before a fact is compared
    return [item[4] for item in items]


class RunFolding(Protocol[S]):
    """A game that may apply several facts in one step, faster than one by one."""

    def evolve_run(self, state: S, facts: Sequence[Fact], start: int, stop: int) -> tuple[S, int]:
        """``facts[start]`` and maybe some after it (before ``stop``), applied to ``state``
        as :func:`states` applies them one by one; returns the state and the index of the
        first fact not applied."""
        ...


def states(
    game: Game[S, Any], state: S, facts: Sequence[Fact], start: int = 0, stop: int | None = None
) -> Iterator[S]:
    """The one fold loop: the state right after each of ``facts[start:stop]`` in turn, each
    fact applied as ``advance`` to its instant, then ``evolve``."""
    evolve, advance = game.evolve, game.advance
    for k in range(start, len(facts) if stop is None else stop):
        fact = facts[k]
        state = evolve(advance(state, fact.at), fact)
        yield state


def apply(
    game: Game[S, Any], state: S, facts: Sequence[Fact], start: int = 0, stop: int | None = None
) -> S:
    """``state`` after ``facts[start:stop]``: the last of :func:`states`, or the same by the
    game's ``evolve_run`` (:class:`RunFolding`), whose runs never pass ``stop``."""
    stop = len(facts) if stop is None else stop
    run = getattr(game, "evolve_run", None)
    if run is None:
        after = state
        for after in states(game, state, facts, start, stop):  # noqa: B007 (the last is kept)
            pass
        return after
    index = start
    while index < stop:
        state, index = run(state, facts, index, stop)
    return state


def replay(game: Game[S, Any], state: S, ordered: Sequence[Fact], at: datetime) -> S:
    """``state`` after each fact of the timeline ``ordered`` up to ``at`` (:func:`apply`),
    then advanced to ``at``."""
    stop = bisect_right(ordered, at, key=_at)
    return game.advance(apply(game, state, ordered, 0, stop), at)


def _at(fact: Fact) -> datetime:
    return fact.at


def fold(game: Game[S, Any], setup: Setup, facts: Sequence[Fact], at: datetime) -> Folded[S]:
    effects = rulings.resolve(facts)
    state = replay(game, game.initial(setup), timeline(facts, effects), at)
    return Folded(state, effects)


@dataclass(frozen=True, slots=True)
class Running(Generic[S]):
    """The whole known log folded up to its last fact, not advanced beyond it.

    ``horizon`` is the latest game time applied; ``seq`` the last seq folded in; ``last_play``
    the game time of the latest event of the game itself (not rulings, not match bookkeeping).
    """

    state: S
    effects: rulings.RulingEffects
    seq: int
    horizon: datetime | None
    last_play: datetime | None

    @classmethod
    def start(cls, game: Game[S, Any], setup: Setup, facts: Sequence[Fact]) -> Running[S]:
        empty = cls(game.initial(setup), rulings.resolve(facts), 0, None, None)
        return empty.extend(game, timeline(facts, empty.effects), facts[-1].seq if facts else 0)

    def accepts(self, facts: Sequence[Fact]) -> bool:
        """Whether ``facts`` (recorded after ``seq``, in seq order) can extend this fold as it
        stands: no ruling among them (a ruling may reshape the past), and those that act on
        the game each at or after the horizon and the one before it (so that applying them in
        seq order is applying them in timeline order)."""
        horizon = self.horizon
        for f in facts:
            if rulings.is_ruling(f.type):
                return False
            if acts_on_game(f):
                if horizon is not None and f.at < horizon:
                    return False
                horizon = f.at
        return True

    def extend(
        self, game: Game[S, Any], facts: Sequence[Fact], seq: int | None = None
    ) -> Running[S]:
        """Apply ``facts`` in the order given (``seq``: the last seq they cover)."""
        acting = [fact for fact in facts if acts_on_game(fact)]
        state = apply(game, self.state, acting)
        horizon = acting[-1].at if acting else self.horizon
        plays = game.plays
        last_play = next((f.at for f in reversed(acting) if f.type in plays), self.last_play)
        if seq is None:
            seq = facts[-1].seq if facts else self.seq
        return Running(state, self.effects, seq, horizon, last_play)

    def at(self, game: Game[S, Any], now: datetime) -> S | None:
        """The state at ``now``, or None when ``now`` is before the horizon (fold afresh)."""
        if self.horizon is not None and now < self.horizon:
            return None
        return game.advance(self.state, now)
