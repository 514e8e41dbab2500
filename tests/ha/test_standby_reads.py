"""Reads into the past served by a standby of the pg_auto_failover cluster (``infra/ha``),
and still served once the primary is gone: the service on the cluster's read-write URL with
``ADJUDICATOR_STANDBY_URL`` naming its standbys. The answer's ``Adjudicator-Read-From`` header
says which server answered; the standby's answers are the primary's, byte for byte."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.service import audit
from api.service.settings import Settings
from api.service.standby import READ_FROM
from infra.ha import drill
from infra.ha.cluster import Cluster, available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(available() is not None, reason=str(available())),
]
SEATS = ("alpha", "beta")


@pytest.fixture
def client(cluster: Cluster) -> Iterator[TestClient]:
    cluster.wait(healthy=True, timeout=180)
    settings = Settings(
        database_url=cluster.url,
        standby_url=cluster.standby_url,
        operator_token=drill.OPERATOR,
        upgrade_on_start=False,
        log_level="warning",
    )
    app = create_app(settings)
    try:
        with TestClient(app) as client:
            yield client
    finally:
        app.state.service.store.dispose()  # the standby's engine goes with the app's end


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def played(client: TestClient) -> tuple[dict[str, Any], str]:
    """A Zoom match with a few buzzes, and a record time between two of them."""
    config = {"rounds": 1, "supplied_rounds": {"1": {"grid": drill.GRID, "targets": drill.TARGETS}}}
    body = {"game": "zoom", "seats": list(SEATS), "config": config}
    match = client.post("/matches", json=body, headers=bearer(drill.OPERATOR)).json()
    commands = f"/matches/{match['match_id']}/commands"
    host = bearer(match["tokens"]["host"])
    assert client.post(commands, json={"type": "start_round"}, headers=host).status_code == 201
    recorded = []
    for seat, at in (("alpha", "c3"), ("beta", "a1"), ("alpha", "a4")):
        buzz = {"type": "buzz", "seat": seat, "pairs": [{"target": "A", "at": at}]}
        done = client.post(commands, json=buzz, headers=bearer(match["tokens"]["seats"][seat]))
        assert done.status_code == 201, done.text
        recorded.append(done.json()["events"][-1]["recorded_at"])
        time.sleep(0.01)
    return match, recorded[1]  # known then: two buzzes, not the third


def read(client: TestClient, match: dict[str, Any], what: str, **params: str) -> Any:
    token = match["tokens"]["auditor"]
    return client.get(f"/matches/{match['match_id']}/{what}", params=params, headers=bearer(token))


def from_standby(client: TestClient, match: dict[str, Any], known_at: str) -> Any:
    """The past state, once the standby has replayed far enough to serve it (at most 10 s)."""
    deadline = time.monotonic() + 10
    while True:
        answer = read(client, match, "state", known_at=known_at)
        assert answer.status_code == 200, answer.text
        if answer.headers[READ_FROM] == "standby" or time.monotonic() > deadline:
            return answer
        time.sleep(0.1)


def test_a_past_read_is_served_by_the_standby_and_a_read_of_now_by_the_primary(
    client: TestClient,
) -> None:
    match, known_at = played(client)
    past = from_standby(client, match, known_at)
    assert past.headers[READ_FROM] == "standby"
    assert [b["seat"] for b in past.json()["state"]["buzzes"]] == ["alpha", "beta"]
    now = read(client, match, "state")
    assert now.headers[READ_FROM] == "primary"  # "now" on an open match: the primary's
    assert len(now.json()["state"]["buzzes"]) == 3
    events = read(client, match, "events", known_at=known_at)
    assert events.headers[READ_FROM] == "standby"
    assert [e["seq"] for e in events.json()] == [1, 2, 3, 4, 5][: len(events.json())]
    timeline = read(client, match, "timeline", known_at=known_at)
    assert timeline.status_code == 200 and timeline.headers[READ_FROM] == "standby"
    diff = read(client, match, "diff", before_seq="1", after=known_at)
    assert diff.status_code == 200 and diff.headers[READ_FROM] == "standby"


def test_a_closed_match_is_verified_and_exported_by_the_standby(client: TestClient) -> None:
    match, _ = played(client)
    host = bearer(match["tokens"]["host"])
    closed = client.post(f"/matches/{match['match_id']}/close", headers=host)
    assert closed.status_code == 201, closed.text
    deadline = time.monotonic() + 10
    while (verified := read(client, match, "verify")).headers[READ_FROM] != "standby":
        assert time.monotonic() < deadline, "the standby never held the close"
        time.sleep(0.1)
    assert verified.json()["ok"] is True
    assert {c["name"] for c in verified.json()["checks"]} >= {"log_inclusion", "log_signature"}
    url = f"/matches/{match['match_id']}/export"
    exported = client.get(url, headers=host)
    assert exported.status_code == 200 and exported.headers[READ_FROM] == "standby"
    primary: Any = client.app.state.service  # type: ignore[attr-defined]
    stored = primary.store.get_match(match["match_id"])
    expected = audit.export_record(primary.store, stored, reveal=True, exported_at=primary.clock())
    assert exported.text == expected  # byte-stable: the primary's own record


def test_with_the_primary_gone_the_past_is_still_served_by_the_standby(
    client: TestClient, cluster: Cluster
) -> None:
    match, known_at = played(client)
    before = from_standby(client, match, known_at)
    assert before.headers[READ_FROM] == "standby"
    primary = cluster.primary()
    assert primary is not None
    cluster.kill("monitor")  # nobody promotes the standby: it stays one, the primary is gone
    cluster.kill(primary)
    service: Any = client.app.state.service  # type: ignore[attr-defined]
    service._grants.clear()  # as on a replica that never saw the token: looked up on the standby
    try:
        after = read(client, match, "state", known_at=known_at)
        assert after.status_code == 200, after.text
        assert after.headers[READ_FROM] == "standby"
        assert after.content == before.content  # the same answer, byte for byte
        buzz = {"type": "buzz", "seat": "beta", "pairs": [{"target": "B", "at": "a4"}]}
        commands = f"/matches/{match['match_id']}/commands"
        refused = client.post(commands, json=buzz, headers=bearer(match["tokens"]["seats"]["beta"]))
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "store_unavailable"
        now = read(client, match, "state")  # "now" on an open match: no standby can prove it
        assert now.status_code == 503
    finally:
        cluster.up()  # the monitor and the old primary come back
