"""Refuse oversized request bodies before they are read (413, ``payload_too_large``)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        await self.app(scope, self._counting(receive), send)

    def _counting(self, receive: Receive) -> Receive:
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                raise PayloadTooLarge()
            return message

        return counted

    async def _refuse(self, send: Send) -> None:
        text = json.dumps(
            {"code": "payload_too_large", "message": f"bodies are limited to {self.max_bytes} B"}
        ).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(text))]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": text})


class PayloadTooLarge(Exception):
    """A streamed body grew past the limit (no Content-Length was declared)."""
