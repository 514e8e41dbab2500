"""Request dependencies: the service, the clock and who is asking (``Annotated`` aliases)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.concurrency import run_in_threadpool

from api.http.errors import ApiError
from api.service import access
from api.service.matches import MatchService
from api.service.standby import READ_FROM, UNREACHABLE, Standby
from api.service.tokens import token_hash
from events import TokenGrant
from events.standby import Cut
from projections.views import Known

T = TypeVar("T")


async def get_service(request: Request) -> MatchService:
    service: MatchService = request.app.state.service
    return service


Service = Annotated[MatchService, Depends(get_service)]


BEARER = HTTPBearer(
    auto_error=False,
    description="A match's host, seat or auditor token, or the operator token (see README)",
)
Authorization = Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)]


def _bearer(request: Request) -> str | None:
    """The bearer token of the request (the scheme is declared to OpenAPI by ``BEARER``)."""
    authorization = request.headers.get("authorization")
    return None if authorization is None else bearer_token(authorization)


def bearer_token(authorization: str) -> str:
    """The token of an ``Authorization`` header's value (401 ``invalid_token`` unless it is
    ``Bearer <token>``)."""
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "invalid_token", "send the token as 'Authorization: Bearer <token>'")
    return token.strip()


async def optional_grant(
    request: Request, service: Service, _: Authorization = None
) -> TokenGrant | None:
    """The token's grant, or None for an anonymous spectator; the operator token reads every
    match (as an auditor does). Async: a remembered grant costs no trip to the thread pool; an
    unknown one is looked up there."""
    token = _bearer(request)
    if token is None:
        return None
    hashed = token_hash(token)
    grant = service.known_grant(hashed)
    if grant is None:
        standby = request.app.state.standby
        grant = await run_in_threadpool(_grant_anywhere, service, standby, hashed)
    if grant is None:
        raise ApiError(401, "invalid_token", "this token is not known to the service")
    return grant


def _grant_of(service: MatchService, hashed: str) -> TokenGrant | None:
    grant = service.grant_for(hashed)
    if grant is None and service.store.has_operator_token(hashed):
        grant = access.OPERATOR
    return grant


def _grant_anywhere(
    service: MatchService, standby: Standby | None, hashed: str
) -> TokenGrant | None:
    """The token's grant from the primary; while the primary cannot be reached, from a standby
    (grants never change once issued). A token no standby knows yet then still answers 503
    ``store_unavailable``, never 401: it may have been issued just before the primary fell."""
    try:
        return _grant_of(service, hashed)
    except UNREACHABLE as unreachable:
        if standby is None:
            raise
        try:
            grant = _grant_of(standby.service, hashed)
        except UNREACHABLE:
            grant = None
        if grant is None:
            raise unreachable from None
        return grant


def cut_of(known: Known) -> Cut:
    """The record time a read names, as the standby's check takes it."""
    return Cut(known.at, known.seq)


def reading(
    request: Request, service: MatchService, match_id: str, *cuts: Cut
) -> tuple[MatchService, dict[str, str]]:
    """The service that answers a read of ``match_id`` as known at every one of ``cuts`` (a
    standby's when it holds all they need, ``api.service.standby``), and the header that says
    which server it is."""
    chosen, server = service, "primary"
    standby: Standby | None = request.app.state.standby
    if standby is not None and all(standby.covers(match_id, cut) for cut in cuts):
        chosen, server = standby.service, "standby"
    return chosen, {READ_FROM: server}


def answered_by(
    request: Request,
    service: MatchService,
    match_id: str,
    answer: Callable[[MatchService], T],
    *cuts: Cut,
) -> tuple[T, dict[str, str]]:
    """``answer`` from the service :func:`reading` chooses; when a standby was chosen but fails
    it (the rare read that would write, such as signing a checkpoint never signed; a standby
    lost meanwhile), from the primary."""
    chosen, served = reading(request, service, match_id, *cuts)
    if chosen is service:
        return answer(service), served
    try:
        return answer(chosen), served
    except (DBAPIError, PoolTimeout):
        return answer(service), {READ_FROM: "primary"}


async def required_grant(
    grant: Annotated[TokenGrant | None, Depends(optional_grant)],
) -> TokenGrant:
    if grant is None:
        raise ApiError(401, "missing_token", "this action needs 'Authorization: Bearer <token>'")
    return grant


async def operator(request: Request, service: Service, _: Authorization = None) -> None:
    token = _bearer(request)
    act = f"{request.method} {request.url.path}"  # the caller's own request, nothing more
    if token is None:
        raise ApiError(401, "missing_token", f"{act} needs the operator token")
    known = await run_in_threadpool(service.store.has_operator_token, token_hash(token))
    if not known:
        raise ApiError(403, "not_operator", f"{act}: this is not the operator token")


Grant = Annotated[TokenGrant, Depends(required_grant)]
MaybeGrant = Annotated[TokenGrant | None, Depends(optional_grant)]
Operator = Depends(operator)
