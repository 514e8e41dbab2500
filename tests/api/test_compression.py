"""Compressed answers: a long body is gzipped when the client takes gzip, and is the same JSON
as the uncompressed one; the timeline's encoded body, kept by the identity of the checkpoints'
points (``api.http.responses.SharedBodies``), is always the timeline as known now and as the
asker may see it."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from api.http.responses import GZIP_MINIMUM, SharedBodies
from api.service import reads
from api.service.tokens import token_hash
from projections.views import NOW
from tests.api.conftest import Api
from tests.api.test_nnt_over_http import act, nnt_match
from tests.api.test_zoom_over_http import buzz, supplied_match

GZIP = {"Accept-Encoding": "gzip"}
IDENTITY = {"Accept-Encoding": "identity"}


class Sent:
    """An answer as sent: its headers and its body's bytes (gzipped when it says so)."""

    def __init__(self, api: Api, path: str, headers: dict[str, str], who: str = "host") -> None:
        url = f"/matches/{api.match_id}/{path}"
        auth = api.auth(api.token(who))
        with api.client.stream("GET", url, headers={**auth, **headers}) as response:
            self.headers = response.headers
            self.raw = b"".join(response.iter_raw())  # httpx would undo the gzip otherwise

    def json(self) -> Any:
        gzipped = self.headers.get("content-encoding") == "gzip"
        return json.loads(gzip.decompress(self.raw) if gzipped else self.raw)


def long_zoom(api: Api, buzzes: int = 30) -> None:
    supplied_match(api, seed=5)
    for n in range(buzzes):
        api.clock.advance(0.5)  # each wrong buzz releases the other seat's lockout
        api.ok("alpha" if n % 2 else "beta", buzz("alpha" if n % 2 else "beta", "A", "a1"))


@pytest.mark.parametrize("path", ["timeline", "state", "events", "verify"])
def test_a_long_answer_is_gzipped_for_a_client_that_takes_it_and_is_the_same_json(
    api: Api, path: str
) -> None:
    long_zoom(api)
    plain = api.client.get(
        f"/matches/{api.match_id}/{path}", headers={**api.auth(api.token("host")), **IDENTITY}
    )
    zipped = api.client.get(
        f"/matches/{api.match_id}/{path}", headers={**api.auth(api.token("host")), **GZIP}
    )
    assert plain.status_code == zipped.status_code == 200
    assert "content-encoding" not in plain.headers
    if len(plain.content) >= GZIP_MINIMUM:
        assert zipped.headers["content-encoding"] == "gzip"
        assert "accept-encoding" in zipped.headers["vary"].lower()
        assert "accept-encoding" in plain.headers["vary"].lower()
    assert zipped.json() == plain.json()  # httpx undid the gzip
    assert zipped.headers["content-type"] == plain.headers["content-type"]


def test_the_timeline_is_gzipped_on_the_wire_and_shorter_there(api: Api) -> None:
    long_zoom(api)
    zipped, plain = Sent(api, "timeline", GZIP), Sent(api, "timeline", IDENTITY)
    assert zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) == len(zipped.raw) < len(plain.raw) / 3
    assert zipped.json() == plain.json()


def test_the_kept_timeline_is_always_the_timeline_known_now(api: Api) -> None:
    """Asked again and again between commands, in both encodings, the timeline is what the
    service computes afresh for now; asked twice unchanged, the same bytes."""
    long_zoom(api, buzzes=10)
    service = api.client.app.state.service  # type: ignore[attr-defined]
    for n in range(6):
        truth = reads.timeline(service, api.match_id, None, NOW)[0]
        for headers in (GZIP, IDENTITY, GZIP):
            assert Sent(api, "timeline", headers).json() == json.loads(json.dumps(truth))
        first, again = Sent(api, "timeline", GZIP), Sent(api, "timeline", GZIP)
        assert first.raw == again.raw
        api.clock.advance(0.5)
        seat = "alpha" if n % 2 else "beta"
        assert api.command(seat, buzz(seat, "A", "a1")).status_code == 201
    assert len(Sent(api, "timeline", GZIP).json()["points"]) == len(truth["points"]) + 1


def test_a_timeline_with_sealed_events_is_shared_only_when_nothing_is_withheld(api: Api) -> None:
    """Alpha's and Beta's submissions are private to each; their points carry no outcome, so
    every viewer's timeline is the checkpoints' shared list and the same body. (A point whose
    outcome a viewer may not see makes that viewer's copy: tests/unit/projections.)"""
    nnt_match(api)
    act(api, "Alpha", "submit", object="Q")
    act(api, "Beta", "submit", object="W")
    service = api.client.app.state.service  # type: ignore[attr-defined]

    def shared(who: str) -> bool:
        grant = service.grant_for(token_hash(str(api.token(who)))) if who else None
        return bool(reads.timeline(service, api.match_id, grant, NOW)[1])

    assert all(shared(who) for who in ("host", "Alpha", "Beta", ""))
    seen = [Sent(api, "timeline", GZIP, who).json() for who in ("host", "Beta", "", "Alpha")]
    assert all(body == seen[0] for body in seen)
    acted = [p for p in seen[0]["points"] if p["type"] == "nnt.acted"]
    assert len(acted) == 2 and all(p["outcome"] is None for p in acted)


def test_shared_bodies_keep_a_body_by_the_identity_of_its_shared_value() -> None:
    from starlette.requests import Request

    request = Request({"type": "http", "headers": [(b"accept-encoding", b"gzip")]})
    bodies = SharedBodies(size=2)
    points = [{"seq": n, "note": "x" * 40} for n in range(100)]
    first = bodies.response(request, {"match_id": "m", "points": points}, points)
    assert first.headers["content-encoding"] == "gzip"
    again = bodies.response(request, {"match_id": "m", "points": points}, points)
    assert again.body is first.body  # kept: neither encoded nor compressed again
    equal_copy = list(points)  # equal, yet another list: encoded afresh
    other = bodies.response(request, {"match_id": "m", "points": equal_copy}, equal_copy)
    assert other.body is not first.body and gzip.decompress(other.body) == gzip.decompress(
        first.body
    )
    renamed = bodies.response(request, {"match_id": "n", "points": points}, points)
    assert json.loads(gzip.decompress(renamed.body))["match_id"] == "n"
    short = bodies.response(request, {"match_id": "m", "points": []}, [])
    assert "content-encoding" not in short.headers and json.loads(bytes(short.body))["points"] == []
    assert len(bodies._kept) == 2  # the last two only
