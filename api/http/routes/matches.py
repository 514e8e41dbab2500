"""Matches: create, list, act (commands and rulings), read (events and state at any time)."""

from __future__ import annotations

import re
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Header, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from adjudicator import rulings
from api.http import schemas
from api.http.deps import Grant, MaybeGrant, Operator, Service, cut_of, reading
from api.http.errors import ApiError
from api.http.params import MAX_POSITION, MAX_SEQ, At, KnownParam, KnownSeq, RawTime, Seq
from api.http.responses import FastJSONResponse, SharedBodies
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute
from api.service import host, reads
from api.service.matches import MatchService
from events import TokenGrant

router = APIRouter(route_class=StrictJsonRoute, tags=["matches"])
# The read routes of a long match (events, state, diff, timeline) answer with their JSON already
# encoded (``FastJSONResponse``): FastAPI would otherwise validate the whole body against the
# response model and serialise it twice, which cost more than building it. The models still
# document the bodies; tests/api/test_openapi.py and schemathesis check the answers conform.
ACTING = errors(401, 403, 404, 409, 422)
READING = errors(401, 404, 422)

IDEMPOTENCY_KEY = re.compile(r"[\x20-\x7e]{1,200}")
"""An Idempotency-Key's form: 1 to 200 printable ASCII characters (no control characters)."""
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=f"^{IDEMPOTENCY_KEY.pattern}$",
        description="retry-safe key: 1 to 200 printable ASCII characters",
    ),
]
DEFAULT_PAGE = 1000
MAX_PAGE = 5000


@router.post(
    "/matches", status_code=201, dependencies=[Operator], responses=errors(401, 403, 409, 422)
)
def create_match(service: Service, request: schemas.CreateMatch) -> schemas.MatchCreated:
    drafted = service.new_match(
        request.game, request.seats, request.advantage, request.config, request.seed
    )
    created = service.create(drafted)
    match = created.match
    return schemas.MatchCreated(
        match_id=match.match_id,
        game=match.game,
        rules_version=match.rules_version,
        seats=list(request.seats),
        tokens=schemas.Tokens.model_validate(created.tokens),
    )


