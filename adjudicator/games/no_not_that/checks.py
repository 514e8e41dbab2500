"""The rules' preconditions, shared by ``decide`` (refuse the command) and ``evolve`` (fold a
recorded event that a ruling made impossible as void). Each raises a precise DomainError."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.games.no_not_that import flow, judge
from adjudicator.games.no_not_that.commands import Item
from adjudicator.games.no_not_that.judging import normalise
from adjudicator.games.no_not_that.state import Kind, NoNotThatState, Phase, PromptClaim
from adjudicator.kernel.errors import Code, InvalidCommand, RuleViolation

KINDS = frozenset(Kind)
ITEMS = frozenset(Item)


def sane_object(raw: str) -> str:
    value = normalise(raw)
    if value is None:
        raise InvalidCommand("bad_object", "an object is 1 to 32 printable characters")
    return value


def recorded_kind(action: str) -> Kind:
    """The step action a recorded ``nnt.acted`` names (a record made elsewhere may name none)."""
    if action not in KINDS:
        raise InvalidCommand("invalid_event", f"action {action!r} is none of {', '.join(Kind)}")
    return Kind(action)


def recorded_item(item: str) -> Item:
    """The item a recorded ``nnt.item_used`` names (a record made elsewhere may name none)."""
    if item not in ITEMS:
        raise InvalidCommand("invalid_event", f"item {item!r} is none of {', '.join(Item)}")
    return Item(item)


def known_seat(state: NoNotThatState, seat: str) -> None:
    if seat not in state.seats:
        raise InvalidCommand("unknown_seat", f"{seat!r} is not a seat of this match")


def step_action(state: NoNotThatState, seat: str, kind: Kind, raw: str | None) -> str | None:
    """Check a sealed step action; returns the object in canonical form, if it names one."""
    _open_step(state, seat)
    assert state.round is not None
    last = state.round.last_step
    if kind is Kind.SUBMIT and last:
        raise RuleViolation("submit_in_last_step", "the last step takes pass or a claim")
    if kind is Kind.PASS and not last:
        raise RuleViolation("pass_only_in_last_step", "pass is allowed only in the last step")
    if kind is Kind.CLAIM_INVALID and flow.accusable(state.round, state.fixed.other(seat)) is None:
        raise RuleViolation(
            "nothing_to_accuse", "the opponent submitted no object in the previous step"
        )
    if kind is Kind.HEAD_START:
        if state.round.step != 1:
            raise RuleViolation("head_start_first_step_only", "Head Start is a first-step action")
        holds_item(state, seat, Item.HEAD_START)
    return sane_object(raw) if raw is not None else None


def _open_step(state: NoNotThatState, seat: str) -> None:
    if state.phase is Phase.FINISHED:
        raise RuleViolation("match_finished", "the match is over")
    if state.phase is not Phase.STEP:
        raise RuleViolation("no_step_open", f"no step is open (phase {state.phase})")
    if state.seats[seat].action is not None:
        raise RuleViolation("already_acted", "one action per seat per step")


def holds_item(state: NoNotThatState, seat: str, item: Item) -> None:
    player = state.seats[seat]
    if item not in player.items:
        raise RuleViolation("item_not_held", f"{seat} does not hold {item}")
    if item in player.used:
        raise RuleViolation("item_already_used", f"{seat} has already used {item}")


def use_item(state: NoNotThatState, seat: str, item: Item) -> None:
    if item is Item.HEAD_START:
        raise InvalidCommand(
            "head_start_is_a_step_action", "Head Start is used as the action of a first step"
        )
    if state.phase is Phase.FINISHED:
        raise RuleViolation("match_finished", "the match is over")
    holds_item(state, seat, item)


def exchange(state: NoNotThatState) -> None:
    if state.phase is not Phase.BETWEEN_ROUNDS:
        raise RuleViolation("exchange_between_rounds_only", "exchange only between two rounds")


def open_claim(state: NoNotThatState, seat: str) -> PromptClaim:
    """The seat's prompt claim whose solution window is open."""
    claims = state.round.prompt_claims if state.round and state.phase is Phase.CLAIMS else []
    claim = next((c for c in claims if c.seat == seat and c.awaiting_solution), None)
    if claim is None:
        raise RuleViolation(
            "no_solution_window", "no solution window is open for you (none claimed, or closed)"
        )
    return claim


