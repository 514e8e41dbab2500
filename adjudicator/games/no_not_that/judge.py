"""Verdicts the program can reach on its own, and the questions it must put to the host.

Every function here reads the state and returns a verdict; none changes anything. A verdict of
None means "waiting for the host". A host's ``ruling.amend`` (``{"verdict": "correct"}`` or
``{"verdict": "incorrect"}``) on the claim, solution or challenge event overrides the program.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.games.no_not_that.judging import normalise
from adjudicator.games.no_not_that.state import (
    InvalidClaim,
    NoNotThatState,
    Obj,
    PromptClaim,
    RoundState,
)

VERDICTS = frozenset({"correct", "incorrect"})


@dataclass(frozen=True, slots=True)
class Mapped:
    """A solution read against the pool: its parts in order, the objects it uses."""

    parts: list[str]
    uses: list[int]
    uses_head_start: bool


def amended(amendment: Mapping[str, Any] | None) -> str | None:
    verdict = amendment.get("verdict") if amendment else None
    return verdict if verdict in VERDICTS else None


def obj(rnd: RoundState, obj_id: int) -> Obj:
    return next(o for o in rnd.objects if o.id == obj_id)


def is_duplicate(rnd: RoundState, target: Obj) -> bool:
    """Submitted earlier in this round by either seat (removed submissions still count)."""
    return any(o.value == target.value and o.step < target.step for o in rnd.objects)


def fits(state: NoNotThatState, value: str) -> bool | None:
    """Whether a value fits the round's category: the rule, else the host's ruling, else None."""
    assert state.round is not None
    verdict = state.round_config.category.fits(value, state.fixed.words)
    return state.round.verdicts.get(value) if verdict is None else verdict


def object_valid(state: NoNotThatState, target: Obj) -> bool | None:
    assert state.round is not None
    return False if is_duplicate(state.round, target) else fits(state, target.value)


def invalid_claim_verdict(state: NoNotThatState, claim: InvalidClaim) -> str | None:
    assert state.round is not None
    override = amended(claim.amendment)
    if override is not None:
        return override
    valid = object_valid(state, obj(state.round, claim.target))
    return None if valid is None else ("incorrect" if valid else "correct")


def last_submission(rnd: RoundState, seat: str) -> int | None:
    """The id of the object the seat submitted most recently in this round."""
    own = [o for o in rnd.objects if seat in o.seats]
    return max(own, key=lambda o: o.step).id if own else None


def map_solution(state: NoNotThatState, claim: PromptClaim) -> Mapped | None:
    """Read the tokens: free letters first, then the earliest usable object, then Head Start."""
    assert state.round is not None and claim.tokens is not None
    rnd, player = state.round, state.seats[claim.seat]
    free = state.round_config.prompt.free
    excluded = last_submission(rnd, claim.seat)
    usable = [o for o in rnd.objects if o.in_play and not o.removed and o.id != excluded]
    usable.sort(key=lambda o: (o.step, o.id))
    parts: list[str] = []
    uses: list[int] = []
    head = False
    for raw in claim.tokens:
        token = normalise(raw)
        if token is None:
            return None
        parts.append(token)
        if token in free:
            continue
        found = next((o for o in usable if o.value == token and o.id not in uses), None)
        if found is not None:
            uses.append(found.id)
        elif not head and player.head_start == token and not player.head_start_spent:
            head = True
        else:
            return None
    return Mapped(parts, uses, head)


def solution_verdict(state: NoNotThatState, claim: PromptClaim) -> str | None:
    """Judge a solution against the prompt, assuming every object in it is valid."""
    override = amended(claim.solved_amendment)
    if override is not None:
        return override
    mapped = map_solution(state, claim)
    if mapped is None:
        return "incorrect"
    meets = state.round_config.prompt.meets(mapped.parts, state.fixed.words)
    if meets is None:
        return claim.host_verdict
    return "correct" if meets else "incorrect"


def solution_invalid(state: NoNotThatState, claim: PromptClaim) -> tuple[list[int], bool, bool]:
    """The invalid objects of a solution, whether its Head Start object is invalid, and whether
    any object still awaits the host."""
    assert state.round is not None
    invalid: list[int] = []
    unknown = False
    for obj_id in claim.uses:
        valid = object_valid(state, obj(state.round, obj_id))
        unknown = unknown or valid is None
        if valid is False:
            invalid.append(obj_id)
    head_invalid = False
    head = state.seats[claim.seat].head_start
    if claim.uses_head_start and head is not None:
        valid = fits(state, head)
        unknown = unknown or valid is None
        head_invalid = valid is False
    return invalid, head_invalid, unknown


def challenge_verdict(state: NoNotThatState, claim: PromptClaim) -> str | None:
    override = amended(claim.challenge_amendment)
    if override is not None:
        return override
    invalid, head_invalid, unknown = solution_invalid(state, claim)
    if unknown:
        return None
    return "correct" if invalid or head_invalid else "incorrect"


def pending_category_values(state: NoNotThatState) -> list[str]:
    """Objects whose fit to a host-judged category must be ruled before play can go on."""
    if state.round is None:
        return []
    rnd = state.round
    values: list[str] = []
    for claim in rnd.invalid_claims:
        if claim.verdict is None and invalid_claim_verdict(state, claim) is None:
            values.append(obj(rnd, claim.target).value)
    for prompt in rnd.prompt_claims:
        if prompt.challenge_seq is not None and prompt.challenge is None:
            values.extend(_unknown_values(state, prompt))
    return sorted(set(values))


def pending_prompt_seats(state: NoNotThatState) -> list[str]:
    if state.round is None:
        return []
    return [
        c.seat for c in state.round.prompt_claims if c.revealed_at is not None and c.verdict is None
    ]


def _unknown_values(state: NoNotThatState, claim: PromptClaim) -> list[str]:
    assert state.round is not None
    objects = [obj(state.round, i) for i in claim.uses]
    values = [o.value for o in objects if object_valid(state, o) is None]
    head = state.seats[claim.seat].head_start
    if claim.uses_head_start and head is not None and fits(state, head) is None:
        values.append(head)
    return values
