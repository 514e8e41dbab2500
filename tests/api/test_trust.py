"""Trust: sealed facts stay sealed at every door, rulings that cannot act are refused, keys are
no oracle, and no time or number a client sends can break a read."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tests.api.conftest import Api
from tests.api.test_nnt_over_http import SEATS, act, nnt_match, step

SECRET = ["W", "H", "I", "Z"]


def _both_claim_and_alpha_solves(api: Api) -> None:
    """Both seats claim the prompt in one step; Alpha's solution stays sealed while Beta's
    solution window is open."""
    nnt_match(api)
    step(api, ("submit", "W"), ("submit", "H"))
    step(api, ("submit", "Z"), ("submit", "Q"))
    step(api, ("claim_prompt",), ("claim_prompt",))
    act(api, "Alpha", "solve", after=5, tokens=SECRET)


def _solutions(state: dict[str, Any]) -> list[Any]:
    return [c["solution"] for c in state["state"]["round"]["prompt_claims"]]


def test_a_seat_cannot_project_the_state_past_now_to_read_a_sealed_solution(api: Api) -> None:
    _both_claim_and_alpha_solves(api)
    future = api.clock.now + timedelta(hours=1)
    seen = api.state(at=future, who="Beta")
    assert _solutions(seen) == [None, None]
    assert seen["at"] == api.state(who="Beta")["at"]  # cut to the record time asked about
    spectator = api.client.get(
        f"/matches/{api.match_id}/state", params={"at": "9999-01-01T00:00:00Z"}
    ).json()
    assert _solutions(spectator) == [None, None]
    assert "WHIZ" not in str(spectator) and '"I", "Z"' not in str(spectator)
    assert _solutions(api.state(who="host")) == [SECRET, None]
    projected = api.state(at=future, who="host")  # the host may project past now
    assert projected["at"] != seen["at"]


def test_a_diff_into_the_future_reveals_nothing_either(api: Api) -> None:
    _both_claim_and_alpha_solves(api)
    params = {"before_seq": 2, "at": "9999-01-01T00:00:00Z"}
    url = f"/matches/{api.match_id}/diff"
    answer = api.client.get(url, params=params, headers=api.auth(api.token("Beta")))
    assert answer.status_code == 200, answer.text
    assert "Z" not in {str(c["after"]) for c in answer.json()["changes"]} - {"None"}
    assert str(SECRET) not in answer.text and '["W","H","I","Z"]' not in answer.text


def test_another_seats_idempotency_key_replays_nothing_and_confirms_nothing(api: Api) -> None:
    nnt_match(api)
    api.clock.advance(1)
    body = {"type": "submit", "seat": "Alpha", "object": "Q"}
    first = api.ok("Alpha", body, key="k-1")
    assert api.ok("Alpha", body, key="k-1")["replayed"] is True
    forged = api.command("Beta", body, key="k-1")
    assert forged.status_code == 403 and forged.json()["code"] == "wrong_seat"
    guess = api.command("Beta", {**body, "object": "X"}, key="k-1")
    assert guess.json()["code"] == "wrong_seat"
    own = api.ok("Beta", {"type": "submit", "seat": "Beta", "object": "W"}, key="k-1")
    assert own["replayed"] is False and own["events"][0]["seq"] != first["events"][0]["seq"]
    events = api.client.get(
        f"/matches/{api.match_id}/events", headers=api.auth(api.token("Beta"))
    ).json()
    keys = {e["actor"]: e["idempotency_key"] for e in events if e["type"] == "nnt.acted"}
    assert keys == {"seat:Alpha": None, "seat:Beta": "seat:Beta/k-1"}


def test_a_seat_token_acts_for_its_own_seat_without_naming_it(api: Api) -> None:
    nnt_match(api)
    api.clock.advance(1)
    answer = api.ok("Alpha", {"type": "submit", "object": "Q"})
    assert answer["events"][0]["actor"] == "seat:Alpha"


def _ruling(api: Api, body: dict[str, Any]) -> tuple[int, str]:
    response = api.rule({"reason": "test", **body})
    return response.status_code, response.json().get("code", "")


def test_rulings_that_cannot_act_are_refused_and_record_nothing(api: Api) -> None:
    api.create(config={"rounds": 2})
    last = api.last_seq()
    assert _ruling(api, {"type": "void", "target_seq": 1}) == (422, "not_rulable")
    assert _ruling(api, {"type": "amend", "target_seq": 2, "outcome": {}}) == (422, "not_rulable")
    assert _ruling(api, {"type": "void", "target_seq": 99}) == (422, "unknown_seq")
    assert _ruling(api, {"type": "end_round"}) == (409, "no_round_in_progress")
    assert _ruling(api, {"type": "undo", "to_seq": last}) == (409, "nothing_to_undo")
    future = {"type": "note", "occurred_at": "9999-01-01T00:00:00Z"}
    assert _ruling(api, future) == (422, "game_time_in_future")
    beyond = {"type": "note", "occurred_at": "9999-12-31T23:59:59-14:00"}
    assert _ruling(api, beyond)[0] == 422
    assert api.last_seq() == last


def test_a_ruling_the_game_has_no_use_for_is_refused(api: Api) -> None:
    api.create(game="zombego", seats=["white", "black"])
    body = {"type": "adjust_score", "seat": "white", "delta": 1}
    assert _ruling(api, body) == (422, "ruling_not_applicable")


def test_an_end_of_round_at_a_past_game_time_acts_there(api: Api) -> None:
    api.create(config={"rounds": 2})
    api.ok("host", {"type": "start_round"})
    started = api.clock.now
    api.clock.advance(50)
    ended_at = (started + timedelta(seconds=10)).isoformat()
    response = api.rule({"type": "end_round", "occurred_at": ended_at, "reason": "alarm"})
    assert response.status_code == 201, response.text
    assert response.json()["events"][0]["occurred_at"].startswith(ended_at[:19])
    played = api.state()["state"]["played"]
    assert played[0]["ended_at"].startswith(ended_at[:19]) and played[0]["end_reason"] == "ruling"


def test_times_and_numbers_out_of_range_are_clear_errors(api: Api) -> None:
    nnt_match(api)
    base = f"/matches/{api.match_id}"
    cases = [
        ("/state", {"at": "9999-12-31T23:59:59-14:00"}, "time_out_of_range"),
        ("/state", {"known_at": "0001-01-01T00:00:00+14:00"}, "time_out_of_range"),
        ("/events", {"known_at": "2026-01-01T12:00:00"}, "naive_time"),
        ("/timeline", {"known_at": "9999-12-31T23:59:59-14:00"}, "time_out_of_range"),
        ("/diff", {"before": "0001-01-01T00:00:00+14:00"}, "time_out_of_range"),
        ("/events", {"after_seq": str(2**63)}, "invalid_request"),
    ]
    for path, params, code in cases:
        answer = api.client.get(base + path, params=params)
        assert (answer.status_code, answer.json()["code"]) == (422, code), (path, params)
    far = api.client.get(base + "/state", params={"at": "9999-12-30T00:00:00Z"})
    assert far.status_code == 200, far.text
    host = api.client.get(
        base + "/state",
        params={"at": "9999-12-30T00:00:00Z"},
        headers=api.auth(api.token("host")),
    )
    assert host.status_code == 200, host.text
    feed = api.client.get("/feed", params={"after_position": str(2**63)})
    assert feed.status_code in (401, 422)


def test_every_seat_view_stays_sealed_for_the_opponent(api: Api) -> None:
    nnt_match(api)
    act(api, "Alpha", "submit", object="Q")
    for who in ("Beta", ""):
        text = api.client.get(
            f"/matches/{api.match_id}/state", headers=api.auth(api.token(who) if who else None)
        ).text
        assert '"Q"' not in text
    assert {s for s in SEATS} == {"Alpha", "Beta"}


def test_nan_is_refused_even_where_the_body_would_be_valid_without_it(api: Api) -> None:
    """The Ludii body ignores unknown keys, so only strict JSON parsing refuses this one."""
    api.create(game="zombego", seats=["white", "black"])
    body = '{"board": 6, "ruleset": "All Zombies", "piece_set": "(8) 12 Destinations",'
    for constant in ("NaN", "Infinity", "-Infinity"):
        response = api.client.post(
            f"/matches/{api.match_id}/ludii",
            content=body + f' "moves": [], "note": {constant}}}',
            headers={**api.auth(api.token("host")), "content-type": "application/json"},
        )
        assert (response.status_code, response.json()["code"]) == (422, "invalid_request")
        assert response.json()["details"][0]["type"] == "json_invalid"
