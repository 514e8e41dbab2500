"""Property: random legal play never breaks the fold, and no view leaks an unrevealed secret.

Hypothesis drives a match by picking, at random instants, among the commands that are legal in
the folded state (both seats, the host's round starts and judgements, items, time passing).
After every command the whole log is folded again; then both seats' and a spectator's views are
checked: the opponent's sealed step action, Head Start object and sealed solution never show.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from adjudicator.games.no_not_that import NoNotThatState, Phase
from tests.support.nnt_harness import HOST_NAME, Match, at, viewer
from tests.support.nnt_moves import SEATS, config, legal_moves


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
    max_examples=25,
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
