"""Reading a match: games list, event redaction per role, health."""

from __future__ import annotations

from tests.api.conftest import Api
from tests.api.test_zoom_over_http import supplied_match


def test_games_are_listed_with_their_config_schema(api: Api) -> None:
    games = {g["name"]: g for g in api.client.get("/games").json()}
    assert "rounds" in games["zoom"]["config_schema"]["properties"]
    assert set(games["zoom"]["commands"]) == {"start_round", "buzz", "declare_priority"}


def test_the_seed_is_private_to_the_host(api: Api) -> None:
    supplied_match(api, seed=1234)
    url = f"/matches/{api.match_id}/events"
    public = api.client.get(url).json()
    hosted = api.client.get(url, headers=api.auth(api.token("host"))).json()
    seeded = next(e for e in public if e["type"] == "match.seeded")
    assert seeded["payload"] is None
    assert len(seeded["commitment"]) == 64
    assert next(e for e in hosted if e["type"] == "match.seeded")["payload"] == {"seed": 1234}
    assert "seed" not in api.state(who="alpha")["state"]
    assert api.state(who="host")["state"]["seed"] == 1234


def test_health_and_readiness(api: Api) -> None:
    assert api.client.get("/health").json() == {"status": "ok"}
    assert api.client.get("/ready").json() == {"status": "ready"}
    assert api.client.get("/docs").status_code == 200


def test_unknown_matches_and_naive_times_are_clear_errors(api: Api) -> None:
    missing = api.client.get("/matches/00000000-0000-0000-0000-000000000000/state")
    assert (missing.status_code, missing.json()["code"]) == (404, "unknown_match")
    supplied_match(api)
    naive = api.client.get(f"/matches/{api.match_id}/state", params={"at": "2026-01-01T12:00:00"})
    assert (naive.status_code, naive.json()["code"]) == (422, "naive_time")
    junk = api.client.get(f"/matches/{api.match_id}/state", params={"at": "yesterday"})
    assert (junk.status_code, junk.json()["code"]) == (422, "invalid_request")


def test_the_operator_feed_lists_every_match_in_global_order_without_secrets(api: Api) -> None:
    supplied_match(api, seed=77)
    first = api.match_id
    api.create()
    headers = api.auth("op_test_token")
    feed = api.client.get("/feed", headers=headers).json()
    assert [e["position"] for e in feed] == list(range(1, len(feed) + 1))
    assert {e["match_id"] for e in feed} == {first, api.match_id}
    assert all(e["payload"] is None for e in feed if e["type"] == "match.seeded")
    tail = api.client.get("/feed", params={"after_position": 3, "limit": 1}, headers=headers)
    assert [e["position"] for e in tail.json()] == [4]
    assert api.client.get("/feed").status_code == 401
