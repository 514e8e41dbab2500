"""Bad input answered in words a client can act on (issue 26): a body that is not JSON says so,
NaN is reported at the field that holds it, and an unknown game lists the games."""

from __future__ import annotations

import pytest

from tests.api.conftest import OPERATOR, Api

CREATE = '{"game": "zoom", "seats": ["alpha", "beta"], "config": {"rounds": __X__}}'


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/x-www-form-urlencoded", "game=zoom&seats=alpha&seats=beta"),
        ("text/plain", '{"game": "zoom", "seats": ["alpha", "beta"]}'),
        ("multipart/form-data; boundary=x", "--x--\r\n"),
    ],
)
def test_a_body_sent_as_a_form_or_text_is_asked_for_as_json(
    api: Api, content_type: str, body: str
) -> None:
    headers = api.auth(OPERATOR) | {"content-type": content_type}
    answer = api.client.post("/matches", content=body.encode(), headers=headers)
    assert answer.status_code == 422
    refused = answer.json()
    assert refused["code"] == "json_required"
    assert "application/json" in refused["message"]
    assert content_type.split(";", maxsplit=1)[0] in refused["message"]
    assert "dictionary" not in refused["message"]


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_nan_is_reported_at_the_field_that_holds_it(api: Api, literal: str) -> None:
    headers = api.auth(OPERATOR) | {"content-type": "application/json"}
    body = CREATE.replace("__X__", f'[1, {{"step_seconds": {literal}}}]')
    answer = api.client.post("/matches", content=body.encode(), headers=headers)
    assert answer.status_code == 422
    refused = answer.json()
    assert refused["code"] == "invalid_request"
    assert refused["details"][0]["loc"] == ["body", "config", "rounds", 1, "step_seconds"]
    assert refused["message"].startswith("body.config.rounds.1.step_seconds: ")
    assert "not a JSON number" in refused["message"] or "out of range" in refused["message"]


def test_invalid_json_still_says_where_it_broke(api: Api) -> None:
    headers = api.auth(OPERATOR) | {"content-type": "application/json"}
    answer = api.client.post("/matches", content=b'{"game": ', headers=headers)
    assert (answer.status_code, answer.json()["code"]) == (422, "invalid_request")


def test_an_unknown_game_lists_the_games(api: Api) -> None:
    body = {"game": "chess", "seats": ["alpha", "beta"]}
    answer = api.client.post("/matches", json=body, headers=api.auth(OPERATOR))
    assert answer.status_code == 422
    refused = answer.json()
    assert refused["code"] == "unknown_game"
    assert refused["details"] == {"games": ["no_not_that", "zombego", "zoom"]}
    for name in ("no_not_that", "zombego", "zoom"):
        assert name in refused["message"]
