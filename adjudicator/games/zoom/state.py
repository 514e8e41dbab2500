"""Zoom's state: immutable values, replaced (never mutated) by ``evolve`` and ``advance``.

The values a fold builds per buzz get ``kernel.values.fast_init``'s ``__init__`` (the same
arguments as the dataclass's own, half the cost).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from adjudicator.games.zoom.commands import ZoomConfig
from adjudicator.games.zoom.grid import Board
from adjudicator.kernel.values import fast_init

LOCKOUT = timedelta(seconds=60)
ROUND_CLOCK = timedelta(seconds=120)
PRIORITY_WINDOW = timedelta(seconds=20)


class Phase(StrEnum):
    NOT_STARTED = "not_started"
    IN_ROUND = "in_round"
    BETWEEN_ROUNDS = "between_rounds"
    FINISHED = "finished"


class Verdict(StrEnum):
    CORRECT = "correct"
    INCORRECT = "incorrect"
    INELIGIBLE = "ineligible"


@fast_init
@dataclass(frozen=True, slots=True)
class PairOutcome:
    target: str
    at: str
    verdict: Verdict
    reason: str | None = None
    amended: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class BuzzOutcome:
    """One buzz as graded. ``rendered`` memoises its JSON view (``view.buzz_view``): a graded
    buzz never changes (a ruling that changes it makes a new fold, hence a new outcome), so a
    long match renders each buzz once, not on every read. It takes no part in equality."""

    seq: int
    seat: str
    at: datetime
    round: int | None
    pairs: tuple[PairOutcome, ...]
    source: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    rendered: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def graded(self) -> bool:
        return any(p.verdict is not Verdict.INELIGIBLE for p in self.pairs)


@fast_init
@dataclass(frozen=True, slots=True)
class Found:
    seat: str
    at: str
    when: datetime
    seq: int


@fast_init
@dataclass(frozen=True, slots=True)
class Lockout:
    seat: str
    target: str
    since: datetime
    seq: int

    @property
    def until(self) -> datetime:
        return self.since + LOCKOUT


@fast_init
@dataclass(frozen=True, slots=True)
class Round:
    number: int
    started_at: datetime
    board: Board
    clock_from: datetime
    found: Mapping[str, Found] = field(default_factory=dict)
    lockouts: tuple[Lockout, ...] = ()
    priority_holder: str | None = None
    ended_at: datetime | None = None  # set when the round ends; the state keeps the last round
    end_reason: str | None = None

    @property
    def deadline(self) -> datetime:
        return self.clock_from + ROUND_CLOCK

    @property
    def priority_until(self) -> datetime | None:
        return self.started_at + PRIORITY_WINDOW if self.priority_holder else None


@fast_init
@dataclass(frozen=True, slots=True)
class RoundSummary:
    number: int
    started_at: datetime
    ended_at: datetime
    end_reason: str
    found: Mapping[str, Found]
    void_targets: tuple[str, ...]


@fast_init
@dataclass(frozen=True, slots=True, weakref_slot=True)
class Outcomes:
    """A cons list, newest first: O(1) to extend however long the match."""

    head: BuzzOutcome
    tail: Outcomes | None = None

    def __iter__(self) -> Iterator[BuzzOutcome]:
        node: Outcomes | None = self
        while node is not None:
            yield node.head
            node = node.tail


@fast_init
@dataclass(frozen=True, slots=True)
class ZoomState:
    seats: tuple[str, str]
    advantage: str | None
    config: ZoomConfig
    seed: int | None
    phase: Phase = Phase.NOT_STARTED
    round: Round | None = None  # the round in progress, or the last one played (with its end)
    played: tuple[RoundSummary, ...] = ()
    scores: Mapping[str, int] = field(default_factory=dict)
    priority_declared_by: str | None = None
    priority_used: bool = False
    outcomes: Outcomes | None = None
    declared_result: Mapping[str, Any] | None = None
    voided: tuple[tuple[int, str], ...] = ()

    def opponent(self, seat: str) -> str:
        return self.seats[1] if seat == self.seats[0] else self.seats[0]

    def points(self) -> dict[str, int]:
        """Each seat's score: targets found, plus any host adjustment."""
        return {seat: self.scores.get(seat, 0) for seat in self.seats}

    @property
    def next_round(self) -> int:
        """The number of the round the host may start next (rounds are played in order)."""
        return len(self.played) + 1
