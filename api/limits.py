"""Refuse oversized request bodies (413, ``payload_too_large``) before the app sees them.

A declared ``Content-Length`` over the limit is refused at once. A body without one (chunked)
is read here first, at most ``max_bytes`` of it: past the limit the answer is 413 and the app
never runs; within it the buffered body is handed to the app unchanged. Memory per request is
bounded by the limit.
"""

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
        if declared is not None:
            if declared.isdigit() and int(declared) > self.max_bytes:
                await self._refuse(send)
                return
            await self.app(scope, receive, send)
            return
        buffered = await self._read(receive)
        if buffered is None:
            await self._refuse(send)
            return
        await self.app(scope, _replay(buffered, receive), send)

    async def _read(self, receive: Receive) -> list[Message] | None:
        """Every body message up to the end of the body; None past the limit."""
        messages: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                return None
            if not message.get("more_body", False):
                return messages

    async def _refuse(self, send: Send) -> None:
        text = json.dumps(
            {"code": "payload_too_large", "message": f"bodies are limited to {self.max_bytes} B"}
        ).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(text))]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": text})


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed
