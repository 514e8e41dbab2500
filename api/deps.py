"""Request dependencies: the service, the clock and who is asking (``Annotated`` aliases)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Header, Request

from api.errors import ApiError
from api.service import MatchService
from api.tokens import token_hash
from events import TokenGrant


def get_service(request: Request) -> MatchService:
    service: MatchService = request.app.state.service
    return service


def get_clock(request: Request) -> Callable[[], datetime]:
    clock: Callable[[], datetime] = request.app.state.service.clock
    return clock


Service = Annotated[MatchService, Depends(get_service)]


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "invalid_token", "send the token as 'Authorization: Bearer <token>'")
    return token.strip()


def optional_grant(
    service: Service, authorization: Annotated[str | None, Header()] = None
) -> TokenGrant | None:
    """The token's grant, or None for an anonymous spectator."""
    token = _bearer(authorization)
    if token is None:
        return None
    grant = service.grant_for(token_hash(token))
    if grant is None:
        raise ApiError(401, "invalid_token", "this token is not known to the service")
    return grant


def required_grant(grant: Annotated[TokenGrant | None, Depends(optional_grant)]) -> TokenGrant:
    if grant is None:
        raise ApiError(401, "missing_token", "this action needs 'Authorization: Bearer <token>'")
    return grant


def operator(service: Service, authorization: Annotated[str | None, Header()] = None) -> None:
    token = _bearer(authorization)
    if token is None:
        raise ApiError(401, "missing_token", "creating matches needs the operator token")
    if not service.store.has_operator_token(token_hash(token)):
        raise ApiError(403, "not_operator", "this token may not create matches")


Grant = Annotated[TokenGrant, Depends(required_grant)]
MaybeGrant = Annotated[TokenGrant | None, Depends(optional_grant)]
Operator = Depends(operator)


def for_match(grant: TokenGrant, match_id: str) -> TokenGrant:
    if grant.match_id != match_id:
        raise ApiError(403, "token_not_for_match", "this token belongs to another match")
    return grant
