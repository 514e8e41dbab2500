"""A Zoom channel export as hosts and players really write it enters the match they played.

Each test here failed before the chat import read posts as hosts do: a round start inside a
grid post, ``B is at c5``, game times cut to the millisecond, an enter answer with only
counts (no per-post outcome, ``result: null`` for a match over at its deadline), a second
preview calling refused posts ``game_time_backwards``, and player phrasings ignored.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import httpx

from tests.api.conftest import Api

CONFIG: dict[str, Any] = {
    "rounds": 2,
    "targets_per_round": 2,
    "supplied_rounds": {
        "1": {
            "grid": ["ABCDE", "FGHIJ", "KLMNO", "PQRST", "UVWXY"],
            "targets": {"A": ["GH"], "B": ["W"]},  # A at b2, B at c5
        },
        "2": {
            "grid": ["12345", "67890", "ZYXWV", "UTSRQ", "PONML"],
            "targets": {"A": ["0"], "B": ["ZY"]},  # A at e2, B at a3
        },
    },
}
START = datetime(2024, 5, 1, 11, 0, tzinfo=UTC)  # the test clock reads 12:00
ZONES = [timezone(timedelta(hours=2)), timezone(timedelta(hours=-5)), UTC]
AUTHORS: dict[str, dict[str, Any]] = {
    "qm": {"id": "900", "name": "qm", "nickname": "Quizmaster", "isBot": False},
    "alice": {"id": "101", "name": "alice", "nickname": None, "isBot": False},
    "bob": {"id": "102", "name": "bob", "nickname": "Bobby", "isBot": False},
    "carol": {"id": "103", "name": "carol", "nickname": None, "isBot": False},
    "bot": {"id": "104", "name": "TimerBot", "nickname": None, "isBot": True},
}
CAST = {"seats": {"alice": "alpha", "bob": "beta"}, "hosts": ["qm"]}
GRID_POST = (
    "**Round 1** — find A and B\n```\nA B C D E\nF G H I J\nK L M N O\nP Q R S T\nU V W X Y\n```"
    "\nA: `G H`   B: `W`\nReminder: wrong answers lock you out for 60 s.\nRound 1 starts now!"
)
# (seconds after START, with microseconds; author; content; edited)
POSTS: list[tuple[float, str, str, bool]] = [
    (0.0, "qm", "Welcome! Round 1 starts in a minute, good luck both", False),
    (60.1234567, "qm", GRID_POST, False),
    (61.5, "carol", "A b2", False),
    (62.0, "bot", "⏱ 120 s on the clock", False),
    (63.2500001, "alice", "A z9", False),  # outside the grid: refused
    (64.75, "alice", "B is at c5", False),
    (65.5, "alice", "A c4 lol", False),  # looks like a buzz, does not read whole
    (66.000123, "bob", "B c5", False),  # B already found by alice
    (68.4, "bob", "**A  b2** 🔥", True),  # edited: still counts
    (80.0, "bob", "I'll take priority", False),
    (
        90.0000009,
        "qm",
        "Round 2 starts now — bob has Priority for the first 20 s\n```\n1 2 3 4 5\n```",
        False,
    ),
    (92.0, "alice", "A at e2", False),  # inside bob's Priority: ineligible
    (95.5, "bob", "B a3 and A e2", False),
    (96.0, "qm", "gg both, well played", False),
]
# The same match entered live by the host, one command per post, at the posts' times.
LIVE: list[tuple[float, dict[str, Any], int]] = [
    (60.123456, {"type": "start_round", "round": 1}, 201),
    (63.25, {"type": "buzz", "seat": "alpha", "pairs": [{"target": "A", "at": "z9"}]}, 422),
    (64.75, {"type": "buzz", "seat": "alpha", "pairs": [{"target": "B", "at": "c5"}]}, 201),
    (66.000123, {"type": "buzz", "seat": "beta", "pairs": [{"target": "B", "at": "c5"}]}, 201),
    (68.4, {"type": "buzz", "seat": "beta", "pairs": [{"target": "A", "at": "b2"}]}, 201),
    (80.0, {"type": "declare_priority", "seat": "beta"}, 201),
    (90.0, {"type": "start_round", "round": 2}, 201),
    (92.0, {"type": "buzz", "seat": "alpha", "pairs": [{"target": "A", "at": "e2"}]}, 201),
    (
        95.5,
        {
            "type": "buzz",
            "seat": "beta",
            "pairs": [{"target": "B", "at": "a3"}, {"target": "A", "at": "e2"}],
        },
        201,
    ),
]


def stamp(seconds: float, index: int) -> str:
    """The export's time: 7 fractional digits, in one of several zones."""
    moment = START + timedelta(seconds=int(seconds))
    fraction = f"{round((seconds - int(seconds)) * 10**7):07d}"
    local = moment.astimezone(ZONES[index % len(ZONES)])
    return local.strftime("%Y-%m-%dT%H:%M:%S") + "." + fraction + local.strftime("%z")[:3] + ":00"


