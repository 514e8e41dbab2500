"""Request bodies are strict JSON: ``NaN``, ``Infinity`` and ``-Infinity`` (which Python's
parser accepts by default), and a number too large for a double (``1e400``, which it reads as
infinity), are refused as invalid JSON (422 ``invalid_request``), never taken as numbers or
nulls. So is a body that is not UTF-8 (RFC 8259), which Python's parser would read as UTF-16
or UTF-32 when it looks like them, and which otherwise failed as a generic 400; and a body
nested deeper than the parser's recursion limit (it failed as a generic 400 too). A refused
number is reported at the field that holds it (``body.config.rounds.1.step_seconds``), not at a
character offset. Every router uses :class:`StrictJsonRoute`."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response


class NonFinite(json.JSONDecodeError):
    """A number JSON does not have (``NaN``, ``Infinity``, ``1e400``), with the ``path`` of the
    field holding the first one (keys and list indices from the body's top)."""

    def __init__(self, message: str, path: tuple[str | int, ...]) -> None:
        super().__init__(message, "", 0)
        self.path = path


class BodyRefused(HTTPException):
    """A body refused before validation, answered as ``invalid_request`` with ``details``
    (raised from :meth:`StrictJsonRequest.json`, which the framework lets through as is)."""

    def __init__(self, details: list[dict[str, Any]]) -> None:
        super().__init__(422, details[0]["msg"])
        self.details = details


@dataclass(frozen=True, slots=True)
class _Refused:
    why: str


def strict_loads(body: bytes) -> Any:
    """A request body's JSON, strictly read (``json.JSONDecodeError`` for what is refused;
    :class:`NonFinite`, which is one, for a number JSON does not have)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise json.JSONDecodeError("the body is not UTF-8", "", error.start) from None
    refused = False

    def constant(name: str) -> _Refused:
        nonlocal refused
        refused = True
        return _Refused(f"{name} is not a JSON number")

    def finite(literal: str) -> float | _Refused:
        nonlocal refused
        value = float(literal)
        if math.isfinite(value):
            return value
        refused = True
        return _Refused(f"{literal} is out of range for a number")

    try:
        value = json.loads(text, parse_constant=constant, parse_float=finite)
    except RecursionError:  # 100,000 nested arrays: invalid JSON to us, not a parser crash
        raise json.JSONDecodeError("the body is nested too deeply", "", 0) from None
    if refused:
        try:
            found = _first_refused(value, ())
        except RecursionError:
            found = None
        why, path = found if found else ("a number JSON does not have", ())
        raise NonFinite(why, path)
    return value


def _first_refused(
    value: Any, path: tuple[str | int, ...]
) -> tuple[str, tuple[str | int, ...]] | None:
    """The first refused number in ``value`` (document order) and its path, if any."""
    if isinstance(value, _Refused):
        return value.why, path
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, item in items:
        found = _first_refused(item, (*path, key))
        if found is not None:
            return found
    return None


class StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = strict_loads(await self.body())
            except NonFinite as error:
                loc = ["body", *error.path]
                raise BodyRefused(
                    [{"loc": loc, "msg": error.msg, "type": "json_invalid"}]
                ) from None
        return self._json


class StrictJsonRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict
