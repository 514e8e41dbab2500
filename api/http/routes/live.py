"""Live updates as server-sent events.

``GET /matches/{id}/stream`` sends every event after ``after_seq`` (or the ``Last-Event-ID`` a
reconnecting client sends), redacted for the asking role, then waits for more. Clients catch up
by seq, so however an update is delayed none is lost; any replica can serve any client, since
each reads the shared store. The streams of a match in this process share one read of the store
per append (see :mod:`api.service.wakeups`): woken at once by an append in this process, or on
PostgreSQL by the NOTIFY of an append in any replica, and re-read at least every
``stream_poll_seconds``. A replay from an old seq reads the store in pages of
``api.service.wakeups.PAGE`` events, so memory per stream stays bounded whatever the match's
length. The stream ends after the ``match.closed`` event; asked to start at or after the close
of a closed match, it ends at once, empty.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from adjudicator.kernel.decider import MATCH_CLOSED, Viewer
from api.http.deps import MaybeGrant, Service
from api.http.errors import ApiError
from api.http.params import MAX_SEQ, Seq
from api.http.responses import encode
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute
from api.service import access
from api.service.matches import MatchService
from api.service.stream_slots import StreamSlots
from api.service.wakeups import Subscription, Wakeups
from events import StoredEvent
from projections.views import event_view

router = APIRouter(route_class=StrictJsonRoute, tags=["live"])
SSE: dict[str, Any] = {
    "text/event-stream": {
        "schema": {
            "type": "string",
            "description": "server-sent events, one per event: 'id: <seq>', 'event: <type>', "
            "'data: <the Event as JSON, redacted for the asking token>' (see the Event schema); "
            "': keep-alive' comments while quiet; the stream ends after match.closed",
        }
    }
}
KEEP_ALIVE_SECONDS = 15.0
RETRY_AFTER = "5"


@router.get(
    "/matches/{match_id}/stream",
    response_class=StreamingResponse,
    responses={
        200: {"content": SSE, "description": "every event after a seq, then live"},
        **errors(401, 404, 422, 429),
    },
)
async def stream(
    request: Request,
    service: Service,
    match_id: str,
    grant: MaybeGrant,
    after_seq: Seq = 0,
    last_event_id: Annotated[str | None, Header()] = None,
) -> StreamingResponse:
    match = await run_in_threadpool(service.match, match_id)
    resumed = last_event_id and last_event_id.isdigit() and int(last_event_id) <= MAX_SEQ
    start = int(last_event_id) if resumed and last_event_id else after_seq
    poll = request.app.state.settings.stream_poll_seconds
    if match.status == "closed" and start >= match.last_seq:  # nothing will ever follow
        return StreamingResponse(iter(()), media_type="text/event-stream")
    slots: StreamSlots = request.app.state.stream_slots
    client = request.client.host if request.client else ""
    refused = slots.take(client)
    if refused == "per_client":
        message = "this address holds as many live streams as it may; close one first"
        raise ApiError(429, "too_many_streams", message, {"Retry-After": RETRY_AFTER})
    if refused == "total":
        message = "this server holds as many live streams as it may; retry later"
        raise ApiError(503, "streams_full", message, {"Retry-After": RETRY_AFTER})
    feed = _feed(request, service, match_id, access.viewer_of(match, grant), start, poll)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return SlotStream(partial(slots.give_back, client), feed, "text/event-stream", headers)


class SlotStream(StreamingResponse):
    """A stream that gives its slot back however it ends: done, the client gone, or never
    started (the client left before the headers were sent)."""

    def __init__(
        self, release: Callable[[], None], feed: AsyncIterator[bytes], media_type: str,
        headers: dict[str, str],
    ) -> None:  # fmt: skip
        super().__init__(feed, media_type=media_type, headers=headers)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


async def _feed(
    request: Request,
    service: MatchService,
    match_id: str,
    viewer: Viewer,
    seq: int,
    poll: float,
) -> AsyncIterator[bytes]:
    wakeups: Wakeups = request.app.state.wakeups
    quiet_since = time.monotonic()
    with wakeups.subscription(match_id, service.store.read, poll) as subscription:
        while True:  # a client that leaves cancels this (Starlette listens for the disconnect)
            batch = subscription.shared(seq)  # from the shared window: no I/O
            from_store = batch is None
            if batch is None:  # a replay: a page the hub keeps (no I/O), or read in a thread
                batch = subscription.kept(seq)
            if batch is None:
                batch = await run_in_threadpool(subscription.next_batch, seq)
            if batch:
                yield _messages(subscription, batch, viewer)
                seq = batch[-1].seq
                if batch[-1].type == MATCH_CLOSED:
                    return
                quiet_since = time.monotonic()
                if from_store:  # a page of the store: the next may follow at once
                    continue
            # the window gave all it had; an append after that sets the event, so waiting
            # now misses nothing (the event is cleared before the window is read)
            if time.monotonic() - quiet_since >= KEEP_ALIVE_SECONDS:
                quiet_since = time.monotonic()
                yield b": keep-alive\n\n"
            await subscription.wait()


def _messages(subscription: Subscription, batch: Sequence[StoredEvent], viewer: Viewer) -> bytes:
    """A batch's SSE messages as one body chunk: one send (one socket write) per batch, not
    per event. Each message is rendered once per viewer by the hub, shared by its streams."""
    hub = subscription.hub
    rendered = [hub.rendered(e, viewer, partial(_message, e, viewer)) for e in batch]
    return rendered[0] if len(rendered) == 1 else b"".join(rendered)


def _message(event: StoredEvent, viewer: Viewer) -> bytes:
    """The SSE message, as bytes (sent as they are, never encoded again per stream)."""
    head = f"id: {event.seq}\nevent: {event.type}\ndata: ".encode()
    return head + encode(event_view(event, viewer)) + b"\n\n"
