"""``evolve``: apply one recorded event. It never raises: an event that the rules (after the
host's rulings) make impossible is folded as void, with the reason kept for ``outcome``."""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

import msgspec

from adjudicator.games.no_not_that import checks, flow, scoring
from adjudicator.games.no_not_that.commands import Item
from adjudicator.games.no_not_that.events import (
    PLAYS,
    Accepted,
    Acted,
    CategoryJudged,
    Challenged,
    Exchanged,
    ItemUsed,
    NntEvent,
    PromptJudged,
    Revealed,
    RoundStarted,
    SolutionRevealed,
    Solved,
)
from adjudicator.games.no_not_that.judging import normalise
from adjudicator.games.no_not_that.state import Action, Kind, NoNotThatState, Phase
from adjudicator.kernel.decider import Fact, declared_result
from adjudicator.kernel.errors import DomainError, InvalidCommand, RuleViolation
from adjudicator.kernel.fold import OFF_TIMELINE
from adjudicator.kernel.payloads import Unreadable
from adjudicator.kernel.values import updated
from adjudicator.rulings import ResultDeclared, ScoreAdjusted

Handler = Callable[[NoNotThatState, Fact], NoNotThatState]


def evolve(state: NoNotThatState, fact: Fact) -> NoNotThatState:
    """The state after one recorded event (``state`` is never changed): the game's own by its
    payload (decoded once, an :data:`NntEvent`), a ruling by its type. What the rules refuse, or
    a payload they cannot read, is folded as void instead."""
    if fact.type in PLAYS:
        event = fact.payload
        if isinstance(event, Unreadable):
            return _void(state, fact, f"malformed payload: {event.reason}")
        return _guarded(state, fact, lambda before: _apply(before, fact, event))
    ruling = RULINGS.get(fact.type)
    if ruling is None:
        known = fact.type in OFF_TIMELINE  # the match's records, untimed rulings: nothing to do
        return state if known else _void(state, fact, f"unknown event type: {fact.type}")
    return _guarded(state, fact, lambda before: ruling(before, fact))


def _guarded(
    state: NoNotThatState, fact: Fact, apply: Callable[[NoNotThatState], NoNotThatState]
) -> NoNotThatState:
    """The state ``apply`` builds from ``state``; ``state`` with ``fact`` void if the rules
    refuse it, its values out of their range included (checked, each a DomainError)."""
    try:
        return apply(state)
    except DomainError as error:
        return _void(state, fact, _why(error))


def _why(error: DomainError) -> str:
    """A void's reason: a recorded value no event could hold (an action, item or number out of
    range, an amendment's verdict that is a list: ``invalid_event``) is a malformed payload;
    anything else the rules refuse, by its code."""
    if error.code == "invalid_event":
        return f"malformed payload: {error.message}"
    return f"{error.code}: {error.message}"


def _apply(state: NoNotThatState, fact: Fact, event: NntEvent) -> NoNotThatState:
    match event:
        case RoundStarted():
            number = event.round
            checks.start_round(state, number)
            return flow.start_round(state, number, fact.at)
        case Acted():
            return _acted(state, fact, event)
        case Revealed() | SolutionRevealed():
            return state  # reveals only make payloads public; the fold already knows them
        case Solved():
            return _solved(state, fact, event)
        case Challenged():
            claim = checks.challengeable(state, _seat(state, event.seat))
            challenged = updated(claim, challenge_seq=fact.seq, challenge_amendment=fact.amendment)
            return flow.proceed(state.with_prompt_claim(challenged), fact.at)
        case Accepted():
            claim = checks.challengeable(state, _seat(state, event.seat))
            return flow.close_challenge(state, claim, "accepted", fact.at)
        case ItemUsed():
            return _item_used(state, _seat(state, event.seat), checks.recorded_item(event.item))
        case Exchanged():
            return _exchanged(state, _seat(state, event.seat), event.times)
        case CategoryJudged():
            return flow.proceed(_category_judged(state, event), fact.at)
        case PromptJudged():
            return flow.proceed(_prompt_judged(state, event), fact.at)
        case _:
            assert_never(event)


def _void(state: NoNotThatState, fact: Fact, reason: str) -> NoNotThatState:
    return updated(state, voided={**state.voided, fact.seq: reason})


def _seat(state: NoNotThatState, seat: str) -> str:
    checks.known_seat(state, seat)
    return seat


