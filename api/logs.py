"""structlog set-up (once, at app creation) and the request middleware that binds a request id
and the match id to every log line of a request."""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from starlette.requests import Request
from starlette.responses import Response

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
_MATCH = re.compile(r"/matches/([0-9a-fA-F-]{36})")


def configure(json: bool | None = None, level: str = "info") -> None:
    """JSON lines off a TTY (or when asked), a readable console on a TTY."""
    as_json = (not sys.stderr.isatty()) if json is None else json
    renderer: Any = (
        structlog.processors.JSONRenderer() if as_json else structlog.dev.ConsoleRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(_LEVELS[level]),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


async def bind_request(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    request_id = request.headers.get("x-request-id") or uuid.uuid4().hex
    structlog.contextvars.clear_contextvars()
    found = _MATCH.search(request.url.path)
    structlog.contextvars.bind_contextvars(
        request_id=request_id, match_id=found.group(1) if found else None
    )
    log = structlog.get_logger("api")
    started = time.perf_counter()
    try:
        response = await call_next(request)
    except Exception:
        log.exception("request_failed", method=request.method, path=request.url.path)
        raise
    elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
    log.info(
        "request",
        method=request.method,
        path=request.url.path,
        status=response.status_code,
        ms=elapsed_ms,
    )
    response.headers["x-request-id"] = request_id
    return response
