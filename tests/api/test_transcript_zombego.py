"""A Zombego game entered from a plain-text transcript (Ludii strings and chat phrasings mixed,
chatter, a spectator, a multi-line post and an illegal typo): it ends as the golden game did."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.api.conftest import Api

ROOT = Path(__file__).parents[1]
TRANSCRIPT = (ROOT / "fixtures" / "transcripts" / "zombego-game.txt").read_text(encoding="utf-8")
GOLDEN = [
    json.loads(line)
    for line in (ROOT / "golden" / "zombego" / "zombego-golden.jsonl").read_text().splitlines()
][1]
BODY = {
    "exports": [{"format": "text", "text": TRANSCRIPT, "channel": "zombego-table"}],
    "seats": {"white": "white", "black": "black"},
    "hosts": ["qm"],
}


def post(api: Api, action: str, body: object = BODY) -> httpx.Response:
    url = f"/matches/{api.match_id}/transcript/{action}"
    response: httpx.Response = api.client.post(url, json=body, headers=api.auth(api.token("host")))
    return response


def test_a_zombego_game_enters_from_a_text_transcript(api: Api) -> None:
    options = {key: GOLDEN[key] for key in ("board", "ruleset", "piece_set")}
    api.create(game="zombego", seats=["white", "black"], config=options, seed=7)

    preview = post(api, "preview").json()
    refused = [r for r in preview["posts"] if r["status"] == "refused"]
    assert [(r["content"], r["refusal"]["code"]) for r in refused] == [
        ("a1 to a1", refused[0]["refusal"]["code"])
    ]
    assert preview["ignored_authors"] == [
        {"author_id": "mallory", "author": "mallory", "as": "spectator"}
    ]
    entered = post(api, "enter")

    assert entered.status_code == 201, entered.text
    assert entered.json()["entered"] == len(GOLDEN["plies"])
    result = entered.json()["result"]
    assert (result["winner"], result["reason"]) == ("black", GOLDEN["result"]["reason"])
    counts = api.state()["state"]["counts"]
    assert result["scores"] == {seat: counts[seat]["living"] for seat in counts}
    ludii = api.client.get(f"/matches/{api.match_id}/ludii").json()
    assert ludii["moves"] == [ply["played"] for ply in GOLDEN["plies"]]
