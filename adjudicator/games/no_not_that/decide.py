"""``decide``: validate a command against the state at ``ctx.now`` and say what to record.

Sealed actions are recorded as ``nnt.acted`` private to the acting seat (one event type for every
action, so the public envelope does not tell which action it was). When the second seat acts, the
same batch carries the public ``nnt.revealed``. A solution is private too, and is revealed in the
same batch unless the opponent's own solution window (same step) is still open.
"""

from __future__ import annotations

from typing import assert_never

import msgspec
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
    Accepted,
    Acted,
    CategoryJudged,
    Challenged,
    Exchanged,
    ItemUsed,
    PromptJudged,
    Revealed,
    RevealedAction,
    RoundStarted,
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
            if isinstance(command, Challenge):
                return [Draft(CHALLENGED, Challenged(seat))]
            return [Draft(ACCEPTED, Accepted(seat))]
        case UseItem():
            seat = _acting_seat(state, command.seat, ctx)
            checks.use_item(state, seat, command.item)
            return [Draft(ITEM_USED, ItemUsed(seat, str(command.item)))]
        case Exchange():
            seat = _acting_seat(state, command.seat, ctx)
            checks.exchange(state)
            return [Draft(EXCHANGED, Exchanged(seat, command.times))]
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
    number, step = state.round.number, state.round.step
    acted = Acted(seat, number, step, str(kind), msgspec.UNSET if raw is None else raw)
    drafts = [Draft(ACTED, acted, private_to=(seat,))]
    other = state.fixed.other(seat)
    theirs = state.seats[other].action
    if theirs is not None:
        actions = {other: theirs, seat: Action(kind, value, 0, ctx.now)}
        shown = {s: RevealedAction(**a) for s, a in flow.public_actions(actions).items()}
        drafts.append(Draft(REVEALED, Revealed(number, step, shown)))
    return drafts


def _solve(state: NoNotThatState, command: Solve, ctx: Context) -> list[Draft]:
    seat = _acting_seat(state, command.seat, ctx)
    checks.open_claim(state, seat)
    for token in command.tokens:
        checks.sane_object(token)
    tokens = tuple(command.tokens)
    drafts = [Draft(SOLVED, Solved(seat, tokens), private_to=(seat,))]
    assert state.round is not None
    others = [c for c in state.round.prompt_claims if c.seat != seat]
    if not any(c.awaiting_solution for c in others):
        sealed = {c.seat: tuple(c.tokens) for c in others if c.tokens and c.revealed_at is None}
        revealed = SolutionRevealed({**sealed, seat: tokens})
        drafts.append(Draft(SOLUTION_REVEALED, revealed))
    return drafts


def _host_command(state: NoNotThatState, command: HostCommand, ctx: Context) -> list[Draft]:
    if not ctx.is_host:
        raise NotPermitted("host_only", "only the host may do this")
    match command:
        case StartRound():
            number = checks.start_round(state, command.round)
            return [Draft(ROUND_STARTED, RoundStarted(number))]
        case JudgeCategory():
            question = checks.judge_category(state, command.target_seq)
            fits = CategoryJudged(question.object, command.fits, command.target_seq)
            return [Draft(CATEGORY_JUDGED, fits)]
        case JudgeValue():
            value = checks.judge_value(state, command.object)
            return [Draft(CATEGORY_JUDGED, CategoryJudged(value, command.fits))]
        case JudgePrompt():
            claim = checks.judge_prompt(state, command.target_seq)
            meets = PromptJudged(claim.seat, command.meets, command.target_seq)
            return [Draft(PROMPT_JUDGED, meets)]
    assert_never(command)
