"""The state of a No, Not That! match, as the fold builds it.

Every part is an immutable value (frozen dataclasses, tuples, mappings never changed in place):
``evolve``, ``advance`` and the rules they call build a new state, sharing every part they do
not change, so an earlier state (which checkpoints keep) is never changed. A changed copy is
made by ``kernel.values.updated`` (``dataclasses.replace`` without re-running ``__init__``, as
Zoom's fold does) and the ``with_*`` helpers below; ``fast_init`` builds new values faster.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from adjudicator.games.no_not_that.commands import NoNotThatConfig, RoundConfig
from adjudicator.kernel.values import fast_init, updated


class Phase(StrEnum):
    WAITING = "waiting"  # before the first round
    STEP = "step"  # a step is open: seats give their sealed actions
    JUDGING = "judging"  # the step's invalid-object claims await the host
    CLAIMS = "claims"  # prompt claims: solution windows, host verdicts, challenge windows
    BETWEEN_ROUNDS = "between_rounds"
    FINISHED = "finished"


class Kind(StrEnum):
    """A step action."""

    SUBMIT = "submit"
    CLAIM_INVALID = "claim_invalid"
    CLAIM_PROMPT = "claim_prompt"
    PASS = "pass"
    HEAD_START = "head_start"


@dataclass(frozen=True, slots=True)
class Fixed:
    """What never changes during a match; shared between states instead of copied."""

    config: NoNotThatConfig
    seats: tuple[str, str]
    words: frozenset[str]

    def other(self, seat: str) -> str:
        return self.seats[1] if seat == self.seats[0] else self.seats[0]


@fast_init
@dataclass(frozen=True, slots=True)
class Action:
    """A seat's sealed action in the open step."""

    kind: Kind
    value: str | None
    seq: int
    at: datetime
    amendment: Mapping[str, Any] | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class Obj:
    """A submission: one value from one step (both seats when they submitted the same value).
    ``seqs`` are the seqs of the ``nnt.acted`` events that submitted it (one per seat); the first
    is its ``key``, under which a host's verdict on this submission is kept."""

    id: int
    value: str
    step: int
    seats: tuple[str, ...]
    in_play: bool = False
    removed: bool = False
    seqs: tuple[int, ...] = ()

    @property
    def key(self) -> int:
        return min(self.seqs, default=0)


@fast_init
@dataclass(frozen=True, slots=True)
class InvalidClaim:
    seat: str
    target: int  # Obj.id
    seq: int
    amendment: Mapping[str, Any] | None = None
    verdict: str | None = None  # correct | incorrect; None while the host is asked


@fast_init
@dataclass(frozen=True, slots=True)
class PromptClaim:
    seat: str
    seq: int
    window_end: datetime | None = None
    tokens: tuple[str, ...] | None = None
    solved_at: datetime | None = None
    solved_seq: int | None = None
    solved_amendment: Mapping[str, Any] | None = None
    revealed_at: datetime | None = None
    uses: tuple[int, ...] = ()  # Obj.ids
    uses_head_start: bool = False
    host_verdict: str | None = None  # the host's ruling on a host-judged prompt
    verdict: str | None = None  # correct | incorrect | cancelled; None while pending
    challenge_end: datetime | None = None
    challenge_seq: int | None = None
    challenge_amendment: Mapping[str, Any] | None = None
    challenge: str | None = None  # correct | incorrect | accepted | lapsed
    settled: bool = False

    @property
    def awaiting_solution(self) -> bool:
        return self.verdict is None and self.tokens is None

    @property
    def challenge_open(self) -> bool:
        return self.verdict == "correct" and self.challenge_seq is None and not self.settled


@fast_init
@dataclass(frozen=True, slots=True)
class SeatState:
    score: int
    nets: int
    items: tuple[str, ...]
    used: tuple[str, ...] = ()
    ring_invalid: bool = False
    ring_prompt: bool = False
    nets_lost: int = 0
    points_lost: int = 0
    # this round
    claim_points: int = 0
    gained: int = 0
    head_start: str | None = None
    head_start_seq: int | None = None  # the ``nnt.acted`` that named it (a verdict's key)
    head_start_spent: bool = False
    # this step
    action: Action | None = None
    deadline: datetime | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class RoundState:
    number: int
    step: int
    opened_at: datetime
    last_step: bool = False
    objects: tuple[Obj, ...] = ()
    invalid_claims: tuple[InvalidClaim, ...] = ()
    prompt_claims: tuple[PromptClaim, ...] = ()
    verdicts: Mapping[str, bool] = field(default_factory=dict)  # host rulings on a value (round)
    object_verdicts: Mapping[int, bool] = field(default_factory=dict)  # one submission's, by key
    history: tuple[Mapping[str, Any], ...] = ()  # revealed steps

    def with_object(self, obj: Obj) -> RoundState:
        """This round with ``obj`` in place of the object of its id."""
        return updated(self, objects=tuple(obj if o.id == obj.id else o for o in self.objects))

    def with_invalid_claim(self, claim: InvalidClaim) -> RoundState:
        """This round with ``claim`` in place of the invalid-object claim of its seq."""
        claims = tuple(claim if c.seq == claim.seq else c for c in self.invalid_claims)
        return updated(self, invalid_claims=claims)

    def with_prompt_claim(self, claim: PromptClaim) -> RoundState:
        """This round with ``claim`` in place of the prompt claim of its seq."""
        claims = tuple(claim if c.seq == claim.seq else c for c in self.prompt_claims)
        return updated(self, prompt_claims=claims)


@fast_init
@dataclass(frozen=True, slots=True)
class NoNotThatState:
    fixed: Fixed
    phase: Phase
    seats: Mapping[str, SeatState]
    round: RoundState | None = None
    rounds_played: int = 0
    round_results: tuple[Mapping[str, Any], ...] = ()
    result: Mapping[str, Any] | None = None
    outcomes: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    voided: Mapping[int, str] = field(default_factory=dict)

    @property
    def config(self) -> NoNotThatConfig:
        return self.fixed.config

    @property
    def current_round(self) -> RoundState:
        """The round the rules are reading (there is one: a round has started)."""
        assert self.round is not None
        return self.round

    @property
    def round_config(self) -> RoundConfig:
        return self.config.rounds[self.current_round.number - 1]

    def with_seat(self, seat: str, player: SeatState) -> NoNotThatState:
        """This state with ``player`` as the state of ``seat``."""
        return updated(self, seats={**self.seats, seat: player})

    def with_round(self, rnd: RoundState) -> NoNotThatState:
        return updated(self, round=rnd)

    def with_prompt_claim(self, claim: PromptClaim) -> NoNotThatState:
        """This state with ``claim`` in place of the current round's prompt claim of its seq."""
        return updated(self, round=self.current_round.with_prompt_claim(claim))

    def with_outcome(self, seq: int, outcome: Mapping[str, Any]) -> NoNotThatState:
        """This state with ``outcome`` as the outcome of the event ``seq``."""
        return updated(self, outcomes={**self.outcomes, seq: outcome})
