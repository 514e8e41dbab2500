"""Closing races over HTTP: threads on one app, 30 times on each backend. A match is closed
exactly once and nothing is ever recorded after its ``match.closed``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import httpx
from fastapi.testclient import TestClient

from tests.api.conftest import Api
from tests.api.test_zoom_over_http import buzz, supplied_match
from tests.store.support import ManualClock

ROUNDS = 30
Request = Callable[[TestClient, Api], httpx.Response]


def close(client: TestClient, api: Api) -> httpx.Response:
    url = f"/matches/{api.match_id}/close"
    response: httpx.Response = client.post(url, headers=Api.auth(api.token("host")))
    return response


def press(client: TestClient, api: Api) -> httpx.Response:
    url = f"/matches/{api.match_id}/commands"
    headers = Api.auth(api.token("alpha"))
    response: httpx.Response = client.post(url, json=buzz("alpha", "A", "d3"), headers=headers)
    return response


def race(
    clients: tuple[TestClient, TestClient], api: Api, requests: list[Request]
) -> list[httpx.Response]:
    """Send the two requests at once, each from its own thread and client; their answers."""
    barrier = threading.Barrier(2)
    answers: dict[int, httpx.Response] = {}

    def send(index: int) -> None:
        barrier.wait()
        answers[index] = requests[index](clients[index], api)

    threads = [threading.Thread(target=send, args=(index,)) for index in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [answers[0], answers[1]]


def recorded_types(api: Api) -> list[str]:
    url = f"/matches/{api.match_id}/events"
    listed = api.client.get(url, headers=Api.auth(api.token("host"))).json()
    return [event["type"] for event in listed]


def answer(response: httpx.Response) -> tuple[int, str]:
    body = response.json()
    return response.status_code, body["code"] if "code" in body else body["events"][-1]["type"]


def test_two_racing_closes_record_one_match_closed(app: Any, clock: ManualClock) -> None:
    with TestClient(app) as first, TestClient(app) as second:
        api = Api(first, clock)
        for _ in range(ROUNDS):
            supplied_match(api)
            clock.advance(1)
            answers = sorted(answer(a) for a in race((first, second), api, [close, close]))
            assert answers == [(201, "match.closed"), (409, "match_closed")]
            types = recorded_types(api)
            assert types.count("match.closed") == 1
            assert types[-1] == "match.closed"


def test_a_buzz_racing_a_close_is_recorded_before_it_or_refused(
    app: Any, clock: ManualClock
) -> None:
    with TestClient(app) as first, TestClient(app) as second:
        api = Api(first, clock)
        for _ in range(ROUNDS):
            supplied_match(api)
            clock.advance(1)
            closed, buzzed = race((first, second), api, [close, press])
            assert answer(closed) == (201, "match.closed")
            types = recorded_types(api)
            assert types.count("match.closed") == 1
            assert types[-1] == "match.closed"
            if buzzed.status_code == 201:
                assert types[-2] == "zoom.buzzed"
            else:
                assert answer(buzzed) == (409, "match_closed")
