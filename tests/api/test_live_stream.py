"""Server-sent events: every event after a seq, redacted per role; the stream ends at close."""

from __future__ import annotations

import json
import threading
from typing import Any

from tests.api.conftest import Api
from tests.api.test_zoom_over_http import buzz, supplied_match


def read_stream(api: Api, who: str = "", **params: Any) -> list[tuple[str, str, Any]]:
    headers = api.auth(api.token(who)) if who else {}
    url = f"/matches/{api.match_id}/stream"
    received: list[tuple[str, str, Any]] = []
    with api.client.stream("GET", url, params=params, headers=headers) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        fields: dict[str, str] = {}
        for line in response.iter_lines():
            if not line:
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
