"""How a round moves: steps open, sealed actions resolve, claims settle, the round ends.

Order inside a step (spec, "Exact resolutions"): invalid-object claims are judged first; once all
are judged the step has resolved and every prompt claim gets its solution window; a correct
solution opens the opponent's challenge window; when every prompt claim is settled the round-end
rule is checked, held-back objects enter play, and the next step opens at that instant.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from adjudicator.games.no_not_that import judge, scoring
from adjudicator.games.no_not_that.state import (
    Action,
    InvalidClaim,
    Kind,
    NoNotThatState,
    Obj,
    Phase,
    PromptClaim,
    RoundState,
    SeatState,
)
from adjudicator.kernel.values import updated

LAST_STEP_OBJECTS = 17


def start_round(state: NoNotThatState, number: int, at: datetime) -> NoNotThatState:
    seats = {seat: _new_round(player) for seat, player in state.seats.items()}
    fresh = RoundState(number=number, step=0, opened_at=at)
    return open_step(updated(state, seats=seats, round=fresh), at)


def _new_round(player: SeatState) -> SeatState:
    """A seat at the start of a round: nothing gained, claimed or named as Head Start yet."""
    return updated(
        player,
        claim_points=0,
        gained=0,
        head_start=None,
        head_start_seq=None,
        head_start_spent=False,
    )


def open_step(state: NoNotThatState, at: datetime) -> NoNotThatState:
    rnd = state.current_round
    seconds = state.config.countdown_seconds + state.config.step_seconds(rnd.number)
    deadline = at + timedelta(seconds=seconds)
    return updated(
        state,
        phase=Phase.STEP,
        seats={seat: updated(p, action=None, deadline=deadline) for seat, p in state.seats.items()},
        round=updated(rnd, step=rnd.step + 1, opened_at=at, invalid_claims=(), prompt_claims=()),
    )


def act(state: NoNotThatState, seat: str, action: Action) -> NoNotThatState:
    """Record a sealed action; when both seats have acted the step resolves."""
    state = state.with_seat(seat, updated(state.seats[seat], action=action, deadline=None))
    if all(p.action is not None for p in state.seats.values()):
        return resolve_step(state, action.at)
    return state


def resolve_step(state: NoNotThatState, at: datetime) -> NoNotThatState:
    rnd = state.current_round
    actions = {seat: p.action for seat, p in state.seats.items() if p.action is not None}
    revealed = {"step": rnd.step, "actions": public_actions(actions)}
    state = state.with_round(updated(rnd, history=(*rnd.history, revealed)))
    for seat, action in actions.items():
        state = _place(state, seat, action)
    for seat, action in actions.items():
        state = _claim(state, seat, action)
    return proceed(state, at)


def public_actions(actions: dict[str, Action]) -> dict[str, dict[str, Any]]:
    """The revealed actions; a Head Start object stays hidden."""
    shown: dict[str, dict[str, Any]] = {}
    for seat, action in actions.items():
        entry: dict[str, Any] = {"action": str(action.kind)}
        if action.kind is Kind.SUBMIT:
            entry["object"] = action.value
        shown[seat] = entry
    return shown


def _place(state: NoNotThatState, seat: str, action: Action) -> NoNotThatState:
    """A Head Start object kept for its seat; a submitted object added to the round's (one
    object when both seats submitted the same value)."""
    if action.kind is Kind.HEAD_START:
        named = updated(state.seats[seat], head_start=action.value, head_start_seq=action.seq)
        return state.with_seat(seat, named)
    if action.kind is not Kind.SUBMIT or action.value is None:
        return state
    rnd = state.current_round
    same = next((o for o in rnd.objects if o.step == rnd.step and o.value == action.value), None)
    if same is not None:
        both = updated(same, seats=(*same.seats, seat), seqs=(*same.seqs, action.seq))
        return state.with_round(rnd.with_object(both))
    new = Obj(len(rnd.objects) + 1, action.value, rnd.step, (seat,), seqs=(action.seq,))
    return state.with_round(updated(rnd, objects=(*rnd.objects, new)))


def _claim(state: NoNotThatState, seat: str, action: Action) -> NoNotThatState:
    rnd = state.current_round
    if action.kind is Kind.CLAIM_PROMPT:
        prompt = PromptClaim(seat, action.seq)
        return state.with_round(updated(rnd, prompt_claims=(*rnd.prompt_claims, prompt)))
    if action.kind is Kind.CLAIM_INVALID:
        target = accusable(rnd, state.fixed.other(seat))
        assert target is not None
        claim = InvalidClaim(seat, target.id, action.seq, action.amendment)
        return state.with_round(updated(rnd, invalid_claims=(*rnd.invalid_claims, claim)))
    return state


def accusable(rnd: RoundState, accused: str) -> Obj | None:
    """The object ``accused`` submitted in the previous step, if any."""
    return next((o for o in rnd.objects if o.step == rnd.step - 1 and accused in o.seats), None)


def proceed(state: NoNotThatState, at: datetime) -> NoNotThatState:
    """Move the step on as far as it can go without a player, the host or a deadline."""
    for claim in state.current_round.invalid_claims:
        verdict = judge.invalid_claim_verdict(state, claim) if claim.verdict is None else None
        if verdict is not None:
            state = _settle_invalid(state, claim, verdict)
    rnd = state.current_round
    if any(c.verdict is None for c in rnd.invalid_claims):
        return updated(state, phase=Phase.JUDGING)
    windows = tuple(_window(state, claim, at) for claim in rnd.prompt_claims)
    state = updated(state, phase=Phase.CLAIMS, round=updated(rnd, prompt_claims=windows))
    moved = True
    while moved:
        state, moved = _progress_once(state, at)
    if state.phase is Phase.CLAIMS and all(c.settled for c in state.current_round.prompt_claims):
        return finish_step(state, at)
    return state


def _window(state: NoNotThatState, claim: PromptClaim, at: datetime) -> PromptClaim:
    """The claim with its solution window, which opens when the step resolves."""
    if claim.window_end is not None:
        return claim
    return updated(claim, window_end=at + timedelta(seconds=state.config.solution_seconds))


def _settle_invalid(state: NoNotThatState, claim: InvalidClaim, verdict: str) -> NoNotThatState:
    rnd = state.current_round.with_invalid_claim(updated(claim, verdict=verdict))
    accused = state.fixed.other(claim.seat)
    target = judge.obj(rnd, claim.target)
    points = {claim.seat: 0, accused: 0}
    player = state.seats[claim.seat]
    if verdict == "correct":
        rnd = rnd.with_object(updated(target, removed=True))
        points[claim.seat] = 1
    elif player.ring_invalid:
        state = state.with_seat(claim.seat, updated(player, ring_invalid=False))
    else:
        points[accused] = 1
    state = _award(state.with_round(rnd), points)
    outcome = {"claim": "invalid", "object": target.value, "verdict": verdict, "points": points}
    return state.with_outcome(claim.seq, outcome)


def _award(state: NoNotThatState, points: dict[str, int]) -> NoNotThatState:
    for seat, gained in points.items():
        if gained:
            state = scoring.gain(state, seat, gained, from_claim=True)
    return state


def _progress_once(state: NoNotThatState, at: datetime) -> tuple[NoNotThatState, bool]:
    """One move of one prompt claim, and whether one was made. A sealed solution is revealed on
    the way once no claim of the step awaits its solution (a change, but not a move)."""
    claims = state.current_round.prompt_claims
    waiting = any(c.awaiting_solution for c in claims)
    for listed in claims:
        if listed.settled:
            continue
        claim = listed
        if claim.tokens is not None and claim.revealed_at is None:
            if waiting:
                continue
            claim = updated(claim, revealed_at=at)
            state = state.with_prompt_claim(claim)
        if claim.revealed_at is not None and claim.verdict is None:
            judged = _judge_solution(state, claim, at)
            if judged is not None:
                return judged, True
        if claim.challenge_seq is not None and claim.challenge is None:
            judged = _judge_challenge(state, claim)
            if judged is not None:
                return judged, True
    return state, False


def _judge_solution(
    state: NoNotThatState, claim: PromptClaim, at: datetime
) -> NoNotThatState | None:
    """The state after the program's verdict on the claim's solution; None while the host is
    asked (a host-judged prompt)."""
    verdict = judge.solution_verdict(state, claim)
    if verdict is None:
        return None
    mapped = judge.map_solution(state, claim)
    if mapped is not None:
        claim = updated(claim, uses=mapped.uses, uses_head_start=mapped.uses_head_start)
    opponent = state.fixed.other(claim.seat)
    points = {claim.seat: 0, opponent: 0}
    if verdict == "correct":
        claim = updated(claim, verdict=verdict, challenge_end=challenge_end(state, claim, at))
        return _record_solution(state.with_prompt_claim(claim), claim, points)
    claim = updated(claim, verdict=verdict, settled=True)
    state = state.with_prompt_claim(claim)
    player = state.seats[claim.seat]
    if player.ring_prompt:
        state = state.with_seat(claim.seat, updated(player, ring_prompt=False))
    else:
        points[opponent] = 1
    return _record_solution(_award(state, points), claim, points)


def challenge_end(state: NoNotThatState, claim: PromptClaim, judged_at: datetime) -> datetime:
    """The challenge window runs the round's step time from the solution's time (spec, "Exact
    resolutions"). A solution stays sealed while the other claimant's solution window is open
    (so it cannot be copied); the window is still measured from the solution's time, and if it
    has run out by the reveal it closes then: the other claimant chose when to solve. A window
    that needed the host's verdict on the prompt runs from that verdict (no deadline runs while
    a claim awaits the host)."""
    step = timedelta(seconds=state.config.step_seconds(state.current_round.number))
    start = claim.solved_at or judged_at
    if claim.host_verdict is not None:
        start = judged_at
    return max(start + step, judged_at)


def _judge_challenge(state: NoNotThatState, claim: PromptClaim) -> NoNotThatState | None:
    """The state after the verdict on the challenge of the claim; None while an object it uses
    awaits the host's verdict."""
    verdict = judge.challenge_verdict(state, claim)
    if verdict is None:
        return None
    challenge_seq = claim.challenge_seq
    assert challenge_seq is not None
    claim = updated(claim, challenge=verdict, settled=True)
    state = state.with_prompt_claim(claim)
    invalid, head_invalid, _ = judge.solution_invalid(state, claim)
    state = _spend_head_start(state, claim)
    challenger = state.fixed.other(claim.seat)
    if verdict == "correct":
        state = state.with_round(_removed(state.current_round, invalid))
        points = {challenger: 2, claim.seat: 0}
    else:
        points = {challenger: 0, claim.seat: 4}
    state = _record_solution(_award(state, points), claim, points)
    values = [judge.obj(state.current_round, i).value for i in invalid]
    outcome = {
        "verdict": verdict,
        "invalid_objects": values if verdict == "correct" else [],
        "head_start_invalid": head_invalid,
        "points": points,
    }
    return state.with_outcome(challenge_seq, outcome)


