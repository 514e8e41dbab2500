"""Live updates as server-sent events.

``GET /matches/{id}/stream`` sends every event after ``after_seq`` (or the ``Last-Event-ID`` a
reconnecting client sends), redacted for the asking role, then waits for more. Clients catch up
by seq, so however an update is delayed none is lost; any replica can serve any client, since
each reads the shared store. A stream is woken at once by an append in this process, or on
PostgreSQL by the NOTIFY of an append in any replica; it re-reads every ``stream_poll_seconds``
in any case. The stream ends after the ``match.closed`` event.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import suppress
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Header, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from adjudicator.kernel.decider import Viewer
from api.deps import MaybeGrant, Service
from api.params import MAX_SEQ, Seq
from api.service import MatchService
from api.wakeups import Wakeups
from projections.views import event_view

router = APIRouter(tags=["live"])
KEEP_ALIVE_SECONDS = 15.0


@router.get("/matches/{match_id}/stream", response_class=StreamingResponse)
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
    feed = _feed(request, service, match_id, service.viewer(match, grant), start, poll)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(feed, media_type="text/event-stream", headers=headers)


async def _feed(
    request: Request,
    service: MatchService,
    match_id: str,
    viewer: Viewer,
    seq: int,
    poll: float,
) -> AsyncIterator[str]:
    idle = 0.0
    wakeups: Wakeups = request.app.state.wakeups
    with wakeups.subscription(match_id) as woken:
        while not await request.is_disconnected():
            woken.clear()
            batch = await run_in_threadpool(partial(service.store.read, match_id, after_seq=seq))
            for event in batch:
                data = json.dumps(event_view(event, viewer), separators=(",", ":"))
                yield f"id: {event.seq}\nevent: {event.type}\ndata: {data}\n\n"
                seq = event.seq
                if event.type == "match.closed":
                    return
            idle = 0.0 if batch else idle + poll
            if idle >= KEEP_ALIVE_SECONDS:
                idle = 0.0
                yield ": keep-alive\n\n"
            with suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), timeout=poll)
