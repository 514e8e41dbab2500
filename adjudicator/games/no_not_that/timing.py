"""Deadlines, all derived from event times: ``advance(state, now)`` applies every one at or
before ``now``, in time order, each at its own instant.

* Step deadline: opening + countdown + step time. A seat that has not acted loses a safety net
  (or, with none left, a point) and gets ``extension_seconds`` more, as often as it passes.
* Solution window: ``solution_seconds`` from the step's resolution; lapsing cancels the claim.
* Challenge window: the round's step time from the solution's time (from the host's verdict when
  the prompt needed one; ``flow.challenge_end``); lapsing lets the 3 points stand.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from adjudicator.games.no_not_that import flow, scoring
from adjudicator.games.no_not_that.state import NoNotThatState, Phase


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
    due = next_deadline(state)
    if due is None or due > now:
        return state
    state = state.clone()
    while due is not None and due <= now:
        _apply(state, due, now)
        due = next_deadline(state)
    return state


def _apply(state: NoNotThatState, due: datetime, now: datetime) -> None:
    if state.phase is Phase.STEP:
        for seat in state.fixed.seats:
            _time_out(state, seat, now)
        return
    assert state.round is not None
    for claim in state.round.prompt_claims:
        if claim.awaiting_solution and claim.window_end == due:
            flow.lapse_solution(state, claim, due)
            return
        if claim.challenge_open and claim.challenge_end == due:
            flow.close_challenge(state, claim, "lapsed", due)
            return


def _time_out(state: NoNotThatState, seat: str, now: datetime) -> None:
    """Every pass of the seat's deadline up to ``now``: a net each, then a point each."""
    player = state.seats[seat]
    if player.deadline is None or player.deadline > now:
        return
    extension = timedelta(seconds=state.config.extension_seconds)
    passes = (now - player.deadline) // extension + 1
    nets = min(player.nets, passes)
    state.seats[seat] = replace(
        player,
        nets=player.nets - nets,
        nets_lost=player.nets_lost + nets,
        points_lost=player.points_lost + passes - nets,
        deadline=player.deadline + extension * passes,
    )
    if passes > nets:
        scoring.gain(state, seat, nets - passes)
