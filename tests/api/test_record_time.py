"""Record time by seq: every read route that takes a record time by instant takes it by seq too,
and the seq tells apart events recorded in one microsecond (here the test clock never moves, so
a buzz and the ruling that voids it share their ``recorded_at``). A config error at creation is
``invalid_config``; a misspelled field of the request itself is ``invalid_request``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import OPERATOR, Api
from tests.api.test_zoom_over_http import buzz, supplied_match


def _read(api: Api, route: str, **params: Any) -> Any:
    url = f"/matches/{api.match_id}/{route}"
    answer = api.client.get(url, params=params, headers=api.auth(api.token("host")))
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_known_seq_tells_apart_two_events_of_one_microsecond_on_every_read_route(
    api: Api,
) -> None:
    supplied_match(api)
    buzzed = api.ok("alpha", buzz("alpha", "A", "a1"))["events"][0]
    voided = api.rule({"type": "void", "target_seq": buzzed["seq"], "reason": "misread"})
    assert voided.status_code == 201, voided.text
    ruling, seq = voided.json()["events"][0], buzzed["seq"]
    assert ruling["recorded_at"] == buzzed["recorded_at"]

    by_instant = _read(api, "state", known_at=ruling["recorded_at"])
    assert str(seq) in by_instant["voided"]  # the instant holds both the buzz and its void
    before = _read(api, "state", known_seq=seq)
    assert (before["known_seq"], before["last_seq"], before["voided"]) == (seq, seq, {})
    assert [lo["target"] for lo in before["state"]["round"]["lockouts"]] == ["A"]
    assert _read(api, "state")["state"]["round"]["lockouts"] == []

    assert [e["seq"] for e in _read(api, "events", known_seq=seq)][-1] == seq
    assert [e["seq"] for e in _read(api, "events")][-1] == ruling["seq"]

    then = {p["seq"]: p for p in _read(api, "timeline", known_seq=seq)["points"]}
    assert then[seq]["outcome"]["pairs"][0]["outcome"] == "incorrect"
    assert seq not in {p["seq"] for p in _read(api, "timeline")["points"]}

    diff = _read(api, "diff", before_seq=seq)
    assert [r["seq"] for r in diff["rulings"]] == [ruling["seq"]]
    assert "state.round.lockouts[0]" in {c["path"] for c in diff["changes"]}
    same = _read(api, "diff", before_seq=seq, after_seq=seq)
    assert (same["rulings"], same["changes"]) == ([], [])


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "zoom", "config": {"rounds": 0}}, "invalid_config"),
        ({"game": "zoom", "config": {"roundz": 3}}, "invalid_config"),
        ({"game": "no_not_that", "config": {}}, "invalid_config"),
        ({"game": "zombego", "config": {"board": 11}}, "invalid_config"),
        ({"game": "zoom", "config": {}, "advantge": "alpha"}, "invalid_request"),
    ],
)
def test_a_config_error_at_creation_is_invalid_config(
    api: Api, body: dict[str, Any], code: str
) -> None:
    made = api.client.post(
        "/matches", json={"seats": ["alpha", "beta"], **body}, headers=api.auth(OPERATOR)
    )
    assert (made.status_code, made.json()["code"]) == (422, code), made.text
