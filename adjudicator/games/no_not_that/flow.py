"""How a round moves: steps open, sealed actions resolve, claims settle, the round ends.

Order inside a step (spec, "Exact resolutions"): invalid-object claims are judged first; once all
are judged the step has resolved and every prompt claim gets its solution window; a correct
solution opens the opponent's challenge window; when every prompt claim is settled the round-end
rule is checked, held-back objects enter play, and the next step opens at that instant.
"""

from __future__ import annotations

from dataclasses import replace
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

LAST_STEP_OBJECTS = 17


def start_round(state: NoNotThatState, number: int, at: datetime) -> None:
    state.round = RoundState(number=number, step=0, opened_at=at)
    state.seats = {seat: _new_round(player) for seat, player in state.seats.items()}
    open_step(state, at)


def _new_round(player: SeatState) -> SeatState:
    """A seat at the start of a round: nothing gained, claimed or named as Head Start yet."""
    return replace(
        player,
        claim_points=0,
        gained=0,
        head_start=None,
        head_start_seq=None,
        head_start_spent=False,
    )


def open_step(state: NoNotThatState, at: datetime) -> None:
    assert state.round is not None
    rnd = state.round
    state.round = replace(rnd, step=rnd.step + 1, opened_at=at, invalid_claims=(), prompt_claims=())
    seconds = state.config.countdown_seconds + state.config.step_seconds(rnd.number)
    deadline = at + timedelta(seconds=seconds)
    state.seats = {
        seat: replace(player, action=None, deadline=deadline)
        for seat, player in state.seats.items()
    }
    state.phase = Phase.STEP


def act(state: NoNotThatState, seat: str, action: Action) -> None:
    """Record a sealed action; when both seats have acted the step resolves."""
    state.seats[seat] = replace(state.seats[seat], action=action, deadline=None)
    if all(p.action is not None for p in state.seats.values()):
        resolve_step(state, action.at)


def resolve_step(state: NoNotThatState, at: datetime) -> None:
    assert state.round is not None
    rnd = state.round
    actions = {seat: p.action for seat, p in state.seats.items() if p.action is not None}
    revealed = {"step": rnd.step, "actions": public_actions(actions)}
    state.round = replace(rnd, history=(*rnd.history, revealed))
    for seat, action in actions.items():
        _place(state, seat, action)
    for seat, action in actions.items():
        _claim(state, seat, action)
    proceed(state, at)


def public_actions(actions: dict[str, Action]) -> dict[str, dict[str, Any]]:
    """The revealed actions; a Head Start object stays hidden."""
    shown: dict[str, dict[str, Any]] = {}
    for seat, action in actions.items():
        entry: dict[str, Any] = {"action": str(action.kind)}
        if action.kind is Kind.SUBMIT:
            entry["object"] = action.value
        shown[seat] = entry
    return shown


def _place(state: NoNotThatState, seat: str, action: Action) -> None:
    assert state.round is not None
    rnd = state.round
    if action.kind is Kind.HEAD_START:
        player = state.seats[seat]
        state.seats[seat] = replace(player, head_start=action.value, head_start_seq=action.seq)
    if action.kind is not Kind.SUBMIT or action.value is None:
        return
    same = next((o for o in rnd.objects if o.step == rnd.step and o.value == action.value), None)
    if same is not None:
        both = replace(same, seats=(*same.seats, seat), seqs=(*same.seqs, action.seq))
        state.round = rnd.with_object(both)
    else:
        number = len(rnd.objects) + 1
        new = Obj(number, action.value, rnd.step, (seat,), seqs=(action.seq,))
        state.round = replace(rnd, objects=(*rnd.objects, new))


def _claim(state: NoNotThatState, seat: str, action: Action) -> None:
    assert state.round is not None
    rnd = state.round
    if action.kind is Kind.CLAIM_PROMPT:
        state.round = replace(
            rnd, prompt_claims=(*rnd.prompt_claims, PromptClaim(seat, action.seq))
        )
    elif action.kind is Kind.CLAIM_INVALID:
        target = accusable(rnd, state.fixed.other(seat))
        assert target is not None
        claim = InvalidClaim(seat, target.id, action.seq, action.amendment)
        state.round = replace(rnd, invalid_claims=(*rnd.invalid_claims, claim))