def message(index: int, seconds: float, who: str, content: str, edited: bool) -> dict[str, Any]:
    author = AUTHORS[who]
    return {
        "id": str(1_300_000_000_000_000_000 + index),
        "type": "Default",
        "timestamp": stamp(seconds, index),
        "timestampEdited": stamp(seconds + 30, index) if edited else None,
        "callEndedTimestamp": None,
        "isPinned": False,
        "content": content,
        "author": {
            **author,
            "discriminator": "0000",
            "color": None,
            "roles": [],
            "avatarUrl": "https://cdn.example/a.png",
        },
        "attachments": [],
        "embeds": [],
        "stickers": [],
        "reactions": [],
        "mentions": [],
        "inlineEmojis": [],
    }


def export(posts: list[tuple[float, str, str, bool]] = POSTS) -> dict[str, Any]:
    messages = [message(i, *post) for i, post in enumerate(posts, start=1)]
    pinned = {**message(99, 61.0, "qm", "Pinned a message.", False), "type": "ChannelPinnedMessage"}
    return {
        "guild": {"id": "1", "name": "Quiz night", "iconUrl": ""},
        "channel": {"id": "7700", "type": "GuildTextChat", "name": "zoom-final", "topic": None},
        "dateRange": {"after": None, "before": None},
        "exportedAt": "2024-05-02T09:00:00.0000000+00:00",
        "messages": [*messages[:3], pinned, *messages[3:]],
        "messageCount": len(messages) + 1,
    }


def send(api: Api, action: str, data: dict[str, Any], **more: Any) -> httpx.Response:
    body = {"exports": [{"format": "discord", "export": data}], **CAST, **more}
    url = f"/matches/{api.match_id}/transcript/{action}"
    response: httpx.Response = api.client.post(url, json=body, headers=api.auth(api.token("host")))
    return response


def by_text(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["content"]: row for row in answer["posts"]}


def without_posts(value: Any) -> Any:
    """The state as the game sees it: the chat posts named beside its records taken out."""
    if isinstance(value, dict):
        return {k: without_posts(v) for k, v in value.items() if k != "post"}
    if isinstance(value, list):
        return [without_posts(v) for v in value]
    return value


def at(seconds: float) -> str:
    return (START + timedelta(seconds=seconds)).isoformat()


def played_live(api: Api) -> dict[str, Any]:
    api.create(config=CONFIG, advantage="beta", seed=3)
    for seconds, command, status in LIVE:
        response = api.command("host", {**command, "occurred_at": at(seconds)})
        assert response.status_code == status, response.text
    state: dict[str, Any] = api.state()["state"]
    return state


def test_the_export_enters_to_the_state_of_the_match_played_live(api: Api) -> None:
    live = played_live(api)
    api.create(config=CONFIG, advantage="beta", seed=3)

    entered = send(api, "enter", export())

    assert entered.status_code == 201, entered.text
    state = api.state()["state"]
    assert without_posts(state) == live
    assert state["scores"] == {"alpha": 1, "beta": 3}
    assert entered.json()["result"] == {
        "winner": "beta",
        "reason": "points",
        "scores": {"alpha": 1, "beta": 3},
    }


def test_a_round_start_inside_a_longer_host_post_starts_the_round(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)

    rows = by_text(send(api, "preview", export()).json())

    assert rows[GRID_POST]["command"] == {"type": "start_round", "round": 1}
    assert rows[GRID_POST]["status"] == "command"
    second = next(r for r in rows.values() if r["content"].startswith("Round 2 starts now"))
    assert second["command"] == {"type": "start_round", "round": 2}
    assert rows["B a3 and A e2"]["outcome"]["pairs"][0]["outcome"] == "correct"


