"""``decide``: validate a command against the state at ``ctx.now`` and say what to record.

Sealed actions are recorded as ``nnt.acted`` private to the acting seat (one event type for every
action, so the public envelope does not tell which action it was). When the second seat acts, the
same batch carries the public ``nnt.revealed``. A solution is private too, and is revealed in the
same batch unless the opponent's own solution window (same step) is still open.
"""

from __future__ import annotations

from typing import assert_never, cast

from pydantic import BaseModel

from adjudicator.games.no_not_that import checks, flow
from adjudicator.games.no_not_that.commands import (
    Accept,
    Challenge,
    ClaimInvalid,
    ClaimPrompt,
    Exchange,
    HeadStart,
    HostCommand,
    JudgeCategory,
    JudgePrompt,
    JudgeValue,
    NoNotThatCommand,
    Pass,
    Solve,
    StartRound,
    StepCommand,
    Submit,
    UseItem,
)
from adjudicator.games.no_not_that.events import (
    ACCEPTED,
    ACTED,
    CATEGORY_JUDGED,
    CHALLENGED,
    EXCHANGED,
    ITEM_USED,
    PROMPT_JUDGED,
    REVEALED,
    ROUND_STARTED,
    SOLUTION_REVEALED,
    SOLVED,
    Acted,
    CategoryJudged,
    Exchanged,
    ItemUsed,
    PromptJudged,
    Revealed,
    RevealedAction,
    RoundStarted,
    SeatOnly,
    SolutionRevealed,
    Solved,
)
from adjudicator.games.no_not_that.state import Action, Kind, NoNotThatState
from adjudicator.kernel.decider import Context, Draft
from adjudicator.kernel.errors import NotPermitted

STEP_KINDS: dict[type[BaseModel], Kind] = {
    Submit: Kind.SUBMIT,
    ClaimInvalid: Kind.CLAIM_INVALID,
    ClaimPrompt: Kind.CLAIM_PROMPT,
    Pass: Kind.PASS,
    HeadStart: Kind.HEAD_START,
}


def decide(state: NoNotThatState, command: NoNotThatCommand, ctx: Context) -> list[Draft]:
    match command:
        case Submit() | ClaimInvalid() | ClaimPrompt() | Pass() | HeadStart():
            return _step_action(state, command, ctx)
        case Solve():
            return _solve(state, command, ctx)
        case Challenge() | Accept():
            seat = _acting_seat(state, command.seat, ctx)
            checks.challengeable(state, seat)
            kind = CHALLENGED if isinstance(command, Challenge) else ACCEPTED
            answer: SeatOnly = {"seat": seat}
            return [Draft(kind, dict(answer))]
        case UseItem():
            seat = _acting_seat(state, command.seat, ctx)
            checks.use_item(state, seat, command.item)
            used: ItemUsed = {"seat": seat, "item": str(command.item)}
            return [Draft(ITEM_USED, dict(used))]
        case Exchange():
            seat = _acting_seat(state, command.seat, ctx)
            checks.exchange(state)
            exchanged: Exchanged = {"seat": seat, "times": command.times}
            return [Draft(EXCHANGED, dict(exchanged))]
        case StartRound() | JudgeCategory() | JudgeValue() | JudgePrompt():
            return _host_command(state, command, ctx)
        case _:
            assert_never(command)


def _acting_seat(state: NoNotThatState, seat: str, ctx: Context) -> str:
    """Seats act only for themselves; the host may act for any seat."""
    return ctx.acting_for(state.fixed.seats, seat)


def _step_action(state: NoNotThatState, command: StepCommand, ctx: Context) -> list[Draft]:
    seat = _acting_seat(state, command.seat, ctx)
    kind = STEP_KINDS[type(command)]
    raw = command.object if isinstance(command, Submit | HeadStart) else None
    value = checks.step_action(state, seat, kind, raw)
    assert state.round is not None
    payload: Acted = {
        "seat": seat,
        "round": state.round.number,
        "step": state.round.step,
        "action": str(kind),
    }
    if raw is not None:
        payload["object"] = raw
    drafts = [Draft(ACTED, dict(payload), private_to=(seat,))]
    other = state.fixed.other(seat)
    theirs = state.seats[other].action
    if theirs is not None:
        actions = {other: theirs, seat: Action(kind, value, 0, ctx.now)}
        shown = cast(dict[str, RevealedAction], flow.public_actions(actions))
        reveal: Revealed = {"round": state.round.number, "step": state.round.step, "actions": shown}
        drafts.append(Draft(REVEALED, dict(reveal)))
    return drafts


def _solve(state: NoNotThatState, command: Solve, ctx: Context) -> list[Draft]:
    seat = _acting_seat(state, command.seat, ctx)
    checks.open_claim(state, seat)
    for token in command.tokens:
        checks.sane_object(token)
    tokens = list(command.tokens)
    solved: Solved = {"seat": seat, "tokens": tokens}
    drafts = [Draft(SOLVED, dict(solved), private_to=(seat,))]
    assert state.round is not None
    others = [c for c in state.round.prompt_claims if c.seat != seat]
    if not any(c.awaiting_solution for c in others):
        sealed = {c.seat: c.tokens for c in others if c.tokens and c.revealed_at is None}
        revealed: SolutionRevealed = {"solutions": {**sealed, seat: tokens}}
        drafts.append(Draft(SOLUTION_REVEALED, dict(revealed)))
    return drafts


def _host_command(state: NoNotThatState, command: HostCommand, ctx: Context) -> list[Draft]:
    if not ctx.is_host:
        raise NotPermitted("host_only", "only the host may do this")
    match command:
        case StartRound():
            number = checks.start_round(state, command.round)
            started: RoundStarted = {"round": number}
            return [Draft(ROUND_STARTED, dict(started))]
        case JudgeCategory():
            question = checks.judge_category(state, command.target_seq)
            fits: CategoryJudged = {
                "target_seq": command.target_seq,
                "object": question.object,
                "fits": command.fits,
            }
            return [Draft(CATEGORY_JUDGED, dict(fits))]
        case JudgeValue():
            value = checks.judge_value(state, command.object)
            for_round: CategoryJudged = {"object": value, "fits": command.fits}
            return [Draft(CATEGORY_JUDGED, dict(for_round))]
        case JudgePrompt():
            claim = checks.judge_prompt(state, command.target_seq)
            meets: PromptJudged = {
                "target_seq": command.target_seq,
                "seat": claim.seat,
                "meets": command.meets,
            }
            return [Draft(PROMPT_JUDGED, dict(meets))]
    assert_never(command)
