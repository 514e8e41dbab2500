"""Read every endpoint a non-host can reach, as one viewer, and keep the raw answers.

``Probe.read_all`` asks ``/matches/{id}/state``, ``/events``, ``/diff``, ``/timeline``,
``/stream``, ``/export`` and ``/ludii`` with the given token and moments; ``read_shared`` asks
what every asker sees alike (``/verify``, ``/matches``, ``/matches/{id}``, the operator's
``/feed``). Each answer keeps its status and body bytes, so a test can look for sealed values
anywhere in them.

The live stream of an open match never ends by itself, and the TestClient waits for the end of a
response. ``read_stream`` therefore calls the ASGI app directly: it sends the request, collects
the body and disconnects once the event with the match's last seq has arrived (or after a
timeout), which the stream notices at its next poll.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import urlencode

import anyio
from fastapi.testclient import TestClient

from adjudicator.kernel.canonical import iso

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Answer:
    """One endpoint's answer: what was asked, its status and the exact body bytes."""

    route: str
    query: str
    status: int
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    def label(self) -> str:
        return f"{self.route}?{self.query} -> {self.status}"


@dataclass(frozen=True, slots=True)
class Moments:
    """The times a read asks about: game time ``at``, record time ``known_at``, and the diff's
    earlier record time ``before``. None leaves the parameter out."""

    at: datetime | None = None
    known_at: datetime | None = None
    before: datetime | None = None


def _query(**params: object) -> str:
    return urlencode({k: iso(v) if isinstance(v, datetime) else v for k, v in params.items()
                      if v is not None})  # fmt: skip


def _headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def _stream_body(
    app: Any, path: str, query: str, headers: Mapping[str, str], until_seq: int, timeout: float
) -> tuple[int, bytes]:
    chunks: list[bytes] = []
    status = 0
    done = anyio.Event()
    asked = False
    marker = f"id: {until_seq}\n".encode()

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        with anyio.move_on_after(timeout):
            await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if marker in b"".join(chunks) or not message.get("more_body", False):
                done.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": {},
    }
    with anyio.fail_after(timeout + 10):
        await app(scope, receive, send)
    return status, b"".join(chunks)


class Probe:
    """Reads a match through ``client`` (and ``app`` for the live stream)."""

    def __init__(self, client: TestClient, operator: str, stream_timeout: float = 2.0) -> None:
        self.client, self.operator = client, operator
        self.stream_timeout = stream_timeout

    def get(self, route: str, token: str | None, query: str = "") -> Answer:
        url = f"{route}?{query}" if query else route
        response = self.client.get(url, headers=_headers(token))
        return Answer(route, query, response.status_code, response.content)

    def read_stream(self, match_id: str, token: str | None, after_seq: int = 0) -> Answer:
        """The live stream after ``after_seq``, read until the match's last event is in."""
        last = self.client.get(f"/matches/{match_id}").json()["last_seq"]
        path, query = f"/matches/{match_id}/stream", _query(after_seq=after_seq)
        args = (self.client.app, path, query, _headers(token), last, self.stream_timeout)
        status, body = _in_own_thread(lambda: anyio.run(_stream_body, *args))
        return Answer(path, query, status, body)

    def read_all(self, match_id: str, token: str | None, moments: Moments) -> list[Answer]:
        """Every read of one match that depends on who asks, as ``token``'s holder."""
        m = f"/matches/{match_id}"
        at, known_at = moments.at, moments.known_at
        before = moments.before or known_at
        answers = [
            self.get(f"{m}/state", token, _query(at=at, known_at=known_at)),
            self.get(f"{m}/events", token, _query(known_at=known_at)),
            self.get(f"{m}/timeline", token, _query(known_at=known_at)),
            self.get(f"{m}/export", token),
            self.get(f"{m}/ludii", token),
            self.read_stream(match_id, token),
        ]
        if before is not None:
            answers.append(self.get(f"{m}/diff", token, _query(before=before, at=at)))
        return answers

    def read_shared(self, match_id: str, feed_after: int = 0) -> list[Answer]:
        """The reads that are the same for every asker: verify, the match list and summary, and
        the operator's feed after position ``feed_after``."""
        return [
            self.get(f"/matches/{match_id}/verify", None),
            self.get("/matches", None),
            self.get(f"/matches/{match_id}", None),
            self.get("/feed", self.operator, _query(after_position=feed_after, limit=1000)),
        ]


def stream_events(body: bytes) -> list[dict[str, Any]]:
    """The ``data`` of every event in a server-sent events body."""
    events = []
    for block in body.decode().split("\n\n"):
        for line in block.splitlines():
            if line.startswith("data: "):
                events.append(json.loads(line.removeprefix("data: ")))
    return events


def _in_own_thread(call: Callable[[], T]) -> T:
    """Run ``call`` in a fresh thread: an event loop may already run in this one (Playwright's
    sync API keeps one in the main thread after the browser tests)."""
    result: list[T] = []
    worker = threading.Thread(target=lambda: result.append(call()))
    worker.start()
    worker.join()
    if not result:
        raise RuntimeError("the stream read failed in its thread")
    return result[0]
