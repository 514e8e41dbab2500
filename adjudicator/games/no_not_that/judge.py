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
    uses: tuple[int, ...]
    uses_head_start: bool


def amended(amendment: Mapping[str, Any] | None) -> str | None:
    """The verdict a host's amendment gives, if it gives one: any other value (an unknown
    word, a number, a list, an object) is no verdict, so the amendment has no effect (as a
    recorded ruling whose fields do not read has none). Never raises: an amendment is read
    when a deadline passes too (``advance``), where nothing could void it."""
    verdict = amendment.get("verdict") if amendment else None
    return verdict if isinstance(verdict, str) and verdict in VERDICTS else None


def obj(rnd: RoundState, obj_id: int) -> Obj:
    return next(o for o in rnd.objects if o.id == obj_id)


def is_duplicate(rnd: RoundState, target: Obj) -> bool:
    """Submitted earlier in this round by either seat (removed submissions still count)."""
    return any(o.value == target.value and o.step < target.step for o in rnd.objects)


def fits(state: NoNotThatState, value: str, key: int | None = None) -> bool | None:
    """Whether a value fits the round's category: the rule, else the host's verdict on this
    submission (``key``), else the host's verdict on the value for the round, else None."""
    assert state.round is not None
    verdict = state.round_config.category.fits(value, state.fixed.words)
    if verdict is not None:
        return verdict
    if key is not None and key in state.round.object_verdicts:
        return state.round.object_verdicts[key]
    return state.round.verdicts.get(value)


def object_valid(state: NoNotThatState, target: Obj) -> bool | None:
    assert state.round is not None
    return False if is_duplicate(state.round, target) else fits(state, target.value, target.key)


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
    return Mapped(parts, tuple(uses), head)


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
    player = state.seats[claim.seat]
    head = player.head_start
    if claim.uses_head_start and head is not None:
        valid = fits(state, head, player.head_start_seq)
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


@dataclass(frozen=True, slots=True)
class CategoryQuestion:
    """A submission whose fit to a host-judged category the host must rule on.

    ``target_seq`` is the seq the view shows for ``judge_category``: the ``claim_invalid``
    action's for an invalid-object claim, the submission's own (its ``nnt.acted``, or the Head
    Start's) for an object a challenge waits on. ``names`` is every seq that names the question
    (the target and the submission's seqs); ``key`` is where the verdict is kept, so a verdict
    settles every question about that same submission (two claims on one object, say).
    """

    target_seq: int
    object: str
    about: str  # "invalid_claim" | "challenge"
    waiting_seq: int  # the claim or challenge waiting for the verdict
    key: int
    names: frozenset[int]


@dataclass(frozen=True, slots=True)
class PromptQuestion:
    """A revealed solution of a host-judged prompt: ``target_seq`` is the prompt claim's seq."""

    target_seq: int
    seat: str
    solution_seq: int | None


def pending_category(state: NoNotThatState) -> list[CategoryQuestion]:
    """The submissions whose fit must be ruled before play can go on, in the order asked."""
    if state.round is None:
        return []
    rnd = state.round
    questions: list[CategoryQuestion] = []
    for claim in rnd.invalid_claims:
        if claim.verdict is None and invalid_claim_verdict(state, claim) is None:
            target = obj(rnd, claim.target)
            names = frozenset({claim.seq, *target.seqs})
            questions.append(
                CategoryQuestion(
                    claim.seq, target.value, "invalid_claim", claim.seq, target.key, names
                )
            )
    for prompt in rnd.prompt_claims:
        if prompt.challenge_seq is not None and prompt.challenge is None:
            questions.extend(_challenge_questions(state, prompt, prompt.challenge_seq))
    return questions


def pending_category_values(state: NoNotThatState) -> list[str]:
    """The values of the pending category questions (what ``judge_value`` may rule on)."""
    return sorted({question.object for question in pending_category(state)})


def pending_prompt(state: NoNotThatState) -> list[PromptQuestion]:
    if state.round is None:
        return []
    return [
        PromptQuestion(c.seq, c.seat, c.solved_seq)
        for c in state.round.prompt_claims
        if c.revealed_at is not None and c.verdict is None
    ]


def pending_prompt_seats(state: NoNotThatState) -> list[str]:
    return [question.seat for question in pending_prompt(state)]


def _challenge_questions(
    state: NoNotThatState, claim: PromptClaim, challenge_seq: int
) -> list[CategoryQuestion]:
    assert state.round is not None
    questions = [
        CategoryQuestion(o.key, o.value, "challenge", challenge_seq, o.key, frozenset(o.seqs))
        for o in (obj(state.round, i) for i in claim.uses)
        if object_valid(state, o) is None
    ]
    player = state.seats[claim.seat]
    head, seq = player.head_start, player.head_start_seq or 0
    if claim.uses_head_start and head is not None and fits(state, head, seq) is None:
        names = frozenset({seq})
        questions.append(CategoryQuestion(seq, head, "challenge", challenge_seq, seq, names))
    return questions