def _acted(state: NoNotThatState, fact: Fact, acted: Acted) -> NoNotThatState:
    seat, kind = _seat(state, acted.seat), checks.recorded_kind(acted.action)
    raw = None if acted.object is msgspec.UNSET else acted.object
    value = checks.step_action(state, seat, kind, raw)
    rnd = state.current_round
    if (acted.round, acted.step) != (rnd.number, rnd.step):
        raise RuleViolation("stale_action", "the action names another step")
    if kind is Kind.HEAD_START:
        player = state.seats[seat]
        state = state.with_seat(seat, updated(player, used=(*player.used, Item.HEAD_START)))
    return flow.act(state, seat, Action(kind, value, fact.seq, fact.at, fact.amendment))


def _solved(state: NoNotThatState, fact: Fact, solved: Solved) -> NoNotThatState:
    claim = checks.open_claim(state, _seat(state, solved.seat))
    solution = updated(
        claim,
        tokens=tuple(solved.tokens),
        solved_at=fact.at,
        solved_seq=fact.seq,
        solved_amendment=fact.amendment,
    )
    return flow.proceed(state.with_prompt_claim(solution), fact.at)


def _item_used(state: NoNotThatState, seat: str, item: Item) -> NoNotThatState:
    checks.use_item(state, seat, item)
    player = updated(state.seats[seat], used=(*state.seats[seat].used, item))
    if item is Item.EXTRA_SAFE:
        player = updated(player, nets=player.nets + 3)
    else:
        player = updated(player, ring_invalid=True, ring_prompt=True)
    return state.with_seat(seat, player)


def _exchanged(state: NoNotThatState, seat: str, times: int) -> NoNotThatState:
    checks.exchange(state)
    if times < 1:
        raise InvalidCommand("invalid_event", f"times {times} is not a positive number")
    player = state.seats[seat]
    traded = updated(player, score=player.score - times, nets=player.nets + 2 * times)
    return state.with_seat(seat, traded)


def _category_judged(state: NoNotThatState, judged: CategoryJudged) -> NoNotThatState:
    """With ``target_seq``: the verdict on that question's submission. Without (``judge_value``
    and older records): the verdict on the value for the round."""
    if judged.target_seq is not msgspec.UNSET:
        question = checks.judge_category(state, judged.target_seq)
        recorded = judged.object
        _same(normalise(recorded) or recorded, question.object)
        rnd = state.current_round
        verdicts = {**rnd.object_verdicts, question.key: judged.fits}
        return state.with_round(updated(rnd, object_verdicts=verdicts))
    value = checks.judge_value(state, judged.object)
    rnd = state.current_round
    return state.with_round(updated(rnd, verdicts={**rnd.verdicts, value: judged.fits}))


def _prompt_judged(state: NoNotThatState, judged: PromptJudged) -> NoNotThatState:
    """With ``target_seq``: that claim's verdict; older records name the claim by its seat."""
    if judged.target_seq is not msgspec.UNSET:
        claim = checks.judge_prompt(state, judged.target_seq)
        _same(_seat(state, judged.seat), claim.seat)
    else:
        claim = checks.judge_prompt_of_seat(state, _seat(state, judged.seat))
    verdict = "correct" if judged.meets else "incorrect"
    return state.with_prompt_claim(updated(claim, host_verdict=verdict))


def _same(recorded: str, named: str) -> None:
    """A judgement's value or seat (kept for readability) must be what its target names."""
    if recorded != named:
        raise RuleViolation("nothing_to_judge", f"the target is about {named!r}, not {recorded!r}")


def _adjust_score(state: NoNotThatState, fact: Fact) -> NoNotThatState:
    adjusted: ScoreAdjusted = fact.payload
    return scoring.gain(state, _seat(state, adjusted.seat), adjusted.delta)


def _end_round(state: NoNotThatState, fact: Fact) -> NoNotThatState:
    if not scoring.in_round(state):
        raise RuleViolation("no_round_in_progress", "no round is in progress")
    return scoring.end_round(state, fact.at, "ruling")


def _declare_result(state: NoNotThatState, fact: Fact) -> NoNotThatState:
    declared: ResultDeclared = fact.payload
    if declared.winner is not None:
        checks.known_seat(state, declared.winner)
    result = declared_result(fact.seq, declared.winner, scoring.scores(state))
    state = updated(state, result=result)
    if scoring.in_round(state):  # the result ends the round at its instant: no clock runs on
        state = scoring.end_round(state, fact.at, "result")
    return updated(state, phase=Phase.FINISHED)


RULINGS: dict[str, Handler] = {
    "ruling.adjust_score": _adjust_score,
    "ruling.end_round": _end_round,
    "ruling.declare_result": _declare_result,
}
