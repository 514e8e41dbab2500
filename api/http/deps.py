"""Request dependencies: the service, the clock and who is asking (``Annotated`` aliases)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from api.http.errors import ApiError
from api.service import access
from api.service.matches import MatchService
from api.service.tokens import token_hash
from events import TokenGrant


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
    grant = service.known_grant(hashed) or await run_in_threadpool(service.grant_for, hashed)
    if grant is None and await run_in_threadpool(service.store.has_operator_token, hashed):
        grant = access.OPERATOR
    if grant is None:
        raise ApiError(401, "invalid_token", "this token is not known to the service")
    return grant


async def required_grant(
    grant: Annotated[TokenGrant | None, Depends(optional_grant)],
) -> TokenGrant:
    if grant is None:
        raise ApiError(401, "missing_token", "this action needs 'Authorization: Bearer <token>'")
    return grant


async def operator(request: Request, service: Service, _: Authorization = None) -> None:
    token = _bearer(request)
    if token is None:
        raise ApiError(401, "missing_token", "creating matches needs the operator token")
    known = await run_in_threadpool(service.store.has_operator_token, token_hash(token))
    if not known:
        raise ApiError(403, "not_operator", "this token may not create matches")


Grant = Annotated[TokenGrant, Depends(required_grant)]
MaybeGrant = Annotated[TokenGrant | None, Depends(optional_grant)]
Operator = Depends(operator)
