"""The failover drill's check of the feed against the logs (``infra.ha.drill.feed_problems``):
pure, on feeds written by hand."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from infra.ha import drill
from infra.ha.drill import feed_problems


def event(position: int, match_id: str, seq: int, type_: str = "zoom.buzzed") -> dict[str, Any]:
    return {"position": position, "match_id": match_id, "seq": seq, "type": type_,
            "hash": f"{match_id}-{seq}"}  # fmt: skip


def log(match_id: str, count: int) -> list[dict[str, Any]]:
    return [event(0, match_id, seq) for seq in range(1, count + 1)]


def test_the_drills_events_after_where_it_began_are_its_logs_whatever_came_before() -> None:
    earlier = [event(1, "other", 1, "match.created"), event(2, "other", 2)]
    mine = [event(3, "m", 1), event(4, "n", 1), event(5, "m", 2)]
    assert feed_problems(earlier + mine, {"m": log("m", 2), "n": log("n", 1)}, 2) == []
    assert feed_problems(earlier + mine, {"m": log("m", 2), "n": log("n", 1)}, 0) == [
        "other: in the feed with ['match.created', 'zoom.buzzed'], not a match of the drill"
    ]


def test_a_lost_creation_is_allowed_and_nothing_else_is() -> None:
    feed = [event(1, "m", 1), event(2, "lost", 1, "match.created")]
    assert feed_problems(feed, {"m": log("m", 1)}, 0) == []


def test_an_event_missing_from_the_feed_or_the_log_is_named() -> None:
    feed = [event(1, "m", 1), event(2, "m", 2)]
    assert feed_problems(feed, {"m": log("m", 3)}, 0) == [
        "m: the feed holds other events than its log"
    ]
    assert feed_problems(feed, {"m": log("m", 1)}, 0) == [
        "m: the feed holds other events than its log"
    ]


def test_a_gap_in_the_positions_is_named() -> None:
    feed = [event(1, "m", 1), event(3, "m", 2)]
    assert feed_problems(feed, {"m": log("m", 2)}, 0) == ["global positions not gap-free"]


def test_a_finished_match_is_replaced_once_its_fresh_one_has_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A creation is kept as the drill's at once; a start refused (no primary) is sent again
    until answered, and only a started match takes the finished one's place (the drill's own
    requests, answered here in place of a service)."""
    posts: list[str] = []

    def post(url: str, **_: Any) -> httpx.Response:
        posts.append(url)
        request = httpx.Request("POST", url)
        if url.endswith("/matches"):
            made = {"match_id": "m1", "tokens": {"host": "h"}}
            return httpx.Response(201, json=made, request=request)
        refused = posts.count(url) == 1  # the first start meets no primary
        return httpx.Response(503 if refused else 201, json={}, request=request)

    monkeypatch.setattr(httpx, "post", post)
    monkeypatch.setattr(time, "sleep", lambda seconds: None)
    finished = {"match_id": "old"}
    load = drill.Load(["http://a"], [finished], clients=0)
    load._replace(finished)
    load._replace(finished)  # a second client finding it over too: nothing more
    fresh = {"match_id": "m1", "tokens": {"host": "h"}}
    assert load.matches == [fresh]
    assert load.every_match == [finished, fresh]
    assert posts == ["http://a/matches", *["http://a/matches/m1/commands"] * 2]
