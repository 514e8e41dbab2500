"""ASGI middleware: counts the requests in flight other than live streams (in
:class:`api.service.fanout.Quiet`), so the streams' wake-ups can let them go first."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from api.service.fanout import Quiet


class InFlight:
    def __init__(self, app: ASGIApp, quiet: Quiet) -> None:
        self.app = app
        self.quiet = quiet

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or str(scope.get("path", "")).endswith("/stream"):
            await self.app(scope, receive, send)
            return
        self.quiet.enter()
        try:
            await self.app(scope, receive, send)
        finally:
            self.quiet.leave()
