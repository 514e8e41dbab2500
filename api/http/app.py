"""The FastAPI app factory. Nothing is built at import time: ``create_app`` wires the store, the
games and the clock, so tests build one app per test with their own database and frozen clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import partial
from typing import Any

from fastapi import FastAPI
from fastapi_offline import FastAPIOffline
from starlette.middleware.gzip import GZipMiddleware

from adjudicator import registry
from adjudicator.kernel.decider import Game
from api.http import console, errors, lane, logs, openapi
from api.http.inflight import InFlight
from api.http.limits import BodyLimit
from api.http.responses import GZIP_LEVEL, GZIP_MINIMUM, FastJSONResponse, SharedBodies
from api.http.routes import audit, games, health, live, log, ludii, matches, transcripts
from api.http.routes import tournaments as tournament_routes
from api.http.routes.tournament_list import router as tournament_list
from api.service.fanout import Quiet
from api.service.matches import MatchService
from api.service.settings import Settings
from api.service.signing_keys import ensure_signing_key
from api.service.standby import Standby
from api.service.stream_slots import StreamSlots
from api.service.tokens import ensure_operator_token
from api.service.wakeups import Wakeups
from api.service.wordlists import load_dictionaries
from events import EventStore
from events.migrate import upgrade
from events.notify import Listener
from projections.collector import freeze_heap

SETTLE_SECONDS = 10.0
"""How long the app's end waits for the live hubs' store reads in flight."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def create_app_from_env() -> FastAPI:
    """The app built from ``Settings()`` alone (the environment): the factory uvicorn imports
    in each worker process of ``serve --workers N``."""
    return served(create_app(Settings()))


def served(app: FastAPI) -> FastAPI:
    """``app`` in a process that will serve it from now on: what start-up built (the app and
    its schemas, the games' word lists: some 130,000 objects the collector tracks, which a full
    collection walked in about 100 ms, pausing every request in flight) is moved out of the
    cyclic collector's sight (``freeze_heap``); it then walks only what serving allocates. So
    are the long open matches' folds the start-up resume builds (``api.service.prewarm``). Not
    for an app a test builds: a test process builds many, and frozen garbage stays."""
    freeze_heap()
    app.state.service.warmup.freeze = True
    return app


def create_app(
    settings: Settings | None = None,
    *,
    clock: Callable[[], datetime] = utc_now,
    games_: Mapping[str, Game[Any, Any]] | None = None,
    store: EventStore | None = None,
) -> FastAPI:
    settings = settings or Settings()
    logs.configure(settings.log_json, settings.log_level)
    if store is None:
        if settings.upgrade_on_start:
            upgrade(settings.migration_url, service_role=settings.service_role)
        store = EventStore.from_url(
            settings.database_url,
            clock=clock,
            pool_size=settings.db_pool_size,
            sqlite_synchronous=settings.sqlite_synchronous,
        )
    ensure_operator_token(store, settings.operator_token)
    ensure_signing_key(store, settings.signing_key)
    quiet = Quiet()
    wakeups = Wakeups(origin=store.origin, quiet=quiet)
    store.on_append(wakeups.appended)
    app = FastAPIOffline(  # /docs and /redoc with their assets served by the app (no CDN)
        title="Match adjudicator",
        version="0.1.0",
        description="Referee, record keeper and auditor for two-player competition games.",
        lifespan=partial(_listening, store, wakeups),
        default_response_class=FastJSONResponse,
    )
    app.state.wakeups = wakeups
    app.state.bodies = SharedBodies()  # the encoded timelines (``api.http.responses``)
    games_ = games_ or registry.games(load_dictionaries(settings.wordlist))
    app.state.service = MatchService(store, games_, clock)
    if app.state.service.checkpoints.stored is not None:  # background jobs let requests go first
        app.state.service.checkpoints.stored.idle = quiet.idle
    app.state.standby = (
        None if settings.standby_url is None else Standby(settings.standby_url, games_, clock)
    )
    app.state.settings = settings
    app.state.stream_slots = StreamSlots(settings.max_streams, settings.max_streams_per_client)
    errors.install(app)
    app.add_middleware(
        BodyLimit,
        max_bytes=settings.max_body_bytes,
        large=("/transcript/", settings.max_transcript_bytes),
        upload=settings.max_upload_bytes,
    )
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)
    app.add_middleware(logs.RequestLog)
    app.add_middleware(InFlight, quiet=quiet)
    routers = (health.router, games.router, audit.router, matches.router, live.router, ludii.router)
    for router in (*routers, transcripts.router, tournament_routes.router, log.router):
        app.include_router(router)
    app.include_router(tournament_list)  # GET /tournaments
    lane.install(app)  # the command lane, declared before the command route it stands in for
    console.mount(app)
    openapi.install(app)
    return app


@asynccontextmanager
async def _listening(store: EventStore, wakeups: Wakeups, app: FastAPI) -> AsyncIterator[None]:
    """While the app runs on PostgreSQL, appends by other replicas wake this one's streams, and
    commands append over async connections opened for the serving loop."""
    listener = None
    if store.engine.dialect.name == "postgresql":  # heard only while this process has streams
        listener = Listener(
            store.engine.url,
            wakeups.notified,
            wanted=wakeups.wants_notices,
            on_listening=wakeups.wake_all,
        )
        wakeups.on_first_hub = listener.poke
        await listener.start()
    await store.aopen()  # commands' appends awaited on this loop (events.pg_async)
    app.state.service.prewarm()  # the long open matches' live folds, in the background
    try:
        yield
    finally:
        if listener is not None:
            await listener.stop()
        await asyncio.to_thread(wakeups.drains.settle, SETTLE_SECONDS)  # before the store goes
        await asyncio.to_thread(app.state.service.close)  # the fold's background writes too
        await store.aclose()
        if app.state.standby is not None:
            app.state.standby.dispose()
