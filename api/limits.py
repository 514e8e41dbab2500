"""Refuse oversized request bodies before they are read (413, ``payload_too_large``)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyLimit:
    """``max_bytes`` for every path, except paths containing ``large[0]``: ``large[1]``."""

    def __init__(self, app: ASGIApp, max_bytes: int, large: tuple[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.large = large

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(str(scope.get("path", "")))
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(send, limit)
            return
        await self.app(scope, self._counting(receive, limit), send)

    def _limit(self, path: str) -> int:
        if self.large is not None and self.large[0] in path:
            return self.large[1]
        return self.max_bytes

    def _counting(self, receive: Receive, limit: int) -> Receive:
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise PayloadTooLarge()
            return message

        return counted

    async def _refuse(self, send: Send, limit: int) -> None:
        text = json.dumps(
            {"code": "payload_too_large", "message": f"bodies are limited to {limit} B"}
        ).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(text))]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": text})


class PayloadTooLarge(Exception):
    """A streamed body grew past the limit (no Content-Length was declared)."""
