"""A tournament's match refereed from its chat channel: the chat authors the organizer registered
for the two players map to their seats, so the host hands over the export with no author map of
their own (``players[].chat_authors`` at creation; ``api.service.transcripts.registered_seats``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.api.conftest import Api
from tests.api.tournament_client import Organizer

GRID = ["RGBRGB", "GBRGBR", "BRGYYY", "KKKWRG"]
TARGETS = {"A": ["YYY"], "B": ["KKK"], "C": ["W"], "D": ["RG"]}
CONFIG = {"rounds": 1, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}}
AUTHORS = {"Ada": ["ada#1"], "Bo": ["bo#2", "bo-alt#3"], "Cy": ["cy#4"], "Di": []}


@pytest.fixture
def board(api: Api) -> dict[str, Any]:
    """Round 1's board 1 of a 4-player round robin whose players registered their chat
    authors (Berger: Ada, the first, holds alpha; Di, the second, beta)."""
    org = Organizer(api)
    players = [{"name": n, "chat_authors": a} for n, a in AUTHORS.items()]
    made = org.create(list(AUTHORS), players=players, config=CONFIG)
    assert [p["chat_authors"] for p in made["players"]] == list(AUTHORS.values())
    found: dict[str, Any] = org.pair()["pairings"][0]
    assert (found["first"], found["second"]) == (org.players["Ada"], org.players["Di"])
    return found


def channel(api: Api, *posts: tuple[str, str]) -> dict[str, Any]:
    """The posts a second apart from a second after now; then the clock is past them all."""
    start = api.clock.now + timedelta(seconds=1)
    lines = [
        f"[{(start + timedelta(seconds=i)).isoformat()}] {who}: {text}"
        for i, (who, text) in enumerate(posts)
    ]
    api.clock.advance(len(posts) + 1)
    return {"format": "text", "text": "\n".join(lines), "channel": "board-1"}


def send(api: Api, board: dict[str, Any], action: str, **body: Any) -> dict[str, Any]:
    url = f"/matches/{board['match_id']}/transcript/{action}"
    response = api.client.post(url, json=body, headers=api.auth(board["tokens"]["host"]))
    assert response.status_code in (200, 201), response.text
    answer: dict[str, Any] = response.json()
    return answer


POSTS = (
    ("qm", "round 1 go"),
    ("ada#1", "A d3"),
    ("cy#4", "gl both"),  # a registered author of another board: a spectator here
    ("bo#2", "B a4"),
)


def test_registered_chat_authors_take_their_players_seats_without_an_author_map(
    api: Api, board: dict[str, Any]
) -> None:
    export = channel(api, *POSTS)
    preview = send(api, board, "preview", exports=[export], hosts=["qm"])
    rows = {row["author"]: (row["role"], row["seat"]) for row in preview["posts"]}
    assert rows == {
        "qm": ("host", None),
        "ada#1": ("seat", "alpha"),  # Ada: the pairing's first
        "cy#4": ("spectator", None),
        "bo#2": ("spectator", None),  # Bo plays on another board
    }
    entered = send(api, board, "enter", exports=[export], hosts=["qm"])
    assert entered["entered"] == 2  # the round's start and Ada's buzz
    url, host = f"/matches/{board['match_id']}/state", api.auth(board["tokens"]["host"])
    state = api.client.get(url, headers=host).json()["state"]
    assert [(b["seat"], b["pairs"][0]["outcome"]) for b in state["buzzes"]] == [
        ("alpha", "correct")
    ]


def test_the_hosts_author_map_wins_over_the_registration(api: Api, board: dict[str, Any]) -> None:
    export = channel(api, *POSTS)
    preview = send(api, board, "preview", exports=[export], hosts=["qm"], seats={"ADA#1": "beta"})
    rows = {row["author"]: (row["role"], row["seat"]) for row in preview["posts"]}
    assert rows["ada#1"] == ("seat", "beta")
    as_host = send(api, board, "preview", exports=[export], hosts=["qm", "ada#1"])
    assert {r["author"]: r["role"] for r in as_host["posts"]}["ada#1"] == "host"


def test_an_ordinary_matchs_import_maps_only_the_hosts_authors(api: Api) -> None:
    api.create(config=CONFIG)
    board = {"match_id": api.match_id, "tokens": {"host": api.tokens["host"]}}
    preview = send(api, board, "preview", exports=[channel(api, *POSTS)], hosts=["qm"])
    assert {r["author"]: r["role"] for r in preview["posts"]}["ada#1"] == "spectator"
