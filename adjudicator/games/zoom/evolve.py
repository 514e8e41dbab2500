"""Zoom's fold: ``evolve`` applies one recorded event, ``advance`` applies the deadlines.

Outcomes are derived here, never recorded: a buzz event holds the pairs as posted, and grading
happens against the state the fold reached at that event. So a ruling that changes the past (a
voided buzz, an earlier round end, an amended outcome) changes every outcome after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from adjudicator.games.zoom.events import (
    BUZZED,
    PRIORITY_DECLARED,
    ROUND_STARTED,
    Buzzed,
    PriorityDeclared,
    RoundStarted,
)
from adjudicator.games.zoom.grid import Board, normalise
from adjudicator.games.zoom.state import (
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
from adjudicator.kernel.values import replacer, updated


def advance(state: ZoomState, now: datetime) -> ZoomState:
    """Apply every deadline at or before ``now``: lockouts, Priority window, round clock."""
    current = state.round
    if state.phase is not Phase.IN_ROUND or current is None:
        return state
    if now >= current.deadline:
        return end_round(state, current.deadline, "round_clock")
    lockouts = _unexpired(current.lockouts, now)
    holder = current.priority_holder
    if holder is not None and current.priority_until is not None and now >= current.priority_until:
        holder = None
    if lockouts is current.lockouts and holder == current.priority_holder:
        return state
    return updated(state, round=updated(current, lockouts=lockouts, priority_holder=holder))


def _unexpired(lockouts: tuple[Lockout, ...], now: datetime) -> tuple[Lockout, ...]:
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
    handler = _HANDLERS.get(fact.type)
    return handler(state, fact) if handler else state


def void(state: ZoomState, fact: Fact, reason: str) -> ZoomState:
    """A recorded event that history (reshaped by a ruling) has made impossible: no effect."""
    return updated(state, voided=(*state.voided, (fact.seq, reason)))


def _round_started(state: ZoomState, fact: Fact) -> ZoomState:
    if state.phase is Phase.IN_ROUND:
        return void(state, fact, "round_in_progress")
    if state.phase is Phase.FINISHED:
        return void(state, fact, "match_over")
    payload = cast(RoundStarted, fact.payload)
    board = board_from_payload(payload)
    holder = state.priority_declared_by
    current = Round(payload["round"], fact.at, board, fact.at, priority_holder=holder)
    return updated(
        state,
        phase=Phase.IN_ROUND,
        round=current,
        priority_declared_by=None,
        priority_used=state.priority_used or holder is not None,
    )


def board_from_payload(payload: RoundStarted) -> Board:
    grid = normalise(payload["grid"], "grid")
    targets = {k: normalise(v, f"target {k}") for k, v in payload["targets"].items()}
    return Board.build(grid, targets)


def _priority_declared(state: ZoomState, fact: Fact) -> ZoomState:
    if state.priority_used or state.priority_declared_by is not None:
        return void(state, fact, "priority_already_used")
    if state.phase not in (Phase.NOT_STARTED, Phase.BETWEEN_ROUNDS):
        return void(state, fact, "round_in_progress")
    return updated(state, priority_declared_by=cast(PriorityDeclared, fact.payload)["seat"])


@dataclass(slots=True)
class _Tally:
    """What one buzz changes in its round, gathered pair by pair; one new state is built after.
    ``found`` and ``lockouts`` are the round's own until a pair changes them (then copies)."""

    found: Mapping[str, Found]
    lockouts: tuple[Lockout, ...] | list[Lockout]
    clock_from: datetime
    gained: int = 0
    graded: bool = False

    def find(self, target: str, found: Found) -> None:
        self.found = {**self.found, target: found}
        self.clock_from = found.when
        self.gained += 1

    def lock(self, lockout: Lockout) -> None:
        self.lockouts = [*self.lockouts, lockout]


_NO_AMENDMENT: Mapping[str, Any] = {}


