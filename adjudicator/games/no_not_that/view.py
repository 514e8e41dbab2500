"""``view``: what one viewer may see, as JSON-ready data.

Secrets: a seat's sealed step action (until the step resolves), its Head Start object (until a
solution uses it), and a sealed solution (until revealed). Only the owner and the host — and
auditors of a closed match — see them; the opponent and spectators see that the seat has acted.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from adjudicator.games.no_not_that import flow, judge
from adjudicator.games.no_not_that.commands import Item
from adjudicator.games.no_not_that.state import Kind, NoNotThatState, Phase, PromptClaim, RoundState
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Viewer


def view(state: NoNotThatState, viewer: Viewer) -> dict[str, Any]:
    return {
        "game": "no_not_that",
        "phase": str(state.phase),
        "rounds": len(state.config.rounds),
        "rounds_played": state.rounds_played,
        "seats": {seat: _seat(state, seat, viewer) for seat in state.fixed.seats},
        "round": _round(state, viewer) if state.round is not None else None,
        "awaiting_ruling": _awaiting(state),
        "round_results": list(state.round_results),
        "result": state.result,
    }


def _awaiting(state: NoNotThatState) -> dict[str, Any]:
    """The questions waiting for the host, each with the ``target_seq`` its judgement names
    (``category`` and ``prompt`` list just the values and the seats). Every question is about
    something already public: a resolved step's claim, a revealed solution."""
    category = judge.pending_category(state)
    prompt = judge.pending_prompt(state)
    return {
        "category": sorted({q.object for q in category}),
        "prompt": [q.seat for q in prompt],
        "category_questions": [
            {
                "target_seq": q.target_seq,
                "object": q.object,
                "about": q.about,
                "waiting_seq": q.waiting_seq,
            }
            for q in category
        ],
        "prompt_questions": [
            {"target_seq": q.target_seq, "seat": q.seat, "solution_seq": q.solution_seq}
            for q in prompt
        ],
    }


def _time(moment: datetime | None) -> str | None:
    return iso(moment) if moment is not None else None


def _sees(viewer: Viewer, seat: str) -> bool:
    return viewer.may_see_private((seat,))


def sealed_action(state: NoNotThatState, seat: str) -> bool:
    """The seat has acted in a step that has not resolved yet: its action is sealed, and so is
    everything derived from it (its kind, an item it spends)."""
    return state.phase is Phase.STEP and state.seats[seat].action is not None


def _used(state: NoNotThatState, seat: str, viewer: Viewer) -> list[str]:
    """The items the viewer may know the seat has used: a Head Start given as a sealed action
    shows only once the step resolves."""
    used = [str(item) for item in state.seats[seat].used]
    if sealed_action(state, seat) and not _sees(viewer, seat):
        action = state.seats[seat].action
        if action is not None and action.kind is Kind.HEAD_START:
            used.remove(str(Item.HEAD_START))
    return used


def _seat(state: NoNotThatState, seat: str, viewer: Viewer) -> dict[str, Any]:
    player = state.seats[seat]
    used = _used(state, seat, viewer)
    shown: dict[str, Any] = {
        "score": player.score,
        "safety_nets": player.nets,
        "items": [str(item) for item in player.items if str(item) not in used],
        "items_used": used,
        "life_ring": {"invalid_claim": player.ring_invalid, "prompt_claim": player.ring_prompt},
        "nets_lost": player.nets_lost,
        "points_lost": player.points_lost,
        "round_claim_points": player.claim_points,
        "round_gained": player.gained,
        "acted": player.action is not None,
        "deadline": _time(player.deadline),
    }
    if _sees(viewer, seat):
        action = player.action
        shown["action"] = (
            {"action": str(action.kind), "object": action.value} if action is not None else None
        )
        shown["head_start"] = player.head_start
    return shown


def _round(state: NoNotThatState, viewer: Viewer) -> dict[str, Any]:
    rnd = state.round
    assert rnd is not None
    config = state.round_config
    return {
        "number": rnd.number,
        "prompt": config.prompt_text,
        "category": config.category_text,
        "step_seconds": state.config.step_seconds(rnd.number),
        "step": rnd.step,
        "last_step": rnd.last_step,
        "step_opened_at": _time(rnd.opened_at),
        "pool": _pool(rnd),
        "in_play": [o.value for o in rnd.objects if o.in_play and not o.removed],
        "removed": [o.value for o in rnd.objects if o.removed],
        "distinct_in_play": flow.distinct_in_play(rnd),
        "history": list(rnd.history),
        "invalid_claims": [
            {
                "seq": c.seq,
                "seat": c.seat,
                "object": judge.obj(rnd, c.target).value,
                "verdict": c.verdict,
            }
            for c in rnd.invalid_claims
        ],
        "prompt_claims": [_prompt(state, c, viewer) for c in rnd.prompt_claims],
    }


def _pool(rnd: RoundState) -> list[dict[str, Any]]:
    """Every submission revealed this round, in order, removed ones marked (``in_play`` and
    ``removed`` list the values plainly)."""
    return [
        {"object": o.value, "step": o.step, "seats": list(o.seats), "removed": o.removed}
        for o in rnd.objects
        if o.in_play or o.removed
    ]


def _prompt(state: NoNotThatState, claim: PromptClaim, viewer: Viewer) -> dict[str, Any]:
    visible = claim.revealed_at is not None or _sees(viewer, claim.seat)
    return {
        "seq": claim.seq,
        "seat": claim.seat,
        "solution_deadline": _time(claim.window_end),
        "solved": claim.tokens is not None,
        "solution": list(claim.tokens) if visible and claim.tokens is not None else None,
        "verdict": claim.verdict,
        "challenge_deadline": _time(claim.challenge_end),
        "challenged": claim.challenge_seq is not None,
        "challenge": claim.challenge,
    }
