"""A No, Not That! match records the word list that judges it (name and sha256) in its setup,
ENABLE by default or the ``ADJUDICATOR_WORDLIST`` file, and a verifier refolds with that list."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from adjudicator import registry
from api.service.audit import verify_text
from api.service.wordlists import ENABLE, WEB2, load_dictionaries
from tests.api.conftest import OPERATOR, Api, make_app
from tests.api.test_nnt_over_http import EXAMPLE, SEATS
from tests.store.support import ManualClock


def created(api: Api, **config: Any) -> dict[str, Any]:
    api.create(game="no_not_that", seats=SEATS, config={"rounds": [EXAMPLE], **config})
    events = api.client.get(
        f"/matches/{api.match_id}/events", headers=api.auth(api.token("host"))
    ).json()
    assert events[0]["type"] == "match.created"
    payload: dict[str, Any] = events[0]["payload"]
    return payload


def test_a_new_match_records_enable_by_name_and_sha256(api: Api) -> None:
    header = created(api)
    assert header["config"]["wordlist"] == {"name": "enable1", "sha256": ENABLE.sha256}


def test_a_host_may_name_web2_and_the_match_records_it(api: Api) -> None:
    header = created(api, wordlist=WEB2.model_dump())
    assert header["config"]["wordlist"] == WEB2.model_dump()


def test_a_list_the_service_lacks_is_refused(api: Api) -> None:
    body = {
        "game": "no_not_that",
        "seats": SEATS,
        "config": {"rounds": [EXAMPLE], "wordlist": {"name": "sowpods", "sha256": "a" * 64}},
    }
    answer = api.client.post("/matches", json=body, headers=api.auth(OPERATOR))
    assert answer.status_code == 422
    assert answer.json()["code"] == "unknown_wordlist"


def test_the_override_file_is_recorded_and_a_verifier_without_it_says_so(
    database_url: str, clock: ManualClock, tmp_path: Path
) -> None:
    listing = tmp_path / "house-words.txt"
    listing.write_text("whiz\nquiz\n", encoding="utf-8")
    app = make_app(database_url, clock, wordlist=str(listing))
    with TestClient(app) as client:
        api = Api(client, clock)
        header = created(api)
        host = api.auth(api.token("host"))
        assert client.post(f"/matches/{api.match_id}/close", headers=host).status_code == 201
        exported = client.get(
            f"/matches/{api.match_id}/export", headers=api.auth(api.token("host"))
        )
    app.state.service.store.dispose()
    sha = hashlib.sha256(listing.read_bytes()).hexdigest()
    assert header["config"]["wordlist"] == {"name": "house-words.txt", "sha256": sha}
    assert exported.status_code == 200, exported.text
    with_it = verify_text(exported.text, registry.games(load_dictionaries(str(listing))))
    assert with_it.ok, with_it.as_json()
    without = verify_text(exported.text, registry.games(load_dictionaries()))
    assert not without.ok
    assert sha in str(without.as_json())
