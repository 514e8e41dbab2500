"""Server-sent events: every event after a seq, redacted per role; the stream ends at close."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import Api, make_app
from tests.api.test_zoom_over_http import buzz, supplied_match
from tests.store.support import ManualClock


def read_stream(api: Api, who: str = "", **params: Any) -> list[tuple[str, str, Any]]:
    headers = api.auth(api.token(who)) if who else {}
    url = f"/matches/{api.match_id}/stream"
    received: list[tuple[str, str, Any]] = []
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
