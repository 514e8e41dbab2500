"""A complete Zoom match played in a chat channel, handed over as its DiscordChatExporter
export: previewed, entered, and ending in the same state as the same match played live."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from tests.api.conftest import Api
from tests.api.test_transcript_as_played import without_posts

FIXTURE = Path(__file__).parents[1] / "fixtures" / "transcripts" / "zoom-channel.json"
CONFIG = {
    "rounds": 2,
    "targets_per_round": 2,
    "supplied_rounds": {
        "1": {"grid": ["ABCD", "EFGH", "IJKL", "MNOP"], "targets": {"A": ["FG"], "B": ["K"]}},
        "2": {"grid": ["QRST", "UVWX", "YZ12", "3456"], "targets": {"A": ["6"], "B": ["Q"]}},
    },
}
CAST = {"seats": {"101": "alpha", "bob": "beta"}, "hosts": ["Quizmaster"]}
# The same match as the host would enter it live, one command per post, at the posts' times.
LIVE: list[tuple[str, dict[str, Any], int]] = [
    ("2024-05-01T11:00:05Z", {"type": "start_round", "round": 1}, 201),
    (
        "2024-05-01T11:00:10Z",
        {"type": "buzz", "seat": "alpha", "pairs": [{"target": "A", "at": "z9"}]},
        422,
    ),
    (
        "2024-05-01T11:00:12Z",
        {
            "type": "buzz",
            "seat": "alpha",
            "pairs": [{"target": "A", "at": "b2"}, {"target": "A", "at": "c3"}],
        },
        422,
    ),
    (
        "2024-05-01T11:00:15.250Z",
        {"type": "buzz", "seat": "alpha", "pairs": [{"target": "A", "at": "b2"}]},
        201,
    ),
    (
        "2024-05-01T11:00:15.2504Z",
        {"type": "buzz", "seat": "beta", "pairs": [{"target": "A", "at": "b2"}]},
        201,
    ),
    (
        "2024-05-01T11:00:25Z",
        {"type": "buzz", "seat": "alpha", "pairs": [{"target": "B", "at": "c4"}]},
        201,
    ),
    (
        "2024-05-01T11:00:30Z",
        {"type": "buzz", "seat": "beta", "pairs": [{"target": "B", "at": "c3"}]},
        201,
    ),
    ("2024-05-01T11:01:00Z", {"type": "declare_priority", "seat": "beta"}, 201),
    ("2024-05-01T11:01:10Z", {"type": "start_round", "round": 2}, 201),
    (
        "2024-05-01T11:01:15Z",
        {"type": "buzz", "seat": "beta", "pairs": [{"target": "B", "at": "a1"}]},
        201,
    ),
    (
        "2024-05-01T11:01:35Z",
        {"type": "buzz", "seat": "alpha", "pairs": [{"target": "A", "at": "d4"}]},
        201,
    ),
]


def export() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def body(data: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"exports": [{"format": "discord", "export": data}], **CAST, **more}


def post(api: Api, action: str, payload: dict[str, Any], who: str = "host") -> httpx.Response:
    url = f"/matches/{api.match_id}/transcript/{action}"
    response: httpx.Response = api.client.post(url, json=payload, headers=api.auth(api.token(who)))
    return response


def by_id(preview: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["message_id"][-2:]: row for row in preview["posts"]}


def play_live(api: Api) -> dict[str, Any]:
    api.create(config=CONFIG, advantage="beta", seed=5)
    for at, command, status in LIVE:
        response = api.command("host", {**command, "occurred_at": at})
        assert response.status_code == status, response.text
    state: dict[str, Any] = api.state()["state"]
    return state


def test_the_preview_shows_what_every_post_becomes_and_records_nothing(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)

    response = post(api, "preview", body(export()))

    assert response.status_code == 200, response.text
    rows = by_id(response.json())
    in_time = sorted(response.json()["posts"], key=lambda r: r["index"])
    # bob's post 07 came 400 microseconds after alice's 08: time orders them, not the id
    assert [r["message_id"][-2:] for r in in_time][6:8] == ["08", "07"]
    assert response.json()["posts"][0]["status"] == "flagged"  # flagged posts come first
    # "Round 1 starting soon" speaks of a start but is none: shown to the host, not entered
    assert (rows["01"]["status"], rows["01"]["flag"]) == ("flagged", "near_miss")
    assert (rows["09"]["status"], rows["09"]["reason"]) == ("ignored", "chatter")
    assert (rows["17"]["status"], rows["17"]["reason"]) == ("ignored", "host remark")
    assert rows["02"]["command"] == {"type": "start_round", "round": 1}
    assert rows["02"]["game_time"] == "2024-05-01T11:00:05.000000Z"
    assert (rows["03"]["status"], rows["03"]["reason"]) == ("ignored", "spectator")
    assert (rows["04"]["status"], rows["04"]["reason"]) == ("ignored", "bot")
    assert rows["05"]["refusal"]["code"] == "outside_grid"
    assert rows["06"]["refusal"]["code"] == "duplicate_target"
    assert rows["07"]["status"] == "command" and rows["07"]["seat"] == "beta"
    assert rows["11"]["status"] == "flagged" and rows["11"]["flag"] == "edited"
    assert rows["11"]["edited_at"] == "2024-05-01T13:00:45+02:00"
    assert rows["12"]["reason"] == "system message (ChannelPinnedMessage)"
    assert rows["16"]["game_time"] == "2024-05-01T11:01:35.000000Z"
    authors = {a["author"]: a["as"] for a in response.json()["ignored_authors"]}
    assert authors == {"carol": "spectator", "TimerBot": "bot"}
    assert api.last_seq() == 2


def test_entering_the_export_ends_in_the_state_of_the_match_played_live(api: Api) -> None:
    live = play_live(api)
    api.create(config=CONFIG, advantage="beta", seed=5)

    entered = post(api, "enter", body(export()))

    assert entered.status_code == 201, entered.text
    assert entered.json()["entered"] == 9
    state = api.state()["state"]
    assert without_posts(state) == live
    assert all(b["post"]["channel_id"] == "1199" for b in state["buzzes"])
    events = api.client.get(f"/matches/{api.match_id}/events").json()
    sources = [e["source"] for e in events if e["source"] is not None]
    assert [s["message_id"][-2:] for s in sources] == [
        "02",
        "08",
        "07",
        "10",
        "11",
        "13",
        "14",
        "15",
        "16",
    ]
    assert sources[2] == {
        "kind": "discord",
        "channel_id": "1199",
        "message_id": "1200000000000000007",
        "author_id": "102",
        "author": "bob",
        "posted_at": "2024-05-01T13:00:15.250400+02:00",
        "edited_at": None,
    }
    assert api.client.get(f"/matches/{api.match_id}/verify").json()["ok"]


def test_entering_again_records_nothing_and_a_longer_export_only_the_new_posts(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)
    full = export()
    first = {**full, "messages": full["messages"][:9]}
    assert post(api, "enter", body(first)).json()["entered"] == 3
    seq = api.last_seq()

    again = post(api, "enter", body(first))
    assert again.status_code == 201 and again.json()["entered"] == 0
    assert api.last_seq() == seq

    longer = post(api, "enter", body(full)).json()
    assert longer["entered"] == 6 and longer["counts"]["already_entered"] == 3
    assert api.last_seq() == seq + 6


def test_the_host_may_leave_an_edited_post_out(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)

    rows = by_id(post(api, "preview", body(export(), exclude=["1200000000000000011"])).json())

    assert rows["11"]["status"] == "excluded"
    assert rows["13"]["refusal"]["code"] == "round_in_progress"


def test_another_channel_is_refused_once_one_is_entered(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)
    data = export()
    post(api, "enter", body(data))
    seq = api.last_seq()
    other = {**data, "channel": {"id": "4242", "name": "elsewhere"}}

    refused = post(api, "enter", body(other))

    assert refused.status_code == 409
    assert refused.json()["code"] == "transcript_channel_mismatch"
    assert api.last_seq() == seq


def test_only_the_host_previews(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)

    refused = post(api, "preview", body(export()), who="alpha")

    assert (refused.status_code, refused.json()["code"]) == (403, "host_only")