@router.get("/matches", response_model=list[schemas.MatchSummary], responses=errors(422))
def list_matches(
    service: Service,
    game: str | None = None,
    status: Annotated[
        Literal["open", "finished", "closed"] | None,
        Query(description="open: being played; finished: has a result, not closed yet; closed"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
) -> list[dict[str, Any]]:
    """Matches, newest first, with their status, result and winner; filter by game and status
    (``limit`` and ``offset`` page the stored matches before an open/finished filter)."""
    return reads.match_list(service, game, status, limit, offset)


@router.get("/matches/{match_id}", response_model=schemas.MatchSummary, responses=errors(404))
def get_match(service: Service, match_id: str) -> dict[str, Any]:
    return reads.match_summary(service, match_id)


@router.post(
    "/matches/{match_id}/commands",
    status_code=201,
    response_model=schemas.Acted,
    responses=ACTING,
    response_model_exclude_unset=True,  # an event's salt: for whoever sees everything
)
async def post_command(
    service: Service,
    match_id: str,
    grant: Grant,
    command: Annotated[schemas.CommandBody, Body()],
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    # async: decided on the event loop when it can be (MatchService.execute_async), else in
    # the thread pool; a sync endpoint also validates its answer in the thread pool, a second
    # hand-over to a thread per request (so the ruling and the close are async too). Most
    # commands come by the command lane (api.http.lane), which calls ``act`` as this does.
    return await act(service, match_id, grant, command, idempotency_key)


async def act(
    service: MatchService,
    match_id: str,
    grant: TokenGrant,
    command: schemas.CommandBody,
    idempotency_key: str | None,
) -> dict[str, Any]:
    """A command carried out, and its answer before the response model (see ``post_command``)."""
    body = command.model_dump(mode="json", exclude={"occurred_at"})
    key, at = idempotency_key, command.occurred_at
    acted = await service.execute_async(match_id, grant, body, occurred_at=at, idempotency_key=key)
    return reads.acted(acted)


@router.post(
    "/matches/{match_id}/rulings",
    status_code=201,
    response_model=schemas.Acted,
    responses=ACTING,
    response_model_exclude_unset=True,  # an event's salt: for whoever sees everything
)
async def post_ruling(
    service: Service,
    match_id: str,
    grant: Grant,
    ruling: Annotated[rulings.RulingCommand, Body()],
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    rule = partial(host.rule, service, match_id, grant, ruling, idempotency_key=idempotency_key)
    return reads.acted(await run_in_threadpool(rule))


@router.get(
    "/matches/{match_id}/events",
    response_model=list[schemas.Event],
    responses=READING,
    response_model_exclude_unset=True,  # an event's salt: for whoever sees everything
)
def list_events(
    request: Request,
    service: Service,
    match_id: str,
    grant: MaybeGrant,
    known: KnownParam,
    after_seq: Seq = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = DEFAULT_PAGE,
) -> Response:
    """The log after ``after_seq``, at most ``limit`` events (a ``Link: rel="next"`` header
    names the next page when there may be more), as recorded by ``known_at``/``known_seq``."""
    service, served = reading(request, service, match_id, cut_of(known))
    page = reads.events(service, match_id, grant, known, after_seq, limit)
    answer = FastJSONResponse(page, headers=served)
    if len(page) == limit:
        answer.headers["Link"] = f'<?after_seq={page[-1]["seq"]}&limit={limit}>; rel="next"'
    return answer


@router.get("/matches/{match_id}/state", response_model=schemas.State, responses=READING)
def get_state(
    request: Request, service: Service, match_id: str, grant: MaybeGrant, at: At, known: KnownParam
) -> Response:
    """The state at game time ``at`` (default now) as known at ``known_at``/``known_seq``
    (default now), as the asking role may see it. A viewer who does not see everything never
    sees past the record time asked about: ``at`` is cut to it (the answer's ``at`` says so)."""
    service, served = reading(request, service, match_id, cut_of(known))
    return FastJSONResponse(reads.state(service, match_id, grant, at, known), headers=served)


@router.post(
    "/matches/{match_id}/close",
    status_code=201,
    response_model=schemas.Acted,
    responses=errors(401, 403, 404, 409),
    response_model_exclude_unset=True,  # an event's salt: for whoever sees everything
)
async def close_match(service: Service, match_id: str, grant: Grant) -> dict[str, Any]:
    """Host: close the match; its result is recorded and private facts open to auditors."""
    return reads.acted(await run_in_threadpool(host.close, service, match_id, grant))


@router.get("/matches/{match_id}/diff", response_model=schemas.Diff, responses=READING)
def diff_known(
    request: Request,
    service: Service,
    match_id: str,
    grant: MaybeGrant,
    at: At,
    before: RawTime = None,
    before_seq: KnownSeq = None,
    after: RawTime = None,
    after_seq: KnownSeq = None,
) -> Response:
    """What changed in the state at game time ``at`` between two record times (``before`` or
    ``before_seq``; ``after`` or ``after_seq``, default now), and the rulings recorded in
    between that explain it."""
    old_known = reads.record_time(before, before_seq, "before")
    if old_known.is_now:
        raise ApiError(422, "invalid_request", "give the earlier record time: before or before_seq")
    new_known = reads.record_time(after, after_seq, "after")
    service, served = reading(request, service, match_id, cut_of(old_known), cut_of(new_known))
    return FastJSONResponse(
        reads.state_diff(service, match_id, grant, at, old_known, after, after_seq),
        headers=served,
    )


@router.get("/matches/{match_id}/timeline", response_model=schemas.Timeline, responses=READING)
def get_timeline(
    request: Request, service: Service, match_id: str, grant: MaybeGrant, known: KnownParam
) -> Response:
    """Score and key outcomes over game time, one point per event that acted on the game."""
    service, served = reading(request, service, match_id, cut_of(known))
    body, shared = reads.timeline(service, match_id, grant, known)
    if not shared:  # a viewer's own copy (something is hidden from it)
        return FastJSONResponse(body, headers=served)
    bodies: SharedBodies = request.app.state.bodies
    answer = bodies.response(request, body, body["points"])
    answer.headers.update(served)
    return answer


@router.get(
    "/feed",
    dependencies=[Operator],
    response_model=list[schemas.FeedEvent],
    responses=errors(401, 403, 422),
    response_model_exclude_unset=True,  # an event's salt: for whoever sees everything
)
def feed(
    service: Service,
    after_position: Annotated[int, Query(ge=0, le=MAX_POSITION)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> list[dict[str, Any]]:
    """Operator: every match's events in global order after ``after_position`` (gap-free in
    commit order, so a reader tailing it never skips one), private payloads withheld."""
    return reads.feed(service, after_position, limit)
