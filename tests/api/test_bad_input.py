"""Bad input gets a clear error with a stable code, and records nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import Api
from tests.api.test_zoom_over_http import buzz, supplied_match


def pairs(*items: tuple[str, str]) -> dict[str, Any]:
    return {"type": "buzz", "seat": "alpha", "pairs": [{"target": t, "at": c} for t, c in items]}


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        ("alpha", pairs(("A", "zz")), 422, "malformed_coordinate"),
        ("alpha", pairs(("A", "g1")), 422, "outside_grid"),
        ("alpha", pairs(("Q", "a1")), 422, "unknown_target"),
        ("alpha", pairs(("A", "d3"), ("A", "a1")), 422, "duplicate_target"),
        ("alpha", buzz("beta", "A", "d3"), 403, "wrong_seat"),
        ("alpha", {"type": "teleport"}, 422, "unknown_command"),
        ("alpha", {"type": "buzz", "seat": "alpha"}, 422, "invalid_request"),
        ("alpha", {"type": "start_round"}, 403, "host_only"),
        ("auditor", buzz("alpha", "A", "d3"), 403, "read_only_token"),
        ("", buzz("alpha", "A", "d3"), 401, "missing_token"),
    ],
)
def test_refused_commands_change_nothing(
    api: Api, who: str, body: dict[str, Any], status: int, code: str
) -> None:
    supplied_match(api)
    before = api.last_seq()
    response = api.command(who, body)
    assert (response.status_code, response.json()["code"]) == (status, code), response.text
    assert response.json()["message"]
    assert api.last_seq() == before


def test_an_unknown_token_is_refused(api: Api) -> None:
    supplied_match(api)
    url = f"/matches/{api.match_id}/commands"
    response = api.client.post(url, json=buzz("alpha", "A", "d3"), headers=api.auth("nope"))
    assert (response.status_code, response.json()["code"]) == (401, "invalid_token")


def test_a_token_of_another_match_is_refused(api: Api) -> None:
    supplied_match(api)
    other_token = api.tokens["seats"]["alpha"]
    api.create()
    url = f"/matches/{api.match_id}/commands"
    response = api.client.post(url, json=buzz("alpha", "A", "d3"), headers=api.auth(other_token))
    assert (response.status_code, response.json()["code"]) == (403, "token_not_for_match")


def test_no_buzz_before_the_first_round_or_after_the_match(api: Api) -> None:
    config = {"rounds": 1, "supplied_rounds": {"1": {"grid": ["RG"], "targets": {"A": ["G"]}}}}
    api.create(config=config)
    early = api.command("alpha", buzz("alpha", "A", "b1"))
    assert (early.status_code, early.json()["code"]) == (409, "no_round_in_progress")
    api.ok("host", {"type": "start_round"})
    api.ok("alpha", buzz("alpha", "A", "b1"))
    late = api.command("beta", buzz("beta", "A", "b1"))
    assert (late.status_code, late.json()["code"]) == (409, "no_round_in_progress")
    assert "over" in late.json()["message"]
    assert api.last_seq() == 4


def test_a_second_priority_and_priority_by_the_non_holder_are_refused(api: Api) -> None:
    api.create(advantage="alpha")
    other = api.command("beta", {"type": "declare_priority", "seat": "beta"})
    assert (other.status_code, other.json()["code"]) == (409, "not_advantage_holder")
    api.ok("alpha", {"type": "declare_priority", "seat": "alpha"})
    second = api.command("alpha", {"type": "declare_priority", "seat": "alpha"})
    assert (second.status_code, second.json()["code"]) == (409, "priority_already_used")


def test_an_oversized_payload_is_refused(api: Api) -> None:
    supplied_match(api)
    before = api.last_seq()
    huge = {"type": "buzz", "seat": "alpha", "pairs": [], "padding": "x" * 300_000}
    response = api.command("alpha", huge)
    assert (response.status_code, response.json()["code"]) == (413, "payload_too_large")
    assert api.last_seq() == before


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/matches"), ("POST", "/matches/import"), ("GET", "/feed"),
     ("POST", "/log/cosignatures"), ("POST", "/tournaments")],
)  # fmt: skip
def test_an_operator_s_route_says_which_act_needs_the_operator_token(
    api: Api, method: str, path: str
) -> None:
    """Every route of the operator's refuses a missing or another token with a message naming
    the request, not "creating matches" (which it said for importing, the feed, a witness's
    cosignature and a new tournament too)."""
    for headers, status, code in (({}, 401, "missing_token"),
                                  (api.auth("host_x"), 403, "not_operator")):  # fmt: skip
        answer = api.client.request(method, path, headers=headers)
        assert (answer.status_code, answer.json()["code"]) == (status, code)
        message = answer.json()["message"]
        assert f"{method} {path}" in message and "operator token" in message, message
        assert "matches" not in message.replace(path, ""), message


def test_creating_a_match_needs_the_operator_token(api: Api) -> None:
    body = {"game": "zoom", "seats": ["a", "b"]}
    assert api.client.post("/matches", json=body).json()["code"] == "missing_token"
    wrong = api.client.post("/matches", json=body, headers=api.auth("host_x"))
    assert (wrong.status_code, wrong.json()["code"]) == (403, "not_operator")
    bad = api.client.post(
        "/matches", json={**body, "game": "chess"}, headers=api.auth("op_test_token")
    )
    assert (bad.status_code, bad.json()["code"]) == (422, "unknown_game")


def test_rulings_are_for_the_host_only(api: Api) -> None:
    supplied_match(api)
    response = api.rule({"type": "note", "reason": "hi"}, who="alpha")
    assert (response.status_code, response.json()["code"]) == (403, "host_only")
    unknown = api.rule({"type": "void", "target_seq": 99, "reason": "x"})
    assert (unknown.status_code, unknown.json()["code"]) == (422, "unknown_seq")
