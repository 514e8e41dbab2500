"""The command lane: ``POST /matches/{id}/commands`` answered without FastAPI's request
machinery (dependency solving, body and response handling), which cost the event loop as much
per command as deciding and appending it.

The lane is a plain Starlette route declared just before the FastAPI route of the same path and
method (:func:`install`), so the router hands every command request to it. It takes only a
request it is sure the FastAPI route would take as well: no query string,
``Content-Type: application/json``, one ``Authorization: Bearer`` header whose grant the service
already remembers (``MatchService.known_grant``), at most one ``Idempotency-Key`` in the route's
form, and a body that strict JSON parsing (``api.http.strictjson``) and ``CommandBody`` accept.
Any other request, and any such doubt, is handed to that FastAPI route (its body replayed), so
every refusal of bad input is the route's own answer.

A command it takes runs exactly as the route runs it (:func:`api.http.routes.matches.act`);
its answer is serialised by the route's response field, and an error the service raises reaches
the app's handlers as the route's would (both run inside ``ExceptionMiddleware``).
``tests/api/test_lane.py`` holds the two ways to the same answers, byte for byte.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute, serialize_response
from pydantic import ValidationError
from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from api.http import schemas
from api.http.deps import bearer_token
from api.http.limits import read_body, replay
from api.http.responses import FastJSONResponse
from api.http.routes import matches
from api.http.routes.matches import IDEMPOTENCY_KEY, act
from api.http.strictjson import strict_loads
from api.service.tokens import token_hash
from events import TokenGrant

PATH = "/matches/{match_id}/commands"
_ONCE = (b"authorization", b"idempotency-key", b"content-type", b"content-length")


class CommandLane:
    """The lane's ASGI endpoint; ``route`` is the FastAPI route it stands in for (whose response
    field, ``exclude_unset`` and status code make its answer, and which answers whatever the
    lane does not take)."""

    def __init__(self, route: APIRoute) -> None:
        self.route = route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _taken(scope)
        if headers is None:
            await self.route.handle(scope, receive, send)
            return
        messages, body = await _body(receive)
        command = _command(body) if body is not None else None
        app: FastAPI = scope["app"]
        grant = None if command is None else _grant(app, headers)
        if command is None or grant is None:
            await self.route.handle(scope, replay(messages, receive), send)
            return
        match_id = scope["path_params"]["match_id"]
        answer = await act(app.state.service, match_id, grant, command, _key(headers))
        response = await self._response(answer)
        await response(scope, receive, send)

    async def _response(self, answer: dict[str, Any]) -> FastJSONResponse:
        route = self.route
        content = await serialize_response(
            field=route.response_field,
            response_content=answer,
            exclude_unset=route.response_model_exclude_unset,
        )
        return FastJSONResponse(content, status_code=route.status_code or 200)


class LaneRoute(Route):
    """The lane as the router sees it: ``POST`` on the command path, left out of the OpenAPI
    document (the FastAPI route documents the command)."""

    def __init__(self, path: str, endpoint: CommandLane, methods: list[str]) -> None:
        super().__init__(path, endpoint, methods=methods, include_in_schema=False)


def install(app: FastAPI) -> None:
    """Declare the lane first among the app's routes: the router hands it every request for
    ``POST`` on the command path (no other route has that path), before the FastAPI route."""
    app.router.routes.insert(0, LaneRoute(PATH, CommandLane(_command_route()), methods=["POST"]))


def _command_route() -> APIRoute:
    """The FastAPI route the lane stands in for, as ``api.http.routes.matches`` declares it
    (included into the app as it is: no prefix, no dependencies added)."""
    for route in matches.router.routes:
        if isinstance(route, APIRoute) and route.path == PATH and "POST" in (route.methods or ()):
            return route
    raise LookupError(f"no route POST {PATH}")


def _taken(scope: Scope) -> Headers | None:
    """The headers of a command request the lane may take (None: the route's)."""
    if scope.get("query_string") or scope.get("root_path"):
        return None
    raw = scope.get("headers") or []
    names = [name for name, _ in raw if name in _ONCE]
    if len(names) != len(set(names)):
        return None
    headers = Headers(raw=raw)
    if headers.get("content-type") != "application/json":
        return None
    key = headers.get("idempotency-key")
    if key is not None and IDEMPOTENCY_KEY.fullmatch(key) is None:
        return None
    return headers


async def _body(receive: Receive) -> tuple[list[Message], bytes | None]:
    """The request's messages up to the end of its body, and the body (None: a disconnect;
    ``BodyLimit``, outside, has bounded it)."""
    messages = await read_body(receive) or []
    if not messages or messages[-1]["type"] != "http.request":
        return messages, None
    return messages, b"".join(message.get("body", b"") for message in messages)


def _command(body: bytes) -> schemas.CommandBody | None:
    """The body as the route reads it, or None when the route would refuse it (or doubt)."""
    if not body:
        return None
    try:
        return schemas.CommandBody.model_validate(strict_loads(body))
    except (ValueError, RecursionError, ValidationError):  # JSONDecodeError is a ValueError
        return None


def _grant(app: FastAPI, headers: Headers) -> TokenGrant | None:
    """The grant of the request's bearer token, when the service remembers it."""
    authorization = headers.get("authorization")
    if authorization is None:
        return None
    try:
        token = bearer_token(authorization)
    except Exception:  # the route words the refusal
        return None
    grant: TokenGrant | None = app.state.service.known_grant(token_hash(token))
    return grant


def _key(headers: Headers) -> str | None:
    return headers.get("idempotency-key")
