"""What only the host records beside game commands: rulings and the match's close. Functions of
the match service (no HTTP here), like the read side's (``api.service.reads``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from adjudicator import rulings
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import HOST, MATCH_CLOSED, Draft
from adjudicator.kernel.errors import RuleViolation
from adjudicator.kernel.payloads import plain
from api.service import access, handling
from api.service.matches import Acted, MatchService
from api.service.requests import not_in_future, request_digest, scoped_key
from events import IdempotentReplay, MatchRecord, NewEvent, TokenGrant


def rule(
    service: MatchService,
    match_id: str,
    grant: TokenGrant,
    ruling: rulings.AnyRuling,
    *,
    idempotency_key: str | None = None,
) -> Acted:
    """Host: record a ruling at its game time (default now, never in the future), after
    checking that it can act (see ``adjudicator.rulings``)."""
    access.acting_in(grant, match_id)
    match = service.match(match_id)
    access.require_host(grant, "issues rulings")
    now = service.clock()
    at = now if ruling.occurred_at is None else not_in_future(ruling.occurred_at, now)
    key = scoped_key(HOST, idempotency_key)
    digest = request_digest(HOST, ruling.model_dump(mode="json"), at)
    viewer = access.viewer_of(match, grant)

    def decide(loaded: handling.Loaded) -> handling.Plan[None]:
        draft = _decide_ruling(service, loaded, ruling, at)
        return handling.Plan([NewEvent(draft.type, HOST, at, plain(draft.payload))], None)

    try:
        handled = handling.handle(service, match, decide, key=key, digest=digest)
    except IdempotentReplay as replayed:
        return Acted(replayed.events, None, replayed=True, viewer=viewer)
    return Acted(handled.stored, None, replayed=False, viewer=viewer)


def _decide_ruling(
    service: MatchService, loaded: handling.Loaded, ruling: rulings.AnyRuling, at: datetime
) -> Draft:
    match, game, running = loaded.match, loaded.game, loaded.running
    seq = rulings.target_seq(ruling)
    if seq is None:
        target = None
    else:
        target = rulings.RulingTarget(seq, _type_of(service, match, seq, running.seq))
    draft = rulings.decide_ruling(
        ruling,
        actor=HOST,
        last_seq=running.seq,
        seats=match.setup["seats"],
        target=target,
        supported=game.rulings,
        amendable=game.amendable,
    )
    ended = isinstance(ruling, rulings.EndRound)
    if ended and not game.in_round(service.state_at(match, running, at)):
        raise RuleViolation("no_round_in_progress", f"no round is in progress at {iso(at)}")
    return draft


def _type_of(service: MatchService, match: MatchRecord, seq: int, last_seq: int) -> str | None:
    """The type of event ``seq``; None for a seq the match has not recorded (past
    ``last_seq``, below 1), without a read: the rules refuse it as ``unknown_seq`` either way.
    (The store's read also takes a seq past its own integers; see ``events.rows``.)"""
    if not 1 <= seq <= last_seq:
        return None
    found = service.store.read(match.match_id, after_seq=seq - 1, to_seq=seq)
    return found[0].type if found else None


def close(service: MatchService, match_id: str, grant: TokenGrant) -> Acted:
    """Host: close the match. The result as folded now is recorded in ``match.closed`` by the
    append that closes the match (of racing closes one wins, the others get
    ``match_closed``); from then on nothing more is recorded, and auditors see every private
    fact and salt."""
    access.acting_in(grant, match_id)
    access.require_host(grant, "closes a match")
    match = service.match(match_id)

    def decide(loaded: handling.Loaded) -> handling.Plan[dict[str, Any]]:
        running, game = loaded.running, loaded.game
        now = max(service.clock(), running.last_play or service.clock())
        state = running.at(game, now) or service.snapshot_of(match, now).folded.state
        payload = {"result": game.result(state), "rules_version": game.rules_version}
        return handling.Plan([NewEvent(MATCH_CLOSED, HOST, now, payload)], payload)

    handled = handling.handle(service, match, decide, close=True)
    closed = replace(match, status="closed", closed_at=handled.stored[-1].recorded_at)
    return Acted(
        handled.stored, handled.then, replayed=False, viewer=access.viewer_of(closed, grant)
    )