def accusable(rnd: RoundState, accused: str) -> Obj | None:
    """The object ``accused`` submitted in the previous step, if any."""
    return next((o for o in rnd.objects if o.step == rnd.step - 1 and accused in o.seats), None)


def proceed(state: NoNotThatState, at: datetime) -> None:
    """Move the step on as far as it can go without a player, the host or a deadline."""
    assert state.round is not None
    for claim in state.round.invalid_claims:
        verdict = judge.invalid_claim_verdict(state, claim) if claim.verdict is None else None
        if verdict is not None:
            _settle_invalid(state, claim, verdict)
    rnd = state.round
    if any(c.verdict is None for c in rnd.invalid_claims):
        state.phase = Phase.JUDGING
        return
    state.phase = Phase.CLAIMS
    windows = tuple(_window(state, claim, at) for claim in rnd.prompt_claims)
    state.round = replace(rnd, prompt_claims=windows)
    while _progress_once(state, at):
        pass
    if state.phase is Phase.CLAIMS and all(c.settled for c in state.round.prompt_claims):
        finish_step(state, at)


def _window(state: NoNotThatState, claim: PromptClaim, at: datetime) -> PromptClaim:
    """The claim with its solution window, which opens when the step resolves."""
    if claim.window_end is not None:
        return claim
    return replace(claim, window_end=at + timedelta(seconds=state.config.solution_seconds))


def _settle_invalid(state: NoNotThatState, claim: InvalidClaim, verdict: str) -> None:
    assert state.round is not None
    state.round = state.round.with_invalid_claim(replace(claim, verdict=verdict))
    accused = state.fixed.other(claim.seat)
    target = judge.obj(state.round, claim.target)
    points = {claim.seat: 0, accused: 0}
    if verdict == "correct":
        state.round = state.round.with_object(replace(target, removed=True))
        points[claim.seat] = 1
    elif state.seats[claim.seat].ring_invalid:
        state.seats[claim.seat] = replace(state.seats[claim.seat], ring_invalid=False)
    else:
        points[accused] = 1
    _award(state, points)
    outcome = {"claim": "invalid", "object": target.value, "verdict": verdict, "points": points}
    state.outcomes[claim.seq] = outcome


def _award(state: NoNotThatState, points: dict[str, int]) -> None:
    for seat, gained in points.items():
        if gained:
            scoring.gain(state, seat, gained, from_claim=True)


def _progress_once(state: NoNotThatState, at: datetime) -> bool:
    """One move of one prompt claim; True if one was made. A sealed solution is revealed on the
    way once no claim of the step awaits its solution."""
    claims = current_round(state).prompt_claims
    waiting = any(c.awaiting_solution for c in claims)
    for listed in claims:
        if listed.settled:
            continue
        claim = listed
        if claim.tokens is not None and claim.revealed_at is None:
            if waiting:
                continue
            claim = replace(claim, revealed_at=at)
            state.round = current_round(state).with_prompt_claim(claim)
        if claim.revealed_at is not None and _judge_solution(state, claim, at):
            return True
        if claim.challenge_seq is not None and _judge_challenge(state, claim):
            return True
    return False


def _judge_solution(state: NoNotThatState, claim: PromptClaim, at: datetime) -> bool:
    if claim.verdict is not None:
        return False
    verdict = judge.solution_verdict(state, claim)
    if verdict is None:
        return False
    mapped = judge.map_solution(state, claim)
    if mapped is not None:
        claim = replace(claim, uses=mapped.uses, uses_head_start=mapped.uses_head_start)
    opponent = state.fixed.other(claim.seat)
    points = {claim.seat: 0, opponent: 0}
    if verdict == "correct":
        claim = replace(claim, verdict=verdict, challenge_end=challenge_end(state, claim, at))
        state.round = current_round(state).with_prompt_claim(claim)
    else:
        claim = replace(claim, verdict=verdict, settled=True)
        state.round = current_round(state).with_prompt_claim(claim)
        if state.seats[claim.seat].ring_prompt:
            state.seats[claim.seat] = replace(state.seats[claim.seat], ring_prompt=False)
        else:
            points[opponent] = 1
        _award(state, points)
    _record_solution(state, claim, points)
    return True