def _removed(rnd: RoundState, obj_ids: Sequence[int]) -> RoundState:
    """The round with the objects ``obj_ids`` removed from play."""
    for obj_id in obj_ids:
        rnd = rnd.with_object(updated(judge.obj(rnd, obj_id), removed=True))
    return rnd


def _spend_head_start(state: NoNotThatState, claim: PromptClaim) -> NoNotThatState:
    """A settled solution that used its seat's Head Start object spends it."""
    if not claim.uses_head_start:
        return state
    return state.with_seat(claim.seat, updated(state.seats[claim.seat], head_start_spent=True))


def close_challenge(
    state: NoNotThatState, claim: PromptClaim, how: str, at: datetime
) -> NoNotThatState:
    """The opponent accepted, or the challenge window closed: the claim's 3 points stand."""
    claim = updated(claim, challenge=how, settled=True)
    state = _spend_head_start(state.with_prompt_claim(claim), claim)
    points = {claim.seat: 3, state.fixed.other(claim.seat): 0}
    state = _record_solution(_award(state, points), claim, points)
    return proceed(state, at)


def lapse_solution(state: NoNotThatState, claim: PromptClaim, at: datetime) -> NoNotThatState:
    """No solution in time: the claim is cancelled, no points."""
    state = state.with_prompt_claim(updated(claim, verdict="cancelled", settled=True))
    state = state.with_outcome(claim.seq, {"claim": "prompt", "status": "cancelled"})
    return proceed(state, at)