def test_b_is_at_c5_is_a_buzz_and_the_later_one_is_already_found(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)

    rows = by_text(send(api, "preview", export()).json())

    assert rows["B is at c5"]["command"]["pairs"] == [{"target": "B", "at": "c5"}]
    assert rows["B is at c5"]["outcome"]["pairs"][0]["outcome"] == "correct"
    later = rows["B c5"]["outcome"]["pairs"][0]
    assert (later["outcome"], later["reason"]) == ("ineligible", "already_found")


def test_game_times_keep_the_microseconds_and_one_row_shows_one_time(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)

    rows = by_text(send(api, "enter", export()).json())

    row = rows["B c5"]
    assert row["game_time"] == "2024-05-01T11:01:06.000123Z"
    assert datetime.fromisoformat(row["posted_at"]) == datetime.fromisoformat(row["game_time"])
    events = api.client.get(f"/matches/{api.match_id}/events").json()
    event = next(e for e in events if e["seq"] == row["seqs"][0])
    assert event["occurred_at"] == "2024-05-01T11:01:06.000123Z"
    assert rows[GRID_POST]["game_time"] == "2024-05-01T11:01:00.123456Z"


def test_the_enter_answer_says_what_each_post_became(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)

    answer = send(api, "enter", export()).json()

    rows = by_text(answer)
    assert answer["total"] == len(POSTS) + 1 and len(answer["posts"]) == len(POSTS) + 1
    created = api.last_seq() - 8  # the match's own events before the posts' 8
    assert rows["B is at c5"]["seqs"] == [created + 2] * 2 and rows["B is at c5"]["enters"]
    assert rows["B c5"]["outcome"]["pairs"][0]["reason"] == "already_found"
    assert rows["A z9"]["refusal"]["code"] == "outside_grid" and rows["A z9"]["seqs"] is None
    assert rows["A at e2"]["outcome"]["pairs"][0]["reason"] == "priority"
    assert (answer["first_seq"], answer["last_seq"]) == (created + 1, created + 8)


def test_a_match_over_at_its_deadline_has_its_result_in_the_enter_answer(api: Api) -> None:
    first = CONFIG["supplied_rounds"]["1"]
    one_round = {**CONFIG, "rounds": 1, "supplied_rounds": {"1": first}}
    api.create(config=one_round, advantage="beta", seed=3)

    answer = send(api, "enter", export(POSTS[:6]), seats={"alice": "alpha"}).json()

    assert answer["result"] == {
        "winner": "alpha",
        "reason": "points",
        "scores": {"alpha": 1, "beta": 0},
    }
    assert api.state()["state"]["result"] == answer["result"]


def test_the_state_and_the_timeline_name_each_entered_post(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)
    rows = by_text(send(api, "enter", export()).json())

    buzzes = api.state()["state"]["buzzes"]
    timeline = api.client.get(f"/matches/{api.match_id}/timeline").json()["points"]

    ids = {r["seqs"][0]: r["message_id"] for r in rows.values() if r["seqs"]}
    assert all(b["post"] == {"channel_id": "7700", "message_id": ids[b["seq"]]} for b in buzzes)
    assert all(p["post"]["message_id"] == ids[p["seq"]] for p in timeline if p["seq"] in ids)
    assert {p["seq"] for p in timeline if "post" in p} == set(ids)


def test_a_second_preview_shows_entered_posts_and_refusals_by_their_rules_code(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)
    first = by_text(send(api, "enter", export()).json())
    seq = api.last_seq()

    again = by_text(send(api, "preview", export()).json())

    assert again["B c5"]["status"] == "already_entered"
    assert again["B c5"]["seqs"] == first["B c5"]["seqs"]
    assert again["B c5"]["outcome"] == first["B c5"]["outcome"]
    assert again["A z9"]["status"] == "refused"
    assert again["A z9"]["refusal"]["code"] == "outside_grid"
    assert api.last_seq() == seq