def _buzzed(state: ZoomState, fact: Fact) -> ZoomState:
    payload = cast(Buzzed, fact.payload)
    seat, amend = payload["seat"], fact.amendment or _NO_AMENDMENT
    pairs = [(p["target"], p["at"]) for p in payload["pairs"]]
    current = state.round
    if state.phase is not Phase.IN_ROUND or current is None:
        over = tuple(PairOutcome(t, at, Verdict.INELIGIBLE, "round_over") for t, at in pairs)
        return _record(state, BuzzOutcome(fact.seq, seat, fact.at, None, over))
    tally = _Tally(current.found, current.lockouts, current.clock_from)
    results = tuple(
        [_grade(current, tally, seat, target, at, fact, amend.get(target)) for target, at in pairs]
    )
    buzz = BuzzOutcome(fact.seq, seat, fact.at, current.number, results)
    scores = state.scores
    if tally.gained:
        scores = {**scores, seat: scores.get(seat, 0) + tally.gained}
    after = _buzzed_round(
        state, _round_after(current, tally, seat), scores, Outcomes(buzz, state.outcomes)
    )
    if len(tally.found) == len(current.board.targets):
        return end_round(after, fact.at, "all_found")
    return after


def _round_after(current: Round, tally: _Tally, seat: str) -> Round:
    """The round once ``seat``'s buzz is tallied: a graded buzz releases the opponent's
    lockouts and ends the buzzer's own Priority; ``current`` itself when nothing changed."""
    holder, lockouts = current.priority_holder, tally.lockouts
    if tally.graded:
        for lockout in lockouts:
            if lockout.seat != seat:
                lockouts = [lo for lo in lockouts if lo.seat == seat]
                break
        if holder == seat:
            holder = None
    if (
        tally.found is current.found
        and lockouts is current.lockouts
        and holder == current.priority_holder
    ):
        return current
    return _open_round(current, tally.clock_from, tally.found, tuple(lockouts), holder)  # open


_buzzed_round = replacer(ZoomState, "round", "scores", "outcomes")
_open_round = replacer(Round, "clock_from", "found", "lockouts", "priority_holder")


def _record(state: ZoomState, buzz: BuzzOutcome) -> ZoomState:
    return updated(state, outcomes=Outcomes(buzz, state.outcomes))


def _ineligible_reason(current: Round, tally: _Tally, seat: str, target: str) -> str | None:
    if target in tally.found:
        return "already_found"
    if current.priority_holder is not None and current.priority_holder != seat:
        return "priority"
    for lockout in tally.lockouts:
        if lockout.seat == seat and lockout.target == target:
            return "locked_out"
    if target not in current.board.targets:
        return "unknown_target"
    return None


def _grade(
    current: Round, tally: _Tally, seat: str, target: str, at: str, fact: Fact, amended: Any
) -> PairOutcome:
    reason = _ineligible_reason(current, tally, seat, target)
    if reason is not None:
        return PairOutcome(target, at, Verdict.INELIGIBLE, reason)
    if amended in _AMENDED:
        verdict = Verdict(amended)
    else:
        verdict = Verdict.CORRECT if current.board.hit(target, at) else Verdict.INCORRECT
    tally.graded = True
    if verdict is Verdict.CORRECT:
        tally.find(target, Found(seat, at, fact.at, fact.seq))
    else:
        tally.lock(Lockout(seat, target, fact.at, fact.seq))
    return PairOutcome(target, at, verdict, None, amended is not None)


_AMENDED = (Verdict.CORRECT.value, Verdict.INCORRECT.value)  # what an amend may say of a pair


def _adjusted(state: ZoomState, fact: Fact) -> ZoomState:
    seat = fact.payload["seat"]
    scores = {**state.scores, seat: state.scores.get(seat, 0) + int(fact.payload["delta"])}
    return updated(state, scores=scores)


def _round_ended_by_ruling(state: ZoomState, fact: Fact) -> ZoomState:
    return end_round(state, fact.at, "ruling")


def _result_declared(state: ZoomState, fact: Fact) -> ZoomState:
    return updated(state, declared_result=declared_result(fact, state.points()))


_HANDLERS = {
    ROUND_STARTED: _round_started,
    PRIORITY_DECLARED: _priority_declared,
    BUZZED: _buzzed,
    "ruling.adjust_score": _adjusted,
    "ruling.end_round": _round_ended_by_ruling,
    "ruling.declare_result": _result_declared,
}
