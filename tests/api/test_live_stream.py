"""Server-sent events: every event after a seq, redacted per role; the stream ends at close."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from api.service import wakeups
from events import EventStore, NewEvent
from tests.api.conftest import OPERATOR, Api, make_app
from tests.api.test_zoom_over_http import buzz, supplied_match
from tests.store.support import ManualClock


def read_stream(
    api: Api, who: str = "", into: list[tuple[str, str, Any]] | None = None, **params: Any
) -> list[tuple[str, str, Any]]:
    """The stream's events until it ends, each added to ``into`` (when given) as it arrives."""
    headers = api.auth(api.token(who)) if who else {}
    url = f"/matches/{api.match_id}/stream"
    received: list[tuple[str, str, Any]] = [] if into is None else into
    with api.client.stream("GET", url, params=params, headers=headers) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        fields: dict[str, str] = {}
        for line in response.iter_lines():
            if not line:
                if fields:  # a block of comments only (a keep-alive) carries no event
                    received.append((fields["id"], fields["event"], json.loads(fields["data"])))
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value
    return received


def test_a_stream_sends_every_event_after_a_seq_and_ends_at_close(api: Api) -> None:
    supplied_match(api, seed=5)
    api.ok("alpha", buzz("alpha", "A", "d3"))
    api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    everything = read_stream(api)
    assert [kind for _, kind, _ in everything] == [
        "match.created",
        "match.seeded",
        "zoom.round_started",
        "zoom.buzzed",
        "match.closed",
    ]
    assert [int(seq) for seq, _, _ in everything] == [1, 2, 3, 4, 5]
    assert everything[1][2]["payload"] is None  # a spectator never sees the seed
    assert [seq for seq, _, _ in read_stream(api, after_seq=3)] == ["4", "5"]


def test_a_live_client_receives_a_buzz_posted_after_it_connected(api: Api) -> None:
    supplied_match(api)
    seen: list[tuple[str, str, Any]] = []
    listener = threading.Thread(target=lambda: seen.extend(read_stream(api, "host", after_seq=3)))
    listener.start()
    api.ok("beta", buzz("beta", "B", "a4"))
    api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    listener.join(timeout=20)
    assert [kind for _, kind, _ in seen] == ["zoom.buzzed", "match.closed"]
    assert seen[0][2]["payload"]["seat"] == "beta"


def _listen_then_post(listening: Api, posting: Api) -> tuple[list[tuple[str, str, Any]], float]:
    """Open a stream on ``listening``, then buzz and close through ``posting``; how long the
    stream took to deliver both (its poll interval is far longer than that)."""
    seen: list[tuple[str, str, Any]] = []
    listener = threading.Thread(target=lambda: seen.extend(read_stream(listening, after_seq=3)))
    listener.start()
    time.sleep(0.3)  # let the stream reach its wait
    started = time.monotonic()
    posting.ok("beta", buzz("beta", "B", "a4"))
    posting.client.post(
        f"/matches/{posting.match_id}/close", headers=posting.auth(posting.token("host"))
    )
    listener.join(timeout=30)
    return seen, time.monotonic() - started


def test_an_append_wakes_the_streams_of_this_process_at_once(
    database_url: str, clock: ManualClock
) -> None:
    app = make_app(database_url, clock, stream_poll_seconds=30)
    with TestClient(app) as client:
        api = Api(client, clock)
        supplied_match(api)
        with TestClient(app) as other:
            watcher = Api(other, clock)
            watcher.match_id, watcher.tokens = api.match_id, api.tokens
            seen, took = _listen_then_post(watcher, api)
    app.state.service.store.dispose()
    assert [kind for _, kind, _ in seen] == ["zoom.buzzed", "match.closed"]
    assert took < 10


def test_an_append_in_one_replica_wakes_streams_in_another(
    database_url: str, clock: ManualClock
) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("replicas share a PostgreSQL server; SQLite serves one process")
    first = make_app(database_url, clock, stream_poll_seconds=30)
    second = make_app(database_url, clock, stream_poll_seconds=30)
    try:
        with TestClient(first) as one, TestClient(second) as two:
            api = Api(one, clock)
            supplied_match(api)
            watcher = Api(two, clock)
            watcher.match_id, watcher.tokens = api.match_id, api.tokens
            seen, took = _listen_then_post(watcher, api)
    finally:
        for app in (first, second):
            app.state.service.store.dispose()
    assert [kind for _, kind, _ in seen] == ["zoom.buzzed", "match.closed"]
    assert took < 10


