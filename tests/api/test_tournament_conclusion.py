"""An organizer ends an event before its planned rounds (``POST /tournaments/{id}/conclusion``):
a Swiss that a withdrawal left without a pairing free of rematches could otherwise never
finish. Finished from then on, its leader the champion; no act after it; ``known_at`` before
it shows the event unfinished; the bundle still verifies."""

from __future__ import annotations

import json

import httpx
import pytest

from api.service.tournament_audit import verify_bundle
from tests.api.conftest import Api
from tests.api.test_tournaments import EIGHT, better_seed
from tests.api.tournament_client import Organizer, play_round


@pytest.fixture
def org(api: Api) -> Organizer:
    return Organizer(api)


def code(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


def test_a_swiss_left_unpairable_by_a_withdrawal_is_concluded_as_it_stands(
    api: Api, org: Organizer
) -> None:
    org.create(EIGHT[:5], format="swiss", rounds=4, tiebreaks=["buchholz"])
    play_round(api, org.pair(), better_seed)
    assert org.post("/withdrawals", {"player": "p5", "reason": "left"}).status_code == 201
    play_round(api, org.pair(), better_seed)
    third = org.pair()
    early = org.post("/conclusion", {"reason": "too early"})
    assert code(early) == (409, "round_not_finished")
    play_round(api, third, better_seed)
    # four players left have all met: round 4 has no pairing without a rematch
    refused = org.post("/rounds")
    assert code(refused) == (409, "no_valid_pairing")
    assert "conclude the tournament" in refused.json()["message"]  # the way on is named
    assert not org.standings()["finished"]
    assert org.post("/conclusion", {}).status_code == 422  # a reason is required
    api.clock.advance(60)
    before = api.clock.now
    api.clock.advance(60)
    done = org.post("/conclusion", {"reason": "no pairing left without a rematch"})
    assert done.status_code == 201, done.text
    assert done.json()["type"] == "tournament.concluded"
    table = org.standings()
    assert table["finished"] and table["concluded"] == "no pairing left without a rematch"
    assert table["champion"] == table["rows"][0]["player"] == "p1"
    assert org.get("")["concluded"] == "no pairing left without a rematch"
    then = org.standings(known_at=before)
    assert not then["finished"] and then["champion"] is None and then["concluded"] is None
    events = len(org.get("/events"))
    for path, body in [
        ("/rounds", None),
        ("/conclusion", {"reason": "again"}),
        ("/withdrawals", {"player": "p1", "reason": "late"}),
        ("/rounds/current/repair", {"reason": "x"}),
        ("/forfeits", {"round": 3, "board": 1, "winner": None, "reason": "x"}),
    ]:
        assert code(org.post(path, body)) == (409, "tournament_finished"), path
    assert len(org.get("/events")) == events
    assert org.get("/verify")["ok"]
    text = api.client.get(f"/tournaments/{org.id}/export", headers=api.auth(org.token)).text
    games = api.client.app.state.service.games  # type: ignore[attr-defined]
    assert verify_bundle(text, games)["ok"]


def test_a_finished_event_cannot_be_concluded_and_a_pairing_after_a_conclusion_fails_verify(
    api: Api, org: Organizer
) -> None:
    org.create(EIGHT[:4])
    for _ in range(3):
        play_round(api, org.pair(), better_seed)
    assert code(org.post("/conclusion", {"reason": "x"})) == (409, "tournament_finished")
    api.clock.advance(5)
    org2 = Organizer(api)
    org2.create(EIGHT[:4])
    play_round(api, org2.pair(), better_seed)
    assert org2.post("/conclusion", {"reason": "rain"}).status_code == 201
    text = api.client.get(f"/tournaments/{org2.id}/export", headers=api.auth(org2.token)).text
    bundle = json.loads(text)
    games = api.client.app.state.service.games  # type: ignore[attr-defined]
    assert verify_bundle(text, games)["ok"]
    # a pairing recorded after the conclusion (its round 1 pairing moved after it): refused
    log = bundle["log"].splitlines()
    header, created, paired, concluded = log[0], log[1], log[2], log[3]
    assert '"tournament.concluded"' in concluded
    bundle["log"] = "\n".join([header, created, concluded, paired, *log[4:]])
    assert not verify_bundle(json.dumps(bundle), games)["ok"]
