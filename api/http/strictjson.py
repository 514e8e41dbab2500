"""Request bodies are strict JSON: ``NaN``, ``Infinity`` and ``-Infinity`` (which Python's
parser accepts by default) are refused as invalid JSON (422 ``invalid_request``), never taken
as numbers or nulls. Every router uses :class:`StrictJsonRoute`."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response


def _refuse(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


class StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            self._json = json.loads(body, parse_constant=_refuse)
        return self._json


class StrictJsonRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict
