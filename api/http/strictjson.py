"""Request bodies are strict JSON: ``NaN``, ``Infinity`` and ``-Infinity`` (which Python's
parser accepts by default), and a number too large for a double (``1e400``, which it reads as
infinity), are refused as invalid JSON (422 ``invalid_request``), never taken as numbers or
nulls. So is a body that is not UTF-8 (RFC 8259), which Python's parser would read as UTF-16
or UTF-32 when it looks like them, and which otherwise failed as a generic 400; and a body
nested deeper than the parser's recursion limit (it failed as a generic 400 too). Every router
uses :class:`StrictJsonRoute`."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response


def _refuse(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise json.JSONDecodeError(f"{text} is out of range for a number", text, 0)
    return value


def strict_loads(body: bytes) -> Any:
    """A request body's JSON, strictly read (``json.JSONDecodeError`` for what is refused)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise json.JSONDecodeError("the body is not UTF-8", "", error.start) from None
    try:
        return json.loads(text, parse_constant=_refuse, parse_float=_finite)
    except RecursionError:  # 100,000 nested arrays: invalid JSON to us, not a parser crash
        raise json.JSONDecodeError("the body is nested too deeply", "", 0) from None


class StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_loads(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict
