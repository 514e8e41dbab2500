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
    rnd.step += 1
    rnd.opened_at = at
    rnd.invalid_claims, rnd.prompt_claims = [], []
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
    rnd.history.append({"step": rnd.step, "actions": public_actions(actions)})
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
        same.seats.append(seat)
        same.seqs.append(action.seq)
    else:
        number = len(rnd.objects) + 1
        rnd.objects.append(Obj(number, action.value, rnd.step, [seat], seqs=[action.seq]))


def _claim(state: NoNotThatState, seat: str, action: Action) -> None:
    assert state.round is not None
    rnd = state.round
    if action.kind is Kind.CLAIM_PROMPT:
        rnd.prompt_claims.append(PromptClaim(seat, action.seq))
    elif action.kind is Kind.CLAIM_INVALID:
        target = accusable(rnd, state.fixed.other(seat))
        assert target is not None
        rnd.invalid_claims.append(InvalidClaim(seat, target.id, action.seq, action.amendment))


def accusable(rnd: RoundState, accused: str) -> Obj | None:
    """The object ``accused`` submitted in the previous step, if any."""
    return next((o for o in rnd.objects if o.step == rnd.step - 1 and accused in o.seats), None)


def proceed(state: NoNotThatState, at: datetime) -> None:
    """Move the step on as far as it can go without a player, the host or a deadline."""
    assert state.round is not None
    rnd = state.round
    for claim in rnd.invalid_claims:
        verdict = judge.invalid_claim_verdict(state, claim) if claim.verdict is None else None
        if verdict is not None:
            _settle_invalid(state, claim, verdict)
    if any(c.verdict is None for c in rnd.invalid_claims):
        state.phase = Phase.JUDGING
        return
    state.phase = Phase.CLAIMS
    window = timedelta(seconds=state.config.solution_seconds)
    for prompt in rnd.prompt_claims:
        prompt.window_end = prompt.window_end or at + window
    while _progress_once(state, at):
        pass
    if state.phase is Phase.CLAIMS and all(c.settled for c in rnd.prompt_claims):
        finish_step(state, at)


def _settle_invalid(state: NoNotThatState, claim: InvalidClaim, verdict: str) -> None:
    assert state.round is not None
    claim.verdict = verdict
    accused = state.fixed.other(claim.seat)
    target = judge.obj(state.round, claim.target)
    points = {claim.seat: 0, accused: 0}
    if verdict == "correct":
        target.removed = True
        points[claim.seat] = 1
    elif state.seats[claim.seat].ring_invalid:
        state.seats[claim.seat] = replace(state.seats[claim.seat], ring_invalid=False)
    else:
        points[accused] = 1
    _award(state, points)
    state.outcomes[claim.seq] = {"claim": "invalid", "object": target.value, "verdict": verdict}
    state.outcomes[claim.seq]["points"] = points


def _award(state: NoNotThatState, points: dict[str, int]) -> None:
    for seat, gained in points.items():
        if gained:
            scoring.gain(state, seat, gained, from_claim=True)


def _progress_once(state: NoNotThatState, at: datetime) -> bool:
    """One move of one prompt claim; True if anything changed."""
    assert state.round is not None
    claims = state.round.prompt_claims
    for claim in claims:
        if claim.settled:
            continue
        if claim.tokens is not None and claim.revealed_at is None:
            if any(c.awaiting_solution for c in claims):
                continue
            claim.revealed_at = at
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
    claim.verdict = verdict
    mapped = judge.map_solution(state, claim)
    if mapped is not None:
        claim.uses, claim.uses_head_start = mapped.uses, mapped.uses_head_start
    opponent = state.fixed.other(claim.seat)
    points = {claim.seat: 0, opponent: 0}
    if verdict == "correct":
        claim.challenge_end = challenge_end(state, claim, at)
    else:
        claim.settled = True
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
    assert state.round is not None and claim.challenge_seq is not None
    claim.challenge, claim.settled = verdict, True
    invalid, head_invalid, _ = judge.solution_invalid(state, claim)
    if claim.uses_head_start:
        state.seats[claim.seat] = replace(state.seats[claim.seat], head_start_spent=True)
    challenger = state.fixed.other(claim.seat)
    if verdict == "correct":
        for obj_id in invalid:
            judge.obj(state.round, obj_id).removed = True
        points = {challenger: 2, claim.seat: 0}
    else:
        points = {challenger: 0, claim.seat: 4}
    _award(state, points)
    _record_solution(state, claim, points)
    removed = [judge.obj(state.round, i).value for i in invalid]
    state.outcomes[claim.challenge_seq] = {
        "verdict": verdict,
        "invalid_objects": removed if verdict == "correct" else [],
        "head_start_invalid": head_invalid,
        "points": points,
    }
    return True


def close_challenge(state: NoNotThatState, claim: PromptClaim, how: str, at: datetime) -> None:
    """The opponent accepted, or the challenge window closed: the claim's 3 points stand."""
    claim.challenge, claim.settled = how, True
    if claim.uses_head_start:
        state.seats[claim.seat] = replace(state.seats[claim.seat], head_start_spent=True)
    points = {claim.seat: 3, state.fixed.other(claim.seat): 0}
    _award(state, points)
    _record_solution(state, claim, points)
    proceed(state, at)


def lapse_solution(state: NoNotThatState, claim: PromptClaim, at: datetime) -> None:
    """No solution in time: the claim is cancelled, no points."""
    claim.verdict, claim.settled = "cancelled", True
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
    for held in rnd.objects:
        held.in_play = held.in_play or not held.removed
    if rnd.last_step:
        scoring.end_round(state, at, "last_step")
        return
    rnd.last_step = distinct_in_play(rnd) >= LAST_STEP_OBJECTS
    open_step(state, at)


def distinct_in_play(rnd: RoundState) -> int:
    return len({o.value for o in rnd.objects if o.in_play and not o.removed})


def _number(state: NoNotThatState) -> int:
    assert state.round is not None
    return state.round.number