def challenge_end(state: NoNotThatState, claim: PromptClaim, judged_at: datetime) -> datetime:
    """The challenge window runs the round's step time from the solution's time (spec, "Exact
    resolutions"). A solution stays sealed while the other claimant's solution window is open
    (so it cannot be copied); the window is still measured from the solution's time, and if it
    has run out by the reveal it closes then: the other claimant chose when to solve. A window
    that needed the host's verdict on the prompt runs from that verdict (no deadline runs while
    a claim awaits the host)."""
    step = timedelta(seconds=state.config.step_seconds(_number(state)))
    start = claim.solved_at or judged_at
    if claim.host_verdict is not None:
        start = judged_at
    return max(start + step, judged_at)


def _judge_challenge(state: NoNotThatState, claim: PromptClaim) -> bool:
    if claim.challenge is not None:
        return False
    verdict = judge.challenge_verdict(state, claim)
    if verdict is None:
        return False
    challenge_seq = claim.challenge_seq
    assert state.round is not None and challenge_seq is not None
    claim = replace(claim, challenge=verdict, settled=True)
    state.round = state.round.with_prompt_claim(claim)
    invalid, head_invalid, _ = judge.solution_invalid(state, claim)
    if claim.uses_head_start:
        state.seats[claim.seat] = replace(state.seats[claim.seat], head_start_spent=True)
    challenger = state.fixed.other(claim.seat)
    if verdict == "correct":
        for obj_id in invalid:
            removed = replace(judge.obj(state.round, obj_id), removed=True)
            state.round = state.round.with_object(removed)
        points = {challenger: 2, claim.seat: 0}
    else:
        points = {challenger: 0, claim.seat: 4}
    _award(state, points)
    _record_solution(state, claim, points)
    values = [judge.obj(state.round, i).value for i in invalid]
    state.outcomes[challenge_seq] = {
        "verdict": verdict,
        "invalid_objects": values if verdict == "correct" else [],
        "head_start_invalid": head_invalid,
        "points": points,
    }
    return True


def close_challenge(state: NoNotThatState, claim: PromptClaim, how: str, at: datetime) -> None:
    """The opponent accepted, or the challenge window closed: the claim's 3 points stand."""
    claim = replace(claim, challenge=how, settled=True)
    state.round = current_round(state).with_prompt_claim(claim)
    if claim.uses_head_start:
        state.seats[claim.seat] = replace(state.seats[claim.seat], head_start_spent=True)
    points = {claim.seat: 3, state.fixed.other(claim.seat): 0}
    _award(state, points)
    _record_solution(state, claim, points)
    proceed(state, at)


def lapse_solution(state: NoNotThatState, claim: PromptClaim, at: datetime) -> None:
    """No solution in time: the claim is cancelled, no points."""
    state.round = current_round(state).with_prompt_claim(
        replace(claim, verdict="cancelled", settled=True)
    )
    state.outcomes[claim.seq] = {"claim": "prompt", "status": "cancelled"}
    proceed(state, at)


def _record_solution(state: NoNotThatState, claim: PromptClaim, points: dict[str, int]) -> None:
    outcome = {"claim": "prompt", "status": claim.verdict, "points": points}
    if claim.challenge is not None:
        outcome["challenge"] = claim.challenge
    state.outcomes[claim.seq] = outcome
    if claim.solved_seq is not None:
        state.outcomes[claim.solved_seq] = {"verdict": claim.verdict, "points": points}


def finish_step(state: NoNotThatState, at: datetime) -> None:
    """Round-end rule, held-back objects, the 17-object rule, then the next step."""
    assert state.round is not None
    rnd = state.round
    if scoring.round_won_by_claims(state):
        scoring.end_round(state, at, "claim_points")
        return
    rnd = replace(rnd, objects=tuple(_held_back_in_play(o) for o in rnd.objects))
    state.round = rnd
    if rnd.last_step:
        scoring.end_round(state, at, "last_step")
        return
    state.round = replace(rnd, last_step=distinct_in_play(rnd) >= LAST_STEP_OBJECTS)
    open_step(state, at)


def _held_back_in_play(obj: Obj) -> Obj:
    """An object held back during its step enters play when the step ends, unless removed."""
    return obj if obj.in_play or obj.removed else replace(obj, in_play=True)


def distinct_in_play(rnd: RoundState) -> int:
    return len({o.value for o in rnd.objects if o.in_play and not o.removed})


def _number(state: NoNotThatState) -> int:
    return current_round(state).number


def current_round(state: NoNotThatState) -> RoundState:
    """The round in progress (there is one)."""
    assert state.round is not None
    return state.round
