"""structlog set-up (once, at app creation) and the request middleware that binds a request id
and the match id to every log line of a request."""

from __future__ import annotations

import logging
import random
import re
import sys
import time
from typing import Any

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


_IDS = random.Random()
"""The request ids' own generator (seeded from the system's entropy), not the ``random``
module's shared one: a request never moves the state of anyone else's ``random`` (a test's
Hypothesis, drawing examples while the app serves in another thread, refuses a moved one)."""


def _new_id() -> str:
    """A fresh request id: 128 random bits as 32 hex digits, like ``uuid4().hex``, but from
    ``random`` (an id names a request in the logs, it guards nothing): ``uuid4`` reads
    ``os.urandom``, which lets go of the GIL, and the event loop then waits to get it back
    from the threads running endpoints."""
    return f"{_IDS.getrandbits(128):032x}"


class RequestLog:
    """ASGI middleware: binds a request id (the client's ``X-Request-ID`` or a new one) and the
    match id to every log line of the request, sends the id back, and logs one line per
    request (with the traceback, once, when the app failed)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.log = structlog.get_logger("api")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"x-request-id", b"")
        request_id = given.decode("latin-1")[:128] or _new_id()
        path = scope.get("path", "")
        found = _MATCH.search(path)
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(
            request_id=request_id, match_id=found.group(1) if found else None
        )
        status = 500
        header = (b"x-request-id", request_id.encode("latin-1"))

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), header]
            await send(message)

        started = time.perf_counter()
        try:
            await self.app(scope, receive, sending)
        except Exception:
            self.log.exception("request_failed", method=scope.get("method"), path=path)
            raise
        elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
        self.log.info(
            "request", method=scope.get("method"), path=path, status=status, ms=elapsed_ms
        )
