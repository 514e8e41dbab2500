"""Random legal play for No, Not That!: the commands legal in a folded state, and a config that
exercises every phase (host-judged categories and prompts, items, a zero countdown)."""

from __future__ import annotations

from typing import Any

from adjudicator.games.no_not_that import NoNotThatState, Phase
from adjudicator.games.no_not_that.flow import accusable
from adjudicator.games.no_not_that.judge import (
    pending_category,
    pending_category_values,
    pending_prompt,
)
from tests.support.nnt_harness import HOST_NAME, consonant_round, make_config

SEATS = ("Alpha", "Beta")
Move = tuple[str, str, dict[str, Any]]


def config() -> dict[str, Any]:
    rounds = [
        consonant_round(category={"kind": "letters", "letters": "all"}),
        consonant_round(category={"kind": "host"}, prompt={"kind": "sum", "target": 10}),
        consonant_round(prompt={"kind": "host"}),
    ]
    items = {seat: ["extra_safe", "life_ring", "head_start"] for seat in SEATS}
    return make_config(rounds=3, countdown_seconds=0) | {"rounds": rounds, "items": items}


def legal_moves(state: NoNotThatState, fresh: str) -> list[Move]:
    moves: list[Move] = []
    if state.phase in (Phase.WAITING, Phase.BETWEEN_ROUNDS):
        moves.append((HOST_NAME, "start_round", {"round": state.rounds_played + 1}))
    if state.phase is Phase.BETWEEN_ROUNDS:
        moves += [(seat, "exchange", {}) for seat in SEATS]
    if state.phase is not Phase.FINISHED:
        for seat in SEATS:
            moves += [
                (seat, "use_item", {"item": item})
                for item in ("extra_safe", "life_ring")
                if item not in state.seats[seat].used
            ]
    if state.phase is Phase.STEP:
        moves += _step_moves(state, fresh)
    if state.phase is Phase.CLAIMS:
        moves += _claim_moves(state)
    if state.phase in (Phase.JUDGING, Phase.CLAIMS):
        moves += _host_moves(state)
    return moves


def _step_moves(state: NoNotThatState, fresh: str) -> list[Move]:
    assert state.round is not None
    moves: list[Move] = []
    for seat in SEATS:
        if state.seats[seat].action is not None:
            continue
        if state.round.last_step:
            moves.append((seat, "pass", {}))
        else:
            moves += [(seat, "submit", {"object": v}) for v in (fresh, "3", "7", "B", "W", "E")]
        moves.append((seat, "claim_prompt", {}))
        if accusable(state.round, state.fixed.other(seat)) is not None:
            moves.append((seat, "claim_invalid", {}))
        if state.round.step == 1 and "head_start" not in state.seats[seat].used:
            moves.append((seat, "head_start", {"object": "HS" + fresh}))
    return moves


def _claim_moves(state: NoNotThatState) -> list[Move]:
    assert state.round is not None
    in_play = [o.value for o in state.round.objects if o.in_play and not o.removed]
    moves: list[Move] = []
    for claim in state.round.prompt_claims:
        head = state.seats[claim.seat].head_start
        if claim.awaiting_solution:
            tries = (in_play[:2], [*in_play[-3:], "I"], [head or "Q", "3", "7"], ["3", "7"])
            moves += [(claim.seat, "solve", {"tokens": t or ["Q"]}) for t in tries]
        if claim.challenge_open:
            other = state.fixed.other(claim.seat)
            moves += [(other, "challenge", {}), (other, "accept", {})]
    return moves


def _host_moves(state: NoNotThatState) -> list[Move]:
    moves: list[Move] = []
    for question in pending_category(state):
        target = question.target_seq
        moves += [(HOST_NAME, "judge_category", {"target_seq": target, "fits": f}) for f in (1, 0)]
    for value in pending_category_values(state):
        moves += [(HOST_NAME, "judge_value", {"object": value, "fits": f}) for f in (1, 0)]
    for claim in pending_prompt(state):
        target = claim.target_seq
        moves += [(HOST_NAME, "judge_prompt", {"target_seq": target, "meets": m}) for m in (1, 0)]
    return [
        (who, kind, {k: bool(v) if k in ("fits", "meets") else v for k, v in f.items()})
        for who, kind, f in moves
    ]
