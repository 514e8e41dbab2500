"""The command lane (``api.http.lane``) answers exactly as the FastAPI route would.

Two apps share one database and one clock: one as served (commands come by the lane), one with
the lane's route taken out (every command by the FastAPI route). Two matches made alike, one
per app, receive the same requests in lockstep; each pair of answers must be the same: status,
headers (the request id aside) and body, once the match ids and the hashes and salts (which
cover the match id, or are random) are masked. Valid commands, refused ones and every kind of
bad input are sent, table-driven and generated (Hypothesis)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.http.lane import CommandLane, LaneRoute
from tests.api.conftest import OPERATOR, make_app
from tests.api.test_zoom_over_http import GRID, TARGETS
from tests.store.support import ManualClock

CONFIG = {"rounds": 2, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}}
_MASKS = (
    (re.compile(r"[0-9a-f]{64}"), "<hash>"),
    (re.compile(r"[0-9a-f]{32}"), "<hex32>"),
)


class Side:
    """One app, one match on it, and the match's tokens."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        made = client.post(
            "/matches",
            json={"game": "zoom", "seats": ["alpha", "beta"], "config": CONFIG},
            headers={"Authorization": f"Bearer {OPERATOR}"},
        )
        assert made.status_code == 201, made.text
        self.match_id: str = made.json()["match_id"]
        tokens = made.json()["tokens"]
        self.tokens = {"host": tokens["host"], "auditor": tokens["auditor"], **tokens["seats"]}

    def send(self, request: dict[str, Any]) -> httpx.Response:
        headers = dict(request.get("headers", {}))
        who = request.get("who")
        if who is not None:
            headers["Authorization"] = f"Bearer {self.tokens.get(who, who)}"
        match_id = request.get("match_id", self.match_id)
        url = f"/matches/{match_id}/commands"
        if "raw" in request:
            sent: httpx.Response = self.client.post(url, content=request["raw"], headers=headers)
        else:
            sent = self.client.post(url, json=request["body"], headers=headers)
        return sent

    def spelled(self, response: httpx.Response) -> tuple[int, dict[str, str], str]:
        text = response.text.replace(self.match_id, "<match>")
        for pattern, mask in _MASKS:
            text = pattern.sub(mask, text)
        headers = {k: v for k, v in response.headers.items() if k != "x-request-id"}
        return response.status_code, headers, text


@pytest.fixture
def sides(database_url: str, clock: ManualClock) -> Iterator[tuple[Any, Any]]:
    laned, routed = make_app(database_url, clock), make_app(database_url, clock)
    routed.router.routes = [r for r in routed.router.routes if not isinstance(r, LaneRoute)]
    assert len(routed.router.routes) == len(laned.router.routes) - 1
    with TestClient(laned) as one, TestClient(routed) as other:
        yield one, other
    laned.state.service.store.dispose()
    routed.state.service.store.dispose()


def _lockstep(
    clients: tuple[TestClient, TestClient], requests: list[dict[str, Any]]
) -> tuple[Side, Side]:
    """Two matches made alike, one per client, sent ``requests`` in lockstep: each pair of
    answers the same (masked). The two sides, for further checks."""
    laned, routed = Side(clients[0]), Side(clients[1])
    for request in requests:
        one, other = laned.send(request), routed.send(request)
        assert laned.spelled(one) == routed.spelled(other), request
        assert one.status_code < 500, one.text
    return laned, routed


def buzz(seat: str, target: str = "A", cell: str = "d4") -> dict[str, Any]:
    return {"type": "buzz", "seat": seat, "pairs": [{"target": target, "at": cell}]}


