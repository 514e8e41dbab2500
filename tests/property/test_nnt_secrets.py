"""Property: random legal play never breaks the fold, and no view leaks an unrevealed secret.

Hypothesis drives a match by picking, at random instants, among the commands that are legal in
the folded state (both seats, the host's round starts and judgements, items, time passing).
After every command the whole log is folded again; then both seats' and a spectator's views are
checked: the opponent's sealed step action, Head Start object and sealed solution never show.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from adjudicator.games.no_not_that import NoNotThatState, Phase
from adjudicator.games.no_not_that.flow import accusable
from adjudicator.games.no_not_that.judge import pending_category_values, pending_prompt_seats
from tests.support.nnt_harness import HOST_NAME, Match, at, consonant_round, make_config, viewer

SEATS = ("Alpha", "Beta")
Move = tuple[str, str, dict[str, Any]]


def config() -> dict[str, Any]:
    rounds = [
        consonant_round(category={"kind": "letters", "letters": "all"}),
        consonant_round(category={"kind": "host"}, prompt={"kind": "sum", "target": 10}),
        consonant_round(prompt={"kind": "host"}),
    ]
    items = {seat: ["extra_safe", "life_ring", "head_start"] for seat in SEATS}
    return make_config(rounds=3, countdown_seconds=0) | {"rounds": rounds, "items": items}


def legal_moves(state: NoNotThatState, fresh: str) -> list[Move]:
    moves: list[Move] = []
    if state.phase in (Phase.WAITING, Phase.BETWEEN_ROUNDS):
        moves.append((HOST_NAME, "start_round", {"round": state.rounds_played + 1}))
    if state.phase is Phase.BETWEEN_ROUNDS:
        moves += [(seat, "exchange", {}) for seat in SEATS]
    if state.phase is not Phase.FINISHED:
        for seat in SEATS:
            moves += [
                (seat, "use_item", {"item": item})
                for item in ("extra_safe", "life_ring")
                if item not in state.seats[seat].used
            ]
    if state.phase is Phase.STEP:
        moves += _step_moves(state, fresh)
    if state.phase is Phase.CLAIMS:
        moves += _claim_moves(state)
    if state.phase in (Phase.JUDGING, Phase.CLAIMS):
        moves += _host_moves(state)
    return moves


def _step_moves(state: NoNotThatState, fresh: str) -> list[Move]:
    assert state.round is not None
    moves: list[Move] = []
    for seat in SEATS:
        if state.seats[seat].action is not None:
            continue
        if state.round.last_step:
            moves.append((seat, "pass", {}))
        else:
            moves += [(seat, "submit", {"object": v}) for v in (fresh, "3", "7", "B", "W", "E")]
        moves.append((seat, "claim_prompt", {}))
        if accusable(state.round, state.fixed.other(seat)) is not None:
            moves.append((seat, "claim_invalid", {}))
        if state.round.step == 1 and "head_start" not in state.seats[seat].used:
            moves.append((seat, "head_start", {"object": "HS" + fresh}))
    return moves


def _claim_moves(state: NoNotThatState) -> list[Move]:
    assert state.round is not None
    in_play = [o.value for o in state.round.objects if o.in_play and not o.removed]
    moves: list[Move] = []
    for claim in state.round.prompt_claims:
        head = state.seats[claim.seat].head_start
        if claim.awaiting_solution:
            tries = (in_play[:2], [*in_play[-3:], "I"], [head or "Q", "3", "7"], ["3", "7"])
            moves += [(claim.seat, "solve", {"tokens": t or ["Q"]}) for t in tries]
        if claim.challenge_open:
            other = state.fixed.other(claim.seat)
            moves += [(other, "challenge", {}), (other, "accept", {})]
    return moves


def _host_moves(state: NoNotThatState) -> list[Move]:
    moves: list[Move] = []
    for value in pending_category_values(state):
        moves += [(HOST_NAME, "judge_category", {"object": value, "fits": f}) for f in (1, 0)]
    for seat in pending_prompt_seats(state):
        moves += [(HOST_NAME, "judge_prompt", {"seat": seat, "meets": m}) for m in (1, 0)]
    return [
        (who, kind, {k: bool(v) if k in ("fits", "meets") else v for k, v in f.items()})
        for who, kind, f in moves
    ]


def secrets_of(state: NoNotThatState, seat: str) -> list[str]:
    """Unique strings only ``seat`` (and the host) may see now."""
    player = state.seats[seat]
    found: list[str] = []
    action = player.action if state.phase is Phase.STEP else None  # later: revealed
    if action is not None and action.value and action.value.startswith(("U", "HS")):
        found.append(action.value)
    revealed: set[str] = set()
    if state.round is not None:
        for claim in state.round.prompt_claims:
            if claim.revealed_at is not None and claim.tokens:
                revealed |= {t.upper() for t in claim.tokens}
    if player.head_start and player.head_start not in revealed:
        found.append(player.head_start)
    return found


def check_views(m: Match, now: float) -> None:
    state = m.state(now)
    assert not state.voided, state.voided
    assert m.game.advance(state, at(now)) is state
    for seat in SEATS:
        secret = secrets_of(state, seat)
        for who in (state.fixed.other(seat), "spectator"):
            shown = m.game.view(state, viewer(who))
            text = json.dumps(shown)
            assert not [s for s in secret if s in text], (who, secret)
            for claim in shown["round"]["prompt_claims"] if shown["round"] else []:
                sealed = _sealed(state, claim["seat"])
                if claim["seat"] == seat and sealed:
                    assert claim["solution"] is None


def _sealed(state: NoNotThatState, seat: str) -> bool:
    assert state.round is not None
    return any(
        c.seat == seat and c.tokens is not None and c.revealed_at is None
        for c in state.round.prompt_claims
    )


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_legal_play_folds_and_never_leaks_a_secret(data: st.DataObject) -> None:
    m = Match(config())
    now = 0.0
    for turn in range(60):
        now += data.draw(st.sampled_from([0.0, 1.0, 5.0, 29.0, 61.0]), label="wait")
        state = m.state(now)
        if state.phase is Phase.FINISHED:
            break
        moves = legal_moves(state, f"U{turn}")
        if not moves:
            continue
        who, kind, fields = data.draw(st.sampled_from(moves), label="move")
        event(kind)
        m.do(now, who, kind, state=state, **fields)
        check_views(m, now)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_voiding_any_events_never_breaks_the_fold(data: st.DataObject) -> None:
    m = Match(config())
    now = 0.0
    for turn in range(40):
        now += data.draw(st.sampled_from([0.0, 2.0, 31.0, 61.0]), label="wait")
        state = m.state(now)
        moves = legal_moves(state, f"U{turn}")
        if state.phase is Phase.FINISHED or not moves:
            break
        who, kind, fields = data.draw(st.sampled_from(moves), label="move")
        m.do(now, who, kind, state=state, **fields)
    targets = data.draw(st.sets(st.integers(1, len(m.facts)), max_size=4), label="voided")
    for seq in sorted(targets):
        m.rule(now, {"type": "void", "target_seq": seq, "reason": "disconnection"})
    for moment in (now / 3, now / 2, now, now + 500):
        state = m.state(moment)
        for who in (*SEATS, "spectator", HOST_NAME):
            json.dumps(m.game.view(state, viewer(who)))
