"""The command lane: ``POST /matches/{id}/commands`` answered without FastAPI's request
machinery (routing, dependency solving, body and response handling), which cost the event loop
as much per command as deciding and appending it.

The lane takes only a request it is sure the FastAPI route would take as well: no query
string, ``Content-Type: application/json``, one ``Authorization: Bearer`` header whose grant
the service already remembers (``MatchService.known_grant``), at most one ``Idempotency-Key``
in the route's form, and a body that strict JSON parsing (``api.http.strictjson``) and
``CommandBody`` accept. Any other request, and any such doubt, is handed to the app unchanged
(its body replayed), so every refusal of bad input is the route's own answer.

A command it takes runs exactly as the route runs it (:func:`api.http.routes.matches.act`);
its answer is serialised by the route's response field, and an error the service raises is
answered by the app's handler for it (``api.http.errors``), as ``ExceptionMiddleware`` would.
``tests/api/test_lane.py`` holds the two ways to the same answers, byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute, serialize_response
from pydantic import ValidationError
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
_PATH = re.compile(r"/matches/([^/]+)/commands")
_ONCE = (b"authorization", b"idempotency-key", b"content-type", b"content-length")


class CommandLane:
    """ASGI middleware, innermost of the app's own (the request log, the in-flight count, the
    compression and the body limit still apply to what it answers)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.route = _command_route()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        taken = _taken(scope)
        if taken is None:
            await self.app(scope, receive, send)
            return
        messages, body = await _body(receive)
        command = _command(body) if body is not None else None
        if command is None:
            await self.app(scope, replay(messages, receive), send)
            return
        match_id, headers = taken
        app: FastAPI = scope["app"]
        grant = _grant(app, headers)
        if grant is None:
            await self.app(scope, replay(messages, receive), send)
            return
        try:
            answer = await act(app.state.service, match_id, grant, command, _key(headers))
            response = await self._response(answer)
        except Exception as error:
            handler = _handler(app, error)
            if handler is None:
                raise  # as through the route: ServerErrorMiddleware answers 500
            response = await handler(Request(scope, replay(messages, receive)), error)
        await response(scope, receive, send)

    async def _response(self, answer: dict[str, Any]) -> FastJSONResponse:
        route = self.route
        content = await serialize_response(
            field=route.response_field,
            response_content=answer,
            exclude_unset=route.response_model_exclude_unset,
        )
        return FastJSONResponse(content, status_code=route.status_code or 200)


def _command_route() -> APIRoute:
    """The route the lane stands in for: its response field, its ``exclude_unset`` and its
    status code make the lane's answer."""
    for route in matches.router.routes:
        if isinstance(route, APIRoute) and route.path == PATH and "POST" in (route.methods or ()):
            return route
    raise LookupError(f"no route POST {PATH}")


def _taken(scope: Scope) -> tuple[str, Headers] | None:
    """The match id and headers of a command request the lane may take (None: the app's)."""
    if (
        scope["type"] != "http"
        or scope.get("method") != "POST"
        or scope.get("query_string")
        or scope.get("root_path")
    ):
        return None
    found = _PATH.fullmatch(str(scope.get("path", "")))
    if found is None:
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
    return found.group(1), headers


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


Handler = Callable[[Request, Exception], Any]


def _handler(app: FastAPI, error: Exception) -> Handler | None:
    """The app's handler for ``error`` as ``ExceptionMiddleware`` finds it (by the error's
    classes, most specific first), without the catch-all ``Exception`` one, which
    ``ServerErrorMiddleware`` calls for an error left unhandled."""
    handlers = app.exception_handlers
    for kind in type(error).__mro__:
        if kind is Exception:
            return None
        if kind in handlers:
            handler: Handler = handlers[kind]
            return handler
    return None