class CountingReader:
    """Wraps ``EventStore.read`` and records the seq span of every read a stream makes (the
    streams' reads name ``to_seq``; the commands' reads of the tail do not)."""

    def __init__(self, read: Any) -> None:
        self.read = read
        self.spans: list[tuple[str, int]] = []
        self._lock = threading.Lock()

    def __call__(self, match_id: str, **kwargs: Any) -> Any:
        if kwargs.get("to_seq") is not None:
            with self._lock:
                span = kwargs["to_seq"] - kwargs.get("after_seq", 0)
                self.spans.append((threading.current_thread().name, span))
        return self.read(match_id, **kwargs)

    def by_hub(self) -> int:
        return sum(name == "live-hub" for name, _ in self.spans)


def _wait_for(condition: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _open_streams(api: Api, viewers: list[str], after_seq: int) -> tuple[list[Any], list[Any]]:
    seen: list[list[tuple[str, str, Any]]] = [[] for _ in viewers]
    threads = [
        threading.Thread(target=read_stream, args=(api, w, s), kwargs={"after_seq": after_seq})
        for s, w in zip(seen, viewers, strict=True)
    ]
    for thread in threads:
        thread.start()
    return seen, threads


def test_the_streams_of_a_match_take_this_process_s_appends_without_a_store_read(
    database_url: str, clock: ManualClock
) -> None:
    """Each stream reads the store once, to catch up; then this process's appends reach every
    stream from the hub's window. On PostgreSQL the append's NOTIFY, which can come before the
    hub is handed the events, names this process's store as its origin and is left alone; the
    hub may read once when the listener begins (with the first stream: ``Wakeups.wake_all``),
    never per append."""
    app = make_app(database_url, clock, stream_poll_seconds=30)
    store = app.state.service.store
    reader = store.read = CountingReader(store.read)
    with TestClient(app) as client:
        api = Api(client, clock)
        supplied_match(api)
        viewers = ["", "host", "alpha", "beta", "auditor", ""]
        seen, threads = _open_streams(api, viewers, after_seq=3)
        hubs: wakeups.Wakeups = app.state.wakeups

        def joined() -> bool:
            hub = hubs.hub(api.match_id)
            return hub is not None and len(hub.subscribers) == len(viewers)

        _wait_for(joined)
        _wait_for(lambda: len(reader.spans) >= len(viewers))  # each caught up once
        buzzes = (("alpha", "a1"), ("beta", "b2"), ("alpha", "c3"), ("beta", "d4"))
        for appends, (seat, cell) in enumerate(buzzes, start=1):
            clock.advance(10)
            api.ok(seat, buzz(seat, "A", cell))
            _wait_for(lambda n=appends: all(len(s) >= n for s in seen))
        api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
        for thread in threads:
            thread.join(timeout=20)
    store.dispose()
    assert all([kind for _, kind, _ in s][-1] == "match.closed" for s in seen)
    assert all(len(s) == 5 for s in seen)
    assert reader.by_hub() <= (0 if database_url.startswith("sqlite") else 1)
    assert len(reader.spans) - reader.by_hub() == len(viewers)  # the first catch-up only


def test_streams_sharing_a_read_each_see_only_what_their_viewer_may(api: Api) -> None:
    supplied_match(api)
    seen, threads = _open_streams(api, ["", "host"], after_seq=0)
    time.sleep(0.3)
    api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    for thread in threads:
        thread.join(timeout=20)
    spectator, host = seen
    assert spectator[1][1] == host[1][1] == "match.seeded"
    assert spectator[1][2]["payload"] is None
    assert isinstance(host[1][2]["payload"]["seed"], int)


def test_a_replay_from_an_old_seq_reads_the_store_in_bounded_pages(
    api: Api, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wakeups, "PAGE", 100)
    monkeypatch.setattr(wakeups, "WINDOW", 100)
    supplied_match(api)
    store = app.state.service.store
    at = api.clock.now
    for first in range(4, 1204, 300):
        events = [
            NewEvent("zoom.buzzed", "seat:alpha", at, {"seat": "alpha", "n": n}) for n in range(300)
        ]
        store.append(api.match_id, first - 1, events)
    store.append(api.match_id, 1203, [NewEvent("match.closed", "host", at, {"result": None})])
    reader = store.read = CountingReader(store.read)
    everything = read_stream(api, after_seq=0)
    assert [int(seq) for seq, _, _ in everything] == list(range(1, 1205))
    assert reader.spans and max(span for _, span in reader.spans) <= 100
    assert len(reader.spans) >= 12


def test_a_client_that_leaves_frees_its_stream_on_a_real_server(app: Any) -> None:
    """Over a real uvicorn server, a client that disconnects while the stream waits ends the
    stream: its subscription, and the match's hub with it, are dropped at once (Starlette
    listens for the disconnect; the stream does not poll for it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=10) as client:
            for _ in range(200):
                if server.started:
                    break
                time.sleep(0.02)
            created = client.post(
                "/matches",
                json={"game": "zombego", "seats": ["a", "b"], "config": {}},
                headers={"Authorization": f"Bearer {OPERATOR}"},
            )
            match_id = created.json()["match_id"]
            hubs = app.state.wakeups
            with client.stream("GET", f"/matches/{match_id}/stream") as response:
                lines = response.iter_lines()
                assert next(lines).startswith("id: ")
                assert hubs.hub(match_id) is not None
            for _ in range(250):
                if hubs.hub(match_id) is None:
                    break
                time.sleep(0.02)
            assert hubs.hub(match_id) is None
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_stream_opened_after_the_close_of_a_closed_match_ends_at_once(api: Api) -> None:
    supplied_match(api, seed=5)
    api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    last = api.last_seq()
    assert read_stream(api, after_seq=last) == []
    assert read_stream(api, after_seq=last + 50) == []
    assert [kind for _, kind, _ in read_stream(api, after_seq=last - 1)] == ["match.closed"]


def test_an_append_no_wake_up_announces_arrives_by_the_poll(
    database_url: str, clock: ManualClock
) -> None:
    """An append by a writer this process does not hear of (another process on SQLite): the
    hub's ticker re-reads within the poll interval and the stream delivers it."""
    app = make_app(database_url, clock, stream_poll_seconds=0.2)
    with TestClient(app) as client:
        api = Api(client, clock)
        supplied_match(api)
        last = api.last_seq()
        seen: list[tuple[str, str, Any]] = []
        reader = threading.Thread(target=read_stream, args=(api,), kwargs={"into": seen})
        reader.start()
        for _ in range(200):
            if len(seen) >= last:
                break
            time.sleep(0.01)
        unheard = EventStore.from_url(database_url)  # no wake-up reaches this app's hubs
        try:
            payload = {"seat": "alpha", "pairs": [{"target": "A", "at": "a1"}]}
            unheard.append(api.match_id, last, [NewEvent("zoom.buzzed", "host", clock(), payload)])
            for _ in range(300):
                if len(seen) > last:
                    break
                time.sleep(0.01)
            assert [kind for _, kind, _ in seen[last:]] == ["zoom.buzzed"]
        finally:
            unheard.dispose()
        client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
        reader.join(10)
    app.state.service.store.dispose()


def test_the_app_s_end_waits_for_a_hub_s_store_read_in_flight(
    database_url: str, clock: ManualClock
) -> None:
    """A hub's read still running when the app stops must finish before the store is disposed
    (else its connection is stranded outside the pool, open, until the collector finds it)."""
    app = make_app(database_url, clock)
    finished: list[int] = []

    def slow_read() -> None:
        with app.state.service.store.engine.connect() as conn:
            time.sleep(0.3)
            finished.append(conn.exec_driver_sql("SELECT 1").scalar())

    with TestClient(app):
        app.state.wakeups.drains.start(slow_read)
    assert finished == [1]  # the lifespan's end waited for it
    app.state.service.store.dispose()
