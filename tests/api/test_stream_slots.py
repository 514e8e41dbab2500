"""Open live streams are bounded: per client address (429 ``too_many_streams``) and per process
(503 ``streams_full``), each with ``Retry-After``; a stream that ends gives its slot back."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import Api, make_app
from tests.api.test_live_stream import read_stream
from tests.api.test_zoom_over_http import supplied_match
from tests.store.support import ManualClock


def bounded(database_url: str, clock: ManualClock, **limits: int) -> Iterator[tuple[Api, Any]]:
    app = make_app(database_url, clock, **limits)
    try:
        with TestClient(app) as client:
            api = Api(client, clock)
            supplied_match(api)
            yield api, app.state.stream_slots
    finally:
        app.state.service.store.dispose()


def held_open(api: Api, slots: Any, streams: int) -> list[threading.Thread]:
    readers = [
        threading.Thread(target=read_stream, args=(api,), daemon=True) for _ in range(streams)
    ]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + 10
    while slots.count < streams:
        assert time.monotonic() < deadline, "the streams did not open"
        time.sleep(0.02)
    return readers


def closed(api: Api, readers: list[threading.Thread], slots: Any) -> None:
    api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    for reader in readers:
        reader.join(10)
    deadline = time.monotonic() + 10
    while slots.count:
        assert time.monotonic() < deadline, "a slot was not given back"
        time.sleep(0.02)


@pytest.mark.parametrize(
    ("limits", "status", "code"),
    [
        ({"max_streams_per_client": 2, "max_streams": 10}, 429, "too_many_streams"),
        ({"max_streams_per_client": 10, "max_streams": 2}, 503, "streams_full"),
    ],
)
def test_a_stream_past_a_bound_is_refused_with_retry_after_and_its_slot_comes_back(
    database_url: str, clock: ManualClock, limits: dict[str, int], status: int, code: str
) -> None:
    for api, slots in bounded(database_url, clock, **limits):
        readers = held_open(api, slots, 2)
        refused = api.client.get(f"/matches/{api.match_id}/stream")
        assert refused.status_code == status, refused.text
        assert refused.json()["code"] == code
        assert refused.headers["Retry-After"].isdigit()
        assert slots.count == 2  # the refused one took nothing
        closed(api, readers, slots)
        again = api.client.get(f"/matches/{api.match_id}/stream")  # closed: ends at once
        assert again.status_code == 200
