"""Deadlines, all derived from event times: ``advance(state, now)`` applies every one at or
before ``now``, in time order, each at its own instant.

* Step deadline: opening + countdown + step time. A seat that has not acted loses a safety net
  (or, with none left, a point) and gets ``extension_seconds`` more, as often as it passes.
* Solution window: ``solution_seconds`` from the step's resolution; lapsing cancels the claim.
* Challenge window: the round's step time from the solution's time (from the host's verdict when
  the prompt needed one; ``flow.challenge_end``); lapsing lets the 3 points stand.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from adjudicator.games.no_not_that import flow, scoring
from adjudicator.games.no_not_that.state import NoNotThatState, Phase
from adjudicator.kernel.values import updated


def next_deadline(state: NoNotThatState) -> datetime | None:
    moments: list[datetime] = []
    if state.phase is Phase.STEP:
        moments = [p.deadline for p in state.seats.values() if p.deadline is not None]
    elif state.phase is Phase.CLAIMS and state.round is not None:
        for claim in state.round.prompt_claims:
            if claim.awaiting_solution and claim.window_end is not None:
                moments.append(claim.window_end)
            if claim.challenge_open and claim.challenge_end is not None:
                moments.append(claim.challenge_end)
    return min(moments, default=None)


def advance(state: NoNotThatState, now: datetime) -> NoNotThatState:
    """``state`` after every deadline at or before ``now`` (``state`` itself when none is due)."""
    due = next_deadline(state)
    while due is not None and due <= now:
        state = _apply(state, due, now)
        due = next_deadline(state)
    return state


def _apply(state: NoNotThatState, due: datetime, now: datetime) -> NoNotThatState:
    if state.phase is Phase.STEP:
        for seat in state.fixed.seats:
            state = _time_out(state, seat, now)
        return state
    for claim in state.current_round.prompt_claims:
        if claim.awaiting_solution and claim.window_end == due:
            return flow.lapse_solution(state, claim, due)
        if claim.challenge_open and claim.challenge_end == due:
            return flow.close_challenge(state, claim, "lapsed", due)
    return state


def _time_out(state: NoNotThatState, seat: str, now: datetime) -> NoNotThatState:
    """Every pass of the seat's deadline up to ``now``: a net each, then a point each."""
    player = state.seats[seat]
    if player.deadline is None or player.deadline > now:
        return state
    extension = timedelta(seconds=state.config.extension_seconds)
    passes = (now - player.deadline) // extension + 1
    nets = min(player.nets, passes)
    timed_out = updated(
        player,
        nets=player.nets - nets,
        nets_lost=player.nets_lost + nets,
        points_lost=player.points_lost + passes - nets,
        deadline=player.deadline + extension * passes,
    )
    state = state.with_seat(seat, timed_out)
    return scoring.gain(state, seat, nets - passes) if passes > nets else state
