"""Points, the end of a round and the end of the match."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from adjudicator.games.no_not_that.state import NoNotThatState, Phase
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import match_result
from adjudicator.kernel.values import updated

ROUND_END_POINTS = 3
IN_ROUND = frozenset({Phase.STEP, Phase.JUDGING, Phase.CLAIMS})


def in_round(state: NoNotThatState) -> bool:
    return state.phase in IN_ROUND


def gain(
    state: NoNotThatState, seat: str, points: int, *, from_claim: bool = False
) -> NoNotThatState:
    """Change a seat's score; inside a round it also counts for the round (and its claims)."""
    player = state.seats[seat]
    if not in_round(state):
        return state.with_seat(seat, updated(player, score=player.score + points))
    claimed = points if from_claim else 0
    counted = updated(
        player,
        score=player.score + points,
        gained=player.gained + points,
        claim_points=player.claim_points + claimed,
    )
    return state.with_seat(seat, counted)


def round_won_by_claims(state: NoNotThatState) -> bool:
    return any(p.claim_points >= ROUND_END_POINTS for p in state.seats.values())


def end_round(state: NoNotThatState, at: datetime, reason: str) -> NoNotThatState:
    """Close the round in progress; after the last round the match is finished."""
    state = updated(
        state,
        seats={seat: updated(p, action=None, deadline=None) for seat, p in state.seats.items()},
        rounds_played=state.current_round.number,
        round_results=(*state.round_results, _round_summary(state, at, reason)),
    )
    if state.rounds_played >= len(state.config.rounds):
        return finish(state)
    return updated(state, phase=Phase.BETWEEN_ROUNDS)


def finish(state: NoNotThatState) -> NoNotThatState:
    result = derive_result(state) if state.result is None else state.result
    return updated(state, phase=Phase.FINISHED, result=result)


def scores(state: NoNotThatState) -> dict[str, int]:
    """Each seat's points, in seat order."""
    return {seat: state.seats[seat].score for seat in state.fixed.seats}


def derive_result(state: NoNotThatState) -> dict[str, Any]:
    """More points wins; on a tie, more points gained in the last round; else a draw."""
    first, second = state.fixed.seats
    points = scores(state)
    if points[first] != points[second]:
        return match_result(max(points, key=points.__getitem__), "points", points)
    last = state.round_results[-1]["gained"] if state.round_results else {first: 0, second: 0}
    if last[first] != last[second]:
        return match_result(max(last, key=last.__getitem__), "last_round", points)
    return match_result(None, "draw", points)


def _round_summary(state: NoNotThatState, at: datetime, reason: str) -> dict[str, Any]:
    return {
        "round": state.current_round.number,
        "ended_at": iso(at),
        "reason": reason,
        "gained": {seat: p.gained for seat, p in state.seats.items()},
        "claim_points": {seat: p.claim_points for seat, p in state.seats.items()},
    }
