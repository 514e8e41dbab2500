"""Matches: create, list, act (commands and rulings), read (events and state at any time)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Query

from adjudicator import rulings
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Role, Viewer
from api import schemas
from api.deps import Grant, MaybeGrant, Operator, Service, for_match
from api.errors import ApiError
from api.service import Acted
from events import MatchRecord
from projections.timetravel import diff, match_timeline, rulings_between
from projections.views import event_view, state_view

router = APIRouter(tags=["matches"])

IdempotencyKey = Annotated[
    str | None, Header(alias="Idempotency-Key", max_length=200, description="retry-safe key")
]
At = Annotated[datetime | None, Query(description="game time (default: now)")]
KnownAt = Annotated[datetime | None, Query(description="record time (default: now)")]


def _summary(match: MatchRecord) -> dict[str, Any]:
    return {
        "match_id": match.match_id,
        "game": match.game,
        "rules_version": match.rules_version,
        "status": match.status,
        "created_at": iso(match.created_at),
        "seats": match.setup["seats"],
        "advantage": match.setup.get("advantage"),
        "last_seq": match.last_seq,
    }


@router.post("/matches", status_code=201, dependencies=[Operator])
def create_match(service: Service, request: schemas.CreateMatch) -> schemas.MatchCreated:
    created = service.create_match(
        request.game, request.seats, request.advantage, request.config, request.seed
    )
    match = created.match
    return schemas.MatchCreated(
        match_id=match.match_id,
        game=match.game,
        rules_version=match.rules_version,
        seats=list(request.seats),
        tokens=created.tokens,
    )


@router.get("/matches")
def list_matches(
    service: Service,
    game: str | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> list[dict[str, Any]]:
    return [_summary(m) for m in service.store.list_matches(game, None, limit, offset)]


@router.get("/matches/{match_id}")
def get_match(service: Service, match_id: str) -> dict[str, Any]:
    return _summary(service.match(match_id))


def _acted(acted: Acted, service: Service, match: MatchRecord, grant: Any) -> dict[str, Any]:
    viewer = service.viewer(match, grant)
    return {
        "events": [event_view(e, viewer) for e in acted.events],
        "outcome": acted.outcome,
        "replayed": acted.replayed,
    }


@router.post("/matches/{match_id}/commands", status_code=201)
def post_command(
    service: Service,
    match_id: str,
    grant: Grant,
    command: Annotated[schemas.CommandBody, Body()],
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    for_match(grant, match_id)
    body = command.model_dump(mode="json", exclude={"occurred_at"})
    acted = service.execute(
        match_id, grant, body, occurred_at=command.occurred_at, idempotency_key=idempotency_key
    )
    return _acted(acted, service, service.match(match_id), grant)


@router.post("/matches/{match_id}/rulings", status_code=201)
def post_ruling(
    service: Service,
    match_id: str,
    grant: Grant,
    ruling: Annotated[rulings.RulingCommand, Body()],
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    for_match(grant, match_id)
    acted = service.rule(match_id, grant, ruling, idempotency_key=idempotency_key)
    return _acted(acted, service, service.match(match_id), grant)


@router.get("/matches/{match_id}/events")
def list_events(
    service: Service,
    match_id: str,
    grant: MaybeGrant,
    known_at: KnownAt = None,
    after_seq: Annotated[int, Query(ge=0)] = 0,
) -> list[dict[str, Any]]:
    match = service.match(match_id)
    viewer = service.viewer(match, grant)
    return [event_view(e, viewer) for e in service.events(match_id, known_at, after_seq)]


@router.get("/matches/{match_id}/state")
def get_state(
    service: Service, match_id: str, grant: MaybeGrant, at: At = None, known_at: KnownAt = None
) -> dict[str, Any]:
    snap = service.snapshot(match_id, _aware(at), _aware(known_at))
    game = service.game(snap.match.game)
    return state_view(game, snap, service.viewer(snap.match, grant))


def _aware(moment: datetime | None) -> datetime | None:
    if moment is not None and moment.tzinfo is None:
        raise ApiError(422, "naive_time", "give times with a zone, e.g. 2026-01-01T12:00:00Z")
    return moment


@router.post("/matches/{match_id}/close", status_code=201)
def close_match(service: Service, match_id: str, grant: Grant) -> dict[str, Any]:
    """Host: close the match; its result is recorded and private facts open to auditors."""
    for_match(grant, match_id)
    acted = service.close(match_id, grant)
    return _acted(acted, service, service.match(match_id), grant)


@router.get("/matches/{match_id}/diff")
def diff_known(
    service: Service,
    match_id: str,
    grant: MaybeGrant,
    before: Annotated[datetime, Query(description="the earlier record time")],
    after: KnownAt = None,
    at: At = None,
) -> dict[str, Any]:
    """What changed in the state at game time ``at`` between record times ``before`` and
    ``after`` (default now), and the rulings recorded in between that explain it."""
    then = service.snapshot(match_id, _aware(at), _aware(before))
    now = service.snapshot(match_id, then.at, _aware(after))
    game = service.game(then.match.game)
    viewer = service.viewer(then.match, grant)
    old, new = state_view(game, then, viewer), state_view(game, now, viewer)
    events = service.events(match_id, known_at=_aware(after))
    return {
        "at": old["at"],
        "before": iso(_aware(before) or then.at),
        "after": new["known_at"],
        "rulings": rulings_between(events, before, _aware(after)),
        "changes": diff(old["state"], new["state"], "state")
        + diff(old["voided"], new["voided"], "voided"),
    }


@router.get("/matches/{match_id}/timeline")
def get_timeline(
    service: Service, match_id: str, grant: MaybeGrant, known_at: KnownAt = None
) -> dict[str, Any]:
    """Score and key outcomes over game time, one point per event that acted on the game."""
    match = service.match(match_id)
    events = service.events(match_id, known_at=_aware(known_at))
    viewer = service.viewer(match, grant)
    points = match_timeline(service.game(match.game), match, events, viewer)
    return {"match_id": match_id, "points": points}


@router.get("/feed", dependencies=[Operator])
def feed(
    service: Service,
    after_position: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> list[dict[str, Any]]:
    """Operator: every match's events in global order after ``after_position`` (gap-free in
    commit order, so a reader tailing it never skips one), private payloads withheld."""
    spectator = Viewer(Role.SPECTATOR)
    return [
        {"match_id": e.match_id, "position": e.position, **event_view(e, spectator)}
        for e in service.store.read_after(after_position, limit)
    ]
