"""Refuse oversized request bodies (413, ``payload_too_large``) before the app sees them.

A declared ``Content-Length`` over the limit is refused at once. A body without one (chunked)
is read here first, at most ``max_bytes`` of it: past the limit the answer is 413 and the app
never runs; within it the buffered body is handed to the app unchanged. Memory per request is
bounded by the limit.

A ``multipart/form-data`` upload to the large paths (chat export files) has its own, larger
limit (``upload``) and is never buffered here: its parts are spooled to temporary files as they
arrive, so its bytes are counted while the app reads them and the read that passes the limit
raises ``payload_too_large`` (413) before the app has done anything with the body.
"""

from __future__ import annotations

import json
import math

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.http.errors import ApiError

MULTIPART = b"multipart/form-data"


class BodyLimit:
    """``max_bytes`` for every path, except paths containing ``large[0]``: ``large[1]``, or
    ``upload`` for a multipart/form-data upload to them."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        large: tuple[str, int] | None = None,
        upload: int | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.large = large
        self.upload = upload

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        limit = self._limit(str(scope.get("path", "")))
        declared = headers.get(b"content-length")
        streamed = self._is_upload(str(scope.get("path", "")), headers.get(b"content-type"))
        if streamed is not None:
            limit = streamed
            if declared is not None and declared.isdigit() and int(declared) > limit:
                await self._refuse(send, limit)
                return
            await self.app(scope, counted(receive, limit), send)
            return
        if declared is not None:
            if declared.isdigit() and int(declared) > limit:
                await self._refuse(send, limit)
                return
            await self.app(scope, receive, send)
            return
        buffered = await read_body(receive, limit)
        if buffered is None:
            await self._refuse(send, limit)
            return
        await self.app(scope, replay(buffered, receive), send)

    def _limit(self, path: str) -> int:
        if self.large is not None and self.large[0] in path:
            return self.large[1]
        return self.max_bytes

    def _is_upload(self, path: str, content_type: bytes | None) -> int | None:
        """The upload limit, when this is a multipart upload to a large path."""
        if self.upload is None or self.large is None or self.large[0] not in path:
            return None
        media = (content_type or b"").split(b";", 1)[0].strip().lower()
        return self.upload if media == MULTIPART else None

    async def _refuse(self, send: Send, limit: int) -> None:
        text = json.dumps({"code": "payload_too_large", "message": too_large(limit)}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(text))]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": text})


async def read_body(receive: Receive, limit: float = math.inf) -> list[Message] | None:
    """Every message of the request up to the end of its body (or up to a disconnect, the
    last one then); None once the body passes ``limit`` bytes."""
    messages: list[Message] = []
    seen = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages
        seen += len(message.get("body", b""))
        if seen > limit:
            return None
        if not message.get("more_body", False):
            return messages


def replay(messages: list[Message], receive: Receive) -> Receive:
    """``receive`` with ``messages`` (already received) handed out again first."""
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


def too_large(limit: int) -> str:
    return f"bodies are limited to {limit} B"


def counted(receive: Receive, limit: int) -> Receive:
    """``receive``, raising 413 ``payload_too_large`` once the body passes ``limit`` bytes."""
    seen = 0

    async def counting() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise ApiError(413, "payload_too_large", too_large(limit))
        return message

    return counting