def challengeable(state: NoNotThatState, seat: str) -> PromptClaim:
    """The opponent's correct prompt claim whose challenge window is open."""
    claims = state.round.prompt_claims if state.round and state.phase is Phase.CLAIMS else []
    claim = next((c for c in claims if c.seat != seat and c.challenge_open), None)
    if claim is None:
        raise RuleViolation("nothing_to_challenge", "no correct prompt claim awaits your answer")
    return claim


def start_round(state: NoNotThatState, number: int | None) -> int:
    if state.phase not in (Phase.WAITING, Phase.BETWEEN_ROUNDS):
        code: Code = "match_finished" if state.phase is Phase.FINISHED else "round_in_progress"
        raise RuleViolation(code, f"no round can start now (phase {state.phase})")
    expected = state.rounds_played + 1
    if number is not None and number != expected:
        raise RuleViolation("wrong_round", f"the next round is round {expected}, not {number}")
    return expected


def judge_category(state: NoNotThatState, target_seq: int) -> judge.CategoryQuestion:
    """The pending category question ``target_seq`` names: a waiting ``claim_invalid`` action,
    or a submission (or Head Start) whose fit a pending question needs."""
    questions = judge.pending_category(state)
    found = next((q for q in questions if target_seq in q.names), None)
    if found is None:
        other = _prompt_question(state, target_seq) is not None
        hint = "it is a prompt claim awaiting judge_prompt" if other else None
        message = _not_pending(target_seq, "category", questions, hint)
        raise RuleViolation("nothing_to_judge", message)
    return found


def judge_value(state: NoNotThatState, raw: str) -> str:
    """A value some pending category question is about (a ruling on it holds for the round)."""
    value = sane_object(raw)
    if value not in judge.pending_category_values(state):
        raise RuleViolation("nothing_to_judge", f"no pending question about {value!r}")
    return value


def judge_prompt(state: NoNotThatState, target_seq: int) -> PromptClaim:
    """The prompt claim ``target_seq`` names (the claim's seq or its solution's), whose
    revealed solution awaits the host's verdict."""
    claim = _prompt_question(state, target_seq)
    if claim is None:
        questions = judge.pending_prompt(state) if state.phase is Phase.CLAIMS else []
        other = any(target_seq in q.names for q in judge.pending_category(state))
        hint = "it is a category question awaiting judge_category" if other else None
        message = _not_pending(target_seq, "prompt", questions, hint)
        raise RuleViolation("nothing_to_judge", message)
    return claim


def _prompt_question(state: NoNotThatState, target_seq: int) -> PromptClaim | None:
    if state.phase is not Phase.CLAIMS or state.round is None:
        return None
    pending = {q.target_seq for q in judge.pending_prompt(state)}
    claims = [c for c in state.round.prompt_claims if c.seq in pending]
    return next((c for c in claims if target_seq in (c.seq, c.solved_seq)), None)


def judge_prompt_of_seat(state: NoNotThatState, seat: str) -> PromptClaim:
    """The seat's claim awaiting a verdict: how records made before ``target_seq`` name it."""
    claims = state.round.prompt_claims if state.round else []
    pending = judge.pending_prompt_seats(state)
    claim = next((c for c in claims if c.seat == seat and c.seat in pending), None)
    if claim is None or state.phase is not Phase.CLAIMS:
        raise RuleViolation("nothing_to_judge", f"no solution of {seat} awaits a ruling")
    return claim


def _not_pending(
    target_seq: int,
    kind: str,
    questions: Sequence[judge.CategoryQuestion] | Sequence[judge.PromptQuestion],
    hint: str | None,
) -> str:
    if hint is not None:
        return f"seq {target_seq} is not a pending {kind} question: {hint}"
    waiting = ", ".join(str(q.target_seq) for q in questions) or "none"
    return f"seq {target_seq} is not a pending {kind} question (pending: {waiting})"
