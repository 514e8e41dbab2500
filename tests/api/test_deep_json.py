"""A body nested too deeply for the parser is invalid JSON (422), on every JSON route: it
answered 400 ``http_error`` (the parser's RecursionError), though the README promises 422."""

from __future__ import annotations

import pytest

from tests.api.conftest import Api

DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize("route", ["commands", "rulings", "transcript/preview"])
def test_a_body_nested_100000_deep_is_invalid_json(api: Api, route: str) -> None:
    api.create()
    seq = api.last_seq()
    headers = {**api.auth(api.token("host")), "Content-Type": "application/json"}

    answer = api.client.post(f"/matches/{api.match_id}/{route}", content=DEEP, headers=headers)

    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "invalid_request"
    assert api.last_seq() == seq


def test_a_deep_body_is_invalid_json_for_match_creation(api: Api) -> None:
    from tests.api.conftest import OPERATOR

    answer = api.client.post(
        "/matches",
        content=DEEP,
        headers={**api.auth(OPERATOR), "Content-Type": "application/json"},
    )

    assert (answer.status_code, answer.json()["code"]) == (422, "invalid_request")