JSON = {"Content-Type": "application/json"}
TABLE: list[dict[str, Any]] = [
    {"who": "alpha", "body": buzz("alpha")},  # before the round: refused by the rules
    {"who": "host", "body": {"type": "start_round"}},
    {"who": "alpha", "body": buzz("alpha", "A", "a1")},  # wrong: locked out of A
    {"who": "alpha", "body": buzz("alpha", "A", "d3")},  # locked out
    {"who": "beta", "body": buzz("alpha")},  # another seat's buzz
    {"who": "beta", "body": buzz("beta", "B", "a4")},
    {"who": "beta", "body": buzz("beta", "Z", "a4")},  # unknown target
    {"who": "host", "body": {"type": "start_round"}},  # a round is open
    {"who": "host", "body": {"type": "buzz", "seat": "alpha", "pairs": []}},
    {"who": "host", "body": {"type": "no_such_command"}},
    {"who": "host", "body": {"type": "start_round", "occurred_at": "1999-01-01T00:00:00Z"}},
    {"who": "host", "body": {"type": "start_round", "occurred_at": "2024-05-01T11:00:00"}},
    {"who": "host", "body": {"type": "start_round", "occurred_at": "not a time"}},
    {"who": "auditor", "body": buzz("alpha")},
    {"who": "alpha", "body": {"pairs": []}},  # no type
    {"who": "alpha", "body": {"type": 7}},
    {"who": "alpha", "body": [buzz("alpha")]},
    {"who": "alpha", "body": None},
    {"who": "alpha", "raw": b"", "headers": JSON},
    {"who": "alpha", "raw": b"{", "headers": JSON},
    {"who": "alpha", "raw": b'{"type": "buzz", "x": NaN}', "headers": JSON},
    {"who": "alpha", "raw": b'{"type": "buzz", "x": 1e400}', "headers": JSON},
    {"who": "alpha", "raw": b"[" * 5000 + b"]" * 5000, "headers": JSON},
    {"who": "alpha", "raw": b'{"type": "buzz"}', "headers": {"Content-Type": "text/plain"}},
    {"who": "alpha", "raw": b'{"type": "buzz"}'},  # no content type
    {"who": "alpha", "raw": b"\xff\xfe", "headers": JSON},
    {"body": buzz("alpha")},  # no token
    {"who": "not-a-token", "body": buzz("alpha")},
    {"body": buzz("alpha"), "headers": {"Authorization": "Basic abc"}},
    {"body": buzz("alpha"), "headers": {"Authorization": "Bearer "}},
    {"who": "alpha", "body": buzz("alpha"), "match_id": "00000000-0000-0000-0000-000000000000"},
    {"who": "alpha", "body": buzz("alpha"), "match_id": "not-a-match"},
    {"who": "alpha", "body": buzz("alpha", "C", "c4"), "headers": {"Idempotency-Key": "k-1"}},
    {"who": "alpha", "body": buzz("alpha", "C", "c4"), "headers": {"Idempotency-Key": "k-1"}},
    {"who": "alpha", "body": buzz("alpha", "D", "a1"), "headers": {"Idempotency-Key": "k-1"}},
    {"who": "alpha", "body": buzz("alpha"), "headers": {"Idempotency-Key": ""}},
    {"who": "alpha", "body": buzz("alpha"), "headers": {"Idempotency-Key": "x" * 201}},
    {"who": "alpha", "body": buzz("alpha"), "headers": {"Idempotency-Key": "tab\there"}},
    {"who": "host", "body": {"type": "start_round", "extra": {"deep": [1, 2, {"x": None}]}}},
]


def test_the_lane_answers_every_request_as_the_route_does(sides: tuple[Any, Any]) -> None:
    _lockstep(sides, TABLE)


def test_the_lane_takes_the_usual_command_and_leaves_the_rest_to_the_route(
    sides: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comparison above would hold trivially if the lane took nothing: it takes a valid
    command whose token the service remembers (it made the match, or the token was used here
    before), and hands bad input and a token it does not know yet to the route."""
    taken: list[int] = []
    answer = CommandLane._response

    async def counted(self: CommandLane, content: dict[str, Any]) -> Any:
        taken.append(1)
        return await answer(self, content)

    monkeypatch.setattr(CommandLane, "_response", counted)
    laned = Side(sides[0])
    assert laned.send({"who": "host", "body": {"type": "start_round"}}).status_code == 201
    assert laned.send({"who": "alpha", "body": buzz("alpha", "A", "a1")}).status_code == 201
    assert len(taken) == 2
    assert laned.send({"who": "alpha", "body": {"type": 7}}).status_code == 422
    assert laned.send({"body": buzz("alpha")}).status_code == 401
    assert len(taken) == 2
    elsewhere = Side(sides[1])  # made by the other app: its tokens are news to this one
    elsewhere.client = sides[0]
    assert elsewhere.send({"who": "host", "body": {"type": "start_round"}}).status_code == 201
    assert len(taken) == 2  # the route looked the grant up
    assert elsewhere.send({"who": "alpha", "body": buzz("alpha")}).status_code == 201
    assert len(taken) == 2
    assert elsewhere.send({"who": "alpha", "body": buzz("alpha", "B", "a4")}).status_code == 201
    assert len(taken) == 3


_bodies = st.one_of(
    st.builds(
        buzz,
        st.sampled_from(["alpha", "beta", "gamma"]),
        st.sampled_from(["A", "B", "C", "D", "E"]),
        st.sampled_from(["a1", "d3", "d4", "a4", "c4", "z9", ""]),
    ),
    st.fixed_dictionaries({"type": st.sampled_from(["start_round", "buzz", "end_round", "x"])}),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
        max_leaves=6,
    ),
)
_requests = st.fixed_dictionaries(
    {"who": st.sampled_from(["host", "alpha", "beta", "auditor", "stranger"]), "body": _bodies},
    optional={"headers": st.sampled_from([{"Idempotency-Key": "k"}, {"Idempotency-Key": "\x7f"}])},
)


GENERATED = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
REQUESTS = st.lists(_requests, min_size=1, max_size=8)
"""Generated requests, sent after a round is started (``STARTED``)."""
STARTED = {"who": "host", "body": {"type": "start_round"}}


@GENERATED
@given(REQUESTS)
def test_generated_requests_get_the_same_answers_both_ways(
    sides: tuple[Any, Any], requests: list[dict[str, Any]]
) -> None:
    _lockstep(sides, [STARTED, *requests])
