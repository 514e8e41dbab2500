"""A No, Not That! match entered from plain-text transcripts: the channel and each seat's
direct messages with the host, whose actions stay sealed exactly as live ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.api.conftest import Api
from tests.support.nnt_harness import make_config

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"


def text(name: str, channel: str, dm: bool = False) -> dict[str, Any]:
    content = (FIXTURES / name).read_text(encoding="utf-8")
    return {"format": "text", "text": content, "channel": channel, "dm": dm}


BODY = {
    "exports": [
        text("nnt-channel.txt", "nnt"),
        text("nnt-dm-alpha.txt", "dm-alpha", dm=True),
        text("nnt-dm-beta.txt", "dm-beta", dm=True),
    ],
    "seats": {"alpha": "alpha", "beta": "beta"},
    "hosts": ["qm"],
}


def post(api: Api, action: str, who: str = "host") -> httpx.Response:
    url = f"/matches/{api.match_id}/transcript/{action}"
    response: httpx.Response = api.client.post(url, json=BODY, headers=api.auth(api.token(who)))
    return response


def test_a_match_enters_from_the_channel_and_the_seats_direct_messages(api: Api) -> None:
    api.create(game="no_not_that", config=make_config(rounds=1))

    preview = post(api, "preview")
    assert preview.status_code == 200, preview.text
    kinds = [(r["seat"], r["command"]["type"]) for r in preview.json()["posts"] if r["command"]]
    assert kinds == [
        (None, "start_round"),
        ("alpha", "submit"),
        ("beta", "submit"),
        ("alpha", "submit"),
        ("beta", "submit"),
        ("alpha", "claim_prompt"),
        ("beta", "submit"),
        ("alpha", "solve"),
        ("beta", "accept"),
    ]
    assert {r["status"] for r in preview.json()["posts"] if r["command"]} == {"command"}
    entered = post(api, "enter")

    assert entered.status_code == 201, entered.text
    assert entered.json()["entered"] == 9
    state = api.state()["state"]
    assert state["phase"] == "finished"
    assert entered.json()["result"]["winner"] == "alpha"
    events = api.client.get(f"/matches/{api.match_id}/events").json()
    sealed = [e for e in events if e["type"] == "nnt.acted"]
    assert sealed and all(e["payload"] is None and e["commitment"] for e in sealed)
    assert {e["source"]["channel_id"] for e in sealed} == {"dm-alpha", "dm-beta"}
    assert post(api, "enter").json()["entered"] == 0
