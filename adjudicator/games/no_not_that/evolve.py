"""``evolve``: apply one recorded event. It never raises: an event that the rules (after the
host's rulings) make impossible is folded as void, with the reason kept for ``outcome``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import cast

from adjudicator.games.no_not_that import checks, flow, scoring
from adjudicator.games.no_not_that import events as ev
from adjudicator.games.no_not_that.commands import Item
from adjudicator.games.no_not_that.judging import normalise
from adjudicator.games.no_not_that.state import Action, Kind, NoNotThatState, Phase
from adjudicator.kernel.decider import Fact, declared_result
from adjudicator.kernel.errors import DomainError, RuleViolation
from adjudicator.kernel.fold import OFF_TIMELINE

Handler = Callable[[NoNotThatState, Fact], None]


def evolve(state: NoNotThatState, fact: Fact) -> NoNotThatState:
    handler = HANDLERS.get(fact.type)
    if handler is None:
        known = fact.type in OFF_TIMELINE  # the match's records, untimed rulings: nothing to do
        return state if known else _void(state, fact, f"unknown event type: {fact.type}")
    new = state.clone()
    try:
        handler(new, fact)
    except DomainError as error:
        return _void(state, fact, f"{error.code}: {error.message}")
    except (KeyError, TypeError, ValueError) as error:
        return _void(state, fact, f"malformed payload: {error!r}")
    return new


def _void(state: NoNotThatState, fact: Fact, reason: str) -> NoNotThatState:
    return replace(state, voided={**state.voided, fact.seq: reason})


def _seat(state: NoNotThatState, fact: Fact) -> str:
    seat = str(fact.payload["seat"])
    checks.known_seat(state, seat)
    return seat


def _round_started(state: NoNotThatState, fact: Fact) -> None:
    number = int(cast(ev.RoundStarted, fact.payload)["round"])
    checks.start_round(state, number)
    flow.start_round(state, number, fact.at)


def _acted(state: NoNotThatState, fact: Fact) -> None:
    seat, payload = _seat(state, fact), cast(ev.Acted, fact.payload)
    kind = Kind(payload["action"])
    raw = payload.get("object")
    value = checks.step_action(state, seat, kind, None if raw is None else str(raw))
    assert state.round is not None
    if (payload["round"], payload["step"]) != (state.round.number, state.round.step):
        raise RuleViolation("stale_action", "the action names another step")
    if kind is Kind.HEAD_START:
        state.seats[seat].used.append(Item.HEAD_START)
    flow.act(state, seat, Action(kind, value, fact.seq, fact.at, fact.amendment))


def _solved(state: NoNotThatState, fact: Fact) -> None:
    claim = checks.open_claim(state, _seat(state, fact))
    tokens = [str(token) for token in cast(ev.Solved, fact.payload)["tokens"]]
    claim.tokens, claim.solved_seq, claim.solved_amendment = tokens, fact.seq, fact.amendment
    claim.solved_at = fact.at
    flow.proceed(state, fact.at)


def _challenged(state: NoNotThatState, fact: Fact) -> None:
    claim = checks.challengeable(state, _seat(state, fact))
    claim.challenge_seq, claim.challenge_amendment = fact.seq, fact.amendment
    flow.proceed(state, fact.at)


def _accepted(state: NoNotThatState, fact: Fact) -> None:
    claim = checks.challengeable(state, _seat(state, fact))
    flow.close_challenge(state, claim, "accepted", fact.at)


def _item_used(state: NoNotThatState, fact: Fact) -> None:
    seat, item = _seat(state, fact), Item(cast(ev.ItemUsed, fact.payload)["item"])
    checks.use_item(state, seat, item)
    player = state.seats[seat]
    player.used.append(item)
    if item is Item.EXTRA_SAFE:
        player.nets += 3
    else:
        player.ring_invalid = player.ring_prompt = True


def _exchanged(state: NoNotThatState, fact: Fact) -> None:
    seat, times = _seat(state, fact), int(cast(ev.Exchanged, fact.payload)["times"])
    checks.exchange(state)
    if times < 1:
        raise ValueError("times must be positive")
    state.seats[seat].score -= times
    state.seats[seat].nets += 2 * times


def _category_judged(state: NoNotThatState, fact: Fact) -> None:
    """With ``target_seq``: the verdict on that question's submission. Without (``judge_value``
    and older records): the verdict on the value for the round."""
    payload = cast(ev.CategoryJudged, fact.payload)
    if "target_seq" in payload:
        question = checks.judge_category(state, int(payload["target_seq"]))
        recorded = str(payload["object"])
        _same(normalise(recorded) or recorded, question.object)
        assert state.round is not None
        state.round.object_verdicts[question.key] = bool(payload["fits"])
    else:
        value = checks.judge_value(state, str(payload["object"]))
        assert state.round is not None
        state.round.verdicts[value] = bool(payload["fits"])
    flow.proceed(state, fact.at)


def _prompt_judged(state: NoNotThatState, fact: Fact) -> None:
    """With ``target_seq``: that claim's verdict; older records name the claim by its seat."""
    payload = cast(ev.PromptJudged, fact.payload)
    if "target_seq" in payload:
        claim = checks.judge_prompt(state, int(payload["target_seq"]))
        _same(_seat(state, fact), claim.seat)
    else:
        claim = checks.judge_prompt_of_seat(state, _seat(state, fact))
    claim.host_verdict = "correct" if payload["meets"] else "incorrect"
    flow.proceed(state, fact.at)


def _same(recorded: str, named: str) -> None:
    """A judgement's value or seat (kept for readability) must be what its target names."""
    if recorded != named:
        raise RuleViolation("nothing_to_judge", f"the target is about {named!r}, not {recorded!r}")


def _adjust_score(state: NoNotThatState, fact: Fact) -> None:
    scoring.gain(state, _seat(state, fact), int(fact.payload["delta"]))


def _end_round(state: NoNotThatState, fact: Fact) -> None:
    if not scoring.in_round(state):
        raise RuleViolation("no_round_in_progress", "no round is in progress")
    scoring.end_round(state, fact.at, "ruling")


def _declare_result(state: NoNotThatState, fact: Fact) -> None:
    winner = fact.payload.get("winner")
    if winner is not None:
        checks.known_seat(state, str(winner))
    state.result = declared_result(fact, scoring.scores(state))
    if scoring.in_round(state):  # the result ends the round at its instant: no clock runs on
        scoring.end_round(state, fact.at, "result")
    state.phase = Phase.FINISHED


def _marker(state: NoNotThatState, fact: Fact) -> None:
    """Reveals only make payloads public; the fold already knows them."""


HANDLERS: dict[str, Handler] = {
    ev.ROUND_STARTED: _round_started,
    ev.ACTED: _acted,
    ev.REVEALED: _marker,
    ev.SOLVED: _solved,
    ev.SOLUTION_REVEALED: _marker,
    ev.CHALLENGED: _challenged,
    ev.ACCEPTED: _accepted,
    ev.ITEM_USED: _item_used,
    ev.EXCHANGED: _exchanged,
    ev.CATEGORY_JUDGED: _category_judged,
    ev.PROMPT_JUDGED: _prompt_judged,
    "ruling.adjust_score": _adjust_score,
    "ruling.end_round": _end_round,
    "ruling.declare_result": _declare_result,
}