def _record_solution(
    state: NoNotThatState, claim: PromptClaim, points: dict[str, int]
) -> NoNotThatState:
    outcome = {"claim": "prompt", "status": claim.verdict, "points": points}
    if claim.challenge is not None:
        outcome["challenge"] = claim.challenge
    state = state.with_outcome(claim.seq, outcome)
    if claim.solved_seq is not None:
        solved = {"verdict": claim.verdict, "points": points}
        state = state.with_outcome(claim.solved_seq, solved)
    return state


def finish_step(state: NoNotThatState, at: datetime) -> NoNotThatState:
    """Round-end rule, held-back objects, the 17-object rule, then the next step."""
    if scoring.round_won_by_claims(state):
        return scoring.end_round(state, at, "claim_points")
    rnd = state.current_round
    rnd = updated(rnd, objects=tuple(_held_back_in_play(o) for o in rnd.objects))
    if rnd.last_step:
        return scoring.end_round(state.with_round(rnd), at, "last_step")
    rnd = updated(rnd, last_step=distinct_in_play(rnd) >= LAST_STEP_OBJECTS)
    return open_step(state.with_round(rnd), at)


def _held_back_in_play(obj: Obj) -> Obj:
    """An object held back during its step enters play when the step ends, unless removed."""
    return obj if obj.in_play or obj.removed else updated(obj, in_play=True)


def distinct_in_play(rnd: RoundState) -> int:
    return len({o.value for o in rnd.objects if o.in_play and not o.removed})
