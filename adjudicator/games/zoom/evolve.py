"""Zoom's fold: ``evolve`` applies one recorded event, ``advance`` applies the deadlines.

Outcomes are derived here, never recorded: a buzz event holds the pairs as posted, and grading
happens against the state the fold reached at that event. So a ruling that changes the past (a
voided buzz, an earlier round end, an amended outcome) changes every outcome after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from adjudicator.games.zoom import coords
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
from adjudicator.kernel.decider import Fact


def advance(state: ZoomState, now: datetime) -> ZoomState:
    """Apply every deadline at or before ``now``: lockouts, Priority window, round clock."""
    current = state.round
    if state.phase is not Phase.IN_ROUND or current is None:
        return state
    if now >= current.deadline:
        return end_round(state, current.deadline, "round_clock")
    expired = tuple(lo for lo in current.lockouts if now < lo.until)
    holder = current.priority_holder
    if holder is not None and current.priority_until is not None and now >= current.priority_until:
        holder = None
    if expired == current.lockouts and holder == current.priority_holder:
        return state
    return replace(state, round=replace(current, lockouts=expired, priority_holder=holder))


def end_round(state: ZoomState, when: datetime, reason: str) -> ZoomState:
    current = state.round
    if state.phase is not Phase.IN_ROUND or current is None:
        return state
    void = tuple(sorted(set(current.board.targets) - set(current.found)))
    summary = RoundSummary(current.number, current.started_at, when, reason, current.found, void)
    played = (*state.played, summary)
    phase = Phase.FINISHED if len(played) >= state.config.rounds else Phase.BETWEEN_ROUNDS
    return replace(state, phase=phase, round=None, played=played)


def evolve(state: ZoomState, fact: Fact) -> ZoomState:
    handler = _HANDLERS.get(fact.type)
    return handler(state, fact) if handler else state


def void(state: ZoomState, fact: Fact, reason: str) -> ZoomState:
    """A recorded event that history (reshaped by a ruling) has made impossible: no effect."""
    return replace(state, voided=(*state.voided, (fact.seq, reason)))


def _round_started(state: ZoomState, fact: Fact) -> ZoomState:
    if state.phase is Phase.IN_ROUND:
        return void(state, fact, "round_in_progress")
    if state.phase is Phase.FINISHED:
        return void(state, fact, "match_over")
    board = board_from_payload(fact.payload)
    holder = state.priority_declared_by
    current = Round(fact.payload["round"], fact.at, board, fact.at, priority_holder=holder)
    return replace(
        state,
        phase=Phase.IN_ROUND,
        round=current,
        priority_declared_by=None,
        priority_used=state.priority_used or holder is not None,
    )


def board_from_payload(payload: Mapping[str, Any]) -> Board:
    grid = normalise(payload["grid"], "grid")
    targets = {k: normalise(v, f"target {k}") for k, v in payload["targets"].items()}
    return Board.build(grid, targets)


def _priority_declared(state: ZoomState, fact: Fact) -> ZoomState:
    if state.priority_used or state.priority_declared_by is not None:
        return void(state, fact, "priority_already_used")
    if state.phase not in (Phase.NOT_STARTED, Phase.BETWEEN_ROUNDS):
        return void(state, fact, "round_in_progress")
    return replace(state, priority_declared_by=fact.payload["seat"])


def _buzzed(state: ZoomState, fact: Fact) -> ZoomState:
    seat = fact.payload["seat"]
    pairs = [(p["target"], p["at"]) for p in fact.payload["pairs"]]
    amend = fact.amendment or {}
    results: list[PairOutcome] = []
    number = state.round.number if state.round else None
    for target, at in pairs:
        state, outcome = _grade(state, seat, target, at, fact, amend.get(target))
        results.append(outcome)
    buzz = BuzzOutcome(fact.seq, seat, fact.at, number, tuple(results))
    state = replace(state, outcomes=Outcomes(buzz, state.outcomes))
    if buzz.graded:
        state = _after_graded_buzz(state, seat)
    if state.round is not None and len(state.round.found) == len(state.round.board.targets):
        state = end_round(state, fact.at, "all_found")
    return state


def _ineligible_reason(state: ZoomState, seat: str, target: str) -> str | None:
    current = state.round
    if state.phase is not Phase.IN_ROUND or current is None:
        return "round_over"
    if target in current.found:
        return "already_found"
    if current.priority_holder is not None and current.priority_holder != seat:
        return "priority"
    if current.locked(seat, target):
        return "locked_out"
    if target not in current.board.targets:
        return "unknown_target"
    return None


def _grade(
    state: ZoomState, seat: str, target: str, at: str, fact: Fact, amended: Any
) -> tuple[ZoomState, PairOutcome]:
    reason = _ineligible_reason(state, seat, target)
    if reason is not None:
        return state, PairOutcome(target, at, Verdict.INELIGIBLE, reason)
    assert state.round is not None
    if amended in (Verdict.CORRECT.value, Verdict.INCORRECT.value):
        verdict = Verdict(amended)
    else:
        row, col = coords.parse(at)
        hit = state.round.board.matches(target, row, col)
        verdict = Verdict.CORRECT if hit else Verdict.INCORRECT
    state = _score(state, seat, target, at, fact) if verdict is Verdict.CORRECT else state
    if verdict is Verdict.INCORRECT:
        state = _lock(state, Lockout(seat, target, fact.at, fact.seq))
    return state, PairOutcome(target, at, verdict, amended=amended is not None)


def _score(state: ZoomState, seat: str, target: str, at: str, fact: Fact) -> ZoomState:
    assert state.round is not None
    found = {**state.round.found, target: Found(seat, at, fact.at, fact.seq)}
    scores = {**state.scores, seat: state.scores.get(seat, 0) + 1}
    current = replace(state.round, found=found, clock_from=fact.at)
    return replace(state, scores=scores, round=current)


def _lock(state: ZoomState, lockout: Lockout) -> ZoomState:
    assert state.round is not None
    return replace(state, round=replace(state.round, lockouts=(*state.round.lockouts, lockout)))


def _after_graded_buzz(state: ZoomState, seat: str) -> ZoomState:
    """A graded buzz releases the opponent's lockouts and ends the buzzer's own Priority."""
    current = state.round
    if current is None:
        return state
    kept = tuple(lo for lo in current.lockouts if lo.seat == seat)
    holder = None if current.priority_holder == seat else current.priority_holder
    return replace(state, round=replace(current, lockouts=kept, priority_holder=holder))


def _adjusted(state: ZoomState, fact: Fact) -> ZoomState:
    seat = fact.payload["seat"]
    scores = {**state.scores, seat: state.scores.get(seat, 0) + int(fact.payload["delta"])}
    return replace(state, scores=scores)


def _round_ended_by_ruling(state: ZoomState, fact: Fact) -> ZoomState:
    return end_round(state, fact.at, "ruling")


def _result_declared(state: ZoomState, fact: Fact) -> ZoomState:
    declared = {"winner": fact.payload.get("winner"), "reason": "ruling", "seq": fact.seq}
    return replace(state, declared_result=declared)


_HANDLERS = {
    "zoom.round_started": _round_started,
    "zoom.priority_declared": _priority_declared,
    "zoom.buzzed": _buzzed,
    "ruling.adjust_score": _adjusted,
    "ruling.end_round": _round_ended_by_ruling,
    "ruling.declare_result": _result_declared,
}
