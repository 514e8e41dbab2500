"""Zombego end to end over HTTP: a hidden-variant match, refusals with codes, redacted views."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import Api

HIDDEN = {"ruleset": "Stratego Style with Zombies"}


def place(seat: str, value: int, cell: str) -> dict[str, Any]:
    return {"type": "place", "seat": seat, "value": value, "cell": cell}


def events(api: Api, who: str) -> list[dict[str, Any]]:
    url = f"/matches/{api.match_id}/events"
    response = api.client.get(url, headers=api.auth(api.token(who)))
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()
    return data


def test_a_hidden_match_deals_privately_and_redacts_each_seats_view(api: Api) -> None:
    api.create(game="zombego", seats=["white", "black"], config=HIDDEN)
    first = api.ok("white", place("white", 56, "e3"))
    assert first["outcome"] == {"ply": 1, "outcome": "plain"}
    api.ok("black", place("black", 2, "f5"))

    black = api.state(who="black")["state"]
    assert black["board"]["e3"] == {"owner": "white", "zombie": False, "value": None}
    assert black["board"]["f5"]["value"] == 2
    assert black["legal"] is None
    white = api.state(who="white")["state"]
    assert white["board"]["e3"]["value"] == 56
    assert len(white["legal"]) == 203
    assert api.state(who="host")["state"]["board"]["f5"]["value"] == 2

    dealt = [e for e in events(api, "black") if e["type"] == "zombego.piece_dealt"]
    assert len(dealt) == 16 and all(e["commitment"] for e in dealt)
    mine = [e for e in dealt if e["private_to"] == ["black"]]
    assert all(e["payload"]["seat"] == "black" for e in mine)
    assert all(e["payload"] is None for e in dealt if e["private_to"] == ["white"])


def test_refusals_carry_their_codes(api: Api) -> None:
    api.create(game="zombego", seats=["white", "black"])
    early = api.command("black", place("black", 2, "a1"))
    assert (early.status_code, early.json()["code"]) == (409, "not_your_turn")
    other = api.command("black", place("white", 2, "a1"))
    assert (other.status_code, other.json()["code"]) == (403, "wrong_seat")
    api.ok("white", place("white", 2, "c3"))
    attacked = api.command("black", place("black", 7, "c2"))
    assert (attacked.status_code, attacked.json()["code"]) == (409, "cell_attacked")
    bad = api.command("black", place("black", 7, "q9"))
    assert (bad.status_code, bad.json()["code"]) == (422, "bad_cell")
    moved = api.command("black", {"type": "move", "seat": "black", "from": "c3", "to": "c4"})
    assert (moved.status_code, moved.json()["code"]) == (409, "not_your_piece")
