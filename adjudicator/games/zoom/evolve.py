"""Zoom's fold: ``evolve`` applies one recorded event, ``advance`` applies the deadlines, and
``buzz_run`` applies a run of buzzes between two deadlines of a round at once.

Outcomes are derived here, never recorded: a buzz event holds the pairs as posted, and grading
happens against the state the fold reached at that event. So a ruling that changes the past (a
voided buzz, an earlier round end, an amended outcome) changes every outcome after it.

A buzz is graded into a :class:`_Tally` of its round (found targets, lockouts, Priority,
scores, outcomes), from which one new state is built: per buzz by ``evolve``, once for a whole
run by ``buzz_run`` (a long match's re-fold is mostly such runs), by the same code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, assert_never

from adjudicator.games.zoom.events import (
    PLAYS,
    Buzzed,
    PriorityDeclared,
    RoundStarted,
    ZoomEvent,
)
from adjudicator.games.zoom.grid import Board, normalise
from adjudicator.games.zoom.state import (
    LOCKOUT,
    PRIORITY_WINDOW,
    ROUND_CLOCK,
    BuzzOutcome,
    Found,
    Lockout,
    Outcomes,
    PairOutcome,
    Phase,
    Round,
    RoundSummary,
    Verdict,
    ZoomState,
)
from adjudicator.kernel.decider import Fact, declared_result
from adjudicator.kernel.errors import DomainError
from adjudicator.kernel.payloads import Unreadable
from adjudicator.kernel.values import replacer, updated
from adjudicator.rulings import ResultDeclared, ScoreAdjusted


def advance(state: ZoomState, now: datetime) -> ZoomState:
    """Apply every deadline at or before ``now``: lockouts, Priority window, round clock."""
    current = state.round
    if state.phase is not Phase.IN_ROUND or current is None or _quiet(current, now):
        return state
    if now >= current.deadline:
        return end_round(state, current.deadline, "round_clock")
    lockouts = _unexpired(current.lockouts, now)
    holder = current.priority_holder
    if holder is not None and current.priority_until is not None and now >= current.priority_until:
        holder = None
    return updated(state, round=updated(current, lockouts=lockouts, priority_holder=holder))


class _Open(Protocol):
    """The parts of an open round its deadlines depend on (a :class:`Round`, or a tally)."""

    @property
    def started_at(self) -> datetime: ...
    @property
    def clock_from(self) -> datetime: ...
    @property
    def lockouts(self) -> Sequence[Lockout]: ...
    @property
    def priority_holder(self) -> str | None: ...


def _quiet(current: _Open, now: datetime) -> bool:
    """Whether no deadline of the open round ``current`` falls at or before ``now`` (so
    ``advance`` leaves it as it is): the round clock, every lockout, a held Priority window
    (``Round.deadline``, ``Lockout.until``, ``Round.priority_until``)."""
    if now >= current.clock_from + ROUND_CLOCK:
        return False
    if current.priority_holder and now >= current.started_at + PRIORITY_WINDOW:
        return False
    return _unexpired(current.lockouts, now) is current.lockouts


def _unexpired(lockouts: Sequence[Lockout], now: datetime) -> Sequence[Lockout]:
    """The lockouts still running at ``now``: ``lockouts`` itself when none has expired (the
    usual case, checked without building a tuple)."""
    for lockout in lockouts:
        if now >= lockout.until:
            return tuple(lo for lo in lockouts if now < lo.until)
    return lockouts


def end_round(state: ZoomState, when: datetime, reason: str) -> ZoomState:
    current = state.round
    if state.phase is not Phase.IN_ROUND or current is None:
        return state
    void = tuple(sorted(set(current.board.targets) - set(current.found)))
    summary = RoundSummary(current.number, current.started_at, when, reason, current.found, void)
    played = (*state.played, summary)
    phase = Phase.FINISHED if len(played) >= state.config.rounds else Phase.BETWEEN_ROUNDS
    last = updated(current, ended_at=when, end_reason=reason)
    return updated(state, phase=phase, round=last, played=played)


def evolve(state: ZoomState, fact: Fact) -> ZoomState:
    """Apply one recorded event: the game's own by its payload (decoded once, a
    :data:`ZoomEvent`; void when unreadable), a ruling by its type; anything else is no play."""
    if fact.type in PLAYS:
        return _played(state, fact, fact.payload)
    ruling = _RULINGS.get(fact.type)
    return ruling(state, fact) if ruling else state


def _played(state: ZoomState, fact: Fact, event: ZoomEvent | Unreadable) -> ZoomState:
    match event:
        case Buzzed():
            return _buzzed(state, fact, event)
        case RoundStarted():
            return _round_started(state, fact, event)
        case PriorityDeclared():
            return _priority_declared(state, fact, event)
        case Unreadable():
            return void(state, fact, f"malformed payload: {event.reason}")
        case _:
            assert_never(event)


def void(state: ZoomState, fact: Fact, reason: str) -> ZoomState:
    """A recorded event that history (reshaped by a ruling) has made impossible: no effect."""
    return updated(state, voided=(*state.voided, (fact.seq, reason)))


def _round_started(state: ZoomState, fact: Fact, started: RoundStarted) -> ZoomState:
    if state.phase is Phase.IN_ROUND:
        return void(state, fact, "round_in_progress")
    if state.phase is Phase.FINISHED:
        return void(state, fact, "match_over")
    try:
        board = board_from_payload(started)
    except DomainError as error:  # a grid no round could have (recorded elsewhere)
        return void(state, fact, f"malformed payload: {error.message}")
    holder = state.priority_declared_by
    current = Round(started.round, fact.at, board, fact.at, priority_holder=holder)
    return updated(
        state,
        phase=Phase.IN_ROUND,
        round=current,
        priority_declared_by=None,
        priority_used=state.priority_used or holder is not None,
    )


def board_from_payload(started: RoundStarted) -> Board:
    grid = normalise(started.grid, "grid")
    targets = {k: normalise(v, f"target {k}") for k, v in started.targets.items()}
    return Board.build(grid, targets)


def _priority_declared(state: ZoomState, fact: Fact, declared: PriorityDeclared) -> ZoomState:
    if state.priority_used or state.priority_declared_by is not None:
        return void(state, fact, "priority_already_used")
    if state.phase not in (Phase.NOT_STARTED, Phase.BETWEEN_ROUNDS):
        return void(state, fact, "round_in_progress")
    return updated(state, priority_declared_by=declared.seat)


_NEVER = datetime.max.replace(tzinfo=UTC)


@dataclass(slots=True)
class _Tally:
    """An open round's changing parts while buzzes are graded into it, pair by pair and buzz
    by buzz; one new state is built after (:meth:`state`). ``found``, ``lockouts`` and
    ``scores`` are the state's own until a buzz changes them (then copies).

    ``quiet_until`` (set by ``buzz_run``) is never later than the round's first deadline (its
    clock, the Priority window, a lockout's end) as the tally stands: the tally's deadlines
    only move later as buzzes are graded (a find restarts the clock, a graded buzz releases
    lockouts and ends the buzzer's Priority), except that a new lockout ends ``LOCKOUT`` after
    its buzz, which lowers it. ``graded_pairs`` shares one outcome among the pairs graded alike
    (frozen values)."""

    current: Round  # the round as the tally began
    found: Mapping[str, Found]
    lockouts: tuple[Lockout, ...] | list[Lockout]
    clock_from: datetime
    priority_holder: str | None
    scores: Mapping[str, int]
    outcomes: Outcomes | None
    graded_pairs: dict[tuple[str, str, Verdict], PairOutcome] = field(default_factory=dict)
    quiet_until: datetime = _NEVER
    graded: bool = False  # whether the buzz being graded has an eligible pair

    @classmethod
    def of(cls, state: ZoomState, current: Round) -> _Tally:
        return cls(
            current,
            current.found,
            current.lockouts,
            current.clock_from,
            current.priority_holder,
            state.scores,
            state.outcomes,
        )

    @property
    def started_at(self) -> datetime:
        return self.current.started_at

    def buzz(self, fact: Fact, buzz: Buzzed) -> bool:
        """Grade one buzz pair by pair (as the host's amendment of it, if any, says); a graded
        buzz then releases the opponent's lockouts and ends the buzzer's own Priority. Whether
        every target of the round is found."""
        self.graded, seat, pairs = False, buzz.seat, buzz.pairs
        amend = fact.amendment or _NO_AMENDMENT
        if len(pairs) == 1:  # the usual buzz: no list to build
            pair = pairs[0]
            results: tuple[PairOutcome, ...] = (
                self._grade(fact, seat, pair.target, pair.at, amend.get(pair.target)),
            )
        else:
            results = tuple(
                [self._grade(fact, seat, p.target, p.at, amend.get(p.target)) for p in pairs]
            )
        current = self.current
        graded = BuzzOutcome(fact.seq, seat, fact.at, current.number, results, fact.source)
        self.outcomes = Outcomes(graded, self.outcomes)
        if self.graded:
            for lockout in self.lockouts:
                if lockout.seat != seat:
                    self.lockouts = [lo for lo in self.lockouts if lo.seat == seat]
                    break
            if self.priority_holder == seat:
                self.priority_holder = None
        return len(self.found) == len(current.board.targets)

    def _grade(self, fact: Fact, seat: str, target: str, at: str, amended: Any) -> PairOutcome:
        reason = self._ineligible_reason(seat, target)
        if reason is not None:
            return PairOutcome(target, at, _INELIGIBLE, reason)
        if amended in _AMENDED:
            verdict = Verdict(amended)
        else:
            hit = self.current.board.hit(target, at)
            verdict = _CORRECT if hit else _INCORRECT
        self.graded = True
        if verdict is _CORRECT:
            self.found = {**self.found, target: Found(seat, at, fact.at, fact.seq)}
            self.clock_from = fact.at
            self.scores = {**self.scores, seat: self.scores.get(seat, 0) + 1}
        else:
            self.lockouts = [*self.lockouts, Lockout(seat, target, fact.at, fact.seq)]
            ends = fact.at + LOCKOUT
            self.quiet_until = min(self.quiet_until, ends)
        if amended is not None:
            return PairOutcome(target, at, verdict, None, True)
        key = (target, at, verdict)
        outcome = self.graded_pairs.get(key)
        if outcome is None:
            outcome = self.graded_pairs[key] = PairOutcome(target, at, verdict, None, False)
        return outcome

    def _ineligible_reason(self, seat: str, target: str) -> str | None:
        if target in self.found:
            return "already_found"
        if self.priority_holder is not None and self.priority_holder != seat:
            return "priority"
        for lockout in self.lockouts:
            if lockout.seat == seat and lockout.target == target:
                return "locked_out"
        if target not in self.current.board.targets:
            return "unknown_target"
        return None

    def state(self, state: ZoomState) -> ZoomState:
        """``state`` with the round as tallied (still open), the scores and the outcomes."""
        current = self.current
        if (
            self.found is current.found
            and self.lockouts is current.lockouts
            and self.priority_holder == current.priority_holder
        ):
            after = current
        else:
            lockouts = tuple(self.lockouts)
            after = _open_round(
                current, self.clock_from, self.found, lockouts, self.priority_holder
            )
        return _buzzed_round(state, after, self.scores, self.outcomes)


_NO_AMENDMENT: Mapping[str, Any] = {}
_buzzed_round = replacer(ZoomState, "round", "scores", "outcomes")
_open_round = replacer(Round, "clock_from", "found", "lockouts", "priority_holder")
_CORRECT, _INCORRECT, _INELIGIBLE = Verdict.CORRECT, Verdict.INCORRECT, Verdict.INELIGIBLE
_IN_ROUND = Phase.IN_ROUND  # an enum member read as a global, not off its class (slower)


def _buzzed(state: ZoomState, fact: Fact, buzz: Buzzed) -> ZoomState:
    current = state.round
    if state.phase is not _IN_ROUND or current is None:
        over = tuple(PairOutcome(p.target, p.at, _INELIGIBLE, "round_over") for p in buzz.pairs)
        return _record(state, BuzzOutcome(fact.seq, buzz.seat, fact.at, None, over, fact.source))
    tally = _Tally.of(state, current)
    return _tallied(state, tally, fact, tally.buzz(fact, buzz))


def buzz_run(
    state: ZoomState, facts: Sequence[Fact], start: int, stop: int
) -> tuple[ZoomState, int]:
    """Zoom's ``evolve_run`` (see ``adjudicator.kernel.fold.apply``): ``facts[start]`` applied
    as ``states`` applies it and, when it is a buzz in an open round, the buzzes after it
    (before ``stop``) too, while each comes before every deadline of the round (so ``advance``
    would leave it as it is: before the tally's ``quiet_until``) and targets remain: graded
    into one tally, one new state built for them all. Returns the state and the index of the
    first fact not applied."""
    fact = facts[start]
    state = advance(state, fact.at)
    current, buzz = state.round, fact.payload
    if type(buzz) is not Buzzed or state.phase is not _IN_ROUND or current is None:
        return evolve(state, fact), start + 1
    tally, end = _Tally.of(state, current), start
    tally.quiet_until = _first_deadline(current)
    while True:
        all_found = tally.buzz(fact, buzz)
        end += 1
        if all_found or end == stop:
            break
        following = facts[end]
        buzz = following.payload
        if type(buzz) is not Buzzed or following.at >= tally.quiet_until:
            break
        fact = following
    return _tallied(state, tally, fact, all_found), end


def _first_deadline(current: Round) -> datetime:
    """The first deadline of the open round ``current``: what ``_quiet`` looks at."""
    deadlines = [current.deadline, *(lockout.until for lockout in current.lockouts)]
    if current.priority_holder:
        deadlines.append(current.started_at + PRIORITY_WINDOW)
    return min(deadlines)


def _tallied(state: ZoomState, tally: _Tally, last: Fact, all_found: bool) -> ZoomState:
    """The state after the buzzes ``tally`` graded, the last of them ``last``: the round ends
    at that buzz when it found the last target."""
    after = tally.state(state)
    return end_round(after, last.at, "all_found") if all_found else after


def _record(state: ZoomState, buzz: BuzzOutcome) -> ZoomState:
    return updated(state, outcomes=Outcomes(buzz, state.outcomes))


_AMENDED = (Verdict.CORRECT.value, Verdict.INCORRECT.value)  # what an amend may say of a pair


def _adjusted(state: ZoomState, fact: Fact) -> ZoomState:
    adjusted: ScoreAdjusted = fact.payload
    seat = adjusted.seat
    scores = {**state.scores, seat: state.scores.get(seat, 0) + adjusted.delta}
    return updated(state, scores=scores)


def _round_ended_by_ruling(state: ZoomState, fact: Fact) -> ZoomState:
    return end_round(state, fact.at, "ruling")


def _result_declared(state: ZoomState, fact: Fact) -> ZoomState:
    """A declared result ends the round in progress at its instant (reason ``result``) and
    the match: no round clock runs on, no later round starts."""
    ruling: ResultDeclared = fact.payload
    declared = declared_result(fact.seq, ruling.winner, state.points())
    ended = end_round(state, fact.at, "result")
    return updated(ended, phase=Phase.FINISHED, declared_result=declared)


_RULINGS = {
    "ruling.adjust_score": _adjusted,
    "ruling.end_round": _round_ended_by_ruling,
    "ruling.declare_result": _result_declared,
}