def test_player_phrasings_are_commands_and_a_near_miss_is_flagged_first(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)

    answer = send(api, "preview", export()).json()

    rows = by_text(answer)
    assert rows["I'll take priority"]["command"] == {"type": "declare_priority", "seat": "beta"}
    lol = rows["A c4 lol"]
    assert (lol["status"], lol["flag"], lol["enters"]) == ("flagged", "near_miss", False)
    assert rows["gg both, well played"]["reason"] == "host remark"
    assert rows["A b2"]["reason"] == "spectator"
    assert rows["⏱ 120 s on the clock"]["reason"] == "bot"
    assert rows["Pinned a message."]["reason"] == "system message (ChannelPinnedMessage)"
    flagged = [r["status"] == "flagged" for r in answer["posts"]]
    assert flagged == sorted(flagged, reverse=True)  # every flagged row before the rest
    assert answer["counts"]["flagged"] == 3  # the welcome's "starts in a minute", edit, lol


def test_the_host_corrects_a_near_miss_and_the_record_says_whose_reading_it_is(
    api: Api,
) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)
    lol = by_text(send(api, "preview", export()).json())["A c4 lol"]
    correction = {
        "message_id": lol["message_id"],
        "command": {"type": "buzz", "pairs": [{"target": "A", "at": "c4"}]},
        "reason": "the lol is banter",
    }

    answer = send(api, "enter", export(), corrections=[correction]).json()

    row = by_text(answer)["A c4 lol"]
    assert (row["status"], row["reading"]) == ("command", "host")
    assert row["command"]["seat"] == "alpha"
    assert row["outcome"]["pairs"][0]["outcome"] == "incorrect"  # A is at b2
    events = api.client.get(f"/matches/{api.match_id}/events").json()
    source = next(e["source"] for e in events if e["seq"] == row["seqs"][0])
    assert source["message_id"] == lol["message_id"]
    assert (source["reading"], source["reason"], source["machine"]) == (
        "host",
        "the lol is banter",
        "near_miss",
    )
    machine = [e["source"] for e in events if e["source"] and e["seq"] != row["seqs"][0]]
    assert machine and all("reading" not in s for s in machine)  # no correction on them
    assert api.client.get(f"/matches/{api.match_id}/verify").json()["ok"]


def test_a_bad_correction_is_refused_and_records_nothing(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)
    created = api.last_seq()
    rows = by_text(send(api, "preview", export()).json())
    buzz = {"type": "buzz", "pairs": [{"target": "A", "at": "c4"}]}

    def refused(message_id: str, **more: Any) -> tuple[int, str]:
        fix = {"message_id": message_id, "command": buzz, "reason": "r", **more}
        response = send(api, "enter", export(), corrections=[fix], exclude=more.pop("x", []))
        return response.status_code, response.json()["code"]

    assert refused("nope") == (422, "unknown_post")
    assert refused(rows["A b2"]["message_id"]) == (422, "post_not_mapped")
    lol = rows["A c4 lol"]["message_id"]
    wrong = {"message_id": lol, "command": {**buzz, "seat": "beta"}, "reason": "r"}
    answer = send(api, "enter", export(), corrections=[wrong])
    assert (answer.status_code, answer.json()["code"]) == (422, "correction_wrong_seat")
    both = send(api, "enter", export(), corrections=[{**wrong, "command": buzz}], exclude=[lol])
    assert (both.status_code, both.json()["code"]) == (422, "corrected_and_excluded")
    assert api.last_seq() == created
    send(api, "enter", export())
    late = send(
        api,
        "enter",
        export(),
        corrections=[{**wrong, "command": buzz, "message_id": rows["B c5"]["message_id"]}],
    )
    assert (late.status_code, late.json()["code"]) == (409, "post_already_entered")


def test_the_preview_comes_in_pages(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=3)
    url = f"/matches/{api.match_id}/transcript/preview"
    body = {"exports": [{"format": "discord", "export": export()}], **CAST}
    headers = api.auth(api.token("host"))

    pages = [
        api.client.post(url, json=body, headers=headers, params={"offset": o, "limit": 4}).json()
        for o in range(0, len(POSTS) + 1, 4)
    ]

    rows = [row for page in pages for row in page["posts"]]
    assert all(p["total"] == len(POSTS) + 1 for p in pages)
    assert sorted(r["index"] for r in rows) == list(range(len(POSTS) + 1))
    whole = api.client.post(url, json=body, headers=headers).json()["posts"]
    assert rows == whole
